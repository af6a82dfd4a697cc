"""Reading user files: bytes to text (BOM, GB18030 fallback, NUL bytes, CRLF) and atomic writes."""

from __future__ import annotations

import html
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from kb.core.errors import InputError

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with one input file, with its position (1-based line, 0 = whole file)."""

    path: str
    line: int
    message: str
    severity: Severity = "error"
    column: int | None = None
    code: str | None = None

    def __str__(self) -> str:
        where = self.path if not self.line else f"{self.path}:{self.line}"
        if self.line and self.column:
            where += f":{self.column}"
        return f"{where}: {self.message}"


@dataclass(slots=True)
class Decoded:
    """A file's text as kb reads it: LF line ends, no BOM, NUL lines blanked, no control characters."""

    text: str
    encoding: str
    problems: list[Problem] = field(default_factory=list)


def decode(data: bytes, path: str, *, keep_nul_lines: bool = False) -> Decoded:
    """Decode a user file for parsing.

    UTF-8 (with or without BOM) first; else GB18030 with a warning naming the file
    (DESIGN.md §1: GBK files exist). CRLF and lone CR become LF, so line numbers are those
    an editor shows. A line holding NUL bytes is blanked and reported (error with its line);
    the other lines are still parsed. Terminal escape sequences and other control characters
    (C0 but tab and newline, DEL, C1) are removed, with one warning naming the lines.

    :param data: the file's bytes.
    :param path: the KB-relative path, for messages.
    :param keep_nul_lines: (``kb lint``) instead of blanking a line with NUL bytes, replace
        each NUL by a space, so the rest of the line is still read and columns stay as they
        are; one problem per such line, code ``nul``, with the 1-based column of its first NUL.
    :returns: :class:`Decoded`; never raises on content.
    """
    problems: list[Problem] = []
    wide = _utf16(data)
    text = None
    if wide is not None:
        try:
            text = data.decode(wide).lstrip("\ufeff")
        except UnicodeDecodeError:
            pass
        else:  # then line ends, NUL lines and control characters as in any file
            encoding = wide
            problems.append(Problem(path, 0, f"{wide[:6].upper()} file ({wide}); read as such — save it as UTF-8",
                                    "warning"))
    if text is None:
        if _binary(data):
            problems.append(Problem(path, 0, "binary file (NUL or control bytes, not text); skipped", code="unreadable"))
            return Decoded("", "binary", problems)
        text, encoding = _narrow(data, path, problems)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text and keep_nul_lines:
        lines = text.split("\n")
        for i, ln in enumerate(lines):
            if "\x00" in ln:
                problems.append(Problem(path, i + 1, f"{ln.count(chr(0))} NUL byte(s) in the line", column=ln.index("\x00") + 1,
                                        code="nul"))
                lines[i] = ln.replace("\x00", " ")
        text = "\n".join(lines)
    elif "\x00" in text:
        lines = text.split("\n")
        bad = [i for i, ln in enumerate(lines) if "\x00" in ln]
        for i in bad:
            lines[i] = ""
        shown = ", ".join(str(i + 1) for i in bad[:5]) + (" …" if len(bad) > 5 else "")
        problems.append(Problem(path, bad[0] + 1, f"NUL bytes on {len(bad)} line(s) ({shown}); those lines skipped"))
        text = "\n".join(lines)
    if _CONTROL_CHAR_RE.search(text):  # one character class: every sequence below starts with one
        text = _drop_controls(text, path, problems, keep_columns=keep_nul_lines)
    return Decoded(text, encoding, problems)


# Invisible characters that change what a reader sees without being seen: a soft hyphen, zero-width
# space, word joiner and invisible operators (9<U+200B>04 reads as 904 but is two numbers) and the
# bidirectional marks, embeddings, overrides and isolates (U+202E shows "tok/s 009" as "900 tok/s";
# U+061C ARABIC LETTER MARK is a mark as U+200F is); not the joiners of :data:`_JOINERS`
_INVISIBLE = "\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
#: Those characters as the body of a regex class (with ranges): a file name holding one is refused
#: by the walk (:mod:`kb.store.walk`), as one holding a control character.
INVISIBLE_CLASS = _INVISIBLE
# Invisible joiners that scripts need: ZWNJ and ZWJ (Persian words, Indic conjuncts, emoji sequences),
# U+034F COMBINING GRAPHEME JOINER (Hebrew point order), U+180E MONGOLIAN VOWEL SEPARATOR. None joins
# or parts an ASCII character, so next to one (9<U+200C>06, tok<U+200D>/s) they are removed too:
# two digits on either side are one number, as a viewer shows them.
_JOINERS = "\u034f\u180e\u200c\u200d"
_JOINER_RE = f"(?<=[!-~])[{_JOINERS}]+|[{_JOINERS}]+(?=[!-~])"
# (the quick test: any character of the classes below; _CONTROL_RE then says which are removed)
_CONTROL_CHAR_RE = re.compile(f"[\\x01-\\x08\\x0b-\\x1f\\x7f-\\x9f{_INVISIBLE}{_JOINERS}]")
# A terminal escape sequence (CSI ``ESC [ … final``, OSC ``ESC ] … BEL|ESC \``, a two-byte
# ``ESC X``), or one other C0/C1 control character — not NUL (handled above), tab or newline —
# or an invisible character, or a run of joiners next to an ASCII character.
_CONTROL_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[ -~]?|\x9b[0-?]*[ -/]*[@-~]?"
    f"|[\\x01-\\x08\\x0b-\\x1f\\x7f-\\x9f{_INVISIBLE}]|{_JOINER_RE}")


