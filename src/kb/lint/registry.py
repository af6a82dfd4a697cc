"""The rule registry: an explicit ordered tuple of rules, selection by code or name.

Adding a rule: write ``rules/kbNNN_<name>.py``, append its class to :data:`RULES`, add
``tests/fixtures/lint/KBNNN/{bad,good}.md`` and run ``python -m kb.lint.gen_docs``.
Codes are never reused; a renamed rule keeps its code and its old name goes in
:data:`DEPRECATED`.
"""

from __future__ import annotations

from collections.abc import Iterable

from kb.core.errors import KbError, UsageError
from kb.lint.base import Rule
from kb.lint.rules.kb101_front_matter_invalid import FrontMatterInvalid
from kb.lint.rules.kb102_version_not_bumped import VersionNotBumped
from kb.lint.rules.kb103_arxiv_id_malformed import ArxivIdMalformed
from kb.lint.rules.kb104_arxiv_id_without_card import ArxivIdWithoutCard
from kb.lint.rules.kb105_dangling_section_reference import DanglingSectionReference
from kb.lint.rules.kb106_section_numbering import SectionNumbering
from kb.lint.rules.kb107_internal_id_as_evidence import InternalIdAsEvidence
from kb.lint.rules.kb108_secondhand_only_consensus_number import (
    SecondhandOnlyConsensusNumber,
)
from kb.lint.rules.kb109_citation_count_stale import CitationCountStale
from kb.lint.rules.kb110_source_path_missing import SourcePathMissing
from kb.lint.rules.kb111_conflicting_values import ConflictingValues
from kb.lint.rules.kb112_paper_node_duplicated import PaperNodeDuplicated
from kb.lint.rules.kb113_date_after_updated import DateAfterUpdated
from kb.lint.rules.kb114_ineffective_emphasis import IneffectiveEmphasis
from kb.lint.rules.kb115_table_row_cell_count import TableRowCellCount
from kb.lint.rules.kb116_arxiv_id_noncanonical import ArxivIdNoncanonical
from kb.lint.rules.kb117_nul_byte_in_line import NulByteInLine
from kb.lint.rules.kb118_arxiv_version_outdated import ArxivVersionOutdated
from kb.lint.rules.kb119_card_number_invalid import CardNumberInvalid
from kb.lint.rules.kb120_front_matter_ignored import FrontMatterIgnored

RULES: tuple[type[Rule], ...] = (
    FrontMatterInvalid,
    VersionNotBumped,
    ArxivIdMalformed,
    ArxivIdWithoutCard,
    DanglingSectionReference,
    SectionNumbering,
    InternalIdAsEvidence,
    SecondhandOnlyConsensusNumber,
    CitationCountStale,
    SourcePathMissing,
    ConflictingValues,
    PaperNodeDuplicated,
    DateAfterUpdated,
    IneffectiveEmphasis,
    TableRowCellCount,
    ArxivIdNoncanonical,
    NulByteInLine,
    ArxivVersionOutdated,
    CardNumberInvalid,
    FrontMatterIgnored,
)
"""Every rule, in the order they run and are documented."""

DEPRECATED: dict[str, str] = {}
"""Renamed rules: old name -> code, so configs and inline comments naming the old name keep
working. Empty: no rule has been renamed yet."""

BY_CODE: dict[str, type[Rule]] = {r.code: r for r in RULES}
BY_NAME: dict[str, type[Rule]] = {r.name: r for r in RULES}


def valid_codes() -> str:
    """``KB101 front-matter-invalid, KB102 …``: for error messages."""
    return ", ".join(f"{r.code} {r.name}" for r in RULES)


def lookup(token: str, *, where: str, error: type[KbError] = UsageError) -> type[Rule]:
    """The rule a code (``KB105``, any case), name or deprecated name means.

    :param where: what to name in the error, e.g. ``--select`` or ``kb.yaml lint.ignore``.
    :raises KbError: (``error``, exit 2) unknown code; the message lists the valid codes.
    """
    t = token.strip()
    rule = BY_CODE.get(t.upper()) or BY_NAME.get(t.lower())
    if rule is None and t.lower() in DEPRECATED:
        rule = BY_CODE[DEPRECATED[t.lower()]]
    if rule is None:
        raise error(f"{where}: unknown rule {token!r}; valid codes: {valid_codes()}")
    return rule


def select_rules(select: Iterable[str] = (), ignore: Iterable[str] = (), *, where_select: str = "--select",
                 where_ignore: str = "--ignore", error: type[KbError] = UsageError) -> list[type[Rule]]:
    """The rules to run, in registry order.

    :param select: codes or names; empty = every rule. ``ALL`` selects every rule.
    :param ignore: codes or names removed from the selection.
    :raises KbError: an unknown code, listing the valid ones.
    """
    chosen: set[str] = set()
    sel = [s for s in select if s.strip()]
    for s in sel:
        if s.strip().upper() == "ALL":
            chosen.update(BY_CODE)
        else:
            chosen.add(lookup(s, where=where_select, error=error).code)
    if not sel:
        chosen.update(BY_CODE)
    for s in ignore:
        if s.strip():
            chosen.discard(lookup(s, where=where_ignore, error=error).code)
    return [r for r in RULES if r.code in chosen]
