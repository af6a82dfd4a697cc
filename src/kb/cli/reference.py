"""``docs/cli.md`` from the command tree's own ``--help`` texts (kept in step by tests/test_docs.py).

Regenerate with ``python -m kb.cli.reference > docs/cli.md``.
"""


from typing import Any

import typer
import typer.main

HEADER = """# kb command-line reference

Generated from `kb … --help` by `python -m kb.cli.reference > docs/cli.md`; a test fails when
this file and the commands' help drift apart. Exit codes of every command: 0 ok, 1 findings,
2 usage, input or config error, 3 network or source unavailable. A reader that closes the pipe
early (`kb claims | head -n1`) is no error: nothing on stderr, and the command's own code (0, or
1 when `kb verify --all | head -n1` has findings). `kb ingest` exits 2 when any file could not
be read (each is named on stderr; the others are stored).
"""


def _walk(cmd: Any, path: list[str]) -> list[tuple[list[str], Any]]:
    out = [(path, cmd)]
    if hasattr(cmd, "list_commands"):
        ctx = typer.Context(cmd)
        for name in sorted(cmd.list_commands(ctx)):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not getattr(sub, "hidden", False):
                out.extend(_walk(sub, [*path, name]))
    return out


def cli_reference() -> str:
    """The Markdown reference: one section per command with its usage and full help."""
    from kb.cli.common import app

    root = typer.main.get_command(app)
    parts = [HEADER]
    for path, cmd in _walk(root, ["kb"]):
        name = " ".join(path)
        with typer.Context(cmd, info_name=name, terminal_width=100, max_content_width=100) as ctx:
            text = cmd.get_help(ctx)
        parts.append(f"\n## `{name}`\n\n```text\n{text.rstrip()}\n```\n")
    return "".join(parts)


if __name__ == "__main__":
    import kb.cli  # noqa: F401  (registers every command)

    print(cli_reference(), end="")
