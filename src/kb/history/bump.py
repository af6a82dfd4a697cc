"""``kb bump``: keep version N in ``history/<topic>/v<N>.md`` and set ``version: N+1``.

The seeds' habit is to edit the living document during the night and to 落版 (bump) at
05:00: the edited text is version N+1, so the snapshot of version N must be the text N had
*before* the edits. kb takes it from, in order: the copy it wrote when N was bumped in
(``history/<topic>/.bumped-in/v<N>.md``; a hidden folder, so neither ``kb lint`` KB102 nor
the history listing see it), else git (the first commit in which the doc has version N —
``HEAD`` while tonight's edits are uncommitted), else — for a KB with neither — the current
text, with a note saying so.

Every byte other than the two values changed is preserved: the BOM, CRLF line ends,
comments, key order and quoting of the front matter, and the whole body. ruamel.yaml
(round-trip mode) reads the front matter and says where ``version`` and ``updated`` are;
only those scalars are replaced in the original text, in the style they were written in.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from kb.core.config import topic_name_problem
from kb.core.errors import InputError, UsageError
from kb.core.frontmatter import PLAIN_INTEGER_RE
from kb.core.paths import bumped_in_path, doc_path, history_dir, regular_file, write_target
from kb.core.textio import write_atomic_all
from kb.read.livedoc import add_version, behind_history, version_problem
from kb.read.versions import git_first_revision, git_show, history_versions
from kb.store.locks import writer_lock

_BOM = b"\xef\xbb\xbf"
_DT_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:([Tt ])(\d{2}:\d{2})(:\d{2})?(\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?$")


@dataclass(frozen=True, slots=True)
class BumpResult:
    """What a bump did: the snapshot written, the versions, the new ``updated`` as written."""

    doc: str
    snapshot: str
    old_version: int
    new_version: int
    updated: str
    snapshot_existed: bool
    source: str = "current"
    """Where the text of version N came from: ``bumped-in`` (kb's copy), ``git <rev>`` or
    ``current`` (none found: with ``force``, the edited text was stored, as a note says)."""
    bumped: bool = True
    """False when nothing was bumped (exit 0, :attr:`why` says so): nothing changed since version
    N, or kb had no text of N before the night's edits and kept the current one as N's copy."""
    why: str = ""
    changed: int = 0
    """Lines of the body added or removed since the text of version N kb kept (what the bump versions)."""


def bump(root: Path, topic: str, *, now: datetime | None = None, tz: timezone | None = None,
         force: bool = False, on_wait: Callable[[str], None] | None = None, near: str = "") -> BumpResult:
    """Copy the living doc of ``topic`` to ``history/<topic>/v<N>.md``, then set version N+1 and ``updated``.

    The snapshot is written first and never overwritten: an existing ``v<N>.md`` with the
    same bytes is accepted (a re-run after a crash), one with other bytes is an error.

    :param now: the new ``updated`` (default: the clock), written in the style of the old one.
    :param tz: the KB's zone, for ``now`` and for values written with an offset.
    :param force: bump even when nothing changed, or kb has no text of N before the edits.
    :param near: appended to the error of a topic without a living document (the caller's
        did-you-mean: :meth:`kb.core.config.KbConfig.unknown_topic`).
    :returns: what was done; ``bumped`` False (exit 0, ``why``) when nothing changed since N or kb
        had no text of N before the edits (:func:`_nothing_to_bump`).
    :raises InputError: no doc, no front matter, no integer ``version`` (naming the version
        after history's newest), a ``version`` not above history's newest snapshot (a bump
        would write history backwards: :func:`kb.read.livedoc.behind_history`), not UTF-8, a
        different snapshot already exists, or ``now`` is before the doc's ``updated`` (naming ``updated``);
        file and line named, plus what to do.
    :raises UsageError: ``topic`` is not a plain name (``../k``): it would name a file
        outside ``organized/knowledge``.

    Reading the version, writing the snapshot and the doc happen under the KB's lock
    (:func:`kb.store.locks.writer_lock`; ``on_wait`` is told when another kb holds it): a
    second bump run at the same time waits, then reads N+1 and bumps from there, finds nothing
    changed, or refuses (an earlier ``updated``); never two bumps of the same N.
    """
    with writer_lock(root, on_wait):
        return _bump(root, topic, now=now, tz=tz, force=force, near=near)


def _bump(root: Path, topic: str, *, now: datetime | None, tz: timezone | None, force: bool,
          near: str = "") -> BumpResult:
    """:func:`bump` under the lock."""
    problem = topic_name_problem(topic)
    if problem:
        raise UsageError(problem)
    rel = doc_path(topic)
    path = write_target(root, root / rel, what="living document", force=force)
    if force and path.is_symlink():  # --force writes to the link's target, the link stays (issue 24)
        path = path.resolve()
    if not regular_file(root, rel):  # (a named pipe there: an error naming it, never read)
        raise InputError(f"no living document for topic {topic!r}; nothing to bump{near}", rel)
    data = path.read_bytes()
    bom = _BOM if data.startswith(_BOM) else b""
    try:
        text = data[len(bom):].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError("not UTF-8; kb bump rewrites UTF-8 files only (convert it first)", rel) from exc
    snaps = history_versions(root, topic)
    new_text, old, new, updated = bump_text(text, rel, now=now, tz=tz, snapshots=snaps)
    base, source = _text_of_version(root, topic, old)
    kept = base if base is not None else data
    snap_rel = f"{history_dir(topic)}/v{old}.md"
    snap = write_target(root, root / snap_rel, what="snapshot")
    existed = snap.exists()
    if existed and snap.read_bytes() != kept:
        raise InputError(f"{behind_history(old, [*snaps, old], history_dir(topic))}, then run kb bump again "
                         f"({snap_rel} exists with other content and is never overwritten)", rel)
    if not force and not existed and (why := _nothing_to_bump(root, topic, old, data, base, source)) is not None:
        # (existed, the same bytes: a re-run after a crash, finished)
        return BumpResult(rel, "", old, old, "", False, source if base is not None else "current", False, why)
    new_data = bom + new_text.encode("utf-8")
    # all to temporary files first, then renamed: an interrupted bump leaves them as before
    copy = write_target(root, root / bumped_in_path(topic, new), what="bumped-in copy")
    writes: list[tuple[Path, str | bytes, bool]] = [] if existed else [(snap, kept, False)]
    write_atomic_all([*writes, (copy, new_data, True), (path, new_data, True)])
    changed = sum(1 for line in difflib.ndiff(_body(kept).decode("utf-8", "replace").splitlines(),
                                              _body(data).decode("utf-8", "replace").splitlines())
                  if line[:2] in ("- ", "+ "))
    return BumpResult(rel, snap_rel, old, new, updated, existed, source if base is not None else "current",
                      changed=changed)


def _nothing_to_bump(root: Path, topic: str, old: int, data: bytes, base: bytes | None, source: str) -> str | None:
    """Why a bump without ``force`` writes no version (then it exits 0, writing nothing but, in
    the last case, kb's copy), else None. The one decision of an empty version, never made:
    the body unchanged since v``old`` was bumped in (kb's copy or git's text) or since the
    previous snapshot; or kb has no text of v``old`` before the night's edits (no copy, no git),
    so it cannot tell an edit: it keeps the current text as v``old``'s copy
    (``.bumped-in/v<old>.md``), and the next bump, after an edit, versions exactly it."""
    if base is not None:
        if _body(base) != _body(data):
            return None
        where = bumped_in_path(topic, old) if source == "bumped-in" else source
        return (f"nothing changed in the body since v{old} was bumped in ({where}); nothing written: "
                "edit the document first (or pass --force)")
    prev = root / history_dir(topic) / f"v{old - 1}.md"
    if prev.is_file() and _body(prev.read_bytes()) == _body(data):
        return (f"nothing changed in the body since v{old - 1} ({history_dir(topic)}/v{old - 1}.md); nothing "
                "written: edit the document first (or pass --force)")
    copy = bumped_in_path(topic, old)
    write_atomic_all([(write_target(root, root / copy, what="bumped-in copy"), data, True)])
    return (f"kb had no text of v{old} before tonight's edits (no {copy}, no git commit with that version), "
            f"so it cannot tell what changed: kept the current text as v{old}'s ({copy}); nothing bumped. "
            f"Edit the document, then run kb bump again (or pass --force to bump now: v{old}.md would hold "
            "the current text)")


def _text_of_version(root: Path, topic: str, version: int) -> tuple[bytes | None, str]:
    """The bytes of ``version`` as it was bumped in, and where they came from; ``(None, "")``
    when kb has no copy and git has no commit with that version (see the module docstring)."""
    copy = root / bumped_in_path(topic, version)
    if copy.is_file():
        return copy.read_bytes(), "bumped-in"
    rev = git_first_revision(root, topic, version)
    if rev is not None:
        text = git_show(root, rev, doc_path(topic), raw=True)
        if text is not None:
            return text, f"git {rev[:10]}"
    return None, ""


def _body(data: bytes) -> bytes:
    """A document's bytes after its front matter, line ends normalised (what a bump versions)."""
    text = data.removeprefix(_BOM).replace(b"\r\n", b"\n")
    if text.startswith(b"---\n"):
        end = text.find(b"\n---\n", 3)
        if end >= 0:
            return text[end + 5:]
    return text


def bump_text(text: str, path: str, *, now: datetime | None = None, tz: timezone | None = None,
              snapshots: Iterable[int] = ()) -> tuple[str, int, int, str]:
    """The doc's text with ``version`` incremented and ``updated`` set; nothing else changes.

    :param snapshots: the versions of the doc's history snapshots: a ``version`` below the
        newest is refused (:func:`kb.read.livedoc.behind_history`: bumping it would write a
        snapshot below history's newest and set the doc to a version history already passed),
        and a missing one is told the version after the newest (:func:`kb.read.livedoc.add_version`).
    :returns: ``(new_text, old_version, new_version, updated_as_written)``.
    :raises InputError: see :func:`bump`.
    """
    snapshots = list(snapshots)
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        raise InputError("no front matter (a first line '---'); add topic/version/updated", path, 1)
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") in ("---", "...")), None)
    if close is None:
        raise InputError("front matter opened with '---' but never closed", path, 1)
    yaml_src = "".join(lines[1:close])
    try:
        front = YAML(typ="rt").load(yaml_src)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"invalid front matter: {getattr(exc, 'problem', exc)}", path,
                         mark.line + 2 if mark else 2) from exc
    except (ValueError, OverflowError) as exc:  # ruamel builds dates itself: updated: 2026-02-30
        key, line = _bad_date_key(lines[1:close])
        raise InputError(f"{key}: not a date ({exc}); correct it, then run kb bump again",
                         path, line) from exc
    at = front.lc.value("version")[0] + 2 if isinstance(front, dict) and "version" in front else 2
    if isinstance(front, dict) and isinstance(front.get("version"), int) and not isinstance(front["version"], bool):
        written = _scalar(lines[at - 1], front.lc.value("version")[1])[2]
        if PLAIN_INTEGER_RE.fullmatch(written) is None:  # 0x10, 1_000: YAML's integers, no version (kb.core.frontmatter.kept)
            raise InputError(f"front matter 'version' {version_problem(written)}; correct it, then run kb bump again",
                             path, at)
    if not isinstance(front, dict) or not isinstance(front.get("version"), int) or isinstance(front.get("version"), bool):
        raise InputError(f"front matter has no integer `version:`; {add_version(snapshots)}, then run kb bump again",
                         path, at)
    old = int(front["version"])
    if old < 1:
        raise InputError(f"version: {old} is not a version (versions start at 1)", path,
                         front.lc.value("version")[0] + 2)
    if (why := version_problem(old)) is not None or (why := version_problem(old + 1)) is not None:
        # 99999999999999999999999: no version to bump; 999999: its next one is over the range kb reads
        raise InputError(f"front matter 'version' {'' if version_problem(old) else f'{old} + 1 '}{why}; "
                         "correct it, then run kb bump again", path, front.lc.value("version")[0] + 2)
    if old < max(snapshots, default=old) and (why := behind_history(old, snapshots, history_dir(PurePosixPath(path).stem))):
        raise InputError(f"{why}, then run kb bump again (a bump of version {old} would write v{old}.md below "
                         "the history's newest)", path, front.lc.value("version")[0] + 2)
    zone = tz or timezone.utc
    moment = (now or datetime.now(zone)).astimezone(zone)
    before = front.get("updated")
    if isinstance(before, datetime):
        before_aware = before if before.tzinfo else before.replace(tzinfo=zone)
        if moment < before_aware:
            raise InputError("the new updated {new} is before the current one ({old}); give a later {0}", path,
                             front.lc.value("updated")[0] + 2, options=("updated",), new=moment.isoformat(),
                             old=before_aware.isoformat())
    edits: list[tuple[int, int, int, str]] = []  # (line index, start col, end col, replacement)
    vline, vcol = front.lc.value("version")
    edits.append(_edit(lines, vline + 1, vcol, str(old + 1)))
    if "updated" in front:
        uline, ucol = front.lc.value("updated")
        start, end, raw = _scalar(lines[uline + 1], ucol)
        written = _format_like(raw, moment)
        edits.append((uline + 1, start, end, _requote(lines[uline + 1][ucol:start], written)))
    else:
        written = moment.isoformat(timespec="seconds")
    for index, start, end, new in sorted(edits, reverse=True):
        lines[index] = lines[index][:start] + new + lines[index][end:]
    if "updated" not in front:
        nl = "\r\n" if lines[vline + 1].endswith("\r\n") else "\n"
        lines.insert(vline + 2, f"updated: {written}{nl}")
        close += 1
    new_text = "".join(lines)
    safe = YAML(typ="safe", pure=True)
    _check(safe.load("".join(lines[1:close])), safe.load(yaml_src), old, path)
    return new_text, old, old + 1, written


def _bad_date_key(yaml_lines: list[str]) -> tuple[str, int]:
    """``(key, file line)`` of the first top-level key whose date-like value is no date
    (``updated: 2026-02-30``), else ``("front matter", 2)``."""
    for i, line in enumerate(yaml_lines):
        m = re.match(r"""([A-Za-z_][\w-]*)\s*:\s*["']?(\d{4}-\d\d?-\d\d?)""", line)
        if m:
            try:
                date.fromisoformat("-".join(f"{int(p):02d}" if j else p for j, p in enumerate(m.group(2).split("-"))))
            except ValueError:
                return m.group(1), i + 2
    return "front matter", 2


def _edit(lines: list[str], index: int, col: int, value: str) -> tuple[int, int, int, str]:
    start, end, _ = _scalar(lines[index], col)
    return index, start, end, _requote(lines[index][col:start], value)


def _scalar(line: str, col: int) -> tuple[int, int, str]:
    """``(start, end, text)`` of the scalar at ``col`` (inside its quotes, if quoted)."""
    body = line.rstrip("\r\n")
    if body[col:col + 1] in ("'", '"'):
        q = body[col]
        end = body.find(q, col + 1)
        if end < 0:
            raise InputError("multi-line quoted scalar; kb bump edits one-line values only")
        return col + 1, end, body[col + 1:end]
    m = re.match(r"[^#]*?(?=\s+#|\s*$)", body[col:])
    end = col + (m.end() if m else len(body) - col)
    return col, end, body[col:end]


def _requote(prefix: str, value: str) -> str:
    """The value as it goes between the quotes (or bare) it had."""
    if prefix == "'":
        return value.replace("'", "''")
    if prefix == '"':
        return value.replace("\\", "\\\\").replace('"', '\\"')
    return value


def _format_like(raw: str, moment: datetime) -> str:
    """``moment`` in the style of ``raw``: date only, ``T`` or space, seconds, offset or ``Z``."""
    m = _DT_RE.match(raw.strip())
    if not m:
        return moment.isoformat(timespec="seconds")
    if m.group(2) is None:
        return moment.date().isoformat()
    zone = m.group(6)
    if zone == "Z":
        moment = moment.astimezone(timezone.utc)
    out = moment.strftime("%Y-%m-%d") + m.group(2) + moment.strftime("%H:%M")
    if m.group(4):
        out += moment.strftime(":%S")
    if zone == "Z":
        out += "Z"
    elif zone:
        off = moment.strftime("%z")
        out += off[:3] + (":" if ":" in zone else "") + off[3:]
    return out


def _check(after: Any, before: dict[str, Any], old: int, path: str) -> None:
    """The rewritten front matter loads, has version old+1, and every other key is unchanged."""
    if not isinstance(after, dict) or after.get("version") != old + 1:
        raise InputError("internal: rewritten front matter does not read back; file left unchanged", path, 2)
    for key, value in before.items():
        if key in ("version", "updated"):
            continue
        if after.get(key) != value:
            raise InputError(f"internal: key {key!r} would change; file left unchanged", path, 2)
