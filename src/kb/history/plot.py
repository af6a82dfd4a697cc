"""``kb history --plot``: a subject's values over time as an SVG or PNG picture (matplotlib, the ``plot`` extra).

The picture is meant to be pasted into a brief: dates on the x axis (``2026-07-31``, never hours
of one day), the y axis and each point labelled as the values are written (``1,300 万``, ``45%``,
``2×``), one marker per claim kind, one colour per source, and in an SVG a ``<title>`` tooltip
per point naming the value, kind, who, when and ``path:line``. Values a living-doc version holds
at once stand side by side at its date, never joined by a vertical line.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import warnings
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from kb.core.errors import OptionError
from kb.read.livedoc import version_label

if TYPE_CHECKING:
    from kb.history.timeline import History


PLOT_SUFFIXES = (".svg", ".png")
MARKERS = {"paper-fact": "s", "secondhand": "o", "internal-rating": "^", "living-doc": "D"}
"""One marker per kind: a square for the paper's own figures, a circle for relayed ones, a
triangle for the team's ratings, a diamond for what the living doc holds."""
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "PingFang SC",
             "Microsoft YaHei", "SimHei", "Heiti SC")
"""Fonts tried, in order, for the CJK characters of values (``1,300 万``) in a PNG; an SVG keeps
its text as text and the viewer's fonts draw it."""
_SCALES = (("亿", 1e8), ("万", 1e4))
"""Chinese magnitude words a value may be written with, and what they multiply by."""


@dataclass(frozen=True, slots=True)
class Point:
    """One value drawn: when (x), the value (y: a number or a date), as written, and its source."""

    at: datetime
    y: Any
    raw: str
    kind: str
    series: str
    source: str
    who: str
    group: int | None

    def tooltip(self) -> str:
        """``45% · secondhand · tom · 2026-08-03 00:00 · inbox/tom/x.md:3`` (the SVG ``<title>``)."""
        return f"{self.raw} · {self.kind} · {self.who} · {self.at.strftime('%Y-%m-%d %H:%M')} · {self.source}"


