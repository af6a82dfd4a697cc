"""Command ``kb bump``: keep the living doc's version N in history/, then set N+1 (issue 3)."""


from typing import Annotated, Optional

import typer

from kb.cli.common import KbOption, TextOrJson, app, console, console_err, print_json, state
from kb.cli.night_options import TopicArg


@app.command("bump")
def bump_cmd(
    topic: TopicArg = None,
    updated: Annotated[Optional[str], typer.Option("--updated", help="The new `updated` (ISO; default: now).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Bump even if the body did not change since the last snapshot.")] = False,
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json (doc, snapshot, versions, updated, source; docs/json.md).")] = TextOrJson.text,
    kb: KbOption = None,
) -> None:
    """Keep version N in history/<topic>/v<N>.md, then set version N+1 and updated.

    Edit the doc first, bump after (落版): v<N>.md holds N as it was bumped in (kb's copy in
    history/<topic>/.bumped-in/, else git's first commit with version N), so
    `kb diff --from vN --to vN+1` shows exactly the edits. Every other byte of the front matter and body is kept (comments, key order, quoting,
    CRLF). An existing snapshot is never overwritten. A body unchanged since vN was bumped in
    (or since the previous snapshot) is not bumped: kb says so and writes nothing (exit 0;
    --force bumps). Without any text of vN from before the edits (no kb copy, no git), kb
    cannot tell an edit: it keeps the current text as vN's copy and bumps nothing (exit 0);
    edit, then bump again, or --force. A version not above history's newest snapshot is
    refused, naming the version to set.
    Exit codes: 0 done, or nothing to bump; 2 no doc, no integer version, a version not above
    history's newest, a different snapshot exists.

    Example:

    \b
        kb bump inference --updated 2026-08-01T05:00
    """
    from kb.core.config import load_config, topic_name_problem
    from kb.core.moments import parse_moment
    from kb.history.bump import bump
    from kb.store.fresh import resolve_root

    root = resolve_root(kb or state.kb)
    config = load_config(root)
    name = config.first_topic() if topic is None else topic
    now = parse_moment(updated, config, "updated") if updated else None
    near = config.near_topic(name) if config.unknown_topic(root, name) and not topic_name_problem(name) else None
    res = bump(root, name, now=now, tz=config.tzinfo, force=force, near=f" (did you mean {near!r}?)" if near else "",
               on_wait=lambda message: console_err.print(f"kb: {message}", markup=False))
    if fmt is TextOrJson.json:
        print_json(res)
        return
    if not res.bumped:
        console.print(f"{res.doc} stays v{res.old_version}: {res.why}", markup=False)
        return
    if res.snapshot_existed:
        console_err.print(f"note: {res.snapshot} already held this version; kept as is", markup=False)
    elif res.source == "current":
        console_err.print(f"note: kb has no copy of v{res.old_version} as it was bumped in (no "
                          f"history/{name}/.bumped-in/v{res.old_version}.md, no git commit with that version): "
                          f"{res.snapshot} holds the current text, edits included", markup=False)
    elif res.source.startswith("git"):
        console_err.print(f"note: v{res.old_version} taken from {res.source} (the first commit with version "
                          f"{res.old_version}); {res.changed} line(s) of the body changed since", markup=False)
    console.print(f"{res.snapshot} written; {res.doc} v{res.old_version} → v{res.new_version} (updated {res.updated})",
                  markup=False)
