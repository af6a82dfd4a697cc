"""Which mentions are kb's own output (briefs kb rendered), read from the store."""

from __future__ import annotations

from kb.core.claims import DERIVED_JSON_MARKS, is_derived, is_rendered_brief
from kb.store.db import MentionRow
from kb.store.workspace import Kb


class OwnBriefs:
    """Which mentions are kb's own output, not the KB's: ids in claims kb wrote into briefs
    it rendered (quotes and kb's lines, :func:`kb.core.claims.is_derived`) and ids outside any
    claim (headings) of such a brief (:func:`kb.core.claims.is_rendered_brief`). ``kb verify``
    leaves them out of mentions and of ``--all``, as ``kb claims`` leaves them out of claims."""

    #: Past this many files asked about, one scan of every claim is cheaper than one query a file.
    _PER_FILE = 200

    def __init__(self, kb: Kb) -> None:
        self.root = kb.root
        self._store = kb.store
        self._derived: dict[str, set[str]] = {}
        """path -> ids of its derived claims, read per file on first use (one id: a few files)."""
        self._all: dict[str, set[str]] | None = None
        self._files: dict[str, bool] = {}

    def _derived_of(self, path: str) -> set[str]:
        if self._all is None and len(self._derived) >= self._PER_FILE:
            self._all = {}
            for c in self._store.claims_containing(DERIVED_JSON_MARKS):
                if is_derived(c):
                    self._all.setdefault(c.provenance.path, set()).add(c.id)
        if self._all is not None:
            return self._all.get(path, set())
        if path not in self._derived:  # only claims whose JSON holds a mark are read (a pre-filter)
            self._derived[path] = {c.id for mark in DERIVED_JSON_MARKS
                                   for c in self._store.claims(path=path, json_has=mark) if is_derived(c)}
        return self._derived[path]

    def __contains__(self, m: MentionRow) -> bool:
        derived = self._derived_of(m.path)
        if m.claim_id is not None:
            return m.claim_id in derived
        if not derived:  # a brief kb rendered has derived claims: others are read only then
            return False
        if m.path not in self._files:
            self._files[m.path] = is_rendered_brief(self.root / m.path)
        return self._files[m.path]
