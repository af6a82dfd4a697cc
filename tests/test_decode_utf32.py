"""UTF-32 files with a byte-order mark (both orders) are read as UTF-32, control and direction
characters removed as in any file; one that does not decode fails ingest."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from conftest import write_files
from kb.core.textio import decode

LINE = "TGI 吞吐 320 tok/s。\n"


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be")])
def test_utf32_with_a_bom_is_read(bom: bytes, codec: str) -> None:
    d = decode(bom + ("a\u202eb\r\n" + LINE).encode(codec), "x.md")
    assert (d.text, d.encoding) == ("ab\n" + LINE, "utf-32")
    assert [(p.line, p.message) for p in d.problems][0] == (0, "UTF-32 file (utf-32); read as such — save it as UTF-8")


def test_utf16_still_utf16() -> None:
    d = decode(codecs.BOM_UTF16_LE + LINE.encode("utf-16-le"), "x.md")
    assert (d.text, d.encoding, [p.message for p in d.problems]) == (
        LINE, "utf-16", ["UTF-16 file (utf-16); read as such — save it as UTF-8"])


def test_ingest_reads_utf32_and_fails_a_broken_one(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = write_files(tmp_path / "kb", {"kb.yaml": 'timezone: "+08:00"\ntopics: [inference]\nentities:\n  TGI: []\n'})
    (kb / "inbox/jay").mkdir(parents=True)
    (kb / "inbox/jay/2026-07-31-be.md").write_bytes(codecs.BOM_UTF32_BE + LINE.encode("utf-32-be"))
    r = run_kb(["ingest"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.strip().endswith("1 parsed, 0 unchanged, 0 failed; 1 claim")
    (kb / "inbox/jay/2026-07-31-bad.md").write_bytes(codecs.BOM_UTF32_LE + b"\xff\xff\xff\xff")
    r = run_kb(["ingest"], cwd=kb)
    assert r.exit_code == 2
    assert "error: inbox/jay/2026-07-31-bad.md: binary file (NUL or control bytes, not text); skipped" in r.stderr
    assert r.stdout == "0 parsed, 1 unchanged, 1 failed; 1 claim\n"
