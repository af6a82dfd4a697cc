"""YAML front matter: split it from the body and load it safely, with file line numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, tzinfo
from functools import lru_cache
from typing import Any

from kb.core.moments import accepted
from kb.core.textio import Problem, Severity, decode, drop_invisible

_OPEN = "---"
_CLOSE = ("---", "...")
_TAB_RE = re.compile(r"found character '\\t' that cannot start any token")

#: The code of every problem of a front matter kb did not load (invalid YAML, never closed, too
#: long, too deep): the file's body is read, its front matter ignored; the store keeps the
#: problem, so every command after ingest says so until the file is fixed
#: (:meth:`kb.store.db.Store.unread_front_matter`).
FRONT_MATTER_UNREAD = "front-matter-unread"


@dataclass(slots=True)
class FrontMatter:
    """Front matter of one file.

    ``data`` is the loaded mapping ({} when absent or invalid); ``raw`` maps each top-level
    key to its scalar text as written (so ``arxiv: 2608.04410`` stays a string, DESIGN.md §3);
    ``body_line`` is the 1-based file line where the body starts (1 without front matter).
    """

    data: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)
    present: bool = False
    start_line: int = 1
    end_line: int = 0
    body_line: int = 1
    key_lines: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def as_datetime(value: Any, tz: tzinfo, *, clamp: bool = True) -> datetime | None:
    """A front-matter value as an aware datetime (a date -> 00:00 local; naive -> local ``tz``;
    an ISO string is read), else None: also a date outside the range kb accepts
    (:func:`kb.core.moments.accepted`; ``created: 9999-12-31T23:59-23:59``), which the caller
    reports as ignored (naming file and key) instead of skipping the file; ``clamp=False``
    keeps such a date (to tell "out of range" from "not a date" in that report)."""
    dt: datetime | None = None
    if isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=tz)
    elif isinstance(value, date):
        dt = datetime.combine(value, time(0, 0), tz)
    elif isinstance(value, str):
        try:
            got = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
        dt = got if got.tzinfo else got.replace(tzinfo=tz)
    if dt is None or (clamp and not accepted(dt)):
        return None
    if not clamp:
        return dt
    try:
        dt.astimezone(tz)  # fits the KB's zone too
    except OverflowError:
        return None
    return dt


#: An integer as YAML 1.2 reads it from plain decimal digits (``45``, ``-1``); ``0x10``, ``0o17``,
#: ``1_000``, ``+5`` and ``045`` are integers to YAML too, but no number as a person writes one.
PLAIN_INTEGER_RE = re.compile(r"0|-?[1-9][0-9]*")


def kept(fm: FrontMatter) -> dict[str, Any]:
    """The front matter as kb keeps it (:attr:`kb.core.parsed.ParsedFile.front`): the loaded values,
    with ``arxiv`` as its text as written (DESIGN.md §3: ``arxiv: 2608.04410`` is no float), and a
    ``version`` YAML reads as an integer from other than plain decimal digits (``0x10``: 16) as
    its text too, so every reader of a living doc's version (:func:`kb.read.livedoc.version_problem`)
    refuses it, naming it as written."""
    front = dict(fm.data)
    if "arxiv" in fm.raw:
        front["arxiv"] = fm.raw["arxiv"]
    version = front.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and "version" in fm.raw \
            and PLAIN_INTEGER_RE.fullmatch(fm.raw["version"]) is None:
        front["version"] = fm.raw["version"]
    return front


_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:[ \t]*(.*?)\s*$")


def split(text: str, path: str) -> tuple[FrontMatter, str]:
    """Split ``text`` (LF, no BOM — see :func:`kb.core.textio.decode`) into front matter and body.

    The body keeps its line positions: the front-matter lines are replaced by empty lines,
    so token line maps are file lines. Invalid YAML is reported as a :class:`Problem` at the
    file line ruamel names (its 0-based line + 2 for the opening ``---``) and the body is
    still returned (C10: duplicate keys and tabs get their own messages). A front matter
    longer than :data:`MAX_LINES` lines or :data:`MAX_BYTES` characters is reported at its
    first line and never loaded. This is the one reader of front matter: every reader of a
    file's lines reads the body it returns, so no reader spends more on front matter than
    this bound allows.

    :returns: ``(front_matter, body_text)``; never raises on content.
    """
    fm = FrontMatter()
    if not text.startswith(_OPEN):
        if text[:1] in "\n \t" and (late := _late_front_matter(text)) is not None:
            fm.problems.append(Problem(path, late, "front matter must start on line 1: this '---' follows blank lines, "
                                       "so its keys are read as text, not as front matter", "warning",
                                       code=FRONT_MATTER_UNREAD))
        return fm, text
    lines = text.split("\n")
    if lines[0].rstrip() != _OPEN:
        return fm, text
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() in _CLOSE), None)
    if close is None:
        return _unclosed(fm, lines, path)
    fm.present = True
    fm.end_line = close + 1
    fm.body_line = close + 2
    yaml_lines = lines[1:close]
    body = "\n" * close + "\n" + "\n".join(lines[close + 1 :])
    too_long = _too_long(yaml_lines)
    if too_long:
        fm.problems.append(Problem(path, 2, f"front matter {too_long}; front matter ignored, body read", "warning",
                                   code=FRONT_MATTER_UNREAD))
        return fm, body
    _scan_keys(fm, yaml_lines)
    fm.data = load_yaml("\n".join(yaml_lines) + "\n", path, fm.problems, first_line=2, what="front matter",
                        severity="warning", code=FRONT_MATTER_UNREAD)
    cleaned: list[str] = []
    fm.data = _cleaned(fm.data, cleaned, "")
    if cleaned:  # "\u202e", "\x1b[31m": YAML escapes make what decode removed from the file's text
        fm.problems.append(Problem(path, fm.key_lines.get(cleaned[0], 2), "control, invisible or direction characters "
                                   f"written as YAML escapes in {', '.join(dict.fromkeys(cleaned))}; removed", "warning",
                                   code="control"))
    return fm, body


def _late_front_matter(text: str) -> int | None:
    """The line of a ``---`` that opens what reads as a front matter after blank lines (a key line
    right after it and a closing ``---`` within 50 lines), else None: a writer's front matter
    kb does not read (a blank first line makes it text, as Jekyll and Hugo read it)."""
    lines = text[:4000].split("\n", 60)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or lines[first].rstrip() != _OPEN or first + 1 >= len(lines) or not _KEY_RE.match(lines[first + 1]):
        return None
    return first + 1 if any(line.rstrip() in _CLOSE for line in lines[first + 2:first + 52]) else None


def _scan_keys(fm: FrontMatter, yaml_lines: list[str]) -> None:
    """Fill ``fm.key_lines`` and ``fm.raw`` from the top-level ``key: value`` lines of
    ``yaml_lines`` (file lines from 2), as written: read even when the YAML does not load, so a
    card whose front matter is ignored still names its paper (``arxiv: "2611.07777"``)."""
    for offset, line in enumerate(yaml_lines):
        m = _KEY_RE.match(line)
        if m:
            key, value = m.group(1), m.group(2)
            fm.key_lines.setdefault(key, offset + 2)
            if value and not value.startswith(("#", "|", ">")):
                fm.raw.setdefault(key, _strip_scalar(value))


def _unclosed(fm: FrontMatter, lines: list[str], path: str) -> tuple[FrontMatter, str]:
    """A front matter opened with ``---`` and never closed: the lines after it up to the first
    blank line, when each reads as YAML (``key: value``, an indented or ``- `` continuation) and
    one is a key, are that front matter: blanked (never read as prose, so no key becomes a
    claim) and not loaded (its keys as written only: :func:`_scan_keys`), the rest read as
    body. Otherwise the ``---`` is the body's own (a rule above prose) and the whole text is body. A warning says so: at the last key line (where
    the ``---`` is missing), else at line 1."""
    end = 1
    while end < len(lines) and lines[end].strip() and (_KEY_RE.match(lines[end]) or lines[end][:1] in " \t-"):
        end += 1
    if end == 1 or not any(_KEY_RE.match(line) for line in lines[1:end]):
        fm.problems.append(Problem(path, 1, "front matter opened with '---' but never closed; read as body", "warning",
                                   code=FRONT_MATTER_UNREAD))
        return fm, "\n".join(lines)
    fm.problems.append(Problem(
        path, end, f"front matter opened with '---' at line 1 is never closed: no '---' after its last key "
        f"(this line); lines 1-{end} ignored, body read from line {end + 1}: add '---' after line {end}", "warning",
        code=FRONT_MATTER_UNREAD))
    fm.body_line = end + 1
    _scan_keys(fm, lines[1:end])
    return fm, "\n" * end + "\n".join(lines[end:])


def _cleaned(value: Any, keys: list[str], key: str) -> Any:
    """``value`` with every text in it (keys too) without the characters :func:`kb.core.textio.decode`
    removes from a file (:func:`kb.core.textio.drop_invisible`: control, invisible and direction
    characters); the top-level key of each changed text is added to ``keys``."""
    if isinstance(value, str):
        out = drop_invisible(value)
        if out != value:
            keys.append(key)
        return out
    if isinstance(value, dict):
        return {_cleaned(k, keys, key or str(k)): _cleaned(v, keys, key or str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_cleaned(v, keys, key) for v in value]
    return value


def body_lines(data: bytes, path: str) -> list[str]:
    """The lines of the file ``path`` (its bytes ``data``) as every reader after the parser reads
    them: decoded as ingest decodes them (:func:`kb.core.textio.decode`: UTF-16, GB18030, CRLF,
    NUL lines blanked) and its front matter blanked by :func:`split`, so line ``n`` is file
    line ``n + 1`` and no reader reads front matter as prose (nor spends more on it than
    :func:`split`'s bound). Never raises on content."""
    return split(decode(data, path).text, path)[1].split("\n")


def _too_long(yaml_lines: list[str]) -> str | None:
    """Why the front matter ``yaml_lines`` is too long to load (its length, and the bound it
    passes: :data:`MAX_LINES` lines, :data:`MAX_BYTES` characters), else None. Checked before
    YAML loads it, so loading costs at most what a bounded front matter costs: a 200,000-key
    front matter takes the YAML loader seconds each time a reader splits the file."""
    if len(yaml_lines) > MAX_LINES:
        return f"runs {len(yaml_lines):,} lines, more than {MAX_LINES:,}"
    size = sum(map(len, yaml_lines)) + len(yaml_lines)
    if size > MAX_BYTES:
        return f"holds {size:,} characters, more than {MAX_BYTES:,}"
    return None


def _strip_scalar(value: str) -> str:
    """Text of a plain or quoted one-line scalar, comment removed."""
    if value[:1] in "'\"":
        q = value[0]
        end = value.find(q, 1)
        return value[1:end] if end > 0 else value[1:]
    return re.split(r"\s+#", value, maxsplit=1)[0].strip()


@lru_cache(maxsize=1)
def _yaml() -> Any:
    """One safe YAML 1.2 loader, reused: ruamel's C parser when ``ruamel.yaml.clib`` is
    installed (3x faster, same results), else the pure-Python one."""
    from ruamel.yaml import YAML

    return YAML(typ="safe")


def _tab_indented(src: str, line: int) -> bool:
    """True when the 0-based ``line`` of ``src`` is indented with a tab."""
    lines = src.split("\n")
    if not 0 <= line < len(lines):
        return False
    text = lines[line]
    return "\t" in text[: len(text) - len(text.lstrip(" \t"))]


def _first_key_line(src: str, name: str, start: Any, dup: Any) -> int | None:
    """0-based line of the first ``name:`` key of the mapping that repeats it: the first line
    from the mapping's start (``start``) to the duplicate (``dup``) holding the key at the
    duplicate's column (ruamel's ``context_mark`` is the mapping's first line, not the key's)."""
    if start is None or dup is None:
        return None
    lines = src.split("\n")
    key_re = re.compile(r"""(["']?)""" + re.escape(name) + r"""\1\s*:""")
    for i in range(start.line, min(dup.line, len(lines))):
        text = lines[i]
        if key_re.match(text, dup.column) and not text[:dup.column].strip(" -"):
            return i
    return start.line


def load_yaml(src: str, path: str, problems: list[Problem], *, first_line: int,
              what: str = "front matter", severity: Severity = "error",
              code: str | None = None) -> dict[str, Any]:
    """Load a YAML mapping safely (YAML 1.2), reporting faults at file lines, never raising.

    :param src: the YAML text.
    :param first_line: the file line of ``src``'s first line (2 for front matter after its
        ``---``, 1 for ``kb.yaml``).
    :param what: how messages name the text (``front matter``, ``kb.yaml``).
    :param severity: of the faults reported: ``warning`` for a file's front matter (the file's body
        is still read, so ingest exits 0), ``error`` for ``kb.yaml`` (a config error, exit 2).
    :param code: of the faults reported (:data:`FRONT_MATTER_UNREAD` for a file's front matter).
    :returns: the mapping, or ``{}`` when it is invalid (the fault appended to ``problems``:
        duplicate keys and tabs get their own messages, C10; a quote or bracket never closed at
        the line ruamel says it opened, not at the end of the text).
    """
    said = len(problems)
    data = _load_yaml(src, path, problems, first_line=first_line, what=what, severity=severity)
    if code is not None:
        problems[said:] = [replace(p, code=code) for p in problems[said:]]
    return data


def _load_yaml(src: str, path: str, problems: list[Problem], *, first_line: int,
               what: str, severity: Severity) -> dict[str, Any]:
    """:func:`load_yaml` but for the problems' code."""
    from ruamel.yaml.constructor import DuplicateKeyError
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if not src.strip():
        return {}
    if _too_deep(src):
        problems.append(Problem(path, first_line, f"{what} nests brackets more than {MAX_DEPTH} deep; {what} ignored", severity=severity))
        return {}
    try:
        data = _yaml().load(src)
    except DuplicateKeyError as exc:
        key = re.search(r'found duplicate key "([^"]*)"', str(exc))
        line = exc.problem_mark.line + first_line if exc.problem_mark else 0
        name = key.group(1) if key else "?"
        first = _first_key_line(src, name, exc.context_mark, exc.problem_mark)
        first = first + first_line if first is not None else None
        problems.append(Problem(path, line, f"duplicate {what.replace(' ', '-')} key '{name}' (first at line {first}); {what} ignored", severity=severity))
        return {}
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        if exc.context_mark is not None and "end of stream" in str(exc.problem):
            mark = exc.context_mark  # (an unclosed quote or bracket: where it opened, not the text's end)
        line = mark.line + first_line if mark else 0
        col = mark.column + 1 if mark else None
        if _TAB_RE.search(str(exc)) or (mark is not None and _tab_indented(src, mark.line)):
            msg = f"tab used for indentation in {what}; use spaces"
        else:
            msg = f"invalid {what}: {exc.problem or exc.context}"
            if mark is exc.context_mark:
                opened = str(exc.context).removeprefix("while scanning ")
                msg = f"invalid {what}: {opened} opened here is never closed ({exc.problem})"
        problems.append(Problem(path, line, msg + ("" if "ignored" in msg else f"; {what} ignored"), column=col, severity=severity))
        return {}
    except YAMLError as exc:
        problems.append(Problem(path, first_line, f"invalid {what}: {exc}; {what} ignored", severity=severity))
        return {}
    except (ValueError, OverflowError, TypeError, RecursionError) as exc:
        # ruamel builds dates and times itself: 2026-02-30, 25:61, year 0, offset +99:00
        problems.append(Problem(path, first_line, f"invalid {what} value: {exc}; {what} ignored", severity=severity))
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        problems.append(Problem(path, first_line, f"{what} is a {type(data).__name__}, not a mapping; ignored", severity=severity))
        return {}
    if _too_big(data):
        problems.append(Problem(path, first_line, f"{what} holds more than {MAX_VALUES:,} values (YAML aliases?); ignored", severity=severity))
        return {}
    return {str(k): v for k, v in data.items()}


#: Most values a front matter may hold once YAML aliases are expanded: a card needs tens; a
#: 334-byte alias bomb expands to hundreds of millions.
MAX_VALUES = 10_000


#: Longest front matter kb loads, in lines and in characters (a card's runs tens of lines, a
#: few kilobytes); a longer one is reported and ignored before the YAML loader sees it, and its
#: body is read as any other (:func:`split`).
MAX_LINES = 10_000
MAX_BYTES = 1_000_000


#: Deepest ``[``/``{`` nesting a front matter may have: a card needs two or three levels; ruamel's
#: C parser recurses per level and a 100,000-deep flow collection ends the process (SIGSEGV)
#: before Python's recursion limit can raise.
MAX_DEPTH = 64


def _too_deep(src: str) -> bool:
    """True when ``src`` opens more than :data:`MAX_DEPTH` ``[``/``{`` without closing them (a
    linear count that ignores quoting: brackets inside quoted strings count too, which only
    errs towards refusing a front matter no card writes)."""
    if src.count("[") + src.count("{") <= MAX_DEPTH:
        return False  # (the depth never passes the number of openers: no walk needed)
    depth = 0
    for ch in src:
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}" and depth:
            depth -= 1
    return False


def _too_big(data: object) -> bool:
    """True when walking ``data`` meets more than :data:`MAX_VALUES` values (stops early)."""
    seen = 0
    stack = [data]
    while stack:
        item = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack.extend(item)
    return False
