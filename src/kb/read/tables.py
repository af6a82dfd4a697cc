"""Table rows: which column a number sits in, the subject or metric its column gives it, the
spans of a row's cells and the cells of a raw table line (C13)."""

from __future__ import annotations

import bisect
import re
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

from markdown_it import MarkdownIt

from kb.core.claims import Quantity
from kb.extract.fold import normalise
from kb.extract.metrics import SETUP_METRICS
from kb.extract.qualifiers import size_problem
from kb.extract.quantities import find_quantities
from kb.extract.vocab.metrics import SETUP_CELL_FORMS
from kb.extract.vocab.subjects import HARDWARE_PATTERN
from kb.perf.models import replaced
from kb.read.inline import _Inline, _inline_text


def _by_column(text: str, quantities: list[Quantity], col_subjects: list[str | None]) -> tuple[list[Quantity], list[str]]:
    """Numbers of a table row that sit in an entity-headed column belong to that entity (the
    row's other cells are its conditions: model, hardware, workload)."""
    seps = [m.start() for m in _CELL_SEP_RE.finditer(text)]
    out: list[Quantity] = []
    owners: list[str] = []
    for q in quantities:
        col = bisect.bisect_right(seps, q.start)
        key = col_subjects[col] if col < len(col_subjects) else None
        if key is None or col == 0:
            out.append(q)
            continue
        owners.append(key)
        out.append(replaced(q, subject=key))
    return out, owners


_CELL_SEP_RE = re.compile(r" \| ")


def _column(text: str, at: int) -> int:
    """The cell of a table row's text (cells joined with `` | ``) that offset ``at`` lies in."""
    return text.count(" | ", 0, at + 1) if at >= 0 else 0


#: A cell that is only a number, with a bound or as a range (``96``, ``~50``, ``>1,000``, ``40–80``): no unit, no word.
_BARE_CELL_RE = re.compile(r"(?:[~≈<>≤≥]|约)?\s*\d[\d,]*(?:\.\d+)?(?:\s*[-–—~～]\s*\d[\d,]*(?:\.\d+)?)?\+?")

#: A number standing free in a cell (not inside a name or a version: ``H100``, ``v0.6``).
_FREE_NUMBER_RE = re.compile(r"(?<![\w.])\d")

#: A cell that states no value: empty, a dash, n/a, ?, TBD, 无, 空, 不限, 未知 (no warning under a set-up header).
#: An accelerator's name in a GPU cell (``H100 SXM`` under ``GPU``): the set-up's hardware, a
#: condition of the row (:mod:`kb.extract.qualifiers`), not a count written wrong.
_ACCELERATOR_CELL_RE = re.compile(rf"(?<![A-Za-z0-9])(?:{HARDWARE_PATTERN})(?![A-Za-z0-9])")
_NO_VALUE_CELL_RE = re.compile(r"|[-–—~?？/*]+|(?i:n/?a|tbd|none|null|unknown|auto|default|dynamic|var(?:ies)?)|无|空|不限|未知|未测|动态|默认", re.IGNORECASE)

#: A set-up cell with a sign or an exponent (``-4``, ``1e24``): read too, so that it is said to be no size.
_SIGNED_CELL_RE = re.compile(r"[-+−]\s*\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?|\d[\d,]*(?:\.\d+)?[eE][-+]?\d+")


#: A unit written at the end of a header cell in brackets, closed or not (``吞吐 (tok/s)``,
#: ``TTFT（ms）``, ``Memory [GB]``, ``Throughput (tok/s``).
_HEADER_BRACKET_RE = re.compile(r"[(（\[【]\s*([^()（）\[\]【】]{1,16}?)\s*[)）\]】]?\s*$")


def header_unit(cell: str, vocab: Any) -> str | None:
    """The unit a table header cell gives the bare numbers of its column, as written
    (``吞吐 (tok/s)`` → ``tok/s``, ``TTFT（ms）`` → ``ms``, ``延迟/ms`` → ``ms``, ``tok/s`` →
    ``tok/s``), or None. Candidates, first that reads: the text in brackets at the cell's end,
    the whole cell, then what follows each ``/`` from the first (``吞吐 / tok/s`` → ``tok/s``,
    never the ``s`` of ``tok/s``); a candidate is a unit when the one quantity reader
    (:func:`kb.extract.quantities.find_quantities`) reads ``1 <text>`` as one number with a unit
    spanning it all (``吞吐 / 延迟`` and ``Model (FP8)`` give none).

    :param cell: a header cell, as written.
    :param vocab: the metric vocabulary, passed on to the reader.
    """
    cell = cell.strip()
    m = _HEADER_BRACKET_RE.search(cell)
    tails = [cell[i + 1:] for i, c in enumerate(cell) if c == "/"]
    for token in ([m.group(1)] if m else []) + [cell] + tails:
        token = token.strip()
        if not token or len(token) > 16:
            continue
        got = find_quantities("1 " + token, vocab=vocab)
        if len(got) == 1 and got[0].unit and got[0].start == 0 and got[0].end == len(token) + 2:
            return token
    return None


