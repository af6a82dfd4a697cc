"""User errors the command line must report without a traceback: message, exit code, nothing written.

One section per kind of fault: stdin missing, templates that fail, dates out of the
calendar, an output path that is a folder, stdout that cannot be written, topic names
that are paths.
"""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from pydantic import ValidationError

from conftest import write_files

from kb.core.config import KbConfig, topic_name_problem
from kb.core.errors import UsageError
from kb.cli import option_name
from kb.core.window import parse_span, resolve_window
from kb.core.moments import parse_moment

KB_YAML = 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: [inference]\nexecutor: tom\n'
DOC = """\
---
topic: inference
version: 7
updated: 2026-07-31T05:00:00+08:00
---
# 活文档

## §1 引擎

- vLLM v0.26。
"""
FILES = {
    "kb.yaml": KB_YAML,
    "organized/knowledge/inference.md": DOC,
    "inbox/tom/2026-07-31T0900-hf.md": "# 日报\n\n- Lossy Verification（arXiv:2607.26627）：★★ 强候选。\n",
}
NIGHT = ["--date", "2026-07-31"]


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", FILES)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _clean(res) -> None:  # noqa: ANN001
    assert "Traceback" not in res.stderr and "Exception ignored" not in res.stderr, res.stderr


# 1. kb verify - with no standard input ------------------------------------------------------

