"""The ``kb`` command line (Typer). Options in, one pipeline call, rich out; no logic here.

Each command lives in its own module of this package and registers itself on :data:`app`;
:func:`main` maps :class:`kb.errors.KbError` to its exit code (``--traceback`` re-raises).
"""

from __future__ import annotations

import sys

from kb.cli.common import app, console_err, state
from rich.markup import escape

from kb.errors import KbError

# Command modules register themselves on `app` when imported.
from kb.cli import core as _core  # noqa: E402,F401

for _name in ("diff_cmd", "verify_cmd", "lint_cmd"):
    try:  # commands of later issues; absent modules simply are not registered
        __import__(f"kb.cli.{_name}")
    except ModuleNotFoundError as _exc:  # pragma: no cover - depends on the tree
        if _exc.name != f"kb.cli.{_name}":
            raise


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kb`` console script.

    Typer/click handle usage errors themselves (message, exit 2); a :class:`KbError` from a
    command becomes its message on stderr and its exit code.
    """
    try:
        app(args=argv, prog_name="kb")
    except KbError as exc:
        if state.traceback:
            raise
        console_err.print(f"[bold red]error:[/] {escape(exc.message)}", highlight=False)
        sys.exit(int(exc.exit_code))
    except KeyboardInterrupt:
        console_err.print("interrupted")
        sys.exit(130)
