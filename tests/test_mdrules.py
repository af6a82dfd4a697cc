"""kb.perf.mdrules: markdown-it's block rules behind their first test give the very tokens
markdown-it gives without them (every field of every token), on texts built of every block's
opening at every indent, on the demo KB and on the real files of ../shared (when present)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from kb.perf.mdblocks import _blocks
from kb.perf.mdrules import FIRST_CHARS, guard_rules
from kb.read.parse import MAX_NESTING, _md

REPO = Path(__file__).resolve().parents[1]
REAL = REPO.parent / "shared" / "realdata"

#: Line starts of every block (and near misses: "-x", "1)", "#x", "<", "[x]", tabs, a lone "=").
PIECES = ["- ", "-x", "* ", "+ ", "1. ", "1) ", "9. ", "90) ", "12345678901. ", "> ", ">", "# ", "#x", "###### ", "####### ",
          "```", "~~~", "``", "<div>", "<!-- c -->", "<x", "</p>", "[a]: /u", "[a]", "    ", "\t", "  ", "***",
          "---", "___", "===", "- - -", "|a|b|", "| - | :-: |", "|---|---|", ":--", "", "text 1.5×", "吞吐 37%"]


def _plain() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table")


def _tokens(md: MarkdownIt, text: str) -> list[dict[str, Any]]:
    return [t.as_dict(children=True) for t in md.parse(text)]


def _texts(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        lines = []
        for _ in range(rnd.randint(1, 14)):
            indent = " " * rnd.choice((0, 0, 0, 1, 2, 3, 4, 5, 8))
            lines.append(indent + "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 3))) + rnd.choice(("", " x", " 2")))
        out.append("\n".join(lines) + rnd.choice(("", "\n", "\n\n")))
    return out


def test_the_rules_are_guarded_and_keep_their_place() -> None:
    plain, guarded = _plain(), guard_rules(_plain())
    names = [(r.name, r.enabled, r.alt) for r in plain.block.ruler.__rules__]
    assert [(r.name, r.enabled, r.alt) for r in guarded.block.ruler.__rules__] == names
    wrapped = {r.name for r in guarded.block.ruler.__rules__ if hasattr(r.fn, "__wrapped__")}
    assert wrapped == {"code", "fence", "blockquote", "hr", "list", "reference", "html_block", "heading", "table"}
    assert len(FIRST_CHARS) == 7
    kbs = {r.name: r.fn for r in _md().block.ruler.__rules__}  # kb's own Markdown is guarded
    assert hasattr(kbs["hr"], "__wrapped__") and not hasattr(kbs["paragraph"], "__wrapped__")


def test_guarded_rules_give_markdown_its_own_tokens() -> None:
    plain, guarded = _plain(), guard_rules(_plain())
    for text in _texts(3000, seed=11):
        assert _tokens(guarded, text) == _tokens(plain, text), text
    texts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "inbox").rglob("*.md"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "organized").rglob("*.md"))]
    assert len(texts) > 10
    for text in texts:
        assert _tokens(guarded, text) == _tokens(plain, text)
        assert [t.as_dict(children=True) for b in _blocks(_md(), text) for t in b] == _tokens(plain, text)


def test_a_plugin_rule_is_left_as_it_is() -> None:
    md = _plain()

    def mine(state: Any, start: int, end: int, silent: bool) -> bool:
        return False

    md.block.ruler.at("hr", mine, {"alt": ["paragraph"]})
    guard_rules(md)
    assert md.block.ruler.__rules__[md.block.ruler.__find__("hr")].fn is mine


@pytest.mark.skipif(not REAL.is_dir(), reason="optional real-data fixtures: ../shared/realdata is absent (docs/testing.md)")
def test_real_files_give_the_same_tokens() -> None:
    plain, guarded = _plain(), guard_rules(_plain())
    files = sorted(REAL.rglob("*.md"))
    assert files
    for p in files:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert _tokens(guarded, text) == _tokens(plain, text), p.name


def test_link_and_image_rules_skip_a_bracket_nothing_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A paragraph of ``[`` or ``![`` with no ``]`` after them never starts markdown-it's label
    scan (it recursed maxNesting deep at each bracket: 200 KB took ~8 s), nor one with no ``](``
    after them when no reference is defined (a run of ``[`` closed by one ``]``: ~60 ms a KB),
    and every text of brackets gives the very tokens markdown-it gives."""
    plain, guarded = _plain(), guard_rules(_plain())
    inline = {r.name for r in guarded.inline.ruler.__rules__ if hasattr(r.fn, "__wrapped__")}
    assert inline == {"link", "image"}
    for text in ["[" * 300, "![" * 200, "x[" * 150 + "]", "[a](/u) [" * 40, "![b](/i) ![", "[[x]", "`]` [",
                 "[a] [b]\n\n[b]: /u", "[" * 120 + "x](/u)", "![]", "![", "[", "\\] [", "[<]>"]:
        assert _tokens(guarded, text) == _tokens(plain, text), text
    calls: list[int] = []
    monkeypatch.setattr(guarded.helpers, "parseLinkLabel", lambda state, start, nested=False: calls.append(start) or -1)
    guarded.parse("[" * 5000 + "\n\n" + "![" * 5000)
    assert calls == []
    guarded.parse("[[[]" + "\n\n" + "a[b] [")  # no ``](`` and no reference defined: no link can be
    assert calls == []
    guarded.parse("[[[](/u) [" + "\n\n" + "a[b] [\n\n[b]: /u")  # before a ``](``; before a ``]`` with a reference
    assert calls == [0, 1, 2, 1]


#: Pieces of texts of links and images at and around markdown-it's nesting limit (runs of 97 to 102).
LINK_PIECES = ["[", "![", "]", "](/u)", "a", "](", ")", "[b]", "![c](/i)", "[d](/e)", "`", "\\[", "\\]", "*", "<a>"]


def test_link_and_image_rules_give_markdown_its_own_tokens_around_the_nesting_limit() -> None:
    """Texts of brackets, ``](``, links, images and escapes (runs long enough to reach
    ``maxNesting``, where markdown-it's label scan stops and caches the end of the text), with and
    without a reference defined: the rules behind :func:`kb.perf.mdrules._closable` give the very
    tokens markdown-it gives."""
    plain, guarded = _plain(), guard_rules(_plain())
    rnd = random.Random(24)
    for _ in range(400):
        parts = []
        for _ in range(rnd.randint(1, 6)):
            piece = rnd.choice(LINK_PIECES)
            parts.append(piece * (rnd.choice((1, 1, 2, 3, 97, 98, 99, 100, 101, 102)) if piece in ("[", "![", "]") else 1))
        text = "".join(parts) + rnd.choice(("", "", "\n\n[b]: /r", "\n\n[a]: /r"))
        assert _tokens(guarded, text) == _tokens(plain, text), text
    for text in ["[" * 300 + "]", "![" * 300 + "]", "[" * 101 + "x](/u)", "[" * 99 + "]" + "(/u)" + "[" * 5 + "]",
                 "[a](/u)" + "[" * 150 + "]", "[" * 150 + "]\n\n[" + "[" * 150 + "]: /r"]:
        assert _tokens(guarded, text) == _tokens(plain, text), text
