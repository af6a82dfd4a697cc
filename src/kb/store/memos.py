"""Every value kb keeps between runs, named once: what it holds and what it is keyed by.

A memo is a cache, never the truth: each is built again when its key moves, and a store that
cannot be written keeps none. A memo of ``Store.kept`` and the kept config carry a seal (kb's
version, the key's digest and the value as stored; kb.yaml's hash for the config): one edited
by anything but kb does not verify and is built again (issue 24). :meth:`kb.store.base.StoreBase.kept` takes only the names of
:data:`MEMOS` (another name is a :class:`ValueError`); the memos kept by their own code name
where (``meta`` key, table or file) in their line.
"""

from __future__ import annotations

import json
from typing import Any

#: name -> what it holds, keyed by what (a change of the key builds it again).
MEMOS: dict[str, str] = {
    # values of Store.kept (``meta`` key = the name, keyed by a digest of the inputs given)
    "title_index": "TitleIndex's exact names, fuzzy choices and word postings (kb.store.titles); "
                   "keyed by the card code's digest, the Unicode version and the titles",
    "title_names": "the NameMatcher state of titles of 12+ characters a night's lines may name "
                   "(kb.night.run); keyed by the name matcher's code and the titles",
    "attributor_names": "what the Attributor knows by name: matcher state, groups, titles, labels "
                        "(kb.facts.attributor); keyed by its code, entities, cards, titles and headings",
    "attributor_names_more": "attributor_names of look-ups that add headings or a baseline (kb.facts.query), "
                             "kept apart so neither rebuilds the other; keyed by the same inputs",
    "newest_inbox": "(written_at, path) of the newest inbox files (kb.night.run's default night); "
                    "keyed by Store.files_stamp and how many are kept",
    # kept by their own code in the store
    "cards": "every card and its normalised title (meta key cards, kb.store.cards); keyed by the "
             "card code's digest, the parser fingerprint and the card rows' write generation",
    "files_digest": "the digest of every stored file's path, times and size (meta key files_digest, "
                    "StoreBase.files_digest); keyed by the files' write and times generations",
    "files_checked": "that every files row decodes (meta key files_checked, kb.store.filerow.undecodable); "
                     "keyed by the files' write and times generations",
    "claims_count": "the number of stored claims (meta key claims_count, StoreBase.count_claims); "
                    "keyed by Store.files_stamp",
    "name_hits": "which claims' JSON matches a name's LIKE pattern (tables name_hits, name_memo, "
                 "name_files, meta key name_hits_stamp; kb.store.name_hits); keyed by files_stamp "
                 "and each file's content hash",
    "link_titles": "the arXiv link texts of each file (table link_titles, kb.store.titles); keyed by "
                   "each file's path and content hash",
    "arxiv_cache": "arXiv look-ups: status and metadata of an id (table arxiv_cache, Store.cache_get/"
                   "cache_put, kb.verify.arxiv); keyed by the id, dated by its fetched_at",
    # kept outside the store
    "config": "kb.yaml's YAML data and the validated config's dump (.kb/config.json, "
              "kb.core.config_kept); keyed by kb.yaml's text and the config code's digest",
}


def decoded(text: str | None) -> Any:
    """A kept value's JSON, or None when there is none or it does not decode (a store edited by
    hand or by another tool: the memo is built again, never the end of the command; issue 24)."""
    if not text:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def check_memo(name: str) -> None:
    """:raises ValueError: ``name`` is not one of :data:`MEMOS` (add it there, with one line
    saying what it holds and what it is keyed by)."""
    if name not in MEMOS:
        raise ValueError(f"memo {name!r} is not named in kb.store.memos.MEMOS; known: {', '.join(sorted(MEMOS))}")
