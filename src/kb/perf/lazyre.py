"""Module-level regular expressions compiled on first use, not at import (issue 11: start-up).

Some of kb's patterns hold wide character classes (the CJK blocks: ~40k code points) that
:mod:`re` compiles in a Python loop over every code point, 3-4 ms each; a look-up
(``kb verify --offline ID``, ``kb claims --subject ID``) imports the modules that hold them
without ever matching them. :func:`lazy` stands in for :func:`re.compile` there.
"""

from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    """Stands for ``re.compile(pattern, flags)`` bound to the global ``name`` of a module.

    On the first attribute read (``.search``, ``.finditer`` …) the pattern is compiled and put
    in the module's namespace in place of this object, so every later use of the global is the
    compiled :class:`re.Pattern` itself (no indirection on a hot path). A reference kept
    elsewhere keeps working: it compiles once too (:func:`re.compile`'s own cache).
    """

    __slots__ = ("_namespace", "_name", "_pattern", "_flags")

    def __init__(self, namespace: dict[str, Any], name: str, pattern: str, flags: int = 0) -> None:
        self._namespace = namespace
        self._name = name
        self._pattern = pattern
        self._flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (now the module's global ``name``)."""
        compiled = re.compile(self._pattern, self._flags)
        if self._namespace.get(self._name) is self:
            self._namespace[self._name] = compiled
        return compiled

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.compiled(), attr)


def lazy(namespace: dict[str, Any], name: str, pattern: str, flags: int = 0) -> Any:
    """``name = lazy(globals(), "name", pattern)``: :func:`re.compile` deferred to first use
    (:class:`LazyPattern`); typed as the pattern it becomes."""
    return LazyPattern(namespace, name, pattern, flags)