def drop_invisible(text: str) -> str:
    """``text`` without the control, invisible and direction characters :func:`decode` removes
    from a file (and ZWNJ, ZWJ, U+034F, U+180E next to an ASCII character), for text that
    markup made after decoding: an HTML character reference (``4&#8203;09``, ``&#x202E;``,
    ``&zwnj;``) is decoded by markdown-it or :mod:`html.parser`, so :mod:`kb.read.inline`
    removes them again from the text it reads. No warning here: :func:`invisible_references`
    names the lines."""
    if text.isascii() or not _CONTROL_CHAR_RE.search(text):
        return text
    return _CONTROL_RE.sub("", text)


# a Markdown code span, whose references stay as written (approximately: on one line)
_CODE_SPAN_RE = re.compile(r"(`+).+?\1")
_CHARREF_RE = re.compile(r"&(?:#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});")


def invisible_references(text: str) -> list[int]:
    """The 1-based lines of ``text`` (decoded) whose HTML character references stand for
    characters :func:`drop_invisible` removes (``4&#8203;09``, ``&shy;``, ``&#x202E;``,
    ``4&zwnj;13``; not in a code span), for one warning as :func:`decode` gives for the
    characters themselves."""
    if "&" not in text:
        return []
    out: list[int] = []
    for n, ln in enumerate(text.split("\n"), 1):
        if "&" in ln and _CHARREF_RE.search(ln):
            plain = _CHARREF_RE.sub(lambda m: html.unescape(m.group()), _CODE_SPAN_RE.sub("", ln) if "`" in ln else ln)
            if not plain.isascii() and _CONTROL_RE.search(plain):
                out.append(n)
    return out


def _drop_controls(text: str, path: str, problems: list[Problem], *, keep_columns: bool) -> str:
    """``text`` without terminal escape sequences and control characters (C0 but tab and
    newline, DEL, C1), so none can become a value (``ESC[2J`` is no 2 J) nor reach a terminal
    through kb's output; one warning naming the file and the lines. With ``keep_columns``
    (``kb lint``) each removed character becomes a space instead."""
    lines = text.split("\n")
    bad: list[int] = []
    for i, ln in enumerate(lines):
        if _CONTROL_RE.search(ln):
            bad.append(i)
            lines[i] = _CONTROL_RE.sub((lambda m: " " * len(m.group(0))) if keep_columns else "", ln)
    if not bad:
        return text  # joiners, none next to an ASCII character: kept
    shown = ", ".join(str(i + 1) for i in bad[:5]) + (" …" if len(bad) > 5 else "")
    problems.append(Problem(path, bad[0] + 1, f"control characters or terminal escape sequences on {len(bad)} line(s) "
                            f"({shown}); removed", "warning", code="control"))
    return "\n".join(lines)


class NotRegularFileError(InputError):
    """The target of a write exists and is not a regular file (exit code 2)."""


def _narrow(data: bytes, path: str, problems: list[Problem]) -> tuple[str, str]:
    """``(text, encoding)`` of a file that is no UTF-16/32: UTF-8 (a BOM dropped), else GB18030,
    else UTF-8 with U+FFFD, each fallback with a warning added to ``problems``."""
    encoding = "utf-8"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        encoding = "utf-8-sig"
    try:
        return data.decode("utf-8"), encoding
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
    try:
        text = data.decode("gb18030")
        problems.append(Problem(path, 0, f"not UTF-8 (first bad byte on line {line}); read as GB18030", "warning"))
        return text, "gb18030"
    except UnicodeDecodeError:
        problems.append(Problem(path, line, "not UTF-8 nor GB18030; undecodable bytes replaced with U+FFFD", "warning"))
        return data.decode("utf-8", errors="replace"), "utf-8-replace"


