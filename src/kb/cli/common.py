"""Shared pieces of the command line: the Typer app, consoles, global options, progress."""


import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from kb import __version__

if TYPE_CHECKING:  # imported where used: `kb --version` and `--help` load none of the pipeline
    from rich.console import Console
    from rich.text import Text

    from kb.store.fresh import Progress
    from kb.store.workspace import Kb

app = typer.Typer(name="kb", help="Claims, diffs and nightly E1 briefs for a Markdown research knowledge base.",
                  no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False, rich_markup_mode=None)
_RC_CHANGED = {"bash": "~/.bashrc (a line that sources it, added once)",
               "zsh": "~/.zshrc (fpath+=~/.zfunc and compinit, added once)",
               "fish": None, "powershell": None, "pwsh": None}
"""The start-up file ``--install-completion`` also changes, per shell (typer's installer)."""
INSTALL_COMPLETION_HELP = ("Install completion for the current shell: bash writes ~/.bash_completions/kb.sh and "
                           "adds a line sourcing it to ~/.bashrc; zsh writes ~/.zfunc/_kb and adds fpath and "
                           "compinit to ~/.zshrc; fish writes ~/.config/fish/completions/kb.fish; PowerShell "
                           "appends to $profile. Completes commands, options, topics (kb.yaml), subjects and "
                           "metric keys (the store) and --kind.")


def _install_completion(ctx: Any, param: Any, value: Any) -> Any:
    """``--install-completion``: typer's installer, then a message naming every file it wrote
    or changed (typer's own names only the script, not the start-up file it appends to)."""
    if not value or ctx.resilient_parsing:
        return value
    from typer._completion_shared import install

    shell, path = install(shell=value) if isinstance(value, str) else install()
    print(f"{shell} completion for kb: wrote {path}")
    rc = _RC_CHANGED.get(shell)
    if rc:
        print(f"and changed {rc}")
    print(f"It works in shells started from now on. To undo: delete {path}" + (" and that line" if rc else "")
          + "; to install it yourself instead: kb --show-completion > FILE, and source FILE")
    raise typer.Exit(0)


def _own_install_message() -> None:
    """Point typer's ``--install-completion`` at :func:`_install_completion`, with a help that
    says where it writes."""
    import typer.completion as tc

    names = ("_install_completion_placeholder_function", "_install_completion_no_auto_placeholder_function")
    for fn in (getattr(tc, name, None) for name in names):  # typer's private names: absent = typer's own message
        for info in getattr(fn, "__defaults__", None) or ():
            if getattr(info, "callback", None) is tc.install_callback:
                info.callback = _install_completion
                info.help = INSTALL_COMPLETION_HELP


_own_install_message()
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """``text`` with control characters (ESC, CR, BEL … but not newline or tab) written as
    ``\\x1b``: a file name or claim text never moves the cursor or recolours the terminal."""
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)


def _escaped_text(text: "Text") -> "Text":
    """A styled Text with :func:`escape_controls` applied piece by piece, styles kept."""
    from rich.text import Text

    cuts = sorted({i for span in text.spans for i in (span.start, span.end)} - {0, len(text.plain)})
    out = Text(style=text.style, end=text.end)
    for piece in text.divide(cuts):
        part = Text(escape_controls(piece.plain))
        for span in piece.spans:
            part.stylize(span.style)
        out.append(part)
    return out


@lru_cache(maxsize=1)
def _plain_console_class() -> type:
    """The Console class of kb's messages, built on first use (rich.console costs start-up time
    that ``kb --version`` and ``--help`` do not need): no markup, no emoji codes
    (``demo.md:100:`` stays as written, issue 12), no highlighting, control characters escaped
    (:func:`escape_controls`)."""
    from rich.console import Console
    from rich.text import Text

    class _PlainConsole(Console):
        def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
            kwargs.setdefault("markup", False)
            kwargs.setdefault("emoji", False)
            kwargs.setdefault("highlight", False)
            safe = []
            for obj in objects:
                if isinstance(obj, str):
                    obj = escape_controls(obj)
                elif isinstance(obj, Text) and _CONTROL_RE.search(obj.plain):
                    obj = _escaped_text(obj)
                safe.append(obj)
            super().print(*safe, **kwargs)

    return _PlainConsole


