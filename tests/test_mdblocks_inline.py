"""kb's inline shortcut (:func:`kb.perf.mdblocks._plain_first`): an inline text with no
character an inline rule starts at gets its one text token directly — the very tokens
markdown-it makes of it, children and all their fields, on the demo KB, on texts holding each
inline mark, and on the real files of ../shared (when present)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from kb.perf.mdblocks import _blocks, _plain_first, _shortcut_ok
from kb.read.parse import _md

REPO = Path(__file__).resolve().parents[1]
REAL = REPO.parent / "shared" / "realdata"


def _full(tokens: list[Any]) -> list[dict[str, Any]]:
    """Every field of every token and child (``Token.as_dict``: level, map, meta, block … too)."""
    return [t.as_dict(children=True) for t in tokens]


def _same(md: MarkdownIt, text: str) -> bool:
    return _full([t for block in _blocks(md, text) for t in block]) == _full(md.parse(text))


MARKED = [
    "plain 1.5× vLLM 吞吐 提升 37.2%",
    "a *b* c", "a _b_ c", "a `b` c", "a [b](http://x) c", "a ![b](x.png) c", "a <http://x> c",
    "a <span>b</span> c", "a &amp; b &copy; c", "a ~~b~~ c", "~350 tok/s ~ 2 ~~ x", "a \\* b", "line one\nline two", "hard  \nbreak",
    "a ] b", "a ! b", "a # b $ c % d : e = f @ g ^ h { i } j ~ k - l + m",  # terminators of no rule
    "| a | b |\n|---|---|\n| 1.5× | plain |\n| *x* | y |\n",
    "# heading 2.03×\n\n## heading *bold*\n",
    "- item 1\n  - nested `code`\n- item &lt;\n",
    "",
    "x\n\n\n",
    "> quote 3%\n> more\n",
]


def test_plain_inline_text_is_markdown_its_own_text_token() -> None:
    md = _md()
    assert _shortcut_ok(md)
    for text in MARKED:
        assert _same(md, text), text
    texts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "inbox").rglob("*.md"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "organized").rglob("*.md"))]
    assert len(texts) > 10
    for text in texts:
        assert _same(md, text)


def test_plain_text_child_fields() -> None:
    tokens = [t for block in _blocks(_md(), "vLLM 1.5× 吞吐\n") for t in block]
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    (child,) = tokens[1].children
    assert (child.type, child.tag, child.nesting, child.level, child.content, child.map) == \
        ("text", "", 0, 0, "vLLM 1.5× 吞吐", None)


def test_a_plugin_rule_turns_the_shortcut_off() -> None:
    md = MarkdownIt("commonmark").enable("linkify")
    assert not _shortcut_ok(md)
    assert _shortcut_ok(MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]))
    assert callable(_plain_first(md))
    strike = MarkdownIt("commonmark").enable("strikethrough")
    assert callable(_plain_first(strike))
    assert _same(strike, "a ~~b~~ c 1.5×") and _same(strike, "a ~ b ~~ c ~~~ d")


@pytest.mark.skipif(not REAL.is_dir(), reason="optional real-data fixtures: ../shared/realdata is absent (docs/testing.md)")
def test_real_files_give_markdown_its_own_tokens() -> None:
    md = _md()
    files = sorted(REAL.rglob("*.md"))
    assert files
    for p in files:
        assert _same(md, p.read_text(encoding="utf-8", errors="replace")), p.name
