"""Name matching: ``kb.yaml`` entities, card titles and aliases, case-insensitive, longest match
first (:class:`NameMatcher`, the one name matcher), and the names headings and bracketed ids give."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from kb.core.config import KbConfig, folded_name
from kb.extract.arxiv_ids import find_arxiv


def entity_key(name: str) -> str:
    """Subject key of an entity: ``entity:`` + the canonical name lower-cased (issue 3)."""
    return "entity:" + name.strip().lower()


_SEP_RE = re.compile(r"[-_ ]")

def _fold(text: str) -> str:
    """Lower case with ``-`` and ``_`` read as spaces, same length as ``text`` (positions kept):
    ``text-generation-inference`` finds ``Text Generation Inference``."""
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    return low.replace("-", " ").replace("_", " ")


class NameMatcher:
    """Case-insensitive, longest-first name finder over many names (kb.yaml entities and thousands
    of card aliases); the one name matcher of kb (parser and diff alike).

    ``-``, ``_`` and spaces are alike; ASCII names do not match inside a word (``vllm-mlx`` is not
    ``vLLM``, ``v0.5`` no ``v0``). A name of ``as_written`` (card names and aliases) whose words
    are in mixed case (a capital after the first letter and a small letter: ``FlexKV``, ``MoLE``)
    matches only with those words as written or in capitals (``FLEXKV``), never as an ordinary
    word (``flexkv-style``, ``mole``; issue 20); a one-word capitalised card name or alias
    (``Prism``) matches only capitalised or in capitals (``a prism of``); so does a card name in capitals that reads as a
    word (``SPIN`` is no ``spin up``; the initialism ``GPTQ`` matches ``gptq``), unless the same name is also given in a case
    that is not mixed or outside ``as_written`` (kb.yaml entities match in any case: the KB's
    author lists them, and URLs write them in small letters, ``github.com/vllm-project/vllm``).

    :param names: name (as written) -> subject key; names shorter than 2 characters are ignored.
    :param as_written: the names of ``names`` the rule above applies to.
    """

    def __init__(self, names: Mapping[str, str], as_written: Collection[str] = ()) -> None:
        self.key_of: dict[str, str] = {}
        spelt: dict[str, set[str]] = {}
        free: set[str] = set()
        for n, k in names.items():
            f = _fold(n.strip())
            if len(f) >= 2:
                self.key_of.setdefault(f, k)
                if n in as_written and (_mixed_case(n) or _ACRONYM_RE.fullmatch(n.strip()) or _WORD_NAME_RE.fullmatch(n.strip())):
                    spelt.setdefault(f, set()).add(_SEP_RE.sub(" ", n.strip()))
                else:
                    free.add(f)
        #: folded name -> the spellings it matches as (mixed-case names only, see above)
        self._cased: dict[str, frozenset[str]] = {f: frozenset(v) for f, v in spelt.items() if f not in free}
        self._whole_names(names)
        self._index()

    def _whole_names(self, names: Mapping[str, str]) -> None:
        """The look-up of one whole name (:meth:`key_for`): every name, of any length, lower-cased
        as written, then with ``-``, ``_`` and space alike (the later name wins there)."""
        self._exact = {}
        for n, k in names.items():
            if n.strip():
                self._exact.setdefault(n.strip().lower(), k)
        self._loose = {folded_name(n): k for n, k in self._exact.items()}

    def _index(self) -> None:
        """Where names can start and which to try there, from ``key_of`` alone."""
        by_prefix: dict[str, dict[int, set[str]]] = {}
        self._short: frozenset[str] = frozenset(n for n in self.key_of if len(n) < 4)
        for name in self.key_of:
            if len(name) >= 4:
                by_prefix.setdefault(name[:4], {}).setdefault(len(name), set()).add(name)
        # first four characters -> [(length, names of that length)], longest first; names of two
        # or three characters in `_short` (tried after every longer name at the same position)
        self._buckets = {p: sorted(((n, frozenset(v)) for n, v in d.items()), reverse=True, key=lambda x: x[0])
                         for p, d in by_prefix.items()}
        firsts = {n[:2] for n in self.key_of}
        # where a name can start: one C-speed scan for the names' first two characters, so the
        # Python loop below visits only those positions (thousands of card titles, 200k claims).
        # A name that opens with an ASCII letter or digit starts a word: the scan passes over the
        # inside of words (`find` checks the rest: `_` and `-` are folded to spaces here)
        self._starts = re.compile(_starts_source(firsts)) if firsts else None

    def state(self) -> list[Any]:
        """What :meth:`from_state` builds the same matcher from, JSON-able: the folded names,
        the short ones, the buckets and the start pattern (nothing folded or sorted again)."""
        return [self.key_of, sorted(self._short),
                [[p, [[n, sorted(names)] for n, names in lengths]] for p, lengths in self._buckets.items()],
                self._starts.pattern if self._starts is not None else None,
                {f: sorted(v) for f, v in self._cased.items()}]

    @classmethod
    def from_state(cls, state: Sequence[Any]) -> NameMatcher:
        """The matcher whose :meth:`state` is ``state`` (as read back from JSON)."""
        key_of, short, buckets, starts, cased = state
        m = cls.__new__(cls)
        m.key_of = key_of
        m._cased = {f: frozenset(v) for f, v in cased.items()}
        m._short = frozenset(short)
        m._buckets = {p: [(n, frozenset(names)) for n, names in lengths] for p, lengths in buckets}
        m._starts = re.compile(starts) if starts is not None else None
        m._whole_names(key_of)
        return m

    def __bool__(self) -> bool:
        return bool(self.key_of)

    def key_for(self, name: str) -> str | None:
        """Subject key of one name as written (any case; ``-``, ``_`` and space alike), else None:
        ``kb claims --subject text-generation-inference`` names ``entity:tgi``."""
        return self._exact.get(name.strip().lower()) or self._loose.get(folded_name(name))

    def find(self, text: str) -> list[tuple[str, int, int]]:
        """``(key, start, end)`` of names in ``text``, left to right, no overlaps."""
        if not self.key_of:
            return []
        low = _fold(text)
        size = len(text)
        out: list[tuple[str, int, int]] = []
        buckets, short, cased, key_of = self._buckets, self._short, self._cased, self.key_of
        after = 0  # names do not overlap: a start inside the last name found is passed over
        for m in self._starts.finditer(low):  # type: ignore[union-attr]
            i = m.start()
            if i < after or (i and text[i] in _WORD and (text[i - 1] in _WORD or text[i - 1] in "-.")):
                continue  # inside a name found, or inside an ASCII word: no bounded name starts here
            # (so the start of every name tried below is bounded: _bounded's first test holds)
            for length, names in buckets.get(low[i:i + 4], ()):
                end = i + length
                if end <= size and (name := low[i:end]) in names and _bounded_end(text, end, size) \
                        and (not cased or _as_written(text, i, end, cased.get(name))):
                    out.append((key_of[name], i, end))
                    after = end
                    break
            else:
                # a short name at the end of the text: the slice stops at the text's end, so the
                # end is checked before the boundary test reads text[end - 1] (issue 24: `来自 KM`)
                for end in (i + 3, i + 2):
                    if end <= size and (name := low[i:end]) in short and _bounded_end(text, end, size) \
                            and (not cased or _as_written(text, i, end, cased.get(name))):
                        out.append((key_of[name], i, end))
                        after = end
                        break
        return out


_HEADING_NUMBER_RE = re.compile(r"^[\s#§\d.、)）:：\-–—*_]*")
_HEADING_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9.+#_-]{1,38}$")


def heading_names(headings: Iterable[str]) -> list[tuple[str, str]]:
    """Names a living doc's headings give nodes of their own: ``(name, subject key)``.

    ``### 1.1 AWQ`` names ``entity:awq``; ``## 2.4 FlashInfer（arXiv:2606.20295）`` names
    ``arxiv:2606.20295``. Only a heading whose text (numbering and a bracketed id aside) is one
    name-like token counts. Without an id the token must look like a name: a capital inside, a
    digit, ``.`` or ``-`` (``GPTQ``, ``SmoothQuant``, ``llama.cpp``, ``TensorRT-LLM``), so that
    "Scheduling" or "开放问题" are no subject names; with exactly one id beside it, any word is
    the paper's name (``### §1.2 Medusa（arXiv:2401.10774）``). Several words are never a name
    here ("Speculative Decoding（arXiv:…）" would take every mention of the technique), but
    they label the id (:func:`heading_labels`).
    """
    out: list[tuple[str, str]] = []
    for h in headings:
        refs, text = _heading_text(h)
        if not _HEADING_NAME_RE.match(text):
            continue
        if len(refs) != 1 and not _looks_like_name(text):
            continue
        out.append((text, refs[0].key if len(refs) == 1 else entity_key(text)))
    return out


def _looks_like_name(token: str) -> bool:
    """A token that looks like a system's or paper's name, not a word: a capital inside, a digit,
    ``.``, ``-``, ``+`` or ``#`` (``GPTQ``, ``SmoothQuant``, ``H2O``, ``llama.cpp``), not "Scheduling"."""
    return any(c.isupper() for c in token[1:]) or any(c.isdigit() or c in ".-+#" for c in token)


