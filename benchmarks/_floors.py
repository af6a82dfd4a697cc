"""Floors that bench_table.py runs in a child process: only the stdlib (and kb's CLI) imported,
so that the benchmark's own imports (argparse, random, tempfile … ≈ 30 ms) are not in them."""

from __future__ import annotations

import os
from pathlib import Path


def stat_walk(root: Path) -> None:
    """The floor of a freshness check: one os.scandir walk with a stat of every file."""
    stack = [str(root)]
    while stack:
        for e in os.scandir(stack.pop()):
            if e.is_dir(follow_symlinks=False):
                if not e.name.startswith("."):
                    stack.append(e.path)
            else:
                e.stat(follow_symlinks=False)


def cli_only(argv: list[str], walk: str | None = None) -> None:
    """kb's own command line on ``argv`` with every command's body a no-op (run in a child).

    What is left is the floor a look-up pays before it does anything: start-up, ``kb.cli``'s
    imports and Typer's parse of the command's own parameters (Typer ≥ 0.2x coerces each one
    through a pydantic TypeAdapter, which imports pydantic's validators); with ``walk``, plus
    :func:`stat_walk` of that KB, the freshness check's floor. ``kb verify`` minus this is
    what kb's own code costs.
    """
    import inspect

    from kb.cli.common import app
    from kb.cli import main as kb_main

    for info in app.registered_commands:
        real = info.callback

        def noop(*args: object, **kwargs: object) -> None:
            return None

        noop.__signature__ = inspect.signature(real, eval_str=True)  # type: ignore[attr-defined]
        noop.__annotations__ = dict(getattr(real, "__annotations__", {}))
        noop.__name__ = real.__name__
        info.callback = noop
    if walk is not None:
        stat_walk(Path(walk))
    kb_main(argv)
