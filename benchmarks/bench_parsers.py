"""Faster Markdown parsers with source positions beside markdown-it-py (issue 11): time and line maps.

Usage:
    python benchmarks/bench_parsers.py [KB_DIR] [--inbox 10000 --cards 2000 --docs 5] [--repeat 3]

Without KB_DIR a synthetic KB is generated (benchmarks/gen_kb.py). For markdown-it-py (kb's
parser, with kb's options) and each of these that is installed — markdown-it-pyrs
(markdown-it.rs), pyromark (pulldown-cmark) — prints, on every file kb would ingest:

- parse-only CPU seconds (best of ``--repeat``), and the same with the byte offsets turned
  into 1-based lines (the others give UTF-8 byte ranges; kb needs lines);
- whether the line spans kb reads agree with markdown-it-py's, file by file: headings, text
  blocks (paragraphs and the text of tight list items: first and last line), list items
  (first line) and table rows (line). A file counts as different when one span differs.

Neither is a dependency of kb: ``pip install markdown-it-pyrs pyromark`` into a venv first.
"""

from __future__ import annotations

import argparse
import bisect
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)

Span = tuple[str, int, int]
"""``(what, first line, last line)``; 1-based, inclusive (last is 0 where not compared)."""


def _kb_bodies(root: Path) -> list[str]:
    """Bodies of every file kb ingests, as kb parses them (decoded, front matter blanked)."""
    from kb.core import frontmatter
    from kb.store.walk import iter_kb_files
    from kb.core.textio import decode

    out = []
    for rel, _ in iter_kb_files(root):
        text = decode((root / rel).read_bytes(), rel).text
        out.append(frontmatter.split(text, rel)[1])
    return out


def mdit_spans(src: str) -> list[Span]:
    """Spans from markdown-it-py tokens, as kb reads them (``token.map``)."""
    from kb.read.parse import _md

    spans: list[Span] = []
    for t in _md().parse(src):
        if not t.map:
            continue
        if t.type == "heading_open":
            spans.append(("heading", t.map[0] + 1, t.map[1]))
        elif t.type == "paragraph_open":
            spans.append(("text", t.map[0] + 1, t.map[1]))
        elif t.type == "list_item_open":
            spans.append(("item", t.map[0] + 1, 0))
        elif t.type == "tr_open":
            spans.append(("row", t.map[0] + 1, 0))
    return sorted(spans)


class _Lines:
    """UTF-8 byte offset -> 1-based line of one text."""

    def __init__(self, src: str) -> None:
        data = src.encode()
        self.starts = [0]
        i = data.find(b"\n")
        while i >= 0:
            self.starts.append(i + 1)
            i = data.find(b"\n", i + 1)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def last(self, start: int, end: int) -> int:
        """Line of the last character of ``[start, end)``, trailing newlines left out."""
        return self.line(max(start, end - 1))


_INLINE = frozenset({"text", "code_inline", "strong", "em", "link", "image", "softbreak", "hardbreak", "html_inline"})


def pyrs_spans(src: str, md: object) -> list[Span]:
    """Spans from a markdown-it-pyrs tree (``Node.srcmap``: byte offsets)."""
    lines = _Lines(src)
    spans: list[Span] = []
    stack = [md.tree(src)]  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        name, sm = node.name, node.srcmap
        if sm is not None:
            if name == "heading":
                spans.append(("heading", lines.line(sm[0]), lines.last(*sm)))
            elif name == "paragraph":
                spans.append(("text", lines.line(sm[0]), lines.last(*sm)))
            elif name == "list_item":
                spans.append(("item", lines.line(sm[0]), 0))
                inl = [c for c in node.children if c.name in _INLINE and c.srcmap]
                if inl:  # a tight item's text: no paragraph node of its own
                    spans.append(("text", lines.line(inl[0].srcmap[0]), lines.last(inl[0].srcmap[0], inl[-1].srcmap[1])))
            elif name == "trow":
                spans.append(("row", lines.line(sm[0]), 0))
        stack.extend(node.children)
    return sorted(spans)


