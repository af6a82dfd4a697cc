"""KB107: an internal id or a popularity figure is the only evidence of a sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation
from kb.lint.lines import mask_code_spans

# Internal ids as kb.extract.kinds defines them: C (consensus), O (open question), Q (queue).
_INTERNAL_RE = re.compile(r"(?<![A-Za-z0-9])[CQO]\d{2,4}(?![A-Za-z0-9])")
# Linear on any input: a figure is at most 40 digits/separators long and the runs are possessive
# (``*+``): nothing after a run can start with what the run ate, so giving back never helps, and
# 200 KB of digits or of ``1.`` is one pass, not n² (or n⁶ for the ``\s*`` chain after ``HF``).
_NUM = r"\d[\d,.]{0,40}+\s*+[kK万]?"
_POPULARITY_RE = re.compile(
    rf"(?:HF|Hugging\s?Face|HN|Hacker\s?News|GitHub|GH)\s*+(?:上)?\s*+(?:获得|得到|有|拿到)?\s*+(?:票数?|votes?|upvotes?|stars?|likes?|points?)?\s*+[:：]?\s*+{_NUM}\s*(?:票|分|points?|votes?|upvotes?|stars?|likes?|赞)"
    rf"|(?:HF|Hugging\s?Face)\s*+(?:票数?|votes?|upvotes?|likes?)\s*+[:：]?\s*+{_NUM}"
    rf"|(?:GitHub|GH)\s*+(?:stars?|星标?)\s*+[:：]?\s*+{_NUM}"
    rf"|{_NUM}\s*+(?:HF\s*(?:票|votes?|upvotes?)|HN\s*(?:points?|分)|GitHub\s*stars?|upvotes?|stars\b)"
    rf"|(?:票数|点赞数?|star\s*数|stars?\s*数)\s*+[:：]?\s*+{_NUM}",
    re.IGNORECASE,
)
_SOURCE_RE = re.compile(r"https?://|arxiv\s*[:：.]|\b\d{4}\.\d{4,5}\b|(?:inbox|paper_cards|organized)/|\b10\.\d{4,9}/", re.I)
_CUE_RE = re.compile(r"(?:见|参见|参照|依据|根据|据|来源|出处|see|per|cf\.?|according to|based on|sources?)\s*[:：]?\s*$",
                     re.IGNORECASE)


class InternalIdAsEvidence(Rule):
    """## What it does
    Finds sentences, list items and table rows whose only support is an internal id
    (`C116`, `O172`, `Q105`: consensus, open-question and queue numbers) or a popularity
    figure (HF votes, GitHub stars, HN points), with no source: no arXiv id, DOI, URL or KB
    path. An internal id counts when it is cited — after 见/see/来源 or inside brackets —
    not when it labels an item (`- C101 FlashInfer …`) or is bookkeeping (`§8.1 收 C103`).

    ## Why is this bad?
    Internal ids are bookkeeping and votes measure attention, not truth. The seeds' own rule:
    "HF 票数和内部 Q105 编号不得替代论文证据". A statement standing on them looks sourced
    in review and is not.

    ## Example
    ```markdown
    - RAPID：长上下文 RAG 式 draft，已列为强候选（HF 票 212，见 Q105）。
    ```

    ## Use instead
    ```markdown
    - RAPID：长上下文 RAG 式 draft（来源：arXiv:2502.20330）；内部追踪 Q105。
    ```

    ## Options
    None.

    ## References
    - [docs/claims.md](../claims.md): consensus items (C116) and open questions/touchstones (O172) are internal ids, never evidence.
    - A real brief's self-check: "HF 票数和内部 Q105/x.xx 编号不得替代论文证据".
    """

    code = "KB107"
    name = "internal-id-as-evidence"
    summary = "Internal id (C116, O172, Q105) or popularity figure used as the only evidence"
    severity = "warning"
    tags = ("evidence",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        covered: set[int] = set()
        for c in ctx.doc.claims:
            p = c.provenance
            covered.update(range(p.line, p.end_line + 1))
            if c.sources:
                continue
            what = _evidence_words(c.text)
            if what:
                line, col = ctx.index.locate(p.line, what[0], p.end_line)
                yield Violation(line, _message(what), col)
        for n, text in ctx.index.prose():
            if n in covered or n in ctx.index.heading_lines:
                continue
            if not (_INTERNAL_RE.search(text) or _POPULARITY_RE.search(text)):
                continue
            masked = mask_code_spans(text)
            if _SOURCE_RE.search(masked):
                continue
            what = _evidence_words(_strip_marker(masked))
            if what:
                yield Violation(n, _message(what), text.find(what[0]) + 1)


def _strip_marker(text: str) -> str:
    return re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text).strip().strip("|").strip()


def _evidence_words(text: str) -> list[str]:
    """Internal ids in an evidence position, and popularity figures, in ``text``.

    An internal id is in an evidence position when a citing word stands right before it
    (见 Q105, see C116, 来源：O172) or it sits inside brackets (``（HF 票 212，Q105）``). A
    leading label (``C101 FlashInfer …``) or bookkeeping (``§8.1 收 C103``) is not evidence.
    """
    found: list[str] = []
    opened = closed = -1  # last opening / closing bracket before the id, found in one pass
    done = 0
    for m in _INTERNAL_RE.finditer(text):
        seg = text[done:m.start()]
        o = max(seg.rfind("("), seg.rfind("（"), seg.rfind("【"), seg.rfind("["))
        c = max(seg.rfind(")"), seg.rfind("）"), seg.rfind("】"), seg.rfind("]"))
        opened = done + o if o >= 0 else opened
        closed = done + c if c >= 0 else closed
        done = m.start()
        if opened > closed or _CUE_RE.search(text[max(0, m.start() - 16):m.start()]):
            found.append(m.group(0))
    found += [m.group(0).strip() for m in _POPULARITY_RE.finditer(text)]
    return found


def _message(what: list[str]) -> str:
    uniq = list(dict.fromkeys(what))
    shown = ", ".join(f"'{w}'" for w in uniq)
    return f"{shown} {'is' if len(uniq) == 1 else 'are'} the only evidence here: cite the paper (arXiv id), a source URL or an inbox path"
