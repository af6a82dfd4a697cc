"""Claim-kind signals: explicit tags, kind-column values and zh/en cue phrases (DESIGN.md §2)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kb.claims import Kind
from kb.extract.metrics import lower_same_length

# Explicit tags win over everything (DESIGN.md §2, decision order step 1).
_TAGS: dict[str, Kind] = {
    "paper-fact": "paper-fact",
    "论文事实": "paper-fact",
    "secondhand": "secondhand",
    "摘要转述": "secondhand",
    "二手": "secondhand",
    "internal-rating": "internal-rating",
    "内部评级": "internal-rating",
}
TAG_RE = re.compile(r"[\[【]\s*(" + "|".join(map(re.escape, _TAGS)) + r")\s*[\]】]", re.IGNORECASE)

# Values of a table's kind column (step 2).
_COLUMN_VALUES: dict[str, Kind] = {
    **_TAGS,
    "论文": "paper-fact",
    "paper": "paper-fact",
    "论文报告": "paper-fact",
    "一手": "paper-fact",
    "转述": "secondhand",
    "摘要": "secondhand",
    "二手摘要": "secondhand",
    "blog": "secondhand",
    "博客": "secondhand",
    "news": "secondhand",
    "评级": "internal-rating",
    "内部": "internal-rating",
    "rating": "internal-rating",
}
KIND_HEADERS = ("类型", "kind", "claim kind", "性质", "证据类型", "证据", "evidence", "来源类型")

# Cue phrases (step 4). Order of the kinds is the priority when several are present:
# secondhand first (a sentence that relays anything is not first-hand), then paper-fact,
# then internal-rating. Sources: the seeds' own wording ("论文已报告" / "上游摘要转述" /
# "本棒待核", "二手摘要报告", "候选升档", "★★ 建议补", "HF 票数和内部 Q105 编号不得替代论文证据").
BUILTIN_CUES: dict[Kind, tuple[str, ...]] = {
    "secondhand": (
        "上游摘要", "二手摘要", "二手材料", "摘要称", "摘要转述", "摘要报告", "转述", "据称", "据报道",
        "据悉", "报道称", "援引", "reportedly", "according to", "is said to", "claims that",
        "per the blog", "the blog says", "the post says", "via ",
    ),
    "paper-fact": (
        "论文报告", "论文已报告", "论文指出", "论文称", "论文显示", "论文表", "论文实验",
        "作者报告", "the paper reports", "the paper shows", "the authors report", "paper reports",
        "in the paper", "as reported in table", "table ", "fig. ",
    ),
    "internal-rating": (
        "★", "☆", "候选升档", "升档", "降级", "建议补", "强候选", "内部评级", "共识候选", "试金石",
        "hf 票", "hf votes", "upvotes", "we rate", "our rating",
    ),
}
# "据" alone ("据 X 报道") is a secondhand cue, but not inside 数据/根据/依据/证据/占据/票据.
_JU_RE = re.compile(r"(?<![数根依证占票收单字])据(?![悉称报])")
_INTERNAL_ID_RE = re.compile(r"(?<![A-Za-z0-9])[CQO]\d{2,4}(?![A-Za-z0-9])")


def explicit_tag(text: str) -> tuple[Kind, str, tuple[int, int]] | None:
    """The first explicit kind tag in ``text``.

    :returns: ``(kind, tag_as_written, (start, end))`` or None.
    """
    m = TAG_RE.search(text)
    if not m:
        return None
    return _TAGS[m.group(1).lower() if m.group(1).isascii() else m.group(1)], m.group(0), m.span()


def column_kind(value: str) -> Kind | None:
    """Kind named by a table kind-column cell (``论文事实``, ``secondhand``, ``评级`` …), else None."""
    v = value.strip().strip("[]【】").strip().lower()
    return _COLUMN_VALUES.get(v) or next(
        (k for name, k in _COLUMN_VALUES.items() if len(name) > 1 and name in v), None
    )


def is_kind_header(cell: str) -> bool:
    """True when a table header cell names the claim-kind column."""
    return cell.strip().lower() in KIND_HEADERS


class CueMatcher:
    """Cue phrases per kind: the built-ins plus ``kb.yaml`` ``cues:`` (case-insensitive).

    :param extra: kind -> extra phrases.
    """

    def __init__(self, extra: Mapping[Kind, Sequence[str]] | None = None) -> None:
        groups: list[str] = []
        self._group_kind: dict[str, Kind] = {}
        for n, (kind, phrases) in enumerate(BUILTIN_CUES.items()):
            allp = sorted({p.lower() for p in (*phrases, *(extra or {}).get(kind, ()))}, key=len, reverse=True)
            groups.append(f"(?P<k{n}>" + "|".join(re.escape(p) for p in allp) + ")")
            self._group_kind[f"k{n}"] = kind
        groups.append(f"(?P<ju>{_JU_RE.pattern})")
        # one pass over the lower-cased text finds every cue of every kind (a case-sensitive
        # pattern over lower-cased text is 2-3x faster than re.IGNORECASE here)
        self._re = re.compile("|".join(groups))

    def match(self, text: str) -> tuple[Kind, str] | None:
        """The kind whose cue appears in ``text`` (priority secondhand > paper-fact > internal-rating).

        :returns: ``(kind, cue_as_written)`` or None.
        """
        found: dict[Kind, str] = {}
        for m in self._re.finditer(lower_same_length(text)):
            kind: Kind = "secondhand" if m.lastgroup == "ju" else self._group_kind[m.lastgroup or ""]
            found.setdefault(kind, text[m.start():m.end()].strip())
            if kind == "secondhand":
                break
        for kind in _PRIORITY:
            if kind in found:
                return kind, found[kind]
        m = _INTERNAL_ID_RE.search(text)
        if m and not _has_other_anchor(text, m):
            return "internal-rating", m.group(0)
        return None


_PRIORITY: tuple[Kind, ...] = ("secondhand", "paper-fact", "internal-rating")


def _has_other_anchor(text: str, internal: re.Match[str]) -> bool:
    """An internal id is only a cue when the sentence has nothing else to stand on."""
    rest = text[: internal.start()] + text[internal.end() :]
    return bool(re.search(r"\d{4}\.\d{4,5}|\d", rest))


def internal_ids(text: str) -> list[str]:
    """Internal ids (``C116``, ``O172``, ``Q105``) in ``text``: never evidence (DESIGN.md §1)."""
    return _INTERNAL_ID_RE.findall(text)
