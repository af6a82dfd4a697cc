"""KB108: a number in a consensus section that no paper card supports (secondhand only)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.extract.metrics import SETUP_METRICS
from kb.facts.firsthand import doc_citation
from kb.facts.same import supports
from kb.lint.base import LintContext, Rule, Violation


class SecondhandOnlyConsensusNumber(Rule):
    """## What it does
    For every number in the consensus section(s) — sections whose title contains one of the
    consensus headings (`共识`, `consensus` by default), and their subsections — looks for a
    paper card that states the same number about the same subject: a `paper-fact` claim of a
    card, with the same unit and value (within `tolerance` of `kb.yaml`) and, when both name
    one, the same metric (× ratios excepted: "吞吐 31×" is a speedup). A number with no such
    card is secondhand only. A set-up size (`8B 级模型`, `32K 上下文`: metric in
    `kb.extract.metrics.SETUP_METRICS`) is no figure and needs no support, and an item citing a
    primary source (the paper, the project's repository, docs or official blog:
    `kb.facts.firsthand.doc_citation`) is first-hand cited, as `kb diff` and the brief read it.
    One finding per item, listing its unsupported numbers. Runs only inside a KB.

    ## Why is this bad?
    The consensus section is what the team treats as settled. A number there that only an
    upstream summary or a blog states is exactly the failure the seeds warn about:
    secondhand numbers written as facts.

    ## Example
    ```markdown
    ## §8 共识
    - C103 SGLang 在 MLA 模型上吞吐领先 vLLM 29%（上游摘要称，来源：inbox/jay/….md）。
    ```

    ## Use instead
    ```markdown
    ## §8 共识
    - C103 SGLang 在 MLA 模型上吞吐领先 vLLM 29%（论文报告，来源：arXiv:2606.20295）。
    ```
    citing the paper (best with the 29% written in its card), or move the item to the disputes
    section.

    ## Options
    - `consensus_headings` (list of text, default: `lint.consensus_headings` of `kb.yaml`,
      itself `["共识", "consensus"]`): title words that make a section a consensus section.

    ## References
    - [docs/diff.md](../diff.md): a number that only secondhand claims support is flagged secondhand-only.
    - A real brief: "把论文事实、摘要转述、内部评级分栏".
    """

    code = "KB108"
    name = "secondhand-only-consensus-number"
    summary = "Number in a consensus section that no paper card supports"
    severity = "warning"
    tags = ("evidence", "kb")
    needs_kb = True
    options = {"consensus_headings": None}

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        words = opts["consensus_headings"]
        if words is None:
            words = ctx.config.lint.consensus_headings
        words = [w.lower() for w in words]
        ranges = _consensus_ranges(ctx, words)
        if not ranges:
            return
        tol = ctx.config.tolerance
        facts = ctx.kb.facts
        for c in ctx.claims():
            line = c.provenance.line
            sec = next((label for a, b, label in ranges if a <= line <= b), None)
            if sec is None or not c.quantities or doc_citation(c, ctx.lines):
                continue  # a line citing a primary source is first-hand cited (kb.facts.firsthand)
            bad: list[str] = []
            for q in c.quantities:
                if q.mood is not None:
                    continue  # a plan or a disputed quote is no consensus number
                if q.metric in SETUP_METRICS:
                    continue  # 8B 级模型, 32K 上下文: the set-up of a statement, not its figure
                keys = list(dict.fromkeys(([q.subject] if q.subject else []) + c.subjects))
                if not any(supports(f, q, tol) for k in keys for f in facts.get(k, ())):
                    bad.append(q.raw)
            if bad:
                shown = ", ".join(f"'{b}'" for b in bad)
                line_at, col = ctx.index.locate(line, bad[0], c.provenance.end_line)
                yield Violation(line_at, f"{shown} in consensus section {sec} {'has' if len(bad) == 1 else 'have'} "
                                         "no paper-fact support (no paper card states it): cite the paper's own number or move the item out of consensus", col)


def _consensus_ranges(ctx: LintContext, words: list[str]) -> list[tuple[int, int, str]]:
    """Line ranges of consensus sections: ``(first, last, label)``.

    A matching section counts with its subsections, unless one of its subsections matches
    too (``§8 共识与争议`` > ``§8.1 共识``, ``§8.2 争议``): then only the matching
    subsections count, and the parent's own lines before its first subsection.
    """
    sections = ctx.doc.sections
    n = len(sections)
    ends: list[int] = []
    for i, s in enumerate(sections):
        end = len(ctx.lines)
        for t in sections[i + 1:]:
            if t.level <= s.level:
                end = t.line - 1
                break
        ends.append(end)
    match = [any(w in s.title.lower() for w in words) for s in sections]
    out: list[tuple[int, int, str]] = []
    for i, s in enumerate(sections):
        if not match[i]:
            continue
        inner = [j for j in range(i + 1, n) if sections[j].line <= ends[i]]
        if any(match[j] for j in inner):
            own_end = sections[inner[0]].line - 1
            if own_end >= s.line:
                out.append((s.line, own_end, s.label))
        elif not any(a <= s.line <= b for a, b, _ in out):
            out.append((s.line, ends[i], s.label))
    return out
