"""A living doc's version is a plain decimal integer (``0x10`` is refused, named with file, line
and value); kb bump names the line of ``version:``; KB102 never suggests a version over 999,999."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import write_files

YAML = 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: [inference]\nentities:\n  TGI: []\n'
DOC = "organized/knowledge/inference.md"


def _kb(tmp_path: Path, version: str, snaps: dict[str, str] | None = None) -> Path:
    return write_files(tmp_path / "kb", {
        "kb.yaml": YAML,
        DOC: f"---\ntopic: inference\nversion: {version}\nupdated: 2026-07-30T05:00:00+08:00\n---\n# inference\n## §1 O\n- TGI 300 tok/s.\n",
        **(snaps or {}),
    })


@pytest.mark.parametrize("written", ["0x10", "1_000", "045", "0o17"])
def test_a_version_not_in_decimal_digits_is_refused(run_kb, tmp_path: Path, written: str) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path, written)
    r = run_kb(["ingest"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert (f"warning: {DOC}:3: version must be a positive integer such as 45, got '{written}'; "
            "the document's version is unknown") in r.stderr
    r = run_kb(["lint"], cwd=kb)
    assert f"{DOC}:3: KB101 [error] 'version' must be a positive integer such as 45, got '{written}'" in r.stdout
    r = run_kb(["bump", "inference"], cwd=kb)
    assert r.exit_code == 2
    assert r.stderr == (f"error: {DOC}:3: front matter 'version' must be a positive integer such as 45, "
                        f"got '{written}'; correct it, then run kb bump again\n")
    assert f"version: {written}\n" in (kb / DOC).read_text()  # untouched


@pytest.mark.parametrize("written", ['"3"', "3.0", "null"])
def test_bump_names_the_version_line(run_kb, tmp_path: Path, written: str) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path, written)
    r = run_kb(["bump", "inference"], cwd=kb)
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {DOC}:3: front matter has no integer `version:`")


def test_plain_version_still_bumps(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path, "16")
    r = run_kb(["bump", "inference"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert "version: 17\n" in (kb / DOC).read_text()


def test_kb102_passes_over_a_snapshot_past_the_range(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    hist = "organized/knowledge/history/inference"
    snap = "---\ntopic: inference\nversion: {0}\nupdated: 2026-07-20T05:00:00+08:00\n---\n# inference\n"
    kb = _kb(tmp_path, "5", {f"{hist}/v9999999.md": snap.format(9999999), f"{hist}/v6.md": snap.format(6)})
    r = run_kb(["lint", "--format", "text"], cwd=kb)
    lines = [ln for ln in r.stdout.splitlines() if "KB102" in ln]
    assert lines == [
        f"{DOC}:3: KB102 [error] history/inference/v9999999.md: its number is 9,999,999, over 999,999, the highest "
        "version kb reads (a typo?); not compared (rename it) (version-not-bumped)",
        f"{DOC}:3: KB102 [error] version 5 is not greater than the newest snapshot history/inference/v6.md: "
        "set `version: 7` (version-not-bumped)",
    ]
    assert "10000000" not in r.stdout
