"""Shell completion of values: topics (kb.yaml), subjects and metric keys (the store), claim kinds.

Each function is a Typer ``autocompletion`` callback: it gets the incomplete word and returns the
words that complete it. Completion runs on every <TAB>, so nothing here parses the KB, builds or
waits for the store, or prints: an error of any kind means no words.
"""


from pathlib import Path
from typing import Any

import typer


def _root(ctx: Any) -> "Path | None":
    """The KB root: the command's ``--kb``, else the global one, else the walk up from here."""
    from kb.core.paths import find_root, is_kb_root

    given = None
    for c in (ctx, ctx.find_root()) if ctx is not None else ():
        given = given or (c.params or {}).get("kb")
    root = find_root(Path(given) if given else Path.cwd())
    return root if is_kb_root(root) else None


def _matching(words: list[str], incomplete: str) -> list[str]:
    """The words that start with ``incomplete`` in any case, written with the case typed (the
    shell keeps only words that start with what was typed, exactly; kb matches any case)."""
    low = incomplete.lower()
    return sorted({incomplete + w[len(incomplete):] for w in words if w.lower().startswith(low)})


def complete_topic(ctx: typer.Context, incomplete: str) -> list[str]:
    """Topics of kb.yaml (``topics:``) that start with ``incomplete``."""
    try:
        from kb.core.config import load_config

        root = _root(ctx)
        return _matching(load_config(root).topic_names(), incomplete) if root is not None else []
    except Exception:  # noqa: BLE001 - a completion never fails
        return []


def complete_kind(incomplete: str) -> list[str]:
    """Claim kinds (``paper-fact``, ``secondhand``, ``internal-rating``) that start with ``incomplete``."""
    from kb.core.claims import KINDS

    return _matching(list(KINDS), incomplete)


def complete_subject(ctx: typer.Context, incomplete: str) -> list[str]:
    """Subjects kb has stored: ``arxiv:…`` ids and entity names (``tgi``, written bare, as
    ``--subject`` takes them; ``entity:tgi`` when typed with the prefix)."""
    try:
        from kb.store.words import stored_words

        root = _root(ctx)
        if root is None:
            return []
        found = stored_words(root, "subjects", incomplete)
        if ":" not in incomplete:
            found += [s.split(":", 1)[1] for s in stored_words(root, "subjects", "entity:" + incomplete)]
        return _matching(found, incomplete)
    except Exception:  # noqa: BLE001 - a completion never fails
        return []


def complete_metric(ctx: typer.Context, incomplete: str) -> list[str]:
    """Metric keys (``ttft``, ``eol_date``) that start with ``incomplete``: the built-in ones,
    kb.yaml ``metrics:`` and those of the stored numbers."""
    try:
        from kb.core.config import load_config
        from kb.extract.vocab.metrics import BUILTIN_METRICS
        from kb.store.words import stored_words

        words = list(BUILTIN_METRICS)
        root = _root(ctx)
        if root is not None:
            words += list(load_config(root).metrics) + stored_words(root, "metrics", incomplete)
        return _matching(words, incomplete)
    except Exception:  # noqa: BLE001 - a completion never fails
        return []
