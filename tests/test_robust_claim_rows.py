"""Claim rows of the store changed by anything but kb: deleted or inserted by hand, a column set to what the
row's JSON does not say, JSON that does not parse. The brief shrank in silence (a written_at or
role no window holds); now the file is parsed again, with a note, and the brief is the same."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import write_files

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Wombat: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-07-01\n---\n# d\n\n## 1. Wombat\n\n- Wombat 吞吐 2.2×。\n"
NOTE = "# 夜班\n\n- Wombat 吞吐 12 tok/s\n- Wombat TTFT 80 ms\n- Wombat 支持 FP8\n"
PATH = "inbox/ana/2026-07-31T0900-n.md"


@pytest.mark.parametrize(("tamper", "why"), [
    (f"DELETE FROM claims WHERE path = '{PATH}' AND line = 4", "claims: 2 rows where the file row counts 3"),
    # a row inserted by hand (the brief counted and cited it): seen by the highest rowid it raises
    (f"INSERT INTO claims SELECT id || 'x', path, line, kind, role, author, written_at, json FROM claims "
     f"WHERE path = '{PATH}' AND line = 4", "claims: 4 rows where the file row counts 3"),
    ("UPDATE claims SET written_at = 'garbage'", "claims: a row's columns are not its JSON's"),
    ("UPDATE claims SET role = 'bogus'", "claims: a row's columns are not its JSON's"),
    ("UPDATE claims SET kind = 'paper-fact'", "claims: a row's columns are not its JSON's"),
    (f"UPDATE claims SET json = '{{bad' WHERE path = '{PATH}' AND line = 3", "claims: a row's columns are not its JSON's"),
])
def test_claim_rows_kb_did_not_write_are_parsed_again(tmp_path: Path, run_kb, tamper: str, why: str) -> None:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC, PATH: NOTE})
    args = ["digest", "serving", "--date", "2026-07-31", "--out", "-"]
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    before = run_kb(args, cwd=root).stdout
    store = root / ".kb" / "kb.sqlite"
    shutil.copy(store, tmp_path / "sound.sqlite")
    with sqlite3.connect(store) as db:
        db.execute(tamper)
    db.close()
    res = run_kb(args, cwd=root)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == before
    shown = str(store) if why.startswith(("claims: 2", "claims: 4")) else None
    notes = [line for line in res.stderr.splitlines() if line.startswith("note:")]
    assert f"the claim rows of {PATH} are not as kb wrote them ({why.split(': ', 1)[1]}): parsed again" in notes[0]
    assert shown is None or notes[0].startswith(f"note: {shown}")
    assert run_kb(["ingest"], cwd=root).stdout == "0 parsed, 2 unchanged, 0 failed; 4 claims\n"


def test_kb_own_rewrites_of_claim_rows_raise_no_note(tmp_path: Path, run_kb) -> None:
    """kb deletes a file's claim rows when it parses the file again: that is no tampering."""
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC, PATH: NOTE})
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    (root / PATH).write_text(NOTE + "- Wombat 吞吐 13 tok/s\n", encoding="utf-8")
    res = run_kb(["ingest"], cwd=root)
    assert (res.stdout, res.stderr) == ("1 parsed, 1 unchanged, 0 failed; 5 claims\n", "")
    res = run_kb(["ingest"], cwd=root)
    assert (res.stdout, res.stderr) == ("0 parsed, 2 unchanged, 0 failed; 5 claims\n", "")


def test_an_entity_of_a_thousand_aliases_is_looked_up(tmp_path: Path, run_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    """999 aliases made SQLite refuse the lookup's ``LIKE … OR …`` chain (Expression tree is too
    large): a traceback in ``kb claims --subject``, ``kb history`` and ``kb trace``."""
    aliases = ", ".join(f"Wom{i}bat" for i in range(1100))
    yaml = KB_YAML.replace("{Wombat: []}", f"{{Wombat: [{aliases}]}}")
    root = write_files(tmp_path / "kb", {"kb.yaml": yaml, "organized/knowledge/serving.md": DOC,
                                         PATH: NOTE + "- Wom1077bat 吞吐 14 tok/s\n"})
    for args in (["claims", "--subject", "Wombat"], ["claims", "--subject", "Wom5bat"], ["history", "Wombat"]):
        res = run_kb(args, cwd=root)
        assert res.exit_code == 0, (args, res.stderr)
    res = run_kb(["claims", "--subject", "Wom5bat", "--format", "json"], cwd=root)
    assert sorted(c["text"] for c in json.loads(res.stdout)) == [
        "Wom1077bat 吞吐 14 tok/s", "Wombat TTFT 80 ms", "Wombat 吞吐 12 tok/s", "Wombat 吞吐 2.2×。", "Wombat 支持 FP8"]

    from kb.store import db as dbmod
    from kb.store.workspace import open_kb

    monkeypatch.setattr(dbmod, "hits_table", lambda store, names: None)  # a store that cannot be written
    kb = open_kb(root)
    try:
        names = [f"Wom{i}bat" for i in range(1100)]
        assert [c.text for c in kb.store.claims(text_like=names)] == ["Wom1077bat 吞吐 14 tok/s"]
        assert [c.text for c in kb.store.claims_containing([f"no{i}" for i in range(1500)] + ["FP8"])] == [
            "Wombat 支持 FP8"]
    finally:
        kb.close()
