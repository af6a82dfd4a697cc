"""Where brief templates are looked for (the lookup order of :mod:`kb.brief.render`) and, when
one is in none of those folders, a message naming every folder looked in and how to fix it."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import kb


def template_dirs(templates_dir: Path | None = None, extra: Path | None = None) -> list[Path]:
    """Existing template folders in lookup order (the docstring of :mod:`kb.brief.render`)."""
    dirs: list[Path] = []
    if extra is not None:
        dirs.append(extra)
    if templates_dir is not None:
        dirs.append(templates_dir)
    dirs += shipped_dirs()
    seen: list[Path] = []
    for d in dirs:
        if d.is_dir() and d.resolve() not in [s.resolve() for s in seen]:
            seen.append(d)
    return seen


def shipped_dirs(*, every: bool = False) -> list[Path]:
    """The templates kb ships: package data of a wheel, the repo's ``templates/`` (editable);
    the existing ones, or ``every`` place kb looks (for a message naming them)."""
    dirs: list[Path] = []
    try:
        shipped = resources.files("kb") / "templates"
        if every or shipped.is_dir():
            dirs.append(Path(str(shipped)))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - exotic loaders
        pass
    dirs.append(Path(kb.__file__).resolve().parents[2] / "templates")
    return dirs if every else [d for d in dirs if d.is_dir()]


def not_found(name: str, templates_dir: Path | None = None, extra: Path | None = None) -> str:
    """Why template ``name`` was not found: every folder kb looked in, in lookup order, with what
    it is and whether it exists, and how to fix it (``templates_dir`` in ``kb.yaml``). A copy of
    kb's source without the repository's ``templates/`` beside it finds no shipped template."""
    places = ([(extra, "--template's folder")] if extra is not None else []) + \
             ([(templates_dir, "templates_dir of kb.yaml")] if templates_dir is not None else []) + \
             list(zip(shipped_dirs(every=True), ("shipped in the installed kb", "the kb repository's templates/")))
    seen: set[str] = set()
    looked = []
    for d, what in places:
        if str(d) in seen:
            continue
        seen.add(str(d))
        looked.append(f"{d} ({what}{'' if d.is_dir() else ': no such folder'})")
    return (f"template {name!r} not found; looked in: {'; '.join(looked)}. Fix: set `templates_dir: <folder>` in "
            f"kb.yaml to a folder of the KB holding {name} (a copy of the templates/ folder of the kb repository), "
            "or install kb with `pip install .` so its templates ship with it")