def mpl_config_dir() -> str:
    """Where matplotlib keeps its font cache when kb draws: ``MPLCONFIGDIR`` if the user set it,
    else a folder of kb's own in the temporary directory (``kb-matplotlib-<uid>``), never
    ``~/.cache`` or ``~/.matplotlib`` (a ``kb history --plot`` leaves nothing in the home folder)."""
    given = os.environ.get("MPLCONFIGDIR")
    if given:
        return given
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    path = os.path.join(tempfile.gettempdir(), f"kb-matplotlib-{uid}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.environ["MPLCONFIGDIR"] = path
    return path


def plot_points(history: History) -> list[Point]:
    """The values of ``history`` that have a time and a value, as :class:`Point`: every source
    (series: its author; cards: ``cards``; unknown: the file) and every living-doc version's
    values at its ``updated`` (series ``living doc <topic>``, kind ``living-doc``). Ordered by time."""
    points: list[Point] = []
    for s in history.sources:
        y = _y(s.value, s.low, s.high)
        if s.at is None or y is None:
            continue
        name = "cards" if s.role == "card" else (s.author or s.path)
        points.append(Point(datetime.fromisoformat(s.at), y, s.raw, s.kind, name, f"{s.path}:{s.line}",
                            s.author or s.role, s.group))
    for v in history.versions:
        for dv in v.values:
            y = _y(dv.value, dv.low, dv.high)
            if v.updated is None or y is None:
                continue
            points.append(Point(datetime.fromisoformat(v.updated), y, dv.raw or "", "living-doc", f"living doc {v.topic}",
                                f"{v.path}:{dv.line}", f"{v.topic} {version_label(v.version)}", dv.group))
    points.sort(key=lambda p: (p.at, p.series, str(p.y)))
    return points


def value_axis(points: list[Point]) -> tuple[float, str]:
    """How the y axis writes numbers: ``(scale, suffix)`` shared by every value as written
    (``1,300 万`` → ``(1e4, " 万")``, ``45%`` → ``(1, "%")``, ``2×`` → ``(1, "×")``), else ``(1, "")``."""
    raws = [p.raw for p in points]
    for word, scale in _SCALES:
        if raws and all(word in r for r in raws):
            return scale, f" {word}"
    for mark in ("%", "×"):
        if raws and all(r.rstrip().endswith(mark) or mark in r for r in raws):
            return 1.0, mark
    return 1.0, ""


def plot_history(history: History, suffix: str) -> tuple[bytes, int]:
    """Draw ``history`` (:class:`kb.history.timeline.History`) as an ``.svg`` or ``.png`` picture.

    x is when a value was stated (a date axis in the KB's zone), y the value (dates on a date
    axis; numbers in the unit and magnitude written, see :func:`value_axis`). Each point is its
    own SVG group ``kb-point-<n>`` (n in :func:`plot_points` order) holding a ``<title>``
    tooltip (:meth:`Point.tooltip`), its marker (:data:`MARKERS`) and, beside it, its value as
    written. Values one series states at one moment (a doc version holding two values) are
    spread side by side; a living doc's value is joined to the same value in its next version
    by a horizontal line only. Values without a stamp or number are left out.

    :param suffix: ``.svg`` or ``.png``.
    :returns: the picture's bytes and the number of points drawn.
    :raises OptionError: the ``plot`` extra is not installed, the suffix is neither ``.svg``
        nor ``.png``, values of several metrics or of numbers and dates mixed (give a
        ``metric``), or nothing to draw; the message names the picture ``plot``.
    """
    suffix = suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise OptionError("{0}: a picture is .svg or .png, not {suffix}", "plot",
                          suffix=suffix or "a file without a suffix")
    points = plot_points(history)
    if not points:
        raise OptionError("{0}: {subject} has no dated value to draw{metric}", "plot", subject=history.subject,
                          metric=f" for {history.metric}" if history.metric else "")
    metrics = {s.metric for s in history.sources} | {dv.metric for v in history.versions for dv in v.values if dv.value is not None}
    dates = {isinstance(p.y, date) for p in points}
    if len(metrics) > 1 or len(dates) > 1:
        raise OptionError("{0} draws one metric; give {1} (found: {found})", "plot", "metric",
                          found=", ".join(sorted(m or "-" for m in metrics)))
    mpl_config_dir()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise OptionError("{0} needs matplotlib: pip install 'kb-e1brief[plot]' (or pip install matplotlib; with pipx: pipx inject kb-e1brief matplotlib)",
                          "plot") from exc
    style = {"svg.fonttype": "none",  # SVG text stays text: searchable, and drawn in the viewer's CJK fonts
             "font.family": ["DejaVu Sans", *_installed(CJK_FONTS)]}
    with matplotlib.rc_context(style), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        warnings.filterwarnings("ignore", message="findfont")
        fig, ax = plt.subplots(figsize=(8, 4.5))
        data = _draw(fig, ax, plt, points, history, suffix, dates=True in dates)
    if suffix == ".svg":
        data = _with_titles(data.decode("utf-8"), points).encode("utf-8")
    return data, len(points)


def _draw(fig: Any, ax: Any, plt: Any, points: list[Point], history: History, suffix: str, *, dates: bool) -> bytes:
    """The body of :func:`plot_history`: points, lines, axes, legend; the picture's bytes."""
    import matplotlib.dates as mdates
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter

    zone = points[0].at.tzinfo  # the KB's zone, as the stamps were written
    xs = _spread(points)
    series = list(dict.fromkeys(p.series for p in points))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour = {name: colours[i % len(colours)] for i, name in enumerate(series)}
    try:
        for name in series:  # a living doc's value kept from version to version: one flat line
            if not name.startswith("living doc"):
                continue
            by_group: dict[int | None, list[tuple[datetime, Any]]] = {}
            for p, x in zip(points, xs):
                if p.series == name and p.group is not None:
                    by_group.setdefault(p.group, []).append((x, p.y))
            for run in by_group.values():
                if len(run) > 1:
                    ax.plot([r[0] for r in run], [run[0][1]] * len(run), linestyle="--", linewidth=0.8,
                            color=colour[name], alpha=0.6)
        for n, (p, x) in enumerate(zip(points, xs)):
            (line,) = ax.plot([x], [p.y], marker=MARKERS.get(p.kind, "o"), linestyle="none", color=colour[p.series],
                              markersize=7)
            line.set_gid(f"kb-point-{n}")
            ax.annotate(p.raw, (x, p.y), xytext=(5, 5), textcoords="offset points", fontsize=7,
                        gid=f"kb-label-{n}")
        _date_axis(ax.xaxis, [p.at for p in points], zone, mdates)
        if dates:
            _date_axis(ax.yaxis, [datetime.combine(p.y, datetime.min.time()) for p in points], None, mdates)
        else:
            scale, unit = value_axis(points)
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v / scale:,.6g}{unit}"))
        kinds = list(dict.fromkeys(p.kind for p in points))
        handles = [Line2D([], [], color=colour[s], marker="o", linestyle="none", label=s) for s in series]
        handles += [Line2D([], [], color="0.4", marker=MARKERS.get(k, "o"), linestyle="none", label=k) for k in kinds]
        ax.legend(handles=handles, loc="best", fontsize="small")
        ax.set_title(f"{history.label} — {history.metric or 'values'}")
        ax.set_xlabel("stated at")
        ax.set_ylabel(history.metric or "value")
        ax.grid(True, linewidth=0.3, alpha=0.5)
        fig.autofmt_xdate()
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else None)
    finally:
        plt.close(fig)
    return buf.getvalue()