#: A name right before its own id in brackets, ``CacheGen（arXiv:2310.07240）``, ``KVSplice (2611.09981)``
#: (the text before the id's digits).
_NAME_BEFORE_ID_RE = re.compile(r"(?<![A-Za-z0-9_.+#-])(?P<name>[A-Za-z][A-Za-z0-9.+#_-]{1,38})\s*[（(【\[]\s*"
                                r"(?:arxiv\s*[:：]?\s*)?$", re.IGNORECASE)


def id_names(text: str, refs: Iterable[tuple[str, int]],
             known: Callable[[str], str | None] = lambda token: None) -> list[tuple[str, str]]:
    """``(arXiv key, name)`` for each id of ``text`` written in brackets right after a name:
    a name-like token (:func:`_looks_like_name`) or one ``known`` names (a kb.yaml entity, as
    its canonical name): ``CacheGen（arXiv:2310.07240）`` names ``arxiv:2310.07240`` "CacheGen",
    ``Mooncake（arXiv:2407.00079）`` "Mooncake" (issue 8: the brief showed
    ``arXiv:2310.07240（2310.07240）``); a quoted title right before the id names it by the
    short name before the title's colon (:func:`short_name`: ``"ShardKV: Elastic KV Sharding
    for Serving at Scale"（arXiv:2611.09915）`` names it "ShardKV", so a later ``ShardKV cuts …``
    is the paper's). A word that is no name (``Channels (arXiv:…)``, the end
    of a title) names nothing.

    :param refs: ``(key, start)`` of each id, ``start`` the offset of its digits in ``text``.
    :param known: token -> the label of the kb.yaml entity it names, else None."""
    out = []
    for key, start in refs:
        if start <= 0 or not key.startswith("arxiv:"):
            continue
        m = _NAME_BEFORE_ID_RE.search(text, max(0, start - 60), start)
        if m is None:
            t = _TITLE_BEFORE_ID_RE.search(text, max(0, start - 240), start)
            if t is not None and (name := short_name(t.group("title"))):
                out.append((key, name))
            continue
        token = m.group("name").rstrip(".-_")
        name = known(token) or (token if _looks_like_name(token) else None)
        if name:
            out.append((key, name))
    return out


