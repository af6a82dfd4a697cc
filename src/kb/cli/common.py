"""Shared pieces of the command line: the Typer app, consoles, global options, progress."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from kb import __version__

if TYPE_CHECKING:  # imported where used: `kb --version` and `--help` load none of the pipeline
    from rich.console import Console
    from rich.text import Text

    from kb.ingest import Progress
    from kb.workspace import Kb

app = typer.Typer(
    name="kb",
    help="Claims, diffs and nightly E1 briefs for a Markdown research knowledge base.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """``text`` with control characters (ESC, CR, BEL … but not newline or tab) written as
    ``\\x1b``: a file name or claim text never moves the cursor or recolours the terminal."""
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)


def _escaped_text(text: Text) -> Text:
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
    def real(self) -> Console:
        """The console itself (for APIs that want a ``Console``)."""
        if self._console is None:
            self._console = _plain_console_class()(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


console: Console = _LazyConsole(highlight=False, soft_wrap=True, markup=False, emoji=False)  # type: ignore[assignment]
console_err: Console = _LazyConsole(stderr=True, highlight=False, soft_wrap=True, markup=False,  # type: ignore[assignment]
                                    emoji=False)


class Lang(str, Enum):
    """Language of a brief or a card skeleton."""

    zh = "zh"
    en = "en"


@dataclass
class State:
    """Global options given before the command."""

    kb: Path | None = None
    traceback: bool = False
    verbose: bool = False


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


@contextmanager
def progress_bar(label: str) -> Iterator[Progress | None]:
    """A rich progress bar on a terminal (stderr), nothing in a pipe."""
    if not console_err.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TimeElapsedColumn

    with RichProgress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console_err.real, transient=True,  # type: ignore[attr-defined]
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def load(kb: Path | None = None, *, quiet: bool = False) -> Kb:
    """Open the KB (``--kb`` of the command, else the global one) with an up-to-date store.

    Problems met while ingesting are printed to stderr as warnings unless ``quiet``.
    """
    from kb.workspace import open_kb

    with progress_bar("parsing") as progress:
        opened = open_kb(kb or state.kb, progress=progress)
    for note in opened.report.notes:
        console_err.print(f"note: {note}")
    if not quiet and opened.report.parsed:
        for problem in opened.report.problems:
            console_err.print(f"{problem.severity}: {problem}", highlight=False, markup=False)
    return opened