def _installed(fonts: tuple[str, ...]) -> list[str]:
    """Those of ``fonts`` matplotlib finds on this machine (a missing one is logged on every use)."""
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return [f for f in fonts if f in have]


def _spread(points: list[Point]) -> list[datetime]:
    """x of each point: its time, but values one series states at one moment stand side by side,
    each moved by a small step (1 % of the whole span, at least an hour) around that moment."""
    span = max(p.at for p in points) - min(p.at for p in points)
    step = max(span * 0.01, timedelta(hours=1))
    at_once: dict[tuple[str, datetime], list[int]] = {}
    for i, p in enumerate(points):
        at_once.setdefault((p.series, p.at), []).append(i)
    xs = [p.at for p in points]
    for members in at_once.values():
        if len({str(points[i].y) for i in members}) < 2:
            continue
        for k, i in enumerate(members):
            xs[i] = points[i].at + step * (k - (len(members) - 1) / 2)
    return xs


def _date_axis(axis: Any, moments: list[datetime], zone: Any, mdates: Any) -> None:
    """Dates (``2026-07-31``) on ``axis``, the view at least three days wide, so that values
    of one day never turn the axis into hours of that day."""
    low, high = min(moments), max(moments)
    if high - low < timedelta(days=3):
        mid = low + (high - low) / 2
        low, high = mid - timedelta(days=1.5), mid + timedelta(days=1.5)
    pad = (high - low) * 0.06
    locator = mdates.AutoDateLocator(tz=zone, minticks=3, maxticks=8)
    axis.set_major_locator(locator)
    axis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d", tz=zone))
    axis.axes.set_xlim(low - pad, high + pad) if axis.axis_name == "x" else axis.axes.set_ylim(low - pad, high + pad)


def _with_titles(svg: str, points: list[Point]) -> str:
    """Each point's group ``kb-point-<n>`` with its tooltip (``<title>``) as first child."""
    def add(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return f"{m.group(0)}\n   <title>{escape(points[n].tooltip())}</title>"

    return re.sub(r'<g id="kb-point-(\d+)">', add, svg)


def _y(value: float | str | None, low: float | None, high: float | None) -> Any:
    """A value as a y coordinate: a date (``2025-12`` is 2025-12-01), a number, a range's middle."""
    if isinstance(value, str):
        parts = [int(x) for x in value[:10].split("-")]
        return date(parts[0], *(parts[1:] + [1] * (3 - len(parts))))
    if value is not None:
        return value
    if low is not None and high is not None:
        return (low + high) / 2
    return None