class HeaderColumn(NamedTuple):
    """What a table header cell gives the bare numbers of its column: a unit
    (:func:`header_unit`) and a set-up (:data:`~kb.extract.metrics.SETUP_METRICS`: ``Batch`` →
    ``batch_size``, ``Context`` → ``context_length``, ``并发`` → ``concurrency``)."""

    unit: str | None
    setup: str | None


#: Header cell -> its :class:`HeaderColumn`, per vocabulary: the same headers head table after
#: table, and each cell asks the quantity reader up to a few times. Exact: the answer is a
#: function of the cell and the vocabulary only (held weakly; at most :data:`_COLUMNS_MAX` cells each).
_COLUMNS: weakref.WeakKeyDictionary[Any, dict[str, HeaderColumn]] = weakref.WeakKeyDictionary()
_COLUMNS_MAX = 4096


def header_column(cell: str, vocab: Any) -> HeaderColumn:
    """:class:`HeaderColumn` of a header cell: its unit, and the set-up it names when it names
    one metric and that is a set-up (``Batch``, ``batch size``, ``上下文``; not ``吞吐 / batch``).

    :param cell: a header cell, as written; :param vocab: the metric vocabulary."""
    seen = _COLUMNS.get(vocab)
    if seen is None:
        seen = _COLUMNS[vocab] = {}
    got = seen.get(cell)
    if got is None:
        got = _header_column(cell, vocab)
        if len(seen) < _COLUMNS_MAX:
            seen[cell] = got
    return got


def _header_column(cell: str, vocab: Any) -> HeaderColumn:
    sc = vocab._scan(normalise(cell))
    found = {*sc.metrics, *sc.setup_metrics}
    setup = found.pop() if len(found) == 1 else None
    return HeaderColumn(header_unit(cell, vocab), setup if setup in SETUP_METRICS else None)


def _by_metric_column(text: str, cells: list[str], quantities: list[Quantity], metrics: list[str | None],
                      vocab: Any, skip: Sequence[tuple[int, int]], columns: Sequence[HeaderColumn] = (),
                      odd: list[str] | None = None) -> list[Quantity]:
    """A table row's numbers with the metric of their column (issue 8; the metric is decided by
    :meth:`kb.extract.metrics.MetricVocab.table_metrics`): a number with no metric of its own
    takes its cell's. A cell that is only a bare number (``96`` under ``HF votes``), which
    alone names no metric, is read as written after that metric's first phrase (``HF 票 96``)
    by the one quantity reader, so it is a quantity of that metric; with the unit its header
    writes (``columns``, per cell: :func:`header_column`) after it (``2,750`` under ``吞吐 (tok/s)``
    is read as ``吞吐 2,750 tok/s``). A bare number under a header naming a set-up (``1`` under
    ``Batch``) is that set-up's size (read as ``batch 1``): a condition of the row, no figure;
    one that is no set-up size (``0``, ``1.5`` under ``Batch``: :func:`kb.extract.qualifiers.size_problem`)
    is no quantity, and ``(cell, why)`` is added to ``odd`` when given (the parser's warning)."""
    units = [c.unit for c in columns]
    out = [replaced(q, metric=m) if q.metric is None and (m := metrics[min(_column(text, q.start), len(metrics) - 1)])
           else q for q in quantities]
    if " | ".join(cells) != text:
        return out
    rebare = {k for k, c in enumerate(cells) if k < len(columns) and (columns[k].unit or columns[k].setup)
              and _BARE_CELL_RE.fullmatch(c.strip())}
    if rebare:  # a bare number under a header with a unit or a set-up: read again below, with it
        out = [q for q in out if q.unit not in (None, "+") or _column(text, q.start) not in rebare]  # 1200+: '+' is none
    setups = {k: c.setup for k, c in enumerate(columns) if c.setup is not None}
    warned: set[int] = set()
    if setups:  # 8k under Batch, read as a number with no metric: that set-up's size, when it is one
        kept: list[Quantity] = []
        for q in out:
            k = _column(text, q.start)
            if q.metric is None and q.unit is None and (m := setups.get(k)) is not None:
                if (why := size_problem(m, q.value, q.low, q.high)) is not None:
                    if odd is not None and k not in warned:
                        odd.append(f"set-up cell {cells[k].strip()!r} {why} ({m}); no set-up")
                    warned.add(k)
                    continue
                q = replaced(q, metric=m)
            kept.append(q)
        out = kept
    taken = {_column(text, q.start) for q in out}
    at = 0
    for k, cell in enumerate(cells):
        m = metrics[k] if k < len(metrics) else None
        start = at + (len(cell) - len(cell.lstrip()))
        at += len(cell) + 3
        if k in warned:
            continue
        if m is None and k < len(columns) and columns[k].setup is not None:
            m = columns[k].setup
        if (odd is not None and k not in taken and k < len(units) and units[k] and _FREE_NUMBER_RE.search(cell)
                and not _BARE_CELL_RE.fullmatch(cell.strip()) and not any(a < start + len(cell.strip()) and start < b
                                                                            for a, b in skip)):
            odd.append(f"cell {cell.strip()!r} of a {units[k]} column holds numbers kb does not read; no quantity")
        if m is None or k in taken or not vocab.phrases.get(m):
            continue
        if not (_BARE_CELL_RE.fullmatch(cell.strip()) or m in SETUP_METRICS and _SIGNED_CELL_RE.fullmatch(cell.strip())):
            if (odd is not None and m in SETUP_METRICS and not _NO_VALUE_CELL_RE.fullmatch(cell.strip())
                    and not (m == "gpu_count" and _ACCELERATOR_CELL_RE.search(cell))):
                odd.append(f"set-up cell {cell.strip()!r} is no set-up size kb reads ({m}); no set-up")  # NaN, 0x10, ½
            continue
        if any(a < start + len(cell.strip()) and start < b for a, b in skip):
            continue  # an id or a date, not a figure
        label, _, after = SETUP_CELL_FORMS.get(m, vocab.phrases[m][0] + " {n}").partition("{n}")
        unit = units[k] if k < len(units) else None
        bare = cell.strip()
        read = label + bare + after + (" " + unit if unit else "")
        said = False
        for q in find_quantities(read, vocab=vocab):
            said = said or q.start >= len(label)
            if q.start >= len(label) and q.metric == m:
                if (why := size_problem(m, q.value, q.low, q.high)) is not None:
                    if odd is not None:
                        odd.append(f"set-up cell {bare!r} {why} ({m}); no set-up")
                    continue
                d, end = start - len(label), min(q.end, len(label) + len(bare))
                out.append(replaced(q, raw=read[q.start:end].strip(), start=q.start + d, end=end + d))
        if not said and odd is not None and m in SETUP_METRICS:
            odd.append(f"set-up cell {bare!r} is no set-up size kb reads ({m}); no set-up")  # read as no number at all
    out.sort(key=lambda q: q.start)
    return out


