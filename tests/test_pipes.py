"""Table commands in a pipe at 80 columns: one block per row, keys and reasons never split."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

BOX = set("┏┓┗┛┃━│─┡┩╇┳┻┼")


def _piped(root: Path, *args: str) -> list[str]:
    """``kb ARGS | cat`` with COLUMNS=80: stdout lines of a real process whose stdout is a pipe."""
    env = {**os.environ, "COLUMNS": "80", "KB_ARXIV_API": "http://127.0.0.1:9/api/query"}
    env.pop("KB_CONFIG_DIR", None)
    proc = subprocess.run([sys.executable, "-m", "kb", *args], cwd=root, capture_output=True, env=env,
                          timeout=300, check=False)
    assert proc.returncode in (0, 1, 3), proc.stderr.decode()
    return proc.stdout.decode().splitlines()


def test_piped_diff_is_one_line_per_subject(demo_kb: Path) -> None:
    lines = _piped(demo_kb, "diff", "inference", "--date", "2026-07-31")
    titles = {"arxiv:2607.25668": "Critic-guided code review", "arxiv:2607.25790": "Self-play for SQL agents",
              "arxiv:2607.25877": "Long-horizon web agents with replanning",
              "arxiv:2607.26071": "ToolSmith: agents that write their own tools",
              "arxiv:2607.26159": "Multi-agent debate for planning",
              "arxiv:2607.26244": "UnitGen: test generation with coverage feedback",
              "arxiv:2607.26305": "A video world model benchmark"}
    data = json.loads(subprocess.run([sys.executable, "-m", "kb", "diff", "inference", "--date", "2026-07-31",
                                      "--format", "json"], cwd=demo_kb, capture_output=True, check=True).stdout)
    assert not BOX & set("".join(lines))
    # a paper the KB knows only by its id is shown by the title a window row gives it (kb.brief.shaping.shown_label)
    rows = [f"{s['outcome']}  {s['key']}  {s['label'] if s['label'] != s['key'][6:] else titles.get(s['key'], s['label'])}"
            f"  {s['section_hint'] or '—'}  {len(s['claims'])}" for s in data["subjects"]]
    assert lines[0] == "inference: 2026-07-30 22:00+08:00 → 2026-07-31 22:00+08:00"
    # the outcome as the brief reads it: what the author demoted or only gave an opinion on is said
    shown = [re.sub(r"^(\S+) \((?:demoted by its author|the author's opinion)\)", r"\1", line) for line in lines]
    assert shown[1:1 + len(rows)] == rows
    assert [line.split("  ")[:2] for line in lines[1:1 + len(rows)] if "(" in line.split("  ")[0]] == [
        ["net-new (demoted by its author)", "entity:colibri"], ["net-new (demoted by its author)", "entity:spheron"],
        ["update (demoted by its author)", "entity:dgx spark"], ["covered (the author's opinion)", "entity:tensorrt-llm"]]
    assert lines[1] == "net-new  arxiv:2607.26627  Revisiting Lossy Verification in Speculative Decoding  §3  17"


def test_piped_verify_is_one_block_per_id(demo_kb: Path) -> None:
    lines = _piped(demo_kb, "verify", "--all", "--offline")
    assert not BOX & set("".join(lines))
    heads = [line for line in lines if not line.startswith("    ")]
    assert heads[:3] == ["invalid     arXiv:2608.1028  1 mention",
                         "mismatch    2607.25941  675-2607-25914.md  6 mentions",
                         "mismatch    2607.26672  1 mention"]
    assert lines[1] == ("    not a valid arXiv id: 4-digit sequence after 1412 (5 digits from 1501) "
                        "(inbox/tom/2026-07-31-agent-rag-longcontext-radar.md:10); not sent to arXiv")
    assert len(heads) == len({h.split()[1] for h in heads})  # one head line per id


def test_piped_version_diff_lists_what_changed(demo_kb: Path) -> None:
    lines = _piped(demo_kb, "diff", "inference", "--from", "v44", "--to", "v45")
    assert not BOX & set("".join(lines))
    i = lines.index("changed  §2.4  §2.4 FlashInfer（arXiv:2606.20295）")
    assert lines[i + 1:i + 3] == [
        "    + L84 v2 论文补充 B200 结果，SGLang v0.6 起为强制注意力后端（来源：https://arxiv.org/abs/2606.20295v2 · §1.3）。",
        "    - L77 v2 论文补充 B200 结果（来源：https://arxiv.org/abs/2606.20295v2）。"]


def test_shell_completion_script_and_answers() -> None:
    """typer's completion is on: `kb --show-completion bash` prints the script that
    `--install-completion` installs, and the script's query completes command names."""
    env = {**os.environ, "SHELL": "/bin/bash"}
    shown = subprocess.run([sys.executable, "-m", "kb", "--show-completion", "bash"], capture_output=True, env=env,
                           timeout=60, check=False)
    assert shown.returncode == 0, shown.stderr.decode()
    assert "complete -o default -F _kb_completion kb" in shown.stdout.decode()
    asked = subprocess.run([sys.executable, "-m", "kb"], capture_output=True, timeout=60, check=False,
                           env={**env, "_KB_COMPLETE": "complete_bash", "COMP_WORDS": "kb dig", "COMP_CWORD": "1"})
    assert (asked.returncode, asked.stdout.decode().split()) == (0, ["digest"])
    options = subprocess.run([sys.executable, "-m", "kb"], capture_output=True, timeout=60, check=False,
                             env={**env, "_KB_COMPLETE": "complete_bash", "COMP_WORDS": "kb bump --up",
                                  "COMP_CWORD": "2"})
    assert options.stdout.decode().split() == ["--updated"]


def test_piped_progress_is_a_line_every_ten_seconds(capsys) -> None:  # noqa: ANN001
    """Not a terminal: no bar, one stderr line per PROGRESS_EVERY seconds of work (fake clock)."""
    from kb.cli.common import progress_bar

    ticks = iter([0.0, 0.2, 5.0, 10.5, 15.0, 21.0, 21.5])
    with progress_bar("parsing", clock=lambda: next(ticks)) as progress:
        for done in range(1, 7):
            progress(done * 100, 600)
    assert capsys.readouterr().err.splitlines() == ["parsing: 300/600", "parsing: 500/600"]
