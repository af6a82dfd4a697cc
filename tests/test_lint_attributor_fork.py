"""kb lint builds what the KB knows by name once per run and forks it per document
(:meth:`kb.facts.attributor.Attributor.fork`): the same attribution as one built per document,
without docs × cards work (61 of 80 s of ``kb lint`` on 1,600 topics before)."""

from __future__ import annotations

from pathlib import Path

from kb.core.config import load_config
from kb.lint.kbfacts import KbFacts
from kb.read.parse import Parser

REPO = Path(__file__).resolve().parent.parent


def test_forks_share_the_names_and_learn_apart() -> None:
    config = load_config(REPO)
    facts = KbFacts(REPO, headings=["§1 推理引擎", "§2 FlashSpec"])
    a = facts.attributor_for(config, ["§1 推理引擎"])
    b = facts.attributor_for(config, ["§2 FlashSpec"])
    assert a is not b and a.matcher is b.matcher  # built once
    parsed = Parser(config).parse_bytes("organized/knowledge/x.md", "- ZephyrKV（arXiv:2611.04455）降低 TTFT 30%。\n".encode())
    a.learn(parsed.claims)
    assert a.label("arxiv:2611.04455") == "ZephyrKV"
    assert b.label("arxiv:2611.04455") == "2611.04455"  # what one document taught stays in its fork
    assert facts.attributor_for(config, ["§1 推理引擎"]).label("arxiv:2611.04455") == "2611.04455"


def test_a_doc_whose_headings_the_store_lacks_gets_its_own() -> None:
    config = load_config(REPO)
    facts = KbFacts(REPO, headings=["§1 推理引擎"])
    a = facts.attributor_for(config, ["§1 推理引擎"])
    c = facts.attributor_for(config, ["§9 Unstored"])
    assert c.matcher is not a.matcher
