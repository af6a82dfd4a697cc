"""Safe fixes: apply the findings' edits to the file's bytes, preview them as a unified diff.

Only the edited characters change. The BOM, line ends (LF, CRLF or CR, even mixed) and
every other byte are kept, because edits are applied to the raw bytes line by line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kb.lint.base import Edit, Finding
from kb.textio import write_atomic

_BOM = b"\xef\xbb\xbf"
_EOL_RE = re.compile(rb"(\r\n|\r|\n)")
_WRITABLE = {"utf-8": "utf-8", "utf-8-sig": "utf-8", "gb18030": "gb18030"}


@dataclass(slots=True)
class FixOutcome:
    """What fixing one file would do.

    :ivar data: the fixed bytes (equal to the input when nothing applies).
    :ivar applied: number of findings whose fix was applied.
    :ivar notes: why some fixes were not applied.
    """

    path: str
    original: bytes
    data: bytes
    applied: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True when the fixed bytes differ from the original."""
        return self.data != self.original


def fix_bytes(path: str, data: bytes, encoding: str, lines: list[str], findings: Iterable[Finding]) -> FixOutcome:
    """Apply the fixes of ``findings`` to ``data``.

    :param encoding: how kb decoded ``data`` (:func:`kb.textio.decode`); UTF-8 (with or
        without BOM) and GB18030 files are fixed in their own encoding; a file read with
        replacement characters is not, and gets a note.
    :param lines: the decoded lines the findings' edits refer to; a raw line that does not
        decode to the same text (e.g. a blanked NUL line) is left alone.
    :returns: :class:`FixOutcome`; overlapping edits: the first (by position) wins.
    """
    out = FixOutcome(path, data, data)
    fixable = [f for f in findings if f.fix]
    if not fixable:
        return out
    enc = _WRITABLE.get(encoding)
    if enc is None:
        out.notes.append(f"{path}: not fixed: the file is neither UTF-8 nor GB18030")
        return out
    bom = data.startswith(_BOM)
    parts = _EOL_RE.split(data[3:] if bom else data)
    by_line: dict[int, list[tuple[Edit, Finding]]] = {}
    for f in fixable:
        for e in f.fix or ():
            by_line.setdefault(e.line, []).append((e, f))
    done: set[int] = set()
    skipped: set[int] = set()
    for line, edits in sorted(by_line.items()):
        k = 2 * (line - 1)
        if k >= len(parts) or line > len(lines):
            skipped.update(id(f) for _, f in edits)
            continue
        text = parts[k].decode(enc, errors="replace")
        if text != lines[line - 1]:
            skipped.update(id(f) for _, f in edits)
            continue
        edits.sort(key=lambda ef: (ef[0].start, ef[0].end))
        kept: list[tuple[Edit, Finding]] = []
        for e, f in edits:
            if kept and e.start < kept[-1][0].end:
                skipped.add(id(f))
                continue
            kept.append((e, f))
        for e, f in reversed(kept):
            text = text[: e.start] + e.text + text[e.end:]
            done.add(id(f))
        parts[k] = text.encode(enc)
    applied = {i for i in done if i not in skipped}
    out.applied = len(applied)
    if skipped:
        out.notes.append(f"{path}: {len(skipped)} fix(es) not applied (overlapping or changed lines)")
    out.data = (_BOM if bom else b"") + b"".join(parts)
    return out


def write_fixed(file: Path, outcome: FixOutcome) -> None:
    """Write the fixed bytes atomically (permission bits kept, see :func:`kb.textio.write_atomic`).

    :raises OSError: the folder is not writable.
    """
    write_atomic(file, outcome.data)


def unified_diff(outcome: FixOutcome, encoding: str = "utf-8") -> str:
    """The fix as a unified diff (``a/<path>`` → ``b/<path>``), empty when nothing changes."""
    if not outcome.changed:
        return ""
    enc = _WRITABLE.get(encoding, "utf-8")
    old = outcome.original.decode(enc, errors="replace").splitlines(keepends=True)
    new = outcome.data.decode(enc, errors="replace").splitlines(keepends=True)
    return "".join(difflib.unified_diff(old, new, f"a/{outcome.path}", f"b/{outcome.path}"))
