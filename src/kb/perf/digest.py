"""The one digest of kb's own code: what a value kept between runs was computed with.

A value kb keeps between runs (the parser's rows, the kept cards, names and titles, the
config read from ``kb.yaml``) is stale when the code that computed it changes. Each keeper
names the module that computes it; :func:`code_digest` hashes that module's source and the
source of every kb module it imports, directly or not (any import statement, at any depth,
read as text: no module is imported), so the digest follows the code as it is split or
moved and covers nothing else (a change to the store's SQL does not re-parse a KB).
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

import kb

_ROOT = Path(kb.__file__).resolve().parent
_IMPORT_RE = re.compile(r"^[ \t]*(?:from[ \t]+(kb(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+(kb(?:\.\w+)*))",
                        re.MULTILINE)


def _file_of(module: str) -> Path | None:
    """The source file of the kb module ``module`` (``kb.read.parse``), or None: not a module."""
    rel = Path(*module.split(".")[1:])
    for p in (_ROOT / rel.with_suffix(".py") if rel.parts else None, _ROOT / rel / "__init__.py"):
        if p is not None and p.is_file():
            return p
    return None


def closure(module: str) -> list[Path]:
    """Source files of ``module`` and of every kb module it imports, transitively (sorted).

    :raises ValueError: ``module`` is no kb module
    """
    start = _file_of(module)
    if start is None:
        raise ValueError(f"no kb module {module!r}")
    seen: dict[Path, None] = {}
    todo = [module]
    while todo:
        mod = todo.pop()
        path = _file_of(mod)
        if path is None or path in seen:
            continue
        seen[path] = None
        parts = mod.split(".")
        for i in range(1, len(parts)):  # the packages a module lives in run their __init__
            todo.append(".".join(parts[:i]))
        for m in _IMPORT_RE.finditer(path.read_text(encoding="utf-8")):
            if m.group(3):
                todo.append(m.group(3))
                continue
            todo.append(m.group(1))
            for name in re.split(r"[\s,()]+", m.group(2)):
                name = name.split(" as ")[0].strip()
                if name and name.isidentifier():
                    todo.append(f"{m.group(1)}.{name}")  # a submodule, when a file of that name exists
    return sorted(seen)


@lru_cache(maxsize=None)
def code_digest(*modules: str) -> str:
    """A 16-hex-digit blake2b digest of kb's version and the source of ``modules`` with their
    import closure (:func:`closure`), each file keyed by its path inside the package.

    :raises ValueError: a name that is no kb module
    """
    h = hashlib.blake2b(kb.__version__.encode(), digest_size=8)
    for path in sorted({p for m in modules for p in closure(m)}):
        h.update(path.relative_to(_ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()