def _cell_spans(cells: list[str], infos: list[_Inline], title_cols: set[int]
                ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Link/title spans and bold spans of a table row, as offsets in ``" | ".join(cells)``:
    the whole cell of a title column, and each cell's link and bold texts."""
    links: list[tuple[int, int]] = []
    bold: list[tuple[int, int]] = []
    off = 0
    for k, cell in enumerate(cells):
        if k in title_cols:
            links.append((off, off + len(cell)))
        if k < len(infos):
            info = infos[k]
            shift = off - (len(info.text) - len(info.text.lstrip()))
            links += [(a + shift, b + shift) for a, b in info.links]
            bold += [(a + shift, b + shift) for a, b in info.bold]
        off += len(cell) + 3
    return links, bold


def _raw_row(raw_cells: list[str], title_cols: set[int], md: MarkdownIt
             ) -> tuple[list[str], str, list[tuple[int, int]], list[tuple[int, int]], list[str]]:
    """A row kb splits from its raw line (C13) read as markdown-it reads a cell: each cell's
    inline markup made text by :func:`kb.read.inline._inline_text` (``**26** tok/s`` is
    ``26 tok/s``, ``24 tok/s<br>25 tok/s`` two values). ``md`` is kb's Markdown
    (:func:`kb.read.parse._md`). Returns ``(cells, text, links, bold, hrefs)`` as a parsed row's."""
    infos = [_inline_text(md.parseInline(cell)[0]) if cell else _Inline("", [], []) for cell in raw_cells]
    cells = [cell_text(info) for info in infos]
    links, bold = _cell_spans(cells, infos, title_cols)
    return cells, " | ".join(cells), links, bold, [h for info in infos for h in info.hrefs]


def cell_text(info: _Inline) -> str:
    """A table cell's text, its spaces one (an empty cell ``—``: the row's text, its cells joined by
    `` | ``, is then the text its claim keeps, so every number stays in its column; an empty cell
    lost the whole row's figures), a pipe written in it (``308 \\| 309``) shown as ``¦``: a row's text joins its
    cells with `` | ``, so a pipe inside one would move every later cell a column on (its
    header's unit and metric lost, a breaker's ``308 \\| 309`` read as nothing)."""
    return " ".join(info.text.split()).replace("|", "¦") or "—"


_PIPE_SPLIT_RE = re.compile(r"(?<!\\)\|")


def _raw_count(line: str) -> int:
    """``len(_raw_cells(line))`` (0 for a blank line), without splitting when ``line`` has no
    backslash (then every pipe is a cell boundary)."""
    s = line.strip()
    if not s:
        return 0
    if "\\" in s:
        return len(_raw_cells(s) or ())
    return s.count("|") + 1 - s.startswith("|") - (len(s) > 1 and s.endswith("|"))


def _raw_cells(line: str) -> list[str] | None:
    """Cells of a raw table line split on unescaped pipes (C13), or None without a line."""
    s = line.strip()
    if not s:
        return None
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip().replace("\\|", "|") for c in _PIPE_SPLIT_RE.split(s)]