def test_verify_dash_with_stdin_closed_is_a_usage_error(kb_root: Path, run_kb, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.chdir(kb_root)
    monkeypatch.setattr(sys, "stdin", None)
    res = run_kb(["verify", "-", "--offline"])
    assert res.exit_code == 2
    assert "no standard input to read ids from" in _one_line(res.stderr)
    _clean(res)


def test_verify_dash_with_stdin_not_text_names_the_line(kb_root: Path, run_kb, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.chdir(kb_root)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2607.26627\n\xff\xfe\n"), encoding="utf-8"))
    res = run_kb(["verify", "-", "--offline", "--format", "json"])
    assert res.exit_code == 2
    assert "<stdin>:2: not utf-8 text" in _one_line(res.stderr)
    _clean(res)


# 2. templates that fail: a TemplateError naming the template (and line); nothing written ----

BAD_TEMPLATES = {
    "zero.md.j2": (b"# brief\n{{ 1/0 }}\n", ["zero.md.j2:2:", "ZeroDivisionError: division by zero"]),
    "latin1.md.j2": (b"# brief\n\xe9t\xe9 {{ topic }}\n", ["latin1.md.j2:2:", "not UTF-8"]),
    "syntax.md.j2": (b"# brief\n{% if %}\n", ["syntax.md.j2:2:", "Expected an expression"]),
    "includes.md.j2": (b"# brief\n{% include 'latin1.md.j2' %}\n", ["latin1.md.j2:2:", "not UTF-8"]),
}


def _templates(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (data, _) in BAD_TEMPLATES.items():
        (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize("name", sorted(BAD_TEMPLATES))
def test_failing_template_writes_nothing(name: str, kb_root: Path, tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    folder = _templates(tmp_path / "tpl")
    old = tmp_path / "old.md"
    old.write_text("previous brief\n", encoding="utf-8")
    for out, force in ((old, ["--force"]), (tmp_path / "new.md", [])):
        res = run_kb(["digest", *NIGHT, "--template", str(folder / name), "--out", str(out), *force], cwd=kb_root)
        assert res.exit_code == 2, res.stderr
        message = _one_line(res.stderr)
        assert message.startswith("error:")
        for part in BAD_TEMPLATES[name][1]:
            assert part in message
        _clean(res)
    assert old.read_text(encoding="utf-8") == "previous brief\n"
    assert not (tmp_path / "new.md").exists()


def test_missing_template_file(kb_root: Path, tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["digest", *NIGHT, "--template", str(tmp_path / "nope.md.j2"), "--out", "-"], cwd=kb_root)
    assert res.exit_code == 2
    assert f"--template {tmp_path / 'nope.md.j2'}: no such file" in _one_line(res.stderr)
    assert res.stdout == ""
    res = run_kb(["digest", *NIGHT, "--template", str(tmp_path), "--out", "-"], cwd=kb_root)
    assert res.exit_code == 2
    assert "is a folder, not a template file" in _one_line(res.stderr)


def test_failing_template_from_templates_dir(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    (kb_root / "tpl").mkdir()
    (kb_root / "tpl" / "e1prep.zh.md.j2").write_text("# brief\n\n{{ 1/0 }}\n", encoding="utf-8")
    (kb_root / "kb.yaml").write_text(KB_YAML + "templates_dir: tpl\n", encoding="utf-8")
    res = run_kb(["digest", *NIGHT, "--executor", "tom"], cwd=kb_root)
    assert res.exit_code == 2
    assert "tpl/e1prep.zh.md.j2:3: ZeroDivisionError" in _one_line(res.stderr)
    assert not list((kb_root / "inbox" / "tom").glob("*e1prep*"))
    _clean(res)


# 3. dates out of the calendar: a UsageError naming the option -----------------------------

@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--since", "0001-01-01"], "--since '0001-01-01'"),
        (["--since", "0001-01-02", "--until", "0001-01-03"], "--since '0001-01-02'"),
        (["--until", "0001-01-01T09:00"], "--until '0001-01-01T09:00'"),
        (["--date", "0001-01-01"], "--date '0001-01-01'"),
        (["--window", "999999999d"], "--window '999999999d'"),
        (["--window", "99999999999999999999d"], "--window '99999999999999999999d'"),
        (["--window", "100000d"], "--window '100000d'"),
    ],
)
@pytest.mark.parametrize("command", ["diff", "digest"])
def test_dates_out_of_range(command: str, args: list[str], option: str, kb_root: Path, run_kb) -> None:  # noqa: ANN001
    extra = ["--out", "-"] if command == "digest" else []
    res = run_kb([command, *args, *extra], cwd=kb_root)
    assert res.exit_code == 2, res.stderr
    assert f"error: {option}: out of range" in _one_line(res.stderr)
    _clean(res)


def test_until_at_the_end_of_time_west_of_utc(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    (kb_root / "kb.yaml").write_text(KB_YAML.replace("+08:00", "-05:00"), encoding="utf-8")
    res = run_kb(["diff", "--until", "9999-12-31T23:59"], cwd=kb_root)
    assert res.exit_code == 2
    assert "--until '9999-12-31T23:59': out of range" in _one_line(res.stderr)


def test_bump_updated_out_of_range(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    before = (kb_root / "organized/knowledge/inference.md").read_bytes()
    res = run_kb(["bump", "inference", "--updated", "0001-01-01"], cwd=kb_root)
    assert res.exit_code == 2
    assert "--updated '0001-01-01': out of range" in _one_line(res.stderr)
    assert (kb_root / "organized/knowledge/inference.md").read_bytes() == before
    assert not (kb_root / "organized/knowledge/history").exists()
    _clean(res)


def test_verify_all_since_out_of_range(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["verify", "--all", "--offline", "--since", "0001-01-01"], cwd=kb_root)
    assert res.exit_code == 2
    assert "--since '0001-01-01': out of range" in _one_line(res.stderr)


def test_window_functions_raise_usage_errors() -> None:
    config = KbConfig()
    now = datetime(2026, 8, 1, 12, 0, tzinfo=timezone(timedelta(hours=8)))
    # the library names the parameter; the command line writes its option (kb.cli.option_name)
    with pytest.raises(UsageError) as since:
        parse_moment("0001-01-01", config, "since")
    assert since.value.naming(option_name).startswith("--since '0001-01-01': out of range")
    with pytest.raises(UsageError) as span:
        parse_span("99999999999999999999d")
    assert span.value.naming(option_name).startswith("--window '99999999999999999999d': out of range")
    with pytest.raises(UsageError) as day:
        resolve_window(config, day="0001-01-03", now=now)
    assert day.value.naming(option_name).startswith("--date '0001-01-03': out of range")
    assert day.value.message.startswith("day '0001-01-03': out of range")
    # issue 24: one range kb accepts (kb.core.moments.accepted), 1000-01-01 to 9000-12-31, with room around it
    assert resolve_window(config, day="9000-12-31", now=now).until.year == 9000
    assert resolve_window(config, since="1000-01-12", until="1000-01-13", now=now).since.year == 1000
    with pytest.raises(UsageError) as far:
        resolve_window(config, day="9999-12-31", now=now)
    assert far.value.message == "day '9999-12-31': out of range (kb accepts dates from 1000-01-01 to 9000-12-31)"


# 4. --out is a folder ----------------------------------------------------------------------

def test_out_is_a_folder(kb_root: Path, tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    folder = tmp_path / "briefs"
    folder.mkdir()
    for force in (["--force"], []):
        res = run_kb(["digest", *NIGHT, "--out", str(folder), *force], cwd=kb_root)
        assert res.exit_code == 2
        assert f"--out {folder} is a folder; give a file path" in _one_line(res.stderr)
        _clean(res)
    assert list(folder.iterdir()) == []


def test_out_below_a_file(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["digest", *NIGHT, "--out", "kb.yaml/brief.md"], cwd=kb_root)
    assert res.exit_code == 2
    assert "kb.yaml is a file, not a folder" in _one_line(res.stderr)


def test_out_in_a_folder_that_does_not_exist(kb_root: Path, tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """kb makes its own folders (inbox/<executor>/), never one a user named by mistake."""
    res = run_kb(["digest", *NIGHT, "--out", str(tmp_path / "nodir" / "brief.md")], cwd=kb_root)
    assert res.exit_code == 2
    assert "does not exist; create it first" in _one_line(res.stderr)
    assert not (tmp_path / "nodir").exists()


# 5. stdout that cannot be written ---------------------------------------------------------

class _FailingStdout(io.StringIO):
    def __init__(self, code: int) -> None:
        super().__init__()
        self.code = code

    def write(self, text: str) -> int:
        raise OSError(self.code, os.strerror(self.code))

    def flush(self) -> None:
        raise OSError(self.code, os.strerror(self.code))


@pytest.mark.parametrize("args", [["digest", *NIGHT, "--out", "-"], ["claims", "--format", "json"], ["claims"]])
def test_stdout_full_is_a_clear_error(args: list[str], kb_root: Path, run_kb, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.chdir(kb_root)
    monkeypatch.setattr(sys, "stdout", _FailingStdout(errno.ENOSPC))
    res = run_kb(args)
    assert res.exit_code == 2
    assert "error: cannot write to standard output: No space left on device" in _one_line(res.stderr)
    _clean(res)


@pytest.mark.parametrize("args", [["digest", *NIGHT, "--out", "-"], ["claims", "--format", "json"], ["claims"]])
def test_stdout_closed_pipe_exits_quietly(args: list[str], kb_root: Path, run_kb, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.chdir(kb_root)
    monkeypatch.setattr(sys, "stdout", _FailingStdout(errno.EPIPE))
    res = run_kb(args)
    assert res.exit_code == 0  # issue 24: a closed pipe is success, quietly
    assert "error" not in res.stderr
    _clean(res)


def test_stdout_none(kb_root: Path, run_kb, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.chdir(kb_root)
    monkeypatch.setattr(sys, "stdout", None)
    res = run_kb(["claims", "--format", "json"])
    assert res.exit_code == 2
    assert "cannot write to standard output: it is closed" in _one_line(res.stderr)


def _kb_process(kb_root: Path, args: list[str], stdout: int) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "KB_ARXIV_API": "http://127.0.0.1:9/api/query"}
    env.pop("KB_CONFIG_DIR", None)
    return subprocess.run([sys.executable, "-m", "kb", *args], cwd=kb_root, stdout=stdout,
                          stderr=subprocess.PIPE, env=env, timeout=120, check=False)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_process_stdout_dev_full(kb_root: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = _kb_process(kb_root, ["digest", *NIGHT, "--out", "-"], full.fileno())
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "error: cannot write to standard output: No space left on device" in err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_process_stdout_broken_pipe(kb_root: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before kb writes a byte
    try:
        proc = _kb_process(kb_root, ["claims", "--format", "json"], write)
    finally:
        os.close(write)
    assert proc.returncode == 0  # issue 24
    assert proc.stderr.decode() == ""


# 6. topic names are plain names ------------------------------------------------------------

def test_bump_topic_that_is_a_path(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    outside = kb_root / "organized" / "k.md"  # what organized/knowledge/../k.md would be
    outside.write_text(DOC, encoding="utf-8")
    res = run_kb(["bump", "../k"], cwd=kb_root)
    assert res.exit_code == 2
    assert "topic '../k' is not a plain name" in _one_line(res.stderr)
    assert outside.read_text(encoding="utf-8") == DOC
    assert not (kb_root / "organized" / "knowledge" / "history").exists()
    _clean(res)


@pytest.mark.parametrize("topic", ["../k", "a/b", ".hidden", "a\\b"])
@pytest.mark.parametrize("command", [["digest", *NIGHT], ["diff", *NIGHT], ["diff", "--from", "v1", "--to", "v2"]])
def test_command_line_topic_that_is_a_path(command: list[str], topic: str, kb_root: Path, run_kb) -> None:  # noqa: ANN001
    (kb_root / "organized" / "k.md").write_text(DOC, encoding="utf-8")
    res = run_kb([command[0], topic, *command[1:]], cwd=kb_root)
    assert res.exit_code == 2
    assert f"topic {topic!r} is not a plain name" in _one_line(res.stderr)
    assert sorted(p.name for p in (kb_root / "inbox").rglob("*")) == ["2026-07-31T0900-hf.md", "tom"]
    _clean(res)


@pytest.mark.parametrize(
    ("yaml", "key"),
    [
        ('topics: ["../k"]\n', "'topics'"),
        ('topics: {"../k": [inference-systems]}\n', "'topics'"),
        ("topics: [inference]\ndefault_topic: ../k\n", "'default_topic'"),
        ("topics: [inference, a/b]\n", "'topics'"),
    ],
)
def test_config_topic_that_is_a_path(yaml: str, key: str, kb_root: Path, run_kb) -> None:  # noqa: ANN001
    (kb_root / "kb.yaml").write_text(yaml, encoding="utf-8")
    for args in (["digest", *NIGHT], ["bump"]):
        res = run_kb(args, cwd=kb_root)
        assert res.exit_code == 2
        message = _one_line(res.stderr)
        assert "kb.yaml" in message and key in message and "is not a plain name" in message
        _clean(res)
    assert not (kb_root / "organized" / "knowledge" / "history").exists()


def test_topic_names() -> None:
    for good in ("inference", "llm-infra", "a.b_c-1", "推理"):
        assert topic_name_problem(good) is None
        KbConfig.model_validate({"topics": [good], "default_topic": good})
    for bad in ("", ".", "..", "../k", "a/b", ".hidden", "a b", "a\\b"):
        assert topic_name_problem(bad)
        with pytest.raises(ValidationError):
            KbConfig.model_validate({"topics": {bad: []}})


def test_a_kb_template_cannot_run_code(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    canary = tmp_path / "PWNED"
    (demo_kb / "tpl").mkdir()
    (demo_kb / "tpl/evil.md.j2").write_text(
        "{{ cycler.__init__.__globals__.os.system('touch " + str(canary) + "') }}\n", encoding="utf-8")
    res = run_kb(["digest", "--date", "2026-07-31", "--template", str(demo_kb / "tpl/evil.md.j2"), "--out", "-"],
                 cwd=demo_kb)
    assert res.exit_code == 2 and not canary.exists()
    assert "evil.md.j2" in res.stderr


@pytest.mark.parametrize("target", ["organized/knowledge/inference.md", "kb.yaml",
                                    "inbox/jay/2026-07-31-csdn-weekly.md"])
def test_force_never_overwrites_what_is_not_a_brief(demo_kb: Path, run_kb, target: str) -> None:  # noqa: ANN001
    before = (demo_kb / target).read_bytes()
    res = run_kb(["digest", "--date", "2026-07-31", "--out", str(demo_kb / target), "--force"], cwd=demo_kb)
    assert res.exit_code == 2 and "not a brief kb wrote" in res.stderr
    assert (demo_kb / target).read_bytes() == before


def test_a_future_dated_file_does_not_pick_the_default_night(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    (demo_kb / "inbox/jay/2062-07-31-typo.md").write_text("vLLM 2.03×\n", encoding="utf-8")
    res = run_kb(["digest", "--out", "-"], cwd=demo_kb)
    assert res.exit_code == 0
    assert "# inference · E1 预消化简报（2026-07-31）" in res.stdout
    assert "inbox/jay/2062-07-31-typo.md: dated in the future" in res.stderr


@pytest.mark.parametrize("option", ["--executor", "--out"])
def test_empty_digest_options_are_errors(demo_kb: Path, run_kb, option: str) -> None:  # noqa: ANN001
    res = run_kb(["digest", "--date", "2026-07-31", option, ""], cwd=demo_kb)
    assert res.exit_code == 2 and f"{option} is empty" in res.stderr


def test_a_night_older_than_every_version_says_so(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["digest", "--date", "2026-07-20", "--out", "-"], cwd=demo_kb)
    assert res.exit_code == 0
    assert "no version of organized/knowledge/inference.md is older than the window's end" in res.stderr
