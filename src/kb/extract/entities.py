"""Entity matching: ``kb.yaml`` entities and their aliases, case-insensitive, longest match first."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence


_SEP_RE = re.compile(r"(?:\\ |\\-|_)")


def _norm(name: str) -> str:
    return re.sub(r"[-_ ]", " ", name.lower())


def entity_key(name: str) -> str:
    """Subject key of an entity: ``entity:`` + the canonical name lower-cased (issue 3)."""
    return "entity:" + name.strip().lower()


class EntityMatcher:
    """Finds entity mentions in text.

    Aliases match case-insensitively; the longest alias wins at a position, so ``vllm-mlx``
    is not ``vLLM`` (DESIGN.md §3). ASCII aliases must not be glued to letters or digits on
    either side (``vLLM`` is not in ``vLLMs``? it is: a trailing ``s`` is allowed), CJK ones
    may stand anywhere.

    :param entities: canonical name -> aliases (the canonical name is an alias of itself).
    """

    def __init__(self, entities: Mapping[str, Sequence[str]]) -> None:
        self._key_of: dict[str, str] = {}
        for canon, aliases in entities.items():
            for alias in (canon, *aliases):
                if alias and alias.strip():
                    self._key_of.setdefault(alias.strip().lower(), entity_key(canon))
        self._norm = {_norm(a): k for a, k in self._key_of.items()}
        names = sorted(self._key_of, key=len, reverse=True)
        if names:
            # "Text Generation Inference" also matches "text-generation-inference"
            alts = "|".join(_SEP_RE.sub(r"[-_ ]", re.escape(n)) for n in names)
            self._re: re.Pattern[str] | None = re.compile(
                rf"(?<![A-Za-z0-9_\-.])(?:{alts})(?![A-Za-z0-9_]|-[A-Za-z0-9]|\.\d)", re.IGNORECASE
            )
        else:
            self._re = None

    def __bool__(self) -> bool:
        return self._re is not None

    def key_for(self, alias: str) -> str | None:
        """Subject key for an alias or canonical name (``-``, ``_`` and space alike), else None."""
        return self._key_of.get(alias.strip().lower()) or self._norm.get(_norm(alias.strip()))

    def find(self, text: str) -> list[tuple[str, int, int]]:
        """Entity mentions in ``text`` as ``(key, start, end)``, in text order, no overlaps."""
        if self._re is None:
            return []
        return [(self._lookup(m.group(0)), m.start(), m.end()) for m in self._re.finditer(text)]

    def _lookup(self, found: str) -> str:
        return self._key_of.get(found.lower()) or self._norm[_norm(found)]