def pyromark_spans(src: str, events: Callable, options: int) -> list[Span]:
    """Spans from pyromark events (``range``: byte offsets)."""
    lines = _Lines(src)
    spans: list[Span] = []
    item_text: list[list[int] | None] = []  # per open item: [first, last] byte of its own text
    in_block = 0  # inside a paragraph, heading or cell: its text is no item's own
    for ev, rng in events(src, options=options):
        if isinstance(ev, dict) and "Start" in ev:
            tag = ev["Start"]
            name = tag if isinstance(tag, str) else next(iter(tag))
            if name == "Heading":
                spans.append(("heading", lines.line(rng["start"]), lines.last(rng["start"], rng["end"])))
            elif name == "Paragraph":
                spans.append(("text", lines.line(rng["start"]), lines.last(rng["start"], rng["end"])))
            elif name == "Item":
                spans.append(("item", lines.line(rng["start"]), 0))
                item_text.append(None)
            elif name == "TableRow" or name == "TableHead":
                spans.append(("row", lines.line(rng["start"]), 0))
            elif name in ("List", "BlockQuote", "CodeBlock", "Table", "HtmlBlock") and item_text and item_text[-1]:
                # a block inside an item ends the item's own text
                first, last = item_text[-1]
                spans.append(("text", lines.line(first), lines.last(first, last)))
                item_text[-1] = [-1, -1]
            if name in ("Paragraph", "Heading", "TableCell"):
                in_block += 1
            elif name in ("Strong", "Emphasis", "Link", "Image") and not in_block:
                _item_text(item_text, rng)
        elif isinstance(ev, dict) and "End" in ev:
            tag = ev["End"]
            name = tag if isinstance(tag, str) else next(iter(tag))
            if name == "Item":
                got = item_text.pop()
                if got and got[0] >= 0:
                    spans.append(("text", lines.line(got[0]), lines.last(got[0], got[1])))
            elif name in ("Paragraph", "Heading", "TableCell"):
                in_block -= 1
        elif not in_block:
            _item_text(item_text, rng)
    return sorted(spans)


def _item_text(item_text: list[list[int] | None], rng: dict) -> None:
    """Extend the open tight item's own text by one inline event's range."""
    if item_text and (item_text[-1] is None or item_text[-1][0] >= 0):
        cur = item_text[-1]
        item_text[-1] = [rng["start"], rng["end"]] if cur is None else [cur[0], max(cur[1], rng["end"])]


def best(repeat: int, fn: Callable[[], object]) -> float:
    """Least CPU seconds of ``repeat`` runs of ``fn`` (:func:`gen_kb.best_of`)."""
    return gen_kb.best_of(fn, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gen_kb.add_size_args(ap)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with gen_kb.kb_for(a) as root:
        bodies = _kb_bodies(root)
        print(f"files {len(bodies)}, {sum(len(b.encode()) for b in bodies) / 1e6:.1f} MB")
        from kb.read.parse import _md

        md = _md()
        base = best(a.repeat, lambda: [md.parse(b) for b in bodies])
        print(f"{'markdown-it-py (kb)':<22} parse {base:7.2f} s CPU   1.00×")
        ref = [mdit_spans(b) for b in bodies]
        parsers: list[tuple[str, Callable[[str], object], Callable[[str], list[Span]]]] = []
        try:
            import markdown_it_pyrs

            rs = markdown_it_pyrs.MarkdownIt("commonmark").enable("table")
            parsers.append(("markdown-it-pyrs", rs.tree, lambda s: pyrs_spans(s, rs)))
        except ImportError:
            print("markdown-it-pyrs       not installed")
        try:
            import pyromark

            opts = pyromark.Options.ENABLE_TABLES
            parsers.append(("pyromark", lambda s: tuple(pyromark.events_with_range(s, options=opts)),
                            lambda s: pyromark_spans(s, pyromark.events_with_range, opts)))
        except ImportError:
            print("pyromark               not installed")
        for name, parse, spans_of in parsers:
            t_parse = best(a.repeat, lambda: [parse(b) for b in bodies])
            t_lines = best(a.repeat, lambda: [spans_of(b) for b in bodies])
            got = [spans_of(b) for b in bodies]
            differ = [i for i, (x, y) in enumerate(zip(ref, got)) if x != y]
            kinds: Counter[str] = Counter()
            for i in differ:
                xs, ys = Counter(ref[i]), Counter(got[i])
                kinds.update(s[0] for s in (xs - ys) + (ys - xs))
            print(f"{name:<22} parse {t_parse:7.2f} s CPU {t_parse / base:5.2f}×   with line spans {t_lines:7.2f} s "
                  f"{t_lines / base:5.2f}×   line spans differ in {len(differ)} of {len(bodies)} files "
                  f"({', '.join(f'{k} {v}' for k, v in kinds.most_common()) or 'none'})")


if __name__ == "__main__":
    main()
