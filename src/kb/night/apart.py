"""Which window claims an author keeps apart from comparison: a note in their heading block says
their figures are not directly comparable (``两者不可直接比较``; the lines are
:func:`kb.extract.caveats.apart_lines`). The diff (:func:`kb.night.rules.diff`, ``apart``) never
makes their figures a conflict.
"""

from __future__ import annotations

from collections.abc import Sequence

from kb.core.claims import Claim
from kb.extract.caveats import apart_lines
from kb.store.lines import file_lines
from kb.store.workspace import Kb


def apart_claims(kb: Kb, claims: Sequence[Claim], covered: dict[str, set[int]] | None = None) -> set[str]:
    """Ids of the ``claims`` whose author says, in their heading block, that their figures are not
    directly comparable (:func:`kb.extract.caveats.apart_lines`); each file read once.

    :param covered: path -> its apart lines, filled as files are read (nights of several
        topics share one: :class:`kb.night.share.NightShare`)."""
    covered = {} if covered is None else covered
    out: set[str] = set()
    for c in claims:
        path = c.provenance.path
        if path not in covered:
            covered[path] = apart_lines(file_lines(kb.root, path)[0])  # none when it cannot be read any more
        if c.provenance.line in covered[path]:
            out.add(c.id)
    return out
