"""kb.perf.models.built: the parser's unvalidated claim records are the validated ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.core.claims import ArxivRef, Claim, Provenance
from kb.perf.models import built, replaced
from kb.core.config import load_config
from kb.store.walk import iter_kb_files
from kb.read.parse import Parser

REPO = Path(__file__).resolve().parents[1]


def _same(a: object, b: object) -> None:
    """``a`` (as built) and ``b`` (validated from the same values) have one type, field values and
    set fields, and the records built by :func:`built` inside them too."""
    assert type(a) is type(b)
    assert a.__dict__ == b.__dict__  # type: ignore[attr-defined]
    assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__  # type: ignore[attr-defined]
    assert a.__pydantic_extra__ is None and b.__pydantic_extra__ is None  # type: ignore[attr-defined]
    assert a.__pydantic_private__ is None and b.__pydantic_private__ is None  # type: ignore[attr-defined]


def test_every_demo_claim_as_built_equals_it_validated() -> None:
    parser = Parser(load_config(REPO))
    n_claims = n_refs = 0
    for rel, _ in iter_kb_files(REPO):
        for c in parser.parse_bytes(rel, (REPO / rel).read_bytes()).claims:
            validated = Claim(**{**c.__dict__, "provenance": Provenance(**c.provenance.__dict__),
                                 "arxiv": [ArxivRef(**r.__dict__) for r in c.arxiv]})
            _same(c, validated)
            _same(c.provenance, validated.provenance)
            for r, v in zip(c.arxiv, validated.arxiv, strict=True):
                _same(r, v)
            assert c == Claim.model_validate(c.model_dump())  # every type right
            assert c.model_dump_json(exclude_defaults=True) == validated.model_dump_json(exclude_defaults=True)
            n_claims += 1
            n_refs += len(c.arxiv)
    assert n_claims > 400 and n_refs > 100  # the demo KB's claims (421) and their arXiv mentions


def test_built_equals_validation_and_refuses_missing_or_unknown_fields() -> None:
    values = dict(path="inbox/tom/a.md", line=3, end_line=4, author="tom", written_at=None, heading=["H"])
    _same(built(Provenance, **values), Provenance(**values))
    ref = built(ArxivRef, id="2607.26627", version=2, raw="2607.26627v2", start=5, end=17)
    assert ref == ArxivRef(id="2607.26627", version=2, raw="2607.26627v2", start=5, end=17)
    assert ref.key == "arxiv:2607.26627"
    assert ref.model_copy(update={"version": 3}).version == 3 and ref.version == 2
    with pytest.raises(KeyError, match="end"):
        built(ArxivRef, id="2607.26627", version=None, raw="x", start=0)
    with pytest.raises(TypeError, match=r"unknown fields \['colour'\]"):
        built(ArxivRef, id="2607.26627", version=None, raw="x", start=0, end=1, colour="red")


def test_replaced_equals_model_copy_for_every_part_of_the_demo_claims() -> None:
    """kb.perf.models.replaced is ``model_copy(update=...)``: the same type, field values and set
    fields (validated parts have fewer set fields than built ones: both kinds are here), and
    the original is unchanged."""
    parser = Parser(load_config(REPO))
    n = 0
    for rel, _ in iter_kb_files(REPO):
        for c in parser.parse_bytes(rel, (REPO / rel).read_bytes()).claims:
            parts = [*c.quantities, *c.dates, *c.arxiv, c.provenance]
            for part in parts:
                before = dict(part.__dict__), set(part.__pydantic_fields_set__)
                for update in _updates(part):
                    _same(replaced(part, **update), part.model_copy(update=update))
                    n += 1
                assert (part.__dict__, part.__pydantic_fields_set__) == before
            _same(replaced(c, kind="paper-fact", subjects=["entity:x"]),
                  c.model_copy(update={"kind": "paper-fact", "subjects": ["entity:x"]}))
    assert n > 1500  # quantities, dates, ids and provenances of 421 claims, three updates each
    q = replaced(ArxivRef(id="2607.26627", raw="2607.26627"), version=3)
    assert (q.version, q.__pydantic_fields_set__) == (3, {"id", "raw", "version"})


def _updates(part: object) -> list[dict[str, object]]:
    """Three updates of a claim part: of a field it has set, of one it may not have, and none."""
    if isinstance(part, Provenance):
        return [{"line": part.line + 1}, {"author": "x", "heading": []}, {}]
    if isinstance(part, ArxivRef):
        return [{"version": 9}, {"start": -1, "end": -1}, {}]
    return [{"subject": "entity:x"}, {"mood": "plan", "start": 1, "end": 2}, {}]
