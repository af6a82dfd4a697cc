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
import os
import re
from functools import lru_cache

import kb

_ROOT = os.path.dirname(os.path.realpath(kb.__file__))
# searched in "\n" + source: led by the newline, re skips in C from line start to line start (a ``^``
# under MULTILINE has no literal, so re tried every offset of every module); the same matches
_IMPORT_RE = re.compile(r"\n[ \t]*(?:from[ \t]+(kb(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+(kb(?:\.\w+)*))")
_NAME_RE = re.compile(r"\w+")


@lru_cache(maxsize=1)
def _modules() -> dict[str, str]:
    """Every module of the installed kb package: dotted name -> source file (one directory
    listing per package, no stat per imported name)."""
    out: dict[str, str] = {}
    for folder, dirs, files in os.walk(_ROOT):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(folder, _ROOT)
        package = "kb" if rel == "." else "kb." + rel.replace(os.sep, ".")
        for f in files:
            if f.endswith(".py"):
                out[package if f == "__init__.py" else f"{package}.{f[:-3]}"] = os.path.join(folder, f)
    return out


@lru_cache(maxsize=None)
def _source(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


@lru_cache(maxsize=None)
def _imports(module: str) -> tuple[str, ...]:
    """The kb modules ``module``'s source names in its import statements (any depth), with the
    packages each lives in."""
    files = _modules()
    found: list[str] = []
    for m in _IMPORT_RE.finditer("\n" + _source(files[module]).decode("utf-8")):
        if m.group(3):
            found.append(m.group(3))
            continue
        found.append(m.group(1))
        # a name imported from a package may be a submodule (``from kb.core import paths``)
        found.extend(f"{m.group(1)}.{n}" for n in _NAME_RE.findall(m.group(2)) if f"{m.group(1)}.{n}" in files)
    parts = module.split(".")
    found.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # its packages run their __init__
    return tuple(dict.fromkeys(x for x in found if x in files))


def closure(module: str) -> list[str]:
    """Source files of ``module`` and of every kb module it imports, transitively (sorted).

    :raises ValueError: ``module`` is no kb module
    """
    files = _modules()
    if module not in files:
        raise ValueError(f"no kb module {module!r}")
    seen: set[str] = set()
    todo = [module]
    while todo:
        mod = todo.pop()
        if mod not in seen:
            seen.add(mod)
            todo.extend(_imports(mod))
    return sorted(files[m] for m in seen)


@lru_cache(maxsize=None)
def code_digest(*modules: str) -> str:
    """A 16-hex-digit blake2b digest of kb's version and the source of ``modules`` with their
    import closure (:func:`closure`), each file keyed by its path inside the package.

    :raises ValueError: a name that is no kb module
    """
    h = hashlib.blake2b(kb.__version__.encode(), digest_size=8)
    for path in sorted({p for m in modules for p in closure(m)}):
        h.update(os.path.relpath(path, _ROOT).replace(os.sep, "/").encode())
        h.update(_source(path))
    return h.hexdigest()
