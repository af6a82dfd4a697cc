"""kb.perf.literals: the literal prefilters of the extractors' regexes are exact and sound."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from kb.extract import kinds, number_words, subjects
from kb.extract.kinds import CueMatcher
from kb.extract.vocab.kinds import BUILTIN_CUES
from kb.perf.literals import first_char_guard, literal_hint, required_literals
from kb.extract.fold import lower_same_length

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"ab(?:c|d)e?\s+x", ("abc", "abd")),  # fixed parts joined; "abce" holds "abc"
    (r"(?<![a-z])disagrees?\s+with(?![a-z])", ("disagree",)),  # look-arounds consume nothing
    (r"下(?:周|个?月|季度)", ("下个月", "下季度", "下周", "下月")),
    (r"[\[【]\s*(二手|摘要转述)\s*[\]】]", ("摘要转述", "二手")),
    (r"x+yz|(?:foo)+", ("foo", "yz")),
    (r"\d+(?:%|pp)", ("pp", "%")),
])
def test_required_literals(pattern: str, expected: tuple[str, ...]) -> None:
    assert required_literals(pattern) == expected


@pytest.mark.parametrize("pattern", [r"a*", r"x|y*", r"\d+", r"(?i:abc)", r"[^a]bc?"])
def test_no_literals_when_a_match_may_hold_none(pattern: str) -> None:
    # (?i:abc) ignores case where the hint would not; [^a]b: b stands alone, kept
    got = required_literals(pattern)
    assert got is None or got == ("b",)


def test_case_insensitive_hint_folds_like_the_pattern() -> None:
    pat = re.compile(r"(?<![a-z])sec(?:tion)?s?\b", re.IGNORECASE)
    hint = literal_hint([pat])
    assert hint is not None and hint.flags & re.IGNORECASE
    for text in ("SECTION 3", "ſec 3", "Sec. 4"):  # ſ (long s) folds to s under IGNORECASE
        assert pat.search(text) and hint.search(text)
    assert literal_hint([r"(?i:ab)c"]).pattern == "c"


def test_a_literal_keeps_the_class_it_must_be_followed_by() -> None:
    # "scheduler" holds "schedule" but not "schedule" and a space: no plan word there
    hint = literal_hint([r"(?<![a-z])schedule\s+(?:a|an|the)(?![a-z])"])
    assert hint is not None and hint.pattern == r"schedule[\s]"
    assert hint.search("the scheduler batches") is None and hint.search("schedule\tthe")
    assert literal_hint([r"ab[^x]"]).pattern == r"ab[^x]"
    assert literal_hint([r"x+y\d{2}"]).pattern == r"y[\d]"


def _corpus() -> list[str]:
    """Texts that hold cue, plan, dispute and bound words, and random mixes of them."""
    words = [w for ws in BUILTIN_CUES.values() for w in ws]
    words += ["建议", "计划", "下个月", "will be released", "is expected", "does not match", "对不上", "at least",
              "不超过", "约", "≈", "up to", "table 3", "Fig. 7 of the post", "据 X 报道", "数据", "非转述", "eta", "beta",
              "schedule the", "scheduler", "conflicts\twith", "next\u3000week", "will\nship", "we plan to"]
    texts = [line for p in sorted((REPO / "tests" / "fixtures").rglob("*.md")) for line in
             p.read_text(encoding="utf-8", errors="replace").splitlines()]
    rnd = random.Random(11)
    filler = ["a", " ", "1.5×", "，", "x", "的", "plan", "to", "\u017f", "T", "AT LEAST", "Up To", "\t", "\n", "\u3000"]
    for _ in range(3000):
        texts.append("".join(rnd.choice(words + filler) for _ in range(rnd.randint(1, 8))))
    return texts


def test_hints_of_the_extractors_never_miss_a_match() -> None:
    cm = CueMatcher({"secondhand": ["我们听说"]})
    cases = [(kinds._MOOD_RE, True), (cm._re, True), (number_words._BOUND_BEFORE, False)]
    texts = _corpus()
    for pattern, lower in cases:
        hint = literal_hint([pattern])
        assert hint is not None, pattern.pattern[:60]
        hits = 0
        for text in texts:
            t = lower_same_length(text) if lower else text
            if pattern.search(t):
                hits += 1
                assert hint.search(t), (pattern.pattern[:40], text)
        assert hits > 50  # the corpus exercises the pattern


@pytest.mark.parametrize(("fast", "plain", "alphabet"), [
    (kinds._INTERNAL_ID_RE, r"(?<![A-Za-z0-9])[CQO]\d{2,4}(?![A-Za-z0-9])", "CQOc0123456789 x-_é中"),
    (number_words._NAME_BEFORE, r"(?<![A-Za-z0-9_])([A-Z]{2,})[ \t]$", "AB1_. \tx9中Z"),
    (__import__("kb.extract.metrics", fromlist=["_FREE_DIGIT"])._FREE_DIGIT, r"(?<![A-Za-z0-9_.])\d", "a1._ 9中"),
])
def test_lookbehind_after_the_first_character_matches_the_same(fast: re.Pattern[str], plain: str, alphabet: str) -> None:
    # a look-behind moved after the first character lets re skip to where a match can start
    ref = re.compile(plain)
    rnd = random.Random(5)
    for _ in range(20000):
        s = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 14)))
        lo = rnd.randint(0, len(s))
        hi = rnd.randint(lo, len(s))
        a, b = ref.search(s, lo, hi), fast.search(s, lo, hi)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (s, lo, hi)
        assert ref.findall(s) == fast.findall(s)


_BOUND_AND_REF_WORDS = [
    "at least", "AT LEAST", "up to", "within", "over", "above", "exceeds", "exceeding", "less than", "below", "under",
    "about", "around", "approx.", "approximately", "roughly", "nearly", "almost", "circa", "by", "cut by", "reduces by",
    "至少", "不少于", "不低于", "不超过", "最多", "最高", "超过", "多于", "大于", "不到", "不足", "少于", "小于", "低于", "约为",
    "大约", "约", "大概", "将近", "接近", "减少", "降低", "提升", "提高", "增加", "缩短", "加快", "下降", "上升", "压缩", ">=",
    "≥", "⩾", "<=", "≤", "⩽", ">", "<", "~", "≈", " ", "\t", "*", "_", "x", "ſ", "K", "吞吐", "Fig", "fig.", "Table", "tab",
    "Sec", "sections", "Eqs", "Step", "ch", "p", "pp", "no.", "item", "line", "表", "图", "式", "节", "步骤", "公式", "附录",
    "章", "(", "[", ".", "-", "1", "中", "é",
]


def test_quick_checks_before_bound_and_figure_searches_never_skip_a_match() -> None:
    # _bound and the figure-number rule look at the last character before a number first
    rnd = random.Random(7)
    hits = [0, 0]
    checks = ((number_words._BOUND_BEFORE, number_words._BOUND_LOOKBACK, " \t*_", number_words._may_end_bound),
              (number_words._REF_BEFORE, 12, " \t([.", number_words._may_end_ref))
    for _ in range(40000):
        s = "".join(rnd.choice(_BOUND_AND_REF_WORDS) for _ in range(rnd.randint(0, 5)))
        for k, (pattern, back, skip, may_end) in enumerate(checks):
            lo = max(0, len(s) - back)
            if pattern.search(s, lo, len(s)):
                hits[k] += 1
                assert may_end(number_words._last_char(s, lo, len(s), skip)), repr(s)
    assert min(hits) > 1000
    assert not number_words._may_end_bound(number_words._last_char("吞吐 ", 0, 3, " \t*_"))
    assert number_words._may_end_ref(number_words._last_char("Table (", 0, 7, " \t([."))


@pytest.mark.parametrize(("pattern", "guard"), [
    (r"(?<![a-z])abc|x\d+|[q-s\]]y", r"[axq-s\]]"),
    (r"a?b", "[ab]"),
    (r"(?:ab)?\s+c", r"[a\s]"),
    (r"^\W*(?:plan|todo)", r"[\Wpt]"),
    (r"(?P<a>x)|(?P<b>[yz])(?=1)", "[xyz]"),
    (r"(?>a|bc)*d", "[abd]"),
])
def test_first_char_guard_names_where_a_match_can_start(pattern: str, guard: str) -> None:
    got = first_char_guard(re.compile(pattern))
    assert got.pattern == f"(?={guard})(?:{pattern})"


@pytest.mark.parametrize("pattern", [r"a*", r"(?:x|)", r"[^a]b", r".b", r"(?i:ab)|c", r"(?:(a)|b)?\1", r"\b"])
def test_first_char_guard_leaves_a_pattern_it_cannot_lead(pattern: str) -> None:
    p = re.compile(pattern)
    assert first_char_guard(p) is p


def test_first_char_guard_of_a_case_insensitive_pattern_folds_case_as_its_literals() -> None:
    ci = first_char_guard(re.compile(r"(?<![a-z])(?:stock|kv)|über", re.IGNORECASE))
    assert ci.pattern == r"(?=[skü])(?:(?<![a-z])(?:stock|kv)|über)" and ci.flags & re.IGNORECASE
    assert [m.group() for m in ci.finditer("ſtock KV \u212av ÜBER xstock")] == ["ſtock", "KV", "\u212av", "ÜBER"]
    # every character a case-insensitive literal matches, its one-character class matches too
    # (the guard's class never leaves out a place where the pattern could start)
    every = "".join(map(chr, range(0x110000)))
    firsts = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZµ") | {
        c for p in (subjects.HOST_BEFORE_RE, number_words._DECREASE_WORD) for c in first_char_guard(p).pattern[4:]
        .split("]")[0]}
    for c in sorted(firsts):
        lit = {m.group() for m in re.finditer(re.escape(c), every, re.IGNORECASE)}
        assert lit and lit <= {m.group() for m in re.finditer(f"[{re.escape(c)}]", every, re.IGNORECASE)}, c


def test_first_char_guard_finds_the_same_matches() -> None:
    cm = CueMatcher({"secondhand": ["我们听说"]})
    # (the first characters' look-ahead, then the word-start test of kinds._WORD_START, then the cues)
    cue_plain = re.match(r"\(\?=\[[^\]]*\]\)\(\?:\(\?<!\[a-z0-9\]\)\|\(\?!\[a-z0-9\]\)\)\(\?:(.*)\)$",
                         cm._re.pattern, re.DOTALL)
    assert cue_plain is not None
    cases = [(kinds._MOOD_RE, kinds._MOOD_PLAIN), (cm._re, re.compile(cue_plain.group(1))),
             (subjects._HOST_BEFORE_SEARCH, subjects.HOST_BEFORE_RE),
             (first_char_guard(number_words._DECREASE_WORD), number_words._DECREASE_WORD)]
    corpus = _corpus()
    texts = [lower_same_length(t) for t in corpus] + corpus + [  # host words end the text before a name
        t + " " + w for t in corpus[:200] for w in ("Compared To the", "BASELINE", "over ", "ſtock", "Outperforms",
                                                    "相比于", "基于默认的 ", "than", "VS.", "DROPPED", "reduceS")]
    rnd = random.Random(3)
    for pattern in [r"(?<![a-z])abc|x\d+|[q-s]y", r"(?P<a>b?)c|(?<=a)d+", r"(?:ab)?\s+c(?!d)", r"^\W*(?:pa|t)"]:
        plain = re.compile(pattern)
        cases.append((first_char_guard(plain), plain))
        texts += ["".join(rnd.choice("abcdqxy1 \t-\n中") for _ in range(rnd.randint(0, 12))) for _ in range(2000)]
    for guarded, plain in cases:
        assert guarded is not plain and guarded.pattern.startswith("(?=[")
        hits = 0
        for t in texts:
            a = [(m.span(), m.groups(), m.lastgroup) for m in plain.finditer(t)]
            assert a == [(m.span(), m.groups(), m.lastgroup) for m in guarded.finditer(t)], (plain.pattern[:40], t)
            hits += bool(a)
        assert hits > 50  # the texts exercise the pattern