#: A quoted title right before its id in brackets: ``"ShardKV: Elastic …"（arXiv:2611.09915）``,
#: ``“…”(2611.09915)``, ``《…》（arXiv:…）``.
_TITLE_BEFORE_ID_RE = re.compile(r"[\"“「《『*_]+(?P<title>[^\"“”「」《》『』\n]{3,200}?)[\"”」》』*_]+\s*[（(【\[]\s*"
                                 r"(?:arxiv\s*[:：]?\s*)?$", re.IGNORECASE)

#: A paper's short name before its title's colon: one token of 3-40 name characters (``GPTQ-Lite``).
_SHORT_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9.+#_-]{2,39}")


def short_name(title: str) -> str | None:
    """The short name a paper's title gives before its colon, as a card's title does
    (``GPTQ-Lite: Accurate Post-Training Quantization in One Pass`` -> ``GPTQ-Lite``): one token
    that looks like a name (:func:`_looks_like_name`) and is no initialism in capitals, which
    reads as a format or a field's word (``AWQ``, ``LLM``), else None (``Attention Is All You
    Need``, ``Scaling: …``)."""
    parts = re.split(r"[:：]", title.strip(), maxsplit=1)
    head = parts[0].strip()
    return head if len(parts) == 2 and _SHORT_NAME_RE.fullmatch(head) and _looks_like_name(head) \
        and not head.isupper() else None


def heading_labels(headings: Iterable[str]) -> dict[str, str]:
    """``arXiv key -> name`` for headings that name one paper by its id: the words before the
    bracket (``### 2.3 Lookahead Decoding（arXiv:2402.02057）`` labels ``arxiv:2402.02057``
    "Lookahead Decoding"), shown for a paper without a card instead of its bare id."""
    out: dict[str, str] = {}
    for h in headings:
        refs, text = _heading_text(h)
        if len(refs) == 1 and _HEADING_LABEL_RE.match(text):
            out.setdefault(refs[0].key, text)
    return out


_HEADING_LABEL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9.+#_-]*(?: [A-Za-z0-9.+#_:-]+){0,5}$")


def _heading_text(heading: str) -> tuple[list, str]:
    """The ids of a heading and its text without numbering and bracketed parts."""
    refs = find_arxiv(heading)
    text = re.sub(r"[（(【\[][^）)】\]]*[）)】\]]", " ", heading)
    return refs, _HEADING_NUMBER_RE.sub("", text).strip().strip("*_ ")


