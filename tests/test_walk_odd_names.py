"""A file name that is not valid UTF-8 is shown with its bytes escaped (\\xff), and a name that
ends in spaces or dots after .md is listed as not read, with a warning."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import write_files


@pytest.mark.skipif(sys.platform != "linux", reason="byte file names: Linux file systems")
def test_odd_names_are_named(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = write_files(tmp_path / "kb", {"kb.yaml": 'timezone: "+08:00"\ntopics: [inference]\n',
                                       "inbox/jay/2026-07-31-a.md ": "- TGI 300 tok/s.\n",
                                       "inbox/jay/2026-07-31-b.md.": "- TGI 300 tok/s.\n"})
    with open(os.path.join(os.fsencode(kb / "inbox/jay"), b"2026-07-31-\xff.md"), "w") as f:
        f.write("- TGI 300 tok/s.\n")
    r = run_kb(["ingest"], cwd=kb)
    assert r.exit_code == 2
    assert sorted(r.stderr.splitlines()) == sorted([  # (in the order the folder lists them)
        "warning: inbox/jay/2026-07-31-a.md : not read: the name ends in ' ' after .md (rename it to end in .md to "
        "have it read)",
        "warning: inbox/jay/2026-07-31-b.md.: not read: the name ends in '.' after .md (rename it to end in .md to "
        "have it read)",
        "error: inbox/jay/2026-07-31-\\xff.md: file name is not valid UTF-8; skipped (rename it)",
    ])
    assert r.stdout == "0 parsed, 0 unchanged, 1 failed; 0 claims\n"
