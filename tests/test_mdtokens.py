"""kb.perf.mdtokens: tokens made field by field are markdown-it's, field for field."""

from __future__ import annotations

import dataclasses

from markdown_it import MarkdownIt
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.token import Token

from kb.perf.mdblocks import _blocks
from kb.perf.mdtokens import FIELDS, BlockState, Options, new_token
from kb.read.parse import _md


def test_the_fields_are_markdown_its() -> None:
    assert tuple(f.name for f in dataclasses.fields(Token)) == FIELDS


def test_a_new_token_equals_the_dataclasss() -> None:
    made = new_token("bullet_list_open", "ul", 1, 3, True)
    want = Token("bullet_list_open", "ul", 1, level=3, block=True)
    assert made == want
    assert [getattr(made, f) for f in FIELDS] == ["bullet_list_open", "ul", 1, {}, None, 3, None, "", "", "", {},
                                                   True, False]
    other = new_token("text", "", 0)
    assert other == Token("text", "", 0) and other.attrs is not made.attrs and other.meta is not made.meta


def test_the_block_state_pushes_markdown_its_tokens() -> None:
    text = "# T\n\n- a\n  - b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n> q\n\n```\nc\n```\n"
    mine, theirs = BlockState(text, _md(), {}, []), StateBlock(text, _md(), {}, [])
    _md().block.tokenize(mine, 0, mine.lineMax)
    _md().block.tokenize(theirs, 0, theirs.lineMax)
    assert [t.as_dict() for t in mine.tokens] == [t.as_dict() for t in theirs.tokens]
    assert [(t.type, t.level, t.block) for t in mine.tokens][:6] == [
        ("heading_open", 0, True), ("inline", 1, True), ("heading_close", 0, True),
        ("bullet_list_open", 0, True), ("list_item_open", 1, True), ("paragraph_open", 2, True)]
    assert [t.as_dict(children=True) for b in _blocks(_md(), text) for t in b] == \
        [t.as_dict(children=True) for t in _md().parse(text)]


def test_kbs_markdown_reads_its_options_from_their_dict() -> None:
    options = _md().options
    assert type(options) is Options
    assert (options.get("tasklists", False), options.get("maxNesting"), options.get("html"), options.get("nope", 3)) == \
        (False, 100, True, 3)
    assert options.maxNesting == 100 and dict(options) == dict(MarkdownIt("commonmark", {"html": True,
                                                                                         "maxNesting": 100}).options)
