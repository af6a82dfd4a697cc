"""The ``kb`` command line (Typer). Options in, one pipeline call, rich out; no logic here.

Each command lives in its own module of this package and registers itself on :data:`app`;
:func:`main` maps :class:`kb.errors.KbError` to its exit code (``--traceback`` re-raises).
"""

from __future__ import annotations

import sys

from kb.cli.common import app, console_err, state
from kb.errors import ExitCode, KbError

# Command modules register themselves on `app` when imported.
from kb.cli import core as _core  # noqa: E402,F401

for _name in ("diff_cmd", "verify_cmd", "lint_cmd"):
    try:  # commands of later issues; absent modules simply are not registered
        __import__(f"kb.cli.{_name}")
    except ModuleNotFoundError as _exc:  # pragma: no cover - depends on the tree
        if _exc.name != f"kb.cli.{_name}":
            raise


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kb`` console script."""
    try:
        rv = app(args=argv, standalone_mode=False, prog_name="kb")
    except KbError as exc:
        if state.traceback:
            raise
        console_err.print(f"[bold red]error:[/] {exc.message}", highlight=False, markup=True)
        sys.exit(int(exc.exit_code))
    except SystemExit:
        raise
    except KeyboardInterrupt:
        console_err.print("interrupted")
        sys.exit(130)
    except Exception as exc:  # click's usage errors arrive here in non-standalone mode
        import click

        if isinstance(exc, click.exceptions.Exit):
            sys.exit(exc.exit_code)
        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(int(ExitCode.USAGE))
        if isinstance(exc, click.exceptions.Abort):
            sys.exit(130)
        raise
    sys.exit(rv if isinstance(rv, int) else 0)
