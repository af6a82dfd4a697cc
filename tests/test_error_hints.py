"""Errors that say what is wrong and what was meant, from the user's own KB: an unknown
``entity:`` key (kb.facts.query resolve_subject), a malformed arXiv id, examples of the KB's own
subjects, a mistyped topic for bump and a mistyped path for lint, a mistyped kb.yaml key
(kb.core.config), a month or day off the calendar (kb.core.moments calendar_problem), ``card new
--offline`` without a cached record."""

from __future__ import annotations

from pathlib import Path

import pytest


def _my_kb(root: Path) -> Path:
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "organized/paper_cards").mkdir()
    (root / "inbox/ana").mkdir(parents=True)
    (root / "kb.yaml").write_text("topics: [inference]\nentities:\n  vLLM: []\n  SGLang: []\n", encoding="utf-8")
    (root / "organized/knowledge/inference.md").write_text(
        "---\ntopic: inference\nversion: 1\nupdated: 2026-12-04T05:00:00+08:00\n---\n## §1 引擎\n\n"
        "- vLLM 吞吐 2,400 tok/s（来源：arXiv:2611.01234）。\n", encoding="utf-8")
    (root / "inbox/ana/2026-12-04T1500-ana-notes.md").write_text("- SGLang 吞吐 2,600 tok/s。\n", encoding="utf-8")
    return root


def test_an_unknown_entity_key_errs_with_the_nearest(run_kb, tmp_path: Path) -> None:
    root = _my_kb(tmp_path / "kb")
    res = run_kb(["claims", "--subject", "entity:vlm"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == ("error: --subject 'entity:vlm': no entity of that key in this KB (kb.yaml entities and "
                          "the names its files give) (did you mean 'entity:vllm'?)\n")
    res = run_kb(["claims", "--subject", "entity:sglang"], cwd=root)
    assert (res.exit_code, res.stderr) == (0, "1 claim\n")
    assert "inbox/ana/2026-12-04T1500-ana-notes.md:1  entity:sglang" in res.stdout


def test_a_malformed_id_says_so_and_suggestions_come_from_this_kb(run_kb, tmp_path: Path) -> None:
    root = _my_kb(tmp_path / "kb")
    res = run_kb(["claims", "--subject", "2611.0123"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == ("error: --subject '2611.0123': not a valid arXiv id: 4-digit sequence after 1412 "
                          "(5 digits from 1501) (did you mean 2611.01234?)\n")
    res = run_kb(["claims", "--subject", "qqzz"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == ("error: --subject 'qqzz': not an arXiv id, DOI, kb.yaml entity, card alias or living-doc "
                          "heading name (try 2611.01234, vLLM, entity:vllm, doi:…, or an alias from kb.yaml)\n")
    assert "2607.26627" not in res.stderr and "tgi" not in res.stderr  # the demo KB's, not this one's


def test_bump_and_lint_say_what_was_meant(run_kb, tmp_path: Path) -> None:
    root = _my_kb(tmp_path / "kb")
    res = run_kb(["bump", "inferense"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == ("error: organized/knowledge/inferense.md: no living document for topic 'inferense'; "
                          "nothing to bump (did you mean 'inference'?)\n")
    res = run_kb(["lint", "organized/knowledge/inferense.md"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == (f"error: organized/knowledge/inferense.md: no such file (paths are relative to {root}) "
                          "(did you mean organized/knowledge/inference.md?)\n")


@pytest.mark.parametrize(("yaml", "said"), [
    ("tolerence: 0.02\n", "line 2: unknown key 'tolerence' (did you mean 'tolerance'?)"),
    ("lint:\n  selct: [KB101]\n", "line 2: unknown key 'lint.selct' (did you mean 'select'?)"),
    ("zzz: 1\n", "line 2: unknown key 'zzz'"),
])
def test_a_mistyped_kb_yaml_key_gets_the_nearest(run_kb, tmp_path: Path, yaml: str, said: str) -> None:
    root = _my_kb(tmp_path / "kb")
    (root / "kb.yaml").write_text("topics: [inference]\n" + yaml, encoding="utf-8")
    res = run_kb(["claims"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == f"error: {root / 'kb.yaml'}: {said}\n"


@pytest.mark.parametrize(("args", "said"), [
    (["digest", "--date", "2026-13-01", "--out", "-"], "--date '2026-13-01': month 13 is out of range (01-12)"),
    (["digest", "--date", "2026-02-30", "--out", "-"], "--date '2026-02-30': day 30 is out of range for 2026-02 (01-28)"),
    (["claims", "--since", "2026-04-31T10:00"], "--since '2026-04-31T10:00': day 31 is out of range for 2026-04 (01-30)"),
    (["claims", "--since", "2026-x"], "--since '2026-x': expected an ISO date or date-time, e.g. 2026-07-31 or "
                                      "2026-07-30T22:00"),
])
def test_a_date_off_the_calendar_names_what_is_off(run_kb, tmp_path: Path, args: list[str], said: str) -> None:
    root = _my_kb(tmp_path / "kb")
    res = run_kb(args, cwd=root)
    assert res.exit_code == 2
    assert res.stderr == f"error: {said}\n"


def test_card_new_offline_says_to_drop_offline(run_kb, tmp_path: Path) -> None:
    root = _my_kb(tmp_path / "kb")
    res = run_kb(["card", "new", "2607.99999", "--offline"], cwd=root)
    assert res.exit_code == 3
    assert res.stderr.endswith("the card needs arXiv's metadata: run it again without --offline to fetch it\n")
    assert "try again later" not in res.stderr


def test_kb_yaml_unclosed_quote_is_reported_where_it_opens(run_kb, tmp_path: Path) -> None:
    root = _my_kb(tmp_path / "kb")
    (root / "kb.yaml").write_text('topics: [inference]\ncutoff: "22:00"\ntimezone: "+08:00\n', encoding="utf-8")
    res = run_kb(["claims"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == (f"error: {root / 'kb.yaml'}:3:11: invalid kb.yaml: a quoted scalar opened here is never "
                          "closed (found unexpected end of stream)\n")
