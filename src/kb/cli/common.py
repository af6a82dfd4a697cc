"""Shared pieces of the command line: the Typer app, consoles, global options, progress."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from kb import __version__

if TYPE_CHECKING:  # imported where used: `kb --version` and `--help` load none of the pipeline
    from rich.console import Console

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


class _LazyConsole:
    """A :class:`rich.console.Console` made on first use (rich.console costs start-up time
    that ``kb --version`` and ``--help`` do not need); attributes pass through to it."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def real(self) -> Console:
        """The console itself (for APIs that want a ``Console``)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


console: Console = _LazyConsole(highlight=False, soft_wrap=True)  # type: ignore[assignment]
console_err: Console = _LazyConsole(stderr=True, highlight=False, soft_wrap=True)  # type: ignore[assignment]


class Lang(str, Enum):
    """Language of a brief or a card skeleton."""

    zh = "zh"
    en = "en"


@dataclass
class State:
    """Global options given before the command."""

    kb: Path | None = None
    traceback: bool = False


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
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print kb's version and exit.")
    ] = False,
) -> None:
    """kb: typed claims, living-document diffs and E1 briefs for a research knowledge base.

    Exit codes: 0 ok, 1 findings, 2 usage/input/config error, 3 network or source unavailable.
    """
    state.kb = kb
    state.traceback = traceback


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
