"""Issue 24, item 8: a closed pipe on stdout is success, quietly; a brief written to --out is
success whatever stdout is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _env() -> dict[str, str]:
    env = {**os.environ, "KB_ARXIV_API": "http://127.0.0.1:9/api/query", "COLUMNS": "80"}
    env.pop("KB_CONFIG_DIR", None)
    return env


@pytest.mark.parametrize(("args", "code"), [(["claims"], 0), (["claims", "--format", "json"], 0),
                                           (["diff", "inference", "--date", "2026-07-31"], 0), (["sources"], 0),
                                           (["history", "vLLM"], 0), (["verify", "--all", "--offline"], 1)])
def test_a_reader_that_stops_early_is_success(demo_kb: Path, args: list[str], code: int) -> None:
    """``kb … | head -n1``: the command's own exit code (0, or 1 for ``kb verify``'s findings;
    was 141, then 0 whatever the findings) and on stderr what it says unpiped, no error."""
    whole = subprocess.run([sys.executable, "-m", "kb", *args], cwd=demo_kb, env=_env(), capture_output=True, check=False)
    proc = subprocess.Popen([sys.executable, "-m", "kb", *args], cwd=demo_kb, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader goes away after one line
    err = proc.stderr.read()
    assert (proc.wait(timeout=300), whole.returncode) == (code, code)
    assert first.strip() != b""
    assert err == whole.stderr


def test_a_brief_written_to_out_is_success_with_a_full_stdout(demo_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "brief.md"
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "kb", "digest", "inference", "--date", "2026-07-31", "--out", str(out)],
                              cwd=demo_kb, env=_env(), stdout=full, stderr=subprocess.PIPE, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    assert out.read_text(encoding="utf-8").startswith("<!-- kb:brief")
    assert proc.stderr == b""


def test_a_brief_written_to_out_is_success_with_a_closed_stdout(demo_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "brief.md"
    proc = subprocess.run([sys.executable, "-m", "kb", "digest", "inference", "--date", "2026-07-31", "--out", str(out)],
                          cwd=demo_kb, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300,
                          check=False, pass_fds=(), close_fds=True,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 0, proc.stderr.decode()
    assert out.is_file()


def test_a_full_stdout_without_a_file_written_is_still_an_error(demo_kb: Path) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "kb", "claims"], cwd=demo_kb, env=_env(), stdout=full,
                              stderr=subprocess.PIPE, timeout=300, check=False)
    assert proc.returncode == 2
    assert proc.stderr.decode().strip() == "error: cannot write to standard output: No space left on device"
