"""Single-tilde strikethrough (``~301 tok/s~ 303 tok/s``) for kb's Markdown (:func:`kb.read.parse._md`).

github.com strikes text between a pair of single tildes as between ``~~`` (the GFM spec allows
one or two); markdown-it's own rule only reads ``~~``. kb reads a pair of single tildes as a
strike where a reader sees one on GitHub, with one difference kept on purpose: a tilde inside a
word (between two letters or digits, ``3~5 ms``, ``约~300``) neither opens nor closes one, as an
``_`` does not in CommonMark. So ranges written with a tilde stay ranges (``3~5 ms，7~9 ms`` is
two ranges, where GitHub would strike ``5 ms，7``: kb never drops a value for a strike its writer
did not mean), and a lone ``~`` (``~350 tok/s``, about) is no strike. The struck text becomes
``s_open``/``s_close`` tokens, as ``~~`` does, so :func:`kb.read.inline._inline_text` does not read
it. A ``~`` next to ``~~`` or in a run of three or more is text.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline import strikethrough
from markdown_it.rules_inline.state_inline import Delimiter, StateInline

# a marker of its own (no character): single tildes pair only with each other, never with ``~~``
_MARKER = 0x1007E


def _tokenize(state: StateInline, silent: bool) -> bool:
    """One ``~`` (not part of a longer run) as a text token and a delimiter that opens or closes
    as CommonMark's ``_`` would (never inside a word)."""
    start = state.pos
    if silent or state.src[start] != "~" or (start > 0 and state.src[start - 1] == "~"):
        return False
    scanned = state.scanDelims(start, False)
    if scanned.length != 1:
        return False  # ``~~`` and longer runs: markdown-it's own rule
    token = state.push("text", "", 0)
    token.content = "~"
    state.delimiters.append(Delimiter(marker=_MARKER, length=0, token=len(state.tokens) - 1, end=-1,
                                      open=scanned.can_open, close=scanned.can_close))
    state.pos += 1
    return True


def _pair(state: StateInline, delimiters: list[Delimiter]) -> None:
    for d in delimiters:
        if d.marker != _MARKER or d.end == -1:
            continue
        for at, kind, nesting in ((d.token, "s_open", 1), (delimiters[d.end].token, "s_close", -1)):
            token = state.tokens[at]
            token.type, token.tag, token.nesting, token.markup, token.content = kind, "s", nesting, "~", ""


def _post_process(state: StateInline) -> None:
    """The paired single tildes (``balance_pairs`` paired them) as ``s_open``/``s_close``."""
    _pair(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _pair(state, meta["delimiters"])


def single_tilde(md: MarkdownIt) -> MarkdownIt:
    """``md`` with single-tilde strikethrough; ``~~`` stays markdown-it's. The rules stand in
    markdown-it's ``strikethrough`` rules (first a single tilde, then theirs), so ``md`` has
    CommonMark's rule names and no other start character (``~`` is one already):
    :func:`kb.perf.mdblocks._shortcut_ok` holds."""
    tokenize, post = strikethrough.tokenize, strikethrough.postProcess

    def rule(state: StateInline, silent: bool) -> bool:
        return _tokenize(state, silent) or tokenize(state, silent)

    def post_rule(state: StateInline) -> None:
        post(state)
        _post_process(state)

    md.inline.ruler.at("strikethrough", rule)
    md.inline.ruler2.at("strikethrough", post_rule)
    return md