def entity_names(config: KbConfig) -> dict[str, str]:
    """kb.yaml entities as matcher names: every alias and canonical name, as written (its case
    decides how :class:`NameMatcher` matches it) -> ``entity:…`` key."""
    names: dict[str, str] = {}
    for canon, aliases in config.entities.items():
        key = entity_key(canon)
        for n in (canon, *aliases):
            if n and n.strip():
                names.setdefault(n.strip(), key)
    return names


def _mixed_case(name: str) -> bool:
    """A name written in mixed case: a word of it with a capital after its first letter and a
    small letter (``FlexKV``, ``MoLE``, ``vLLM``), not ``GPTQ``, ``Medusa``, ``flexkv`` or
    ``Text Generation Inference``."""
    return any(_mixed_word(w) for w in _WORDS_RE.findall(name))


#: A card name or alias in capitals that reads as a word (a vowel in it: ``SPIN``, ``WARP``), so is an
#: ordinary word when small: matched only in capitals, never as ``spin up`` (issue 20); an initialism
#: (``GPTQ``, ``AWQ``) matches in any case.
_ACRONYM_RE = re.compile(r"(?=[A-Z]{3,}$)[B-DF-HJ-NP-TV-Z]*[AEIOU][A-Z]*")


#: A card name or alias that is one capitalised word (``Prism``, ``Anchor``): an ordinary word when
#: small (``a prism of three sources``, ``we anchor the baseline``), so matched only capitalised as
#: written or in capitals.
_WORD_NAME_RE = re.compile(r"[A-Z][a-z]{2,}")


def _mixed_word(word: str) -> bool:
    """A capital after the word's first letter and a small letter (``FlexKV``, ``MoE``)."""
    return any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)


_WORDS_RE = re.compile(r"[^\W\d_]+")


def _as_written(text: str, start: int, end: int, spellings: frozenset[str] | None) -> bool:
    """The name at ``text[start:end]`` writes each mixed-case word of one of ``spellings`` as
    spelt or in capitals (``Prefill batch scheduling for MoE`` is ``Prefill Batch Scheduling for
    MoE``; ``flexkv`` is no ``FlexKV``); True for a name with no spellings (any case matches)."""
    if spellings is None:
        return True
    token = text[start:end]
    if any(token in (s, s.upper()) for s in spellings if _WORD_NAME_RE.fullmatch(s)):
        return True
    return any(not _WORD_NAME_RE.fullmatch(s) and all(token[w.start():w.end()] in (w.group(), w.group().upper()) for w in _WORDS_RE.finditer(s)
                   if _mixed_word(w.group()) or _ACRONYM_RE.fullmatch(w.group())) for s in spellings)


def _starts_source(firsts: Collection[str]) -> str:
    """A pattern matching the first character of each place one of the names of first two
    characters ``firsts`` may start (``match.start()``); one that opens with an ASCII letter or
    digit only where a word starts (not after a letter, digit or ``.``: the scan passes over the
    inside of words). One alternative per first character, each consuming it (``t(?=[eo])``):
    re skips in C to a character one starts with (a pattern that may match empty, or opens with
    a look-around, gives it none: every position was tried). Sorted: the same text every run."""
    by_first: dict[str, set[str]] = {}
    for p in firsts:
        by_first.setdefault(p[0], set()).add(p[1:2])
    alts = []
    for c in sorted(by_first):
        seconds = by_first[c]
        ahead = "" if "" in seconds else "(?=[" + "".join(re.escape(x) for x in sorted(seconds)) + "])"
        alts.append(re.escape(c) + ahead + (r"(?<![a-z0-9.].)" if _word(c) else ""))
    return "|".join(alts)


_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
"""The ASCII word characters (:func:`_word`; ``c in _WORD`` in the hot loop of :meth:`NameMatcher.find`)."""


def _word(c: str) -> bool:
    return c in _WORD


def _bounded(text: str, start: int, end: int) -> bool:
    """ASCII names do not stand inside a word (``vllm-mlx`` is not ``vLLM``, ``v0.5`` no ``v0``);
    ``0 <= start < end <= len(text)`` (a name may end at the text's end)."""
    if end > len(text) or start >= end:
        return False
    if _word(text[start]) and start > 0 and (_word(text[start - 1]) or text[start - 1] in "-."):
        return False
    return _bounded_end(text, end, len(text))


def _bounded_end(text: str, end: int, size: int) -> bool:
    """The end test of :func:`_bounded` (``0 < end <= size == len(text)``): an ASCII name does not
    run on into a word, ``-word`` or ``.digit``."""
    if end < size and text[end - 1] in _WORD:
        nxt = text[end]
        after = text[end + 1] if end + 1 < size else ""
        if nxt in _WORD or (nxt == "-" and after in _WORD) or (nxt == "." and after.isdigit()):
            return False
    return True
