"""kb.lint.doc.build_living_doc gives what kb.livedoc.parse_living_doc gives (it only places
claims in sections by bisection); drop both once livedoc does the same."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kb.config import load_config
from kb.lint.doc import build_living_doc
from kb.livedoc import LivingDoc, parse_living_doc
from kb.parse import Parser

REPO = Path(__file__).resolve().parents[2]


def _shape(doc: LivingDoc) -> tuple:
    sections = [(s.number, s.title, s.level, s.line, s.end_line, s.numbered, s.heading_subjects, s.subjects,
                 [c.id for c in s.claims]) for s in doc.sections]
    return (doc.path, doc.topic, doc.version, doc.updated, doc.citations, doc.front, doc.front_lines,
            doc.front_present, sections, [c.id for c in doc.claims], doc.notes, doc.problems, doc.text)


def _texts() -> list[tuple[str, str]]:
    out = [(f"organized/knowledge/{p.stem}.md", p.read_text(encoding="utf-8"))
           for p in [REPO / "organized/knowledge/inference.md", REPO / "organized/knowledge/history/inference/v44.md"]
           if p.is_file()]
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from bench_lint import make_doc
    finally:
        sys.path.pop(0)
    out.append(("organized/knowledge/big.md", make_doc(150_000)))
    out.append(("notes.md", "前言，没有标题。\n\n# A\n\n## §1 x\n\n- vLLM 58.3 tok/s\n\n### y\n\n- 2.0× 提速\n"))
    return out


@pytest.mark.parametrize(("path", "text"), _texts(), ids=lambda v: v if isinstance(v, str) and len(v) < 60 else "")
def test_same_living_doc_as_livedoc(path: str, text: str) -> None:
    parser = Parser(load_config(REPO))
    assert _shape(build_living_doc(parser, path, text)) == _shape(parse_living_doc(parser, path, text))
