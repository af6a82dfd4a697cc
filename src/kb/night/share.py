"""What the nights of several topics over one window read alike (``kb sources`` of every topic:
a night per topic over every dated file of the KB), read once instead of once per topic; and
which window files' front matter names a topic (:func:`topic_paths`).

A :class:`NightShare` lives for one command over one unchanged store; :func:`kb.night.run.run_night`
makes a fresh one when given none, so a single night reads as before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kb.store.workspace import Kb

T = TypeVar("T")


@dataclass(slots=True)
class NightShare:
    """Per-file work shared by the nights of one command, by key.

    :ivar apart: path -> its lines kept apart from comparison (:func:`kb.night.apart.apart_claims`).
    :ivar fronts: path -> its stored front matter (``None``: not in the store), for
        :func:`kb.night.run.topic_paths`.
    :ivar rows: what a night read from the store, by ``(what, window start, window end)``:
        the window's files and claims before the topic's own briefs are left out.
    """

    apart: dict[str, set[int]] = field(default_factory=dict)
    fronts: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    rows: dict[Hashable, Any] = field(default_factory=dict)

    def once(self, key: Hashable, read: Callable[[], T]) -> T:
        """``read()`` the first time ``key`` is asked, the same value after."""
        if key not in self.rows:
            self.rows[key] = read()
        return self.rows[key]  # type: ignore[no-any-return]


_FRONT_TOPIC_KEYS = ("topic", "topics", "tags", "category", "categories", "direction", "方向")


def topic_paths(kb: Kb, paths: list[str], names: list[str], fronts: dict[str, Any] | None = None) -> set[str]:
    """Paths among ``paths`` whose front matter names one of ``names`` under a topic-like key
    (topic, topics, tags, category, categories, direction, 方向); ``-``/``_``/space and case alike.
    ``fronts``: path -> stored front matter, filled as rows are read (shared by nights)."""
    def fold(x: object) -> str:
        return " ".join(str(x).lower().replace("-", " ").replace("_", " ").split())

    wanted = {fold(n) for n in names}
    out: set[str] = set()
    fronts = {} if fronts is None else fronts
    for path in paths:
        if path not in fronts:
            fronts[path] = row.front if (row := kb.store.file(path)) is not None else None
        front = fronts[path]
        if front is None:
            continue
        for key in _FRONT_TOPIC_KEYS:
            value = front.get(key)
            values = value if isinstance(value, (list, tuple)) else [value] if value is not None else []
            if any(fold(v) in wanted for v in values):
                out.add(path)
                break
    return out
