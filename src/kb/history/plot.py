"""``kb history --plot``: a subject's values over time as an SVG or PNG picture (matplotlib, the ``plot`` extra)."""

from __future__ import annotations

import io
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from kb.core.errors import OptionError

if TYPE_CHECKING:
    from kb.history.timeline import History


PLOT_SUFFIXES = (".svg", ".png")


def plot_history(history: History, suffix: str) -> tuple[bytes, int]:
    """Draw ``history`` (:class:`kb.history.timeline.History`) as an ``.svg`` or ``.png`` picture (matplotlib, the ``plot`` extra):
    x is when a value was stated, y the value (dates on a date axis); one series per source
    author (cards: ``cards``; unknown: the file), one per topic's living doc (each version's
    values at its ``updated``). Series are SVG groups with id ``kb-series-<n>``, one marker
    per point. Values without a stamp or number are left out.

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
    series: dict[str, list[tuple[datetime, Any]]] = {}
    for s in history.sources:
        y = _y(s.value, s.low, s.high)
        if s.at is None or y is None:
            continue
        name = "cards" if s.role == "card" else (s.author or s.path)
        series.setdefault(name, []).append((datetime.fromisoformat(s.at), y))
    for v in history.versions:
        for dv in v.values:
            y = _y(dv.value, dv.low, dv.high)
            if v.updated is None or y is None:
                continue
            series.setdefault(f"living doc {v.topic}", []).append((datetime.fromisoformat(v.updated), y))
    points = [p for ps in series.values() for p in ps]
    if not points:
        raise OptionError("{0}: {subject} has no dated value to draw{metric}", "plot", subject=history.subject,
                          metric=f" for {history.metric}" if history.metric else "")
    metrics = {s.metric for s in history.sources} | {dv.metric for v in history.versions for dv in v.values if dv.value is not None}
    dates = {isinstance(y, date) for _, y in points}
    if len(metrics) > 1 or len(dates) > 1:
        raise OptionError("{0} draws one metric; give {1} (found: {found})", "plot", "metric",
                          found=", ".join(sorted(m or "-" for m in metrics)))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.dates as mdates
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise OptionError("{0} needs matplotlib: pip install 'kb-e1brief[plot]' (or pip install matplotlib)",
                          "plot") from exc
    fig, ax = plt.subplots(figsize=(8, 4.5))
    try:
        for n, (name, pts) in enumerate(series.items()):
            pts.sort(key=lambda p: p[0])
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            (line,) = ax.plot(xs, ys, marker="o", linestyle="-" if name.startswith("living doc") else "none",
                              drawstyle="steps-post", label=name)
            line.set_gid(f"kb-series-{n}")
        zone = points[0][0].tzinfo  # the KB's zone, as the stamps were written
        locator = mdates.AutoDateLocator(tz=zone)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=zone))
        if True in dates:
            ylocator = mdates.AutoDateLocator()
            ax.yaxis.set_major_locator(ylocator)
            ax.yaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
        ax.set_title(f"{history.label} — {history.metric or 'values'}")
        ax.set_xlabel("stated at")
        ax.set_ylabel(history.metric or "value")
        ax.legend(loc="best", fontsize="small")
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else None)
    finally:
        plt.close(fig)
    return buf.getvalue(), len(points)


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
