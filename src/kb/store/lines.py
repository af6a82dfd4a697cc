"""The lines of a stored KB file as a reader after ingest reads them (the brief's reading, a
citation's section): one place that reads the file again and answers for a file that is gone,
cannot be read or is shorter than the line numbers the store holds for it."""

from __future__ import annotations

from pathlib import Path

from kb.core.errors import KbError
from kb.core.frontmatter import body_lines
from kb.core.paths import read_inside


def file_lines(root: Path, path: str, upto: int = 0) -> tuple[list[str], str | None]:
    """``(lines, why)``: the lines of the KB file ``path`` as ingest read them
    (:func:`kb.core.frontmatter.body_lines`: line ``n`` is file line ``n + 1``), at least
    ``upto`` of them (the highest 1-based line the store holds for the file), so that every
    stored line number indexes a line; ``why`` is None when the file was read whole.

    A file that cannot be read any more (gone, no permission, a link out of the KB) gives
    ``upto`` blank lines and ``why`` = ``"cannot be read (<reason>)"``; a file shorter than
    ``upto`` lines (changed since it was ingested) is padded with blank lines and ``why`` says
    so. Never raises: the caller decides what to tell the reader (a ``warning:`` naming it)."""
    try:
        lines = body_lines(read_inside(root, path), path)
    except OSError as exc:
        return [""] * upto, f"cannot be read ({exc.strerror or exc})"
    except KbError as exc:  # a link leading out of the KB
        return [""] * upto, f"cannot be read ({exc})"
    if len(lines) < upto:
        return lines + [""] * (upto - len(lines)), (f"has {len(lines)} lines, fewer than the {upto} kb ingest read "
                                                     "(changed since)")
    return lines, None