class _LazyConsole:
    """kb's message console (:func:`_plain_console_class`), made on first use; attributes pass
    through to it."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def real(self) -> "Console":
        """The console itself (for APIs that want a ``Console``)."""
        if self._console is None:
            self._console = _plain_console_class()(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


console: "Console" = _LazyConsole(highlight=False, soft_wrap=True, markup=False, emoji=False)  # type: ignore[assignment]
console_err: "Console" = _LazyConsole(stderr=True, highlight=False, soft_wrap=True, markup=False,  # type: ignore[assignment]
                                    emoji=False)


class Lang(str, Enum):
    """Language of a brief or a card skeleton."""

    zh = "zh"
    en = "en"


class TextOrJson(str, Enum):
    """``--format`` of the commands that print text or the JSON their docs page gives
    (``kb trace``, ``kb history``, ``kb sources``)."""

    text = "text"
    json = "json"


def counted(n: int, word: str, many: str | None = None) -> str:
    """``1 claim``, ``2 claims``: ``n`` and the word, plural (``many``, else ``word`` + s) unless n is 1."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: pydantic models (their JSON dump), dataclasses, paths,
    dates and times (ISO 8601), enums (their value), sets and tuples (lists, sets sorted)."""
    import dataclasses
    from datetime import date, datetime, time

    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=str)
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, Path):
        return value.as_posix()
    return str(value)


def print_json(value: Any) -> None:
    """``value`` (see :func:`jsonable`) as indented UTF-8 JSON on stdout, one newline at the end."""
    import json
    import sys

    sys.stdout.write(json.dumps(jsonable(value), ensure_ascii=False, indent=2) + "\n")


@dataclass
class State:
    """Global options given before the command."""

    kb: Path | None = None
    traceback: bool = False
    verbose: bool = False
    delivered: Path | None = None
    """The file a command wrote its result to (``kb digest``'s brief): a failing stdout after it
    is no failure of the command (kb.cli.main, issue 24)."""


state = State()

KbOption = Annotated[
    Optional[Path],
    typer.Option("--kb", help="KB root (default: walk up from the current folder to kb.yaml or organized/)."),
]


def _version(value: bool) -> None:
    if value:
        print(f"kb {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    kb: KbOption = None,
    traceback: Annotated[bool, typer.Option("--traceback", help="Show the Python traceback of an error.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="Show the log lines of the libraries kb uses "
                                                            "(the arxiv client's requests).")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print kb's version and exit.")
    ] = False,
) -> None:
    """kb: typed claims, living-document diffs and E1 briefs for a research knowledge base.

    Exit codes: 0 ok, 1 findings, 2 usage/input/config error, 3 network or source unavailable.
    """
    state.kb = kb
    state.traceback = traceback
    state.verbose = verbose
    if verbose:
        _show_library_logs()


def _show_library_logs() -> None:
    """``--verbose``: the arxiv client's log lines (INFO and up) to the current stderr."""
    import logging
    import sys

    class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
        @property  # type: ignore[override]
        def stream(self):  # type: ignore[no-untyped-def]
            return sys.stderr

        @stream.setter
        def stream(self, _value) -> None:  # type: ignore[no-untyped-def]
            pass

    logger = logging.getLogger("arxiv")
    logger.setLevel(logging.INFO)
    if not any(getattr(h, "kb_verbose", False) for h in logger.handlers):
        handler = _Stderr()
        handler.kb_verbose = True  # type: ignore[attr-defined]
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        logger.addHandler(handler)


TABLE_MIN_WIDTH = 120
"""Narrower than this (columns), a table command prints one block per row instead of a table."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a table command's output.

    :ivar name: header in the table.
    :ivar body: in block form, the value goes on its own indented line (long text such as a
        claim or the reasons) instead of on the row's first line.
    :ivar pad: in block form, the value is left-aligned to this many characters on the first line.
    :ivar options: keyword arguments of :meth:`rich.table.Table.add_column` (ratio, overflow …).
    """

    name: str
    body: bool = False
    pad: int = 0
    options: dict[str, Any] = field(default_factory=dict)


def blocks_wanted(min_width: int = TABLE_MIN_WIDTH) -> bool:
    """True when stdout is a pipe or a file, or a terminal narrower than ``min_width``: then a
    table would split keys, paths and reasons over lines (``kb diff | cat`` at 80 columns)."""
    return not console.is_terminal or console.width < min_width


def print_rows(columns: Sequence[Column], rows: Sequence[Sequence[Any]], *, title: str | None = None,
               min_width: int = TABLE_MIN_WIDTH) -> None:
    """Print ``rows`` (one value per column; str or :class:`rich.text.Text`) as a rich table on
    a wide terminal, else (see :func:`blocks_wanted`) one block per row: the non-``body``
    values on one line (empty ones left out), each line of a non-empty ``body`` value on its
    own line indented by four spaces, so that ``path:line``, keys and reasons are never broken.
    The one place every table command (claims, diff, verify) decides table or blocks."""
    from rich.text import Text

    if blocks_wanted(min_width):
        if title:
            console.print(title, markup=False)
        for row in rows:
            values = [v.plain if isinstance(v, Text) else str(v) for v in row]
            head = [f"{v:<{c.pad}}" if c.pad else v for c, v in zip(columns, values) if not c.body and v]
            console.print("  ".join(head).rstrip(), markup=False)
            for c, v in zip(columns, values):
                for line in v.split("\n") if c.body and v else ():
                    console.print(f"    {line}", markup=False)
        return
    from rich.table import Table  # a table only on a wide terminal

    table = Table(header_style="bold", show_lines=False, title=title)
    for c in columns:
        table.add_column(c.name, **c.options)
    for row in rows:
        table.add_row(*row)
    console.print(table)


#: Seconds of work before a progress bar appears on a terminal (none for quick commands).
PROGRESS_DELAY = 0.5
#: Seconds between the progress lines printed to stderr when stderr is not a terminal.
PROGRESS_EVERY = 10.0


@contextmanager
def progress_bar(label: str, *, clock: Callable[[], float] | None = None) -> "Iterator[Progress]":
    """A ``progress(done, total)`` callback for long work.

    On a terminal (stderr) a rich bar appears once the work has taken :data:`PROGRESS_DELAY`
    seconds — never for a command that parses nothing or little. Elsewhere (a pipe, a log
    file, CI) one line ``parsing: 1200/12000`` goes to stderr every :data:`PROGRESS_EVERY`
    seconds, so a long piped ``kb ingest`` is never silent for long.

    :param clock: seconds, monotonic (tests pass a fake one); default :func:`time.monotonic`.
    """
    import time

    now = clock or time.monotonic
    start = now()
    last = [start]
    bar: list[Any] = []

    def update(done: int, total: int | None) -> None:
        t = now()
        if not console_err.is_terminal:
            if t - last[0] >= PROGRESS_EVERY:
                last[0] = t
                console_err.print(f"{label}: {done}/{total}" if total else f"{label}: {done}", markup=False)
            return
        if not bar:
            if t - start < PROGRESS_DELAY:
                return
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            # the label as a styled column, not markup: kb's console prints markup literally
            rich_bar = RichProgress(TextColumn("{task.description}", style="progress.description", markup=False),
                                    BarColumn(), MofNCompleteColumn(),
                                    TimeElapsedColumn(), console=console_err.real, transient=True)  # type: ignore[attr-defined]
            rich_bar.start()
            bar.extend((rich_bar, rich_bar.add_task(label, total=None)))
        bar[0].update(bar[1], completed=done, total=total)

    try:
        yield update
    finally:
        if bar:
            bar[0].stop()


def load(kb: Path | None = None, *, quiet: bool = False) -> "Kb":
    """Open the KB (``--kb`` of the command, else the global one) with an up-to-date store.

    kb.yaml's warnings (:func:`kb.core.config.config_warnings`) go to stderr every time (a night
    of only ``kb digest`` sees them); the files' problems unless ``quiet``, else the files kb did
    not read (:meth:`kb.store.fresh.IngestReport.unread`) as warnings; and every time, the files
    whose front matter kb ignored (:meth:`kb.store.db.Store.unread_front_matter`)."""
    from kb.core.config import config_warnings
    from kb.store.workspace import open_kb

    with progress_bar("parsing") as progress:
        opened = open_kb(kb or state.kb, progress=progress)
    for note in opened.report.notes:
        console_err.print(f"note: {note}")
    said = config_warnings(opened.config, opened.root)
    if not quiet and opened.report.parsed:
        said += [p for p in opened.report.problems if p not in said]
    else:  # a file kb did not read is missing from every answer: said each time
        said += [replace(p, severity="warning") for p in opened.report.unread()]
    said += [p for p in opened.store.unread_front_matter() if p not in said]  # until the file is fixed
    for problem in said:
        console_err.print(f"{problem.severity}: {problem}", highlight=False, markup=False)
    return opened
