"""Rendering briefs with Jinja2: strict undefined, Markdown-safe filters, template lookup order.

Lookup order (first hit wins, a jinja ChoiceLoader): ``--template``'s folder,
``templates_dir`` of ``kb.yaml`` (inside the KB, :mod:`kb.core.paths`), the templates shipped in
the package (``kb.templates``, an installed wheel), the repo's top-level ``templates/`` (an
editable install). So a KB may override one file and ``{% extends "e1prep.en.md.j2" %}``
(or ``"kb/e1prep.en.md.j2"``: always the shipped file, even from a file of that name).
Templates and includes are read only from inside those folders, never through a link out. A template that uses an undefined value
fails with :class:`~kb.core.errors.TemplateError` naming the template, the variable and, when
the value belongs to a claim, the claim's index (CASES.md C15); nothing is written.

Rendering is bounded (issue 24: two nested ``range(100000)`` loops hung ``kb digest``): past
``brief_seconds`` of rendering or ``brief_max_mb`` of output (``kb.yaml``; 60 s and 20 MB by
default) it stops with a :class:`TemplateError` naming the template and the limit; one step that
would make a huge value (``"x"|center(999999999)``) is refused before it runs
(:mod:`kb.brief.sandbox`). A line of the
brief longer than :data:`MAX_LINE` characters (40,000 values of one subject) is folded
(:func:`fold_lines`).
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2

import kb
from kb.brief.lookup import not_found, shipped_dirs, template_dirs
from kb.brief.sandbox import MAX_VALUE, Sandbox
from kb.core.errors import TemplateError
from kb.core.paths import is_inside, resolved

_WS_RE = re.compile(r"\s+")
_MD_SPECIAL = re.compile(r"([\\`*<>])")


class _UndefinedUse(jinja2.UndefinedError):
    """Raised by :class:`_KbUndefined` with what was undefined and on which object."""

    def __init__(self, name: str | None, obj: Any, hint: str | None) -> None:
        super().__init__(hint or f"{name!r} is undefined")
        self.name = name
        self.obj = obj


class _KbUndefined(jinja2.StrictUndefined):
    """StrictUndefined that remembers the variable name and its parent object."""

    __slots__ = ()

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> Any:
        raise _UndefinedUse(self._undefined_name, self._undefined_obj, self._undefined_hint)


# Jinja binds the failing dunders (__str__, __iter__, __add__ …) to the base method at class
# creation; rebind every one of them to ours.
for _cls in (jinja2.Undefined, jinja2.StrictUndefined):
    for _attr, _val in vars(_cls).items():
        if _val is jinja2.Undefined._fail_with_undefined_error and _attr.startswith("__"):
            setattr(_KbUndefined, _attr, _KbUndefined._fail_with_undefined_error)


def md(value: Any) -> str:
    """Text for Markdown body: ``\\ ` * < >`` escaped, so claim text never opens emphasis or HTML (C12)."""
    return _MD_SPECIAL.sub(r"\\\1", _WS_RE.sub(" ", str(value)).strip())


def cell(value: Any) -> str:
    """Text for a Markdown table cell: :func:`md` plus ``|`` escaped and newlines as spaces."""
    return md(value).replace("|", "\\|")


def path(value: Any) -> str:
    """A KB path (or ``path:line``) as brief text, in a table cell or a list: :func:`cell` plus
    ``[``/``]`` escaped, so a file named ``[x](y).md`` is no link, `` `rm`.md `` no code span and
    ``a|b.md`` no new cell (the §4 file list, the next steps' sources)."""
    return cell(value).translate(_TEXT_BRACKETS)


_SOURCE_RE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)$")


@jinja2.pass_context
def src(ctx: Any, value: Any) -> str:
    """A ``path:line`` source for a table cell or list item, as a clickable link when the
    context's ``links`` allows: ``[path:line](<base>path?plain=1#L<line>)`` for a Markdown file
    (style ``github``/``gitlab``: both render ``.md`` and open the line only as plain text),
    ``<base>path#L<line>`` otherwise or with style ``plain``. ``links.base`` is a relative prefix from the brief's folder to the KB root
    (``../../`` for ``inbox/<executor>/…``) or a web base URL from kb.yaml ``links``; with
    ``links.enabled`` false (kb.yaml ``links: none``) the text as :func:`cell` prints it.
    Values that are not ``path:line`` are printed as plain cells. The link text has ``[``/``]``
    escaped too (:data:`_TEXT_BRACKETS`): every file link of a brief is made here."""
    text = cell(value)
    links = ctx.get("links") or {}
    m = _SOURCE_RE.match(str(value))
    if not links.get("enabled") or m is None:
        return text
    target = quote(m.group("path"), safe="/._-~")
    plain = "?plain=1" if links.get("style", "github") != "plain" and target.lower().endswith((".md", ".markdown")) else ""
    base = str(links.get("base", "")).translate(_URL_BREAKS)
    return f"[{text.translate(_TEXT_BRACKETS)}]({base}{target}{plain}#L{m.group('line')})"


#: What :func:`src` escapes in a link's text (an unbalanced ``]`` of a file name, ``inbox/a]b.md``,
#: closed the text early: the link rendered as raw text) and percent-encodes in its base (the path is
#: percent-encoded whole): a ``(``, ``)`` or space of kb.yaml's ``links`` base ends the target.
_TEXT_BRACKETS = str.maketrans({"[": "\\[", "]": "\\]"})
_URL_BREAKS = str.maketrans({"(": "%28", ")": "%29", " ": "%20", "<": "%3C", ">": "%3E"})


def clip(value: Any, width: int = 160) -> str:
    """Whitespace collapsed; cut to ``width`` characters with ``…`` when longer."""
    text = _WS_RE.sub(" ", str(value)).strip()
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


class _Loader(jinja2.FileSystemLoader):
    """FileSystemLoader of one folder: a template it lacks is "not found" (so the
    ChoiceLoader asks the next folder: a KB's ``templates_dir`` may override one file and
    ``{% extends "e1prep.en.md.j2" %}`` the shipped one); a template that is a link leading
    out of the folder is a :class:`TemplateError` (a brief never copies a file from outside,
    issue 12); read failures (not UTF-8, unreadable) are :class:`TemplateError` naming the file.
    Jinja itself refuses names with ``..`` or an absolute path (``/etc/hostname``)."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except jinja2.TemplateNotFound:  # an OSError too: not ours to translate
            raise
        except UnicodeDecodeError as exc:
            path = _find(self.searchpath, template)
            data = exc.object if isinstance(exc.object, bytes) else b""
            line = data.count(b"\n", 0, exc.start) + 1
            bad = data[exc.start:exc.start + 1].hex()
            raise TemplateError(f"{path}:{line}: not UTF-8 (byte 0x{bad} at offset {exc.start}); "
                                "save the template as UTF-8") from exc
        except OSError as exc:
            path = exc.filename or _find(self.searchpath, template)
            raise TemplateError(f"{path}: cannot read the template: {exc.strerror or exc}") from exc
        folder = self.searchpath[0]
        if not is_inside(Path(folder), Path(filename)):
            raise TemplateError(f"{filename}: a symbolic link to {resolved(Path(filename))}, outside the template "
                                f"folder {folder}; templates are read only from inside it (copy the file in)")
        return source, filename, uptodate


def _find(searchpath: Iterable[str], template: str) -> str:
    """The file ``template`` names in the first folder of ``searchpath`` holding it (for messages)."""
    for folder in searchpath:
        candidate = Path(folder, *template.split("/"))
        if candidate.is_file():
            return str(candidate)
    return template


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Jinja's own file cache of compiled templates, in its per-user folder of the system temp
    dir (``_jinja2-cache-<uid>``, mode 0700, owner checked by Jinja), else None.

    Compiling the brief template costs ~0.1 s on every run (issue 8's nightly cost); a cached
    entry is used only while the template's source is unchanged (Jinja keys it by name and
    file and checks a checksum of the source). The file pattern carries kb's version and the
    environment's options, so another tool's cache, or another kb, never shares an entry. The
    folder is not inside the KB: a KB handed over with its ``.kb/`` must not bring code that
    runs outside the sandbox.
    """
    try:
        return jinja2.FileSystemBytecodeCache(pattern=f"__kb-{kb.__version__}-{_ENV_TAG}-%s.cache")
    except (OSError, RuntimeError):  # no safe temp folder: compile every run, as without a cache
        return None


_ENV_OPTIONS: dict[str, Any] = {"autoescape": False, "trim_blocks": True, "lstrip_blocks": True,
                                "keep_trailing_newline": True}
_ENV_TAG = "sandbox-strict-" + "".join("1" if v else "0" for v in _ENV_OPTIONS.values()) + "-bounded"  # (its code: kb.brief.sandbox)


def environment(dirs: Iterable[Path], limit: int = MAX_VALUE) -> jinja2.Environment:
    """The Jinja2 environment of briefs: sandboxed (a template that comes with a KB, through
    ``templates_dir``, cannot reach Python internals, run code, change a list or make a value
    of more than ``limit`` characters in one step: :class:`kb.brief.sandbox.Sandbox`),
    StrictUndefined, no autoescape, filters ``md``/``cell``/``clip``/``src``/``path``; compiled templates cached
    by :func:`_bytecode_cache`."""
    dirs = list(dirs)
    shipped = [d for d in dirs if d.resolve() in {s.resolve() for s in shipped_dirs()}]
    loaders: list[jinja2.BaseLoader] = [_Loader(str(d)) for d in dirs]
    if shipped:  # "kb/e1prep.en.md.j2" is always the shipped file, even when a user overrides that name
        loaders.append(jinja2.PrefixLoader({"kb": jinja2.ChoiceLoader([_Loader(str(d)) for d in shipped])}))
    env = Sandbox(
        loader=jinja2.ChoiceLoader(loaders), limit=limit,
        undefined=_KbUndefined, bytecode_cache=_bytecode_cache(), **_ENV_OPTIONS,
    )
    env.filters.update(md=md, cell=cell, clip=clip, src=src, path=path)
    return env


def render(template: str | Path, context: Mapping[str, Any], *, templates_dir: Path | None = None,
           seconds: float | None = None, max_bytes: int | None = None) -> str:
    """Render a brief template, within ``seconds`` of time and ``max_bytes`` of output
    (None: no limit), its long lines folded (:func:`fold_lines`).

    :param template: a template name (``e1prep.zh.md.j2``) looked up in :func:`kb.brief.lookup.template_dirs`,
        or a path to a template file (its folder is searched first, for its includes too).
    :param context: the values (see :func:`kb.brief.context.build_context`); a list under
        ``claims`` is how an undefined value is traced to a claim index.
    :param templates_dir: ``templates_dir`` of ``kb.yaml``, resolved against the KB root.
    :returns: the rendered Markdown.
    :raises TemplateError: template missing, unreadable, not UTF-8, invalid, using an
        undefined value (``e1prep.zh.md.j2: undefined 'source' (claim 1)``), or failing
        while it renders (``mine.md.j2:3: ZeroDivisionError: division by zero``): the
        template and, where Jinja knows it, the line are named. Nothing is returned, so
        the caller writes nothing.
    """
    path = Path(template) if isinstance(template, Path) or "/" in str(template) else None
    extra = path.resolve().parent if path is not None else None
    name = path.name if path is not None else str(template)
    if path is not None and not path.is_file():
        why = ("is a folder, not a template file" if path.is_dir()
               else "is not a regular file" if path.exists() else "no such file")
        raise TemplateError("{0} {template}: {why}", options=("template",), template=str(template), why=why)
    env = environment(template_dirs(templates_dir, extra), min(MAX_VALUE, max_bytes) if max_bytes else MAX_VALUE)
    try:
        return _timed(seconds, name, lambda: fold_lines(_bounded(env.get_template(name).generate(**context),
                                                                 max_bytes, name)))
    except TemplateError:
        raise
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(not_found(str(exc.name), templates_dir, extra)) from exc
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"{exc.filename or exc.name or name}:{exc.lineno}: {exc.message}") from exc
    except jinja2.UndefinedError as exc:
        found = _template_of(exc)
        where = Path(found[0]).name if found else name
        var = getattr(exc, "name", None)
        if str(exc).endswith("is unsafe."):  # the sandbox's refusal (l.append, x.__class__), no undefined value
            raise TemplateError(f"{where}: {str(exc)[:-1]} in a brief's template; fix the template") from exc
        what = f"undefined {var!r}" if var else str(exc)
        index = _claim_index(context, getattr(exc, "obj", None))
        suffix = f" (claim {index})" if index is not None else ""
        raise TemplateError(f"{where}: {what}{suffix}; fix the template or pass the value") from exc
    except Exception as exc:
        raise TemplateError(f"{_where(exc, name)}: {type(exc).__name__}: {exc}; fix the template") from exc


MAX_LINE = 16_000
"""Longest line of a brief, in characters; a longer one is folded (:func:`fold_lines`)."""

_SEPARATORS = ("、", "；", "; ", ", ", " ")


def fold_lines(text: str, limit: int = MAX_LINE) -> str:
    """``text`` with every line longer than ``limit`` characters folded: a table row cell by
    cell (each to its share of ``limit``), any other line as a whole, cut after a list
    separator (``、``, ``；``, ``, ``) and never inside a link or code span, with
    ``… (+N characters folded)``. Shorter lines are kept as they are."""
    if len(text) <= limit or all(len(line) <= limit for line in text.split("\n")):
        return text
    out = []
    for line in text.split("\n"):
        if len(line) > limit and line.startswith("|") and line.rstrip().endswith("|"):
            cells = re.split(r"(?<!\\)\|", line)
            share = max(200, limit // max(1, len(cells) - 2))
            line = "|".join(_fold(c, share) + (" " if len(c) > share and c.endswith(" ") else "") for c in cells)
        out.append(_fold(line, limit) if len(line) > limit else line)
    return "\n".join(out)


_OPEN_RE = re.compile(r"(?<!\\)(?:\\\\)*(\[)")


def _fold(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    cut = max(text.rfind(sep, 0, width) for sep in _SEPARATORS)
    cut = cut if cut > width // 2 else width
    head = text[:cut]
    start = max((m.start(1) for m in _OPEN_RE.finditer(head)), default=-1)  # a link's "[" (not "\\[")
    opened = max(start, head.rfind("]("))
    if opened > head.rfind(")"):  # inside a link: before it
        head = head[:max(start, 0)]
    if head.count("`") % 2:  # inside a code span: before it
        head = head[:head.rfind("`")]
    return f"{head.rstrip()} … (+{len(text) - len(head):,} characters folded)"