def _utf16(data: bytes) -> str | None:
    """``utf-32`` when ``data`` starts with a UTF-32 BOM (either order: ``FF FE 00 00``,
    ``00 00 FE FF``); ``utf-16-le``/``utf-16-be`` when it is UTF-16 (a BOM, or NUL bytes — the
    high halves of ASCII characters — at odd positions only, or at even ones only), else None."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    head = data[:4096]
    if len(head) < 8 or len(head) % 2:
        return None
    odd, even = head[1::2].count(0), head[0::2].count(0)
    if odd > len(head) // 20 and even * 20 <= odd:
        return "utf-16-le"
    if even > len(head) // 20 and odd * 20 <= even:
        return "utf-16-be"
    return None


_CONTROL = bytes(set(range(32)) - {9, 10, 12, 13, 27})


def _binary(data: bytes) -> bool:
    """True for data that is no text: in its first 8 KiB over 10 % NUL bytes, or over 5 %
    other control bytes (text has tabs and line ends, not these). A text file with a few
    NUL bytes is text: those lines are skipped and reported (see :func:`decode`)."""
    head = data[:8192]
    if not head:
        return False
    nul = head.count(0)
    other = len(head) - len(head.translate(None, _CONTROL)) - nul
    return nul * 10 > len(head) or other * 20 > len(head)


def write_atomic(path: Path, text: str | bytes, *, overwrite: bool = True, follow_links: bool = True) -> None:
    """Write ``text`` (str as UTF-8, or bytes as they are) to ``path`` through a temporary
    file in the same folder and a rename.

    A reader sees the old file or the new one, never half of either. An overwritten file
    keeps its permission bits.

    :param overwrite: when False and ``path`` exists, raise :class:`FileExistsError`
        (checked again at rename time with a hard link, so a racing writer is not clobbered).
    A symbolic link is followed: its target is replaced, the link stays. Anything that is
    not a regular file (a folder, a device such as ``/dev/null``, a FIFO) is never replaced.
    (Whether a path may be written at all, inside the KB, is :mod:`kb.core.paths`' decision.)

    :param follow_links: False for kb's own files (``.kb/``): a symbolic link there is no
        user's choice but someone else's, so the link itself is replaced by the file and its
        target is never written.
    :raises FileExistsError: see ``overwrite``.
    :raises IsADirectoryError: ``path`` is a folder.
    :raises NotRegularFileError: ``path`` exists and is not a regular file.
    :raises OSError: the folder is not writable, the disk is full …
    """
    if not follow_links and path.is_symlink():
        path.unlink()
    write_atomic_all([(path, text, overwrite)])


def write_atomic_all(items: list[tuple[Path, str | bytes, bool]]) -> None:
    """Write several files so that a failure leaves every one as it was (issue 12: bump's
    doc and snapshot): each is written to a temporary file first (fsynced); only when all are
    written are they renamed into place, in order; if a rename fails, the files this call
    created before are removed again. Put new files first and the overwritten one last.

    :param items: ``(path, text, overwrite)`` as for :func:`write_atomic`.
    :raises OSError: as :func:`write_atomic`; nothing is left behind.
    """
    staged: list[tuple[Path, str, bool]] = []
    try:
        for path, text, overwrite in items:
            target, tmp = _stage(path, text, overwrite)
            staged.append((target, tmp, overwrite))
        created: list[Path] = []
        try:
            for target, tmp, overwrite in staged:
                if overwrite:
                    existed = target.exists()
                    os.replace(tmp, target)
                    if not existed:
                        created.append(target)
                else:
                    os.link(tmp, target)  # fails with FileExistsError if someone else won the race
                    created.append(target)
                    os.unlink(tmp)
        except BaseException:
            for target in created:
                target.unlink(missing_ok=True)
            raise
    finally:
        for _target, tmp, _ in staged:
            if os.path.exists(tmp):
                os.unlink(tmp)


def _stage(path: Path, text: str | bytes, overwrite: bool) -> tuple[Path, str]:
    """``(file to replace, temporary file holding text)`` (see :func:`write_atomic`)."""
    if path.is_symlink():
        path = path.resolve()
    if path.exists() or path.is_symlink():
        if path.is_dir():
            raise IsADirectoryError(f"{path} is a folder")
        if not path.is_file():
            raise NotRegularFileError("not a regular file (a device, FIFO or socket); kb only writes files", str(path))
        if not overwrite:
            raise FileExistsError(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # keep an existing file's permissions; a new file gets the usual 0666 & ~umask
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    _sweep(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.kb{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8") if isinstance(text, str) else text)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
            # a write or fsync failing (ENOSPC, EDQUOT, EIO) names no file: the file kb was writing
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    return path, tmp


_LEFTOVER_RE = re.compile(r"\.kb(\d+)\.[^.]+\.tmp$")


def _sweep(path: Path) -> None:
    """Remove what an earlier kb left of its temporary copies of ``path`` when it was killed
    (``kill -9`` during a bump, issue 24): ``.<name>.kb<pid>.<random>.tmp`` of a process that no
    longer runs. A running kb's copy (another process writing the same file) is left alone;
    what cannot be removed is passed over."""
    try:
        leftovers = [p for p in path.parent.iterdir() if p.name.startswith(f".{path.name}.kb") and p.name.endswith(".tmp")]
    except OSError:
        return
    for p in leftovers:
        m = _LEFTOVER_RE.search(p.name[len(path.name) + 1:])
        if m is None or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:  # that kb is gone: its copy is garbage
            try:
                p.unlink()
            except OSError:
                pass
        except (PermissionError, OverflowError, OSError):  # alive (another user's), or no such pid form
            continue
