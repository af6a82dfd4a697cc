"""Command ``kb trace``: each value of a subject from its earliest source to every relay (kb.facts.relay)."""


import json
import sys
from typing import Annotated, Any, Optional

import typer

from kb.cli.complete import complete_metric, complete_subject, complete_topic
from kb.cli.common import KbOption, TextOrJson, app, escape_controls, load


@app.command("trace")
def trace_cmd(
    subject: Annotated[str, typer.Argument(help="arXiv id in any form, entity name or alias, card alias, doi:….", autocompletion=complete_subject)],
    metric: Annotated[Optional[str], typer.Option("--metric", help="Only this metric key (e.g. ci_job_minutes).", autocompletion=complete_metric)] = None,
    topic: Annotated[Optional[str], typer.Option("--topic", help="Only chains with a hop in a file of this topic.", autocompletion=complete_topic)] = None,
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json.")] = TextOrJson.text,
    kb: KbOption = None,
) -> None:
    """Relay chains of a subject's values: who stated each value first, who relayed it, where it changed.

    A claim relays another when it cites that file (a KB path, `paper_cards/681`, "据 jay 1735
    简报", "见 spark 的 llm-infra E1") or shares its source (a URL, "vLLM 博客"). Hops are ordered
    by written time; a hop whose value differs from what it relays is marked CHANGED. References
    to files that do not exist (or match several) are listed at the end. Rules: docs/trace.md.
    Exit codes: 0 done (also when values changed); 2 unknown subject, metric or topic.

    Example:

    \b
        kb trace vLLM --metric ci_job_minutes

    \b
        kb trace TGI --format json
    """
    from kb.facts.relay import trace

    opened = load(kb, quiet=True)
    try:
        result = trace(opened, subject, metric=metric, topic=topic)
    finally:
        opened.close()
    if fmt is TextOrJson.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(escape_controls(render_text(result)))


def _hm(iso: str | None) -> str:
    return iso[:16].replace("T", " ") if iso else "—"


def render_text(result: dict[str, Any]) -> str:
    """The text form of :func:`kb.facts.relay.trace`'s result (docs/trace.md shows it)."""
    out: list[str] = []
    label = result["label"]
    if not result["chains"]:
        what = f" {result['metric']}" if result["metric"] else ""
        out.append(f"{label}: no value{what} stated in the KB\n")
    for ch in result["chains"]:
        names = ch["source_labels"]
        src = ", ".join(names[s] for s in ch["sources"]) or f"first stated at {ch['first']}"
        head = f"{label} · {ch['metric']} — {ch['value']} — source: {src}"
        if ch["changed_at"]:
            head += f" — changed at {', '.join(ch['changed_at'])}"
        out.append(head + "\n")
        for i, h in enumerate(ch["hops"], 1):
            line = f"  {i}. {_hm(h['written_at'])}  {h['author'] or '—'}  {h['kind']}  {h['raw']}  {h['source']}"
            up = h["upstream"]
            if up is not None:
                line += f"  ← {names.get(up, up)}"
                if h["via"]:
                    line += f" via {', '.join(h['via'])}"
            if h["changed"]:
                line += f"  CHANGED ({h['changed_from']} → {h['raw']})"
            out.append(line + "\n")
        out.append("\n")
    for u in result["unresolved"]:
        out.append(f"unresolved: {u['source']}: {u['ref']!r}: {u['reason']}\n")
    return "".join(out)