def _bounded(chunks: Iterator[str], max_bytes: int | None, name: str) -> str:
    """The rendered text, joined; :class:`TemplateError` past ``max_bytes`` (UTF-8 estimate:
    characters, 4 bytes each at most, counted as they come)."""
    parts: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if max_bytes is not None and size > max_bytes:
            raise TemplateError(f"{name}: the brief grew past {max_bytes / 1e6:g} MB (kb.yaml brief_max_mb); "
                                "rendering stopped, nothing written: check the template's loops")
        parts.append(chunk)
    return "".join(parts)


class _TooLong(BaseException):
    """Raised inside a template that renders past its time (a BaseException: no ``except
    Exception`` of Jinja or of a template's code turns it into another error)."""


def _timed(seconds: float | None, name: str, work: Callable[[], str]) -> str:
    """``work()``, stopped after ``seconds`` (SIGALRM's real-time timer, so a loop that outputs
    nothing is stopped too): :class:`TemplateError` naming the template. Unbounded off the main
    thread or where there is no SIGALRM (Windows).

    The timer is one-shot and armed inside the block that turns :class:`_TooLong` into the
    error, and disarmed inside it too: wherever it fires (before the template starts, as it
    ends, while the timer is being cancelled, for any ``brief_seconds`` however small), the
    answer is that error, never a traceback."""
    if seconds is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return work()

    def stop(signum: int, frame: Any) -> None:
        raise _TooLong

    before = signal.signal(signal.SIGALRM, stop)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            return work()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)  # (if it fires here, it has fired: caught below)
    except _TooLong:
        raise TemplateError(f"{name}: rendering took more than {seconds:g} s (kb.yaml brief_seconds); stopped, "
                            "nothing written: check the template's loops") from None
    finally:
        signal.signal(signal.SIGALRM, before)


def _where(exc: BaseException, name: str) -> str:
    """``file:line`` of the innermost template frame of the traceback, else ``name``."""
    found = _template_of(exc)
    return f"{found[0]}:{found[1]}" if found else name


def _template_of(exc: BaseException) -> tuple[str, int] | None:
    """File (as Jinja knows it: the path, or the name) and line of the innermost template frame, if any.

    Jinja rewrites a rendering error's traceback so that template code shows as frames of
    the template file at its line; those frames carry ``__jinja_exception__``.
    """
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:
            found = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        tb = tb.tb_next
    return found


def _claim_index(context: Mapping[str, Any], obj: Any) -> int | None:
    """1-based index (or the ``i`` field) of ``obj`` in ``context['claims']``, else None."""
    if obj is None:
        return None
    for n, item in enumerate(context.get("claims") or (), 1):
        if item is obj:
            return item.get("i", n) if isinstance(item, Mapping) else n
    return None
