"""Safe fixes: apply the findings' edits to the file's bytes, preview them as a unified diff.

Only the edited characters change. The BOM, line ends (LF, CRLF or CR, even mixed) and
every other byte are kept, because edits are applied to the raw bytes line by line. An edit
that would change code or an HTML comment is never applied, whichever rule proposes it.

The preview is a patch of the file's own bytes, as ``git diff`` writes it, so ``git apply``
(and ``patch -p1``) take it whatever the encoding, line ends or final newline.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kb.core.textio import write_atomic
from kb.lint.base import Edit, Finding
from kb.lint.lines import LineIndex

_BOM = b"\xef\xbb\xbf"
_EOL_RE = re.compile(rb"(\r\n|\r|\n)")
_LONE_CR_RE = re.compile(rb"\r(?!\n)")
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


def fix_bytes(path: str, data: bytes, encoding: str, lines: list[str], findings: Iterable[Finding],
              index: LineIndex | None = None) -> FixOutcome:
    """Apply the fixes of ``findings`` to ``data``.

    :param path: the path notes name.
    :param data: the file's bytes.
    :param encoding: how kb decoded ``data`` (:func:`kb.core.textio.decode`); UTF-8 (with or
        without BOM) and GB18030 files are fixed in their own encoding; a file read with
        replacement characters is not, and gets a note.
    :param lines: the decoded lines the findings' edits refer to; a raw line that does not
        decode to the same text (e.g. a blanked NUL line) is left alone.
    :param findings: the findings; those with a ``fix`` are applied.
    :param index: the :class:`~kb.lint.lines.LineIndex` of ``lines`` (built when None): an
        edit touching code or an HTML comment (:meth:`LineIndex.protected`) is not applied.
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
    guarded: set[int] = set()
    for line, edits in sorted(by_line.items()):
        k = 2 * (line - 1)
        if k >= len(parts) or line > len(lines):
            skipped.update(id(f) for _, f in edits)
            continue
        if index is None:
            index = LineIndex(lines, set())
        if line > index.front_end:
            guarded.update(id(f) for e, f in edits if index.protected(line, e.start, e.end))
            edits = [(e, f) for e, f in edits if id(f) not in guarded]
            if not edits:
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
    applied = {i for i in done if i not in skipped and i not in guarded}
    out.applied = len(applied)
    if skipped:
        out.notes.append(f"{path}: {len(skipped)} fix(es) not applied (overlapping or changed lines)")
    if guarded:
        out.notes.append(f"{path}: {len(guarded)} fix(es) not applied: they would change code or an HTML comment")
    out.data = (_BOM if bom else b"") + b"".join(parts)
    return out


def write_fixed(file: Path, outcome: FixOutcome) -> None:
    """Write the fixed bytes atomically (permission bits kept, see :func:`kb.core.textio.write_atomic`).

    :raises OSError: the folder is not writable.
    """
    write_atomic(file, outcome.data)


def unified_diff(outcome: FixOutcome) -> bytes:
    """The fix as a patch ``git apply`` takes: ``diff --git a/<path> b/<path>``, then a unified
    diff of the file's raw bytes, empty when nothing changes.

    Lines are split at LF only, as git does, so CRLF ends stay in the lines, a file whose lines
    end in CR alone is one line, and a last line without a newline is followed by
    ``\\ No newline at end of file``. The bytes are the file's own (GB18030 stays GB18030,
    as in ``git diff``): write them to a byte stream, not to a text one.

    :param outcome: what :func:`fix_bytes` produced.
    :returns: the patch as bytes; paths are C-quoted the way git quotes them when needed.
    """
    if not outcome.changed:
        return b""
    a, b = _quote("a/" + outcome.path), _quote("b/" + outcome.path)
    body = difflib.diff_bytes(difflib.unified_diff, _git_lines(outcome.original), _git_lines(outcome.data),
                              a, b, lineterm=b"\n")
    out = [b"diff --git " + a + b" " + b + b"\n"]
    for line in body:
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)


def diff_notes(outcome: FixOutcome, encoding: str) -> list[str]:
    """What a reader of :func:`unified_diff` should know: the patch is in GB18030, or lines
    that end in CR alone are not lines to git and show up joined.

    :param outcome: what :func:`fix_bytes` produced. :param encoding: how kb decoded the file.
    """
    if not outcome.changed:
        return []
    notes = []
    if encoding == "gb18030":
        notes.append(f"{outcome.path}: GB18030 file: its diff lines are GB18030 bytes, as in the file "
                     "(git apply takes them; a UTF-8 terminal shows them garbled)")
    if _LONE_CR_RE.search(outcome.original):
        notes.append(f"{outcome.path}: lines ending in CR alone are one line to git, so the diff "
                     "shows them joined (git apply takes it as it is)")
    return notes


def _git_lines(data: bytes) -> list[bytes]:
    """``data`` split after each LF (git's lines); a last line without LF is kept as it is."""
    parts = data.split(b"\n")
    out = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


_QUOTE = {ord('"'): '\\"', ord("\\"): "\\\\", ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r",
          ord("\a"): "\\a", ord("\b"): "\\b", ord("\f"): "\\f", ord("\v"): "\\v"}


def _quote(name: str) -> bytes:
    """A path as git writes it in a patch header: as it is, or C-quoted when it holds a quote,
    a backslash or a control character."""
    raw = os.fsencode(name)
    if not any(c < 0x20 or c == 0x7F or c in b'"\\' for c in raw):
        return raw
    text = "".join(_QUOTE.get(c, f"\\{c:03o}" if c < 0x20 or c == 0x7F else chr(c)) for c in raw)
    return b'"' + text.encode("latin-1") + b'"'
