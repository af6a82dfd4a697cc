"""Every entry of the inbox kb does not read as a file is named in ``kb ingest``'s problems with
its reason (kb.store.walk): a named pipe (never opened: ingest does not wait on it), a symbolic
link (inside the KB too, and one to a pipe), a folder named ``*.md``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import write_files

KB_YAML = 'timezone: "+08:00"\ntopics: {serving: [serving]}\nentities: {Marmot: []}\n'
REAL = "inbox/ivo/2026-09-03T1010-real.md"


def _kb(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, REAL: "# r\n\n- Marmot 预填 870 tok/s。\n",
                                         "inbox/ivo/deep/2026-09-03T1100-inner.md": "- Marmot 解码 61 tok/s。\n"})
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "organized/paper_cards").mkdir(parents=True)
    return root


def test_pipes_links_and_md_folders_are_named_with_their_reason(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path)
    ivo = root / "inbox/ivo"
    os.mkfifo(ivo / "2026-09-03T1200-pipe.md")
    (ivo / "2026-09-03T1201-copy.md").symlink_to(root / REAL)
    (ivo / "2026-09-03T1202-to-pipe.md").symlink_to(ivo / "2026-09-03T1200-pipe.md")
    (root / "inbox/zed").symlink_to(root / "inbox/ivo/deep", target_is_directory=True)
    (ivo / "2026-09-03T1203-box.md").mkdir()
    (ivo / "2026-09-03T1203-box.md/2026-09-03T1204-in-box.md").write_text("- Marmot 解码 64 tok/s。\n", encoding="utf-8")
    (root / "organized/knowledge/serving.md").mkdir()
    res = run_kb(["--kb", str(root), "ingest", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)
    assert sorted((p["path"], p["message"], p["severity"]) for p in got["problems"]) == [
        ("inbox/ivo/2026-09-03T1200-pipe.md", "not a regular file (a named pipe); skipped", "warning"),
        ("inbox/ivo/2026-09-03T1201-copy.md",
         f"a symbolic link (to {REAL}); skipped: kb reads files where they lie, never through a link", "warning"),
        ("inbox/ivo/2026-09-03T1202-to-pipe.md", "a symbolic link (to inbox/ivo/2026-09-03T1200-pipe.md); skipped: "
         "kb reads files where they lie, never through a link", "warning"),
        ("inbox/ivo/2026-09-03T1203-box.md",
         "a folder named *.md, not a file: read as a folder (the *.md files in it are read)", "warning"),
        ("inbox/zed", "a symbolic link (to inbox/ivo/deep); skipped: kb reads files where they lie, never through a link",
         "warning"),
        ("organized/knowledge/serving.md", "a folder named *.md, not a living document; skipped: living documents "
         "are the *.md files directly in organized/knowledge/", "warning"),
    ]
    assert (got["parsed"], got["failed"], got["claims"]) == (3, 0, 3)
    text = run_kb(["--kb", str(root), "ingest"])
    assert text.exit_code == 0
    assert "warning: inbox/ivo/2026-09-03T1200-pipe.md: not a regular file (a named pipe); skipped" in text.stderr.splitlines()
