"""Find, validate and normalise arXiv identifiers (``2607.26627v2``, ``hep-th/9901001``) in text."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from kb.core.claims import ArxivRef
from kb.core.records import MAX_VERSION
from kb.extract.vocab.arxiv import KNOWN_ARCHIVES, OTHER_ARCHIVES
from kb.perf.lazyre import lazy
from kb.perf.models import built

# --- patterns ---------------------------------------------------------------------------------
# An id (with its version) ends where no ASCII word character and no ".<digit>" follows;
# ".pdf", CJK punctuation, ASCII punctuation, whitespace and end of text all qualify.
_END = r"(?![0-9A-Za-z_])(?!\.[0-9])"
_VERSION = r"(?:[vV](?P<{0}>[0-9]+))?"
_SLASH = r"(?:/|%(?:25)?2[fF])"  # as written or percent-encoded once or twice (a redirect's link)
# In an id-like context (arXiv prefix or arxiv.org URL) any digit count is taken and judged.
_NEW_CTX = r"[0-9]{4}\.[0-9]+"
_OLD_CTX = rf"[A-Za-z]+(?:-[A-Za-z]+)?(?:\.[A-Za-z][A-Za-z-]*)?{_SLASH}[0-9]+"
_HOST = rf"(?i:https?://)?(?i:(?:www\.|export\.)?arxiv\.org){_SLASH}(?i:abs|pdf|html){_SLASH}"  # parsing
# URL tail after the id: path, query or fragment, ASCII only, no quotes/brackets/<>/|/`.
_TAIL_CHARS = r"[!#-&(-;=?-Z_a-z~]"
_SPACE = r"[ \t\u00a0\u3000]"

# Three scanners, each led by a plain character or class so the regex engine can skip text
# that cannot start a match (one alternation with leading lookbehinds ran 5x slower).
# 1. arxiv.org URL or arXiv prefix, anchored on the letters "arxiv"; the scheme and
#    www./export. before a URL host are found by looking back (_url_start).
_CTX_RE = lazy(globals(), "_CTX_RE",  # compiled on first use (a look-up parses no text)
    r"[aA](?:(?<![A-Za-z][aA])|(?<=%2[fF][aA])|(?<=%252[fF][aA]))(?i:rxiv)"
    rf"(?:(?P<url>(?i:\.org){_SLASH}(?i:abs|pdf|html){_SLASH})|{_SPACE}*(?:[:：]|%3[aA]){_SPACE}{{0,3}}|\.)"
    rf"(?P<id>{_NEW_CTX}|{_OLD_CTX}){_VERSION.format('v')}{_END}"
    rf"(?(url)(?:\.pdf(?![0-9A-Za-z_]))?(?P<tail>[/?#]{_TAIL_CHARS}*)?)", re.ASCII,
)
# 2. bare new-style id of the exact shape, not part of a number, version string or amount:
#    the lookbehinds after the first digit check the character before it.
_BARE_NEW_RE = re.compile(
    r"(?P<id>[0-9](?<![0-9A-Za-z_.+\-\u2212$¥￥][0-9])[0-9]{3}\.[0-9]{4,5})"
    rf"{_VERSION.format('v')}{_END}(?![%‰×])"
)
# 3. bare old-style id, anchored on "/" + 7 digits; the archive is found by looking back.
_SLASH_SEVEN_RE = re.compile(r"/[0-9]{7}")
_BARE_OLD_RE = re.compile(
    rf"(?P<id>[A-Za-z]+(?:-[A-Za-z]+)?(?:\.[A-Za-z][A-Za-z-]*)?/[0-9]{{7}}){_VERSION.format('v')}{_END}"
)
# 4. what stands right before a bare id that makes it another server's number
_OTHER_BEFORE_RE = re.compile(
    r"(?i:" + "|".join(OTHER_ARCHIVES) + r")(?:\.(?:org|com|net|fr|eu|io))?"
    r"(?:(?:/|%2[fF])[0-9A-Za-z_.%-]*)*\s*[:：]?\s*$")
_ARCHIVE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-")
_NOT_BEFORE_ARCHIVE = _ARCHIVE_CHARS | frozenset("0123456789_/")
_PARSE_RE = re.compile(
    rf"(?:{_HOST}|(?i:arxiv)(?:\s*(?:[:：]|%3[aA])\s*|\s+|\.)?)?"
    rf"(?P<id>{_NEW_CTX}|{_OLD_CTX}){_VERSION.format('v')}{_END}"
    rf"(?:\.pdf)?(?:[/?#]{_TAIL_CHARS}*)?", re.ASCII,
)
_TRAILING_PUNCT = ".,;:!?'\")]}>。，、；：！？）】」』》〉”’…·"
_LEADING_PUNCT = "([{<（【「『《〈“‘"
_NEW_PARTS_RE = re.compile(r"([0-9]{2})([0-9]{2})\.([0-9]+)")
_OLD_PARTS_RE = re.compile(r"([a-z]+(?:-[a-z]+)?)((?:\.[A-Za-z][A-Za-z-]*)?)/([0-9]{2})([0-9]{2})([0-9]*)")
_ENCODED_SLASH_RE = re.compile(r"%(?:25)?2[fF]")


class _FoldTable(dict[int, int]):
    """``str.translate`` table: a character whose NFKC form is one ASCII letter, digit, ``:``,
    ``.``, ``/``, ``-`` or space maps to it (full-width ``ａｒＸｉｖ：２６１１．０４４５５``, the
    ideographic space); every other character maps to itself (full-width ``，（）`` stay: they end
    an id as written). Filled on first sight of each character."""

    def __missing__(self, code: int) -> int:
        ch = chr(code)
        n = unicodedata.normalize("NFKC", ch)
        # superscripts and circled digits ("10²", "①") are no digits of an id
        out = ord(n) if (len(n) == 1 and n.isascii() and (n.isalnum() or n in ":./- ")
                         and unicodedata.category(ch) != "No") else code
        self[code] = out
        return out


_FOLD = _FoldTable()


def fold_id_text(text: str) -> str:
    """``text`` with each character whose NFKC form is one ASCII letter, digit or ``:./-``/space
    replaced by it, same length (offsets into the result are offsets into ``text``): the one
    normalisation of arXiv ids, shared by the parser, ``kb verify`` and lint (issue 20: a full-width
    ``ａｒＸｉｖ:２６１１.０４４５５`` is ``arXiv:2611.04455``, not a phantom subject).

    :param text: any text.
    :returns: the folded text (``text`` itself when it is ASCII).
    """
    return text if text.isascii() else text.translate(_FOLD)


@lru_cache(maxsize=8192)
def _canonical(id_text: str) -> str:
    """The id as kb keys it: an encoded slash decoded, an old-style archive in lower case
    (``HEP-TH/0601001`` → ``hep-th/0601001``; a subject class is kept as written; cached)."""
    id_text = _ENCODED_SLASH_RE.sub("/", id_text) if "%" in id_text else id_text
    head, sep, rest = id_text.partition("/")
    archive, dot, cls = head.partition(".")
    return archive.lower() + dot + cls + sep + rest if sep else id_text


@dataclass(frozen=True, slots=True)
class IdCandidate:
    """One id-shaped token found by :func:`scan_arxiv`, valid or not."""

    raw: str
    """The text as written: prefix, URL, ``.pdf`` and query string included."""
    id: str | None
    """Canonical id without version, or None when the token is not a valid arXiv id."""
    version: int | None
    """The ``vN`` written with it, else None."""
    start: int
    """Offset of the id's first character (first digit; archive's first letter for old-style)."""
    end: int
    """Offset one past the id and its version."""
    error: str | None
    """Why the token is not a valid arXiv id (``month 13 does not exist``), else None."""


class InvalidArxivId(ValueError):
    """A user-supplied arXiv id that cannot be used; ``reason`` says why.

    :param text: the argument as the user gave it.
    :param reason: the human reason, e.g. ``month 13 does not exist``.
    """

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"not a valid arXiv id {text!r}: {reason}")
        self.text = text
        self.reason = reason


@lru_cache(maxsize=8192)
def _id_error(id_text: str, version: str | None) -> str | None:
    """Reason ``id_text`` (no version) is not a valid arXiv id, else None (cached: a KB
    names the same ids again and again).

    Rules: arXiv help page "Understanding the arXiv identifier" — new-style YYMM.NNNN from
    0704 to 1412, YYMM.NNNNN from 1501; old-style archive[.SC]/YYMMNNN from 9108 to 0703;
    a version from v1 to :data:`kb.core.records.MAX_VERSION` (the highest a record may state).
    """
    new = _NEW_PARTS_RE.fullmatch(id_text)
    if new:
        yy, mm, seq = new.groups()
        yymm = int(yy + mm)
        if len(seq) not in (4, 5):
            return f"{len(seq)}-digit sequence (4 digits to 1412, 5 from 1501)"
        if not 1 <= int(mm) <= 12:
            return f"month {mm} does not exist"
        if yymm < 704:
            return "new-style ids start at 0704"
        if yymm <= 1412 and len(seq) == 5:
            return "5-digit sequence before 1501"
        if yymm >= 1501 and len(seq) == 4:
            return "4-digit sequence after 1412 (5 digits from 1501)"
        if int(seq) == 0:
            return "sequence number 0 does not exist"
    else:
        old = _OLD_PARTS_RE.fullmatch(id_text)
        if old is None:  # pragma: no cover - the scanning patterns only admit the two shapes
            return "not an arXiv id"
        archive, _, yy, mm, seq = old.groups()
        if archive not in KNOWN_ARCHIVES:
            return f"unknown archive {archive!r}"
        if len(seq) != 3:
            return f"old-style ids have 7 digits after the archive, not {len(seq) + 4}"
        if not 1 <= int(mm) <= 12:
            return f"month {mm} does not exist"
        year = (1900 if int(yy) >= 91 else 2000) + int(yy)
        if not 199108 <= year * 100 + int(mm) <= 200703:
            return "old-style ids run from 9108 to 0703"
        if int(seq) == 0:
            return "sequence number 0 does not exist"
    if version is not None and not version.strip("0"):
        return "version v0 does not exist (versions start at v1)"
    if version is not None and (len(version.lstrip("0")) > len(str(MAX_VERSION)) or int(version) > MAX_VERSION):
        return f"version v{version if len(version) <= 12 else version[:12] + '…'} is past v{MAX_VERSION}, the highest kb takes"
    return None


def _trim_tail(text: str, start: int, end: int) -> int:
    """New end of a URL tail ``text[start:end]`` after dropping unbalanced closing punctuation."""
    while end > start:
        last = text[end - 1]
        if last in ".,;:!?'":
            end -= 1
        elif last == ")" and text.count("(", start, end) < text.count(")", start, end):
            end -= 1
        else:
            break
    return end


_SCHEME_BEFORE_RE = re.compile(r"(?i:https?(?::|%(?:25)?3a)(?://|(?:%(?:25)?2f){2}))$")


def _url_start(text: str, host: int) -> int:
    """Start of the arxiv.org URL whose host name begins at ``host`` (scheme, www./export.; a
    scheme percent-encoded in a redirect's query, ``u=https%3A%2F%2Farxiv.org…``, too)."""
    start = host
    for sub in ("www.", "export."):
        if text[start - len(sub) : start].lower() == sub:
            start -= len(sub)
            break
    m = _SCHEME_BEFORE_RE.search(text, max(0, start - 20), start)
    return m.start() if m else start


def _other_server(text: str, start: int) -> bool:
    """Whether the bare id at ``start`` follows another server's name, prefix or URL (``viXra:``)."""
    m = _OTHER_BEFORE_RE.search(text, max(0, start - 60), start)
    return m is not None and (m.start() == 0 or not text[m.start() - 1].isalpha())


def _candidate(text: str, m: re.Match[str], raw_start: int, raw_end: int) -> IdCandidate:
    """The candidate for a match with groups ``id`` and ``v`` (``m`` matched the folded text,
    :func:`fold_id_text`; ``raw`` is cut from ``text`` as written)."""
    id_written, ver = m.group("id", "v")
    id_text = _canonical(id_written)
    error = _id_error(id_text, ver)
    return IdCandidate(text[raw_start:raw_end], None if error else id_text,
                       int(ver) if ver is not None and not error else None, m.start("id"),
                       m.end("v") if ver is not None else m.end("id"), error)


#: A full-width letter, digit, ``．`` or ``／``: only then is a scanned text folded (``：`` is read as is).
_FULL_WIDTH_RE = re.compile(r"[\uff0e\uff0f\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")


def _scan(written: str) -> list[tuple[IdCandidate, int, bool]]:
    """Candidates with the start of their raw text and whether they are an arxiv.org URL."""
    text = fold_id_text(written) if not written.isascii() and _FULL_WIDTH_RE.search(written) else written
    ctx: list[tuple[IdCandidate, int, bool]] = []
    for m in _CTX_RE.finditer(text):
        is_url = m.group("url") is not None
        raw_start = _url_start(text, m.start()) if is_url else m.start()
        raw_end = m.end()
        if m.group("tail") is not None:
            raw_end = _trim_tail(text, m.start("tail"), raw_end)
        ctx.append((_candidate(written, m, raw_start, raw_end), raw_start, is_url))
    # a bare token inside a URL or after a prefix is that mention, already counted: skipped
    # before a candidate is built for it (most bare tokens are the id of an arXiv: prefix)
    ctx_starts = [raw_start for _, raw_start, _ in ctx]
    ctx_ends = [raw_start + len(cand.raw) for cand, raw_start, _ in ctx]

    def counted(start: int, end: int) -> bool:
        i = bisect_right(ctx_starts, start) - 1
        return (i >= 0 and ctx_ends[i] > start) or (i + 1 < len(ctx_starts) and ctx_starts[i + 1] < end)

    bare: list[tuple[IdCandidate, int, bool]] = []
    for m in _SLASH_SEVEN_RE.finditer(text) if "/" in text else ():
        start, floor = m.start(), max(0, m.start() - 40)
        while start > floor and text[start - 1] in _ARCHIVE_CHARS:
            start -= 1
        after_slash = start > 0 and text[start - 1] == "/"  # a path: /hep-th/0601001
        if start == m.start() or (start > 0 and text[start - 1] in _NOT_BEFORE_ARCHIVE and not after_slash):
            continue
        old = _BARE_OLD_RE.match(text, start)
        if old is None or old.group("id").split("/", 1)[0].split(".", 1)[0].lower() not in KNOWN_ARCHIVES:
            continue  # a bare word/1234567 is not id-like without context
        if not (ctx and counted(start, old.end())):
            cand = _candidate(written, old, start, old.end())
            if after_slash and cand.id is None:
                continue  # an invalid token inside some path is no id-shaped mention
            bare.append((cand, start, False))
    # "1,2345.6789" is a number, but a comma with no space may follow an id: "2607.00001,2607.00002"
    # (the ends of the candidates so far: looked at only after such a comma)
    for m in _BARE_NEW_RE.finditer(text):
        start, end = m.span()
        if start > 1 and text[start - 1] == "," and "0" <= text[start - 2] <= "9" \
                and all(cand.end != start - 1 for cand, _, _ in (*ctx, *bare)):
            continue
        if not (ctx and counted(start, end)) and not (start and _other_server(text, start)):
            bare.append((_candidate(written, m, start, end), start, False))
    if len(bare) > 1:
        bare.sort(key=lambda item: item[1])
    if not ctx:
        return bare
    return sorted(ctx + bare, key=lambda item: item[1]) if bare or len(ctx) > 1 else ctx


def scan_arxiv(text: str) -> list[IdCandidate]:
    """Every arXiv-id-shaped token in ``text``, valid or not, in text order.

    A token counts when an ``arXiv:`` prefix (any case, ASCII or full-width colon, optional
    space) or an ``arxiv.org/abs|pdf|html/`` URL introduces it, or when it stands alone with
    the exact shape ``YYMM.NNNN(N)(vN)`` or ``archive[.SC]/YYMMNNN(vN)`` with a known archive.
    Numbers, versions (``v0.5.16``), dates, amounts (``1234.5678%``) and digits inside longer
    runs are never candidates.

    :param text: any text (one line or a whole file).
    :returns: candidates; ``error`` is set (and ``id`` None) for invalid ones.
    """
    return [cand for cand, _, _ in _scan(text)]


def find_arxiv(text: str) -> list[ArxivRef]:
    """Valid arXiv id mentions in ``text``, in text order (CASES.md C01, C03, C04).

    A Markdown link whose text is an id and whose href is an arxiv.org URL of the same id
    (``[2403.00002](https://arxiv.org/abs/2403.00002v2)``) is one mention: raw is the whole
    link, start/end are the id in the link text, the version is whichever side states one.
    When the two sides state different versions they stay two mentions. Every other
    occurrence is its own mention; callers dedupe.

    :param text: any text.
    :returns: one :class:`~kb.core.claims.ArxivRef` per mention; ``start`` is the offset of the
        id's first digit (archive letter for old-style ids), ``end`` one past its version.
    """
    scanned = _scan(text)
    refs: list[ArxivRef] = []
    i = 0
    while i < len(scanned):
        cand, raw_start, _ = scanned[i]
        if cand.id is None:
            i += 1
            continue
        raw_end = raw_start + len(cand.raw)
        if i + 1 < len(scanned) and raw_start > 0 and text[raw_start - 1] == "[":
            nxt, nxt_start, nxt_is_url = scanned[i + 1]
            nxt_end = nxt_start + len(nxt.raw)
            if (
                nxt_is_url
                and nxt.id == cand.id
                and nxt_start == raw_end + 2
                and text.startswith("](", raw_end)
                and text.startswith(")", nxt_end)
                and (cand.version is None or nxt.version is None or cand.version == nxt.version)
            ):
                version = cand.version if cand.version is not None else nxt.version
                refs.append(built(ArxivRef, id=cand.id, version=version, raw=text[raw_start - 1 : nxt_end + 1],
                                  start=cand.start, end=cand.end))
                i += 2
                continue
        # (values of their fields' types, from the scan: no validation, kb.perf.models.built)
        refs.append(built(ArxivRef, id=cand.id, version=cand.version, raw=cand.raw, start=cand.start, end=cand.end))
        i += 1
    return refs


def parse_arxiv_id(text: str) -> ArxivRef:
    """Parse one user-supplied arXiv id (a CLI argument) into its canonical form.

    Surrounding whitespace, trailing ASCII/CJK punctuation (``2607.26627）``, ``…。``) and
    opening brackets are stripped; then any form :func:`scan_arxiv` knows is accepted:
    bare, ``arXiv:``/``ARXIV：`` (a space instead of the colon too), arxiv.org URLs with
    ``.pdf``, query string or fragment, old-style ``hep-th/9901001v1``.

    :param text: the argument as given.
    :returns: the id; ``raw`` is the stripped argument, ``start``/``end`` offsets into ``text``.
    :raises InvalidArxivId: the text is not one arXiv id, or is id-shaped but invalid
        (``.reason`` says why, e.g. ``new-style ids start at 0704``).
    """
    folded = fold_id_text(text)
    stripped = folded.strip().rstrip(_TRAILING_PUNCT).rstrip()
    lead = len(folded) - len(folded.lstrip())
    body = stripped.lstrip(_LEADING_PUNCT + " \t\u3000")
    lead += len(stripped) - len(body)
    m = _PARSE_RE.fullmatch(body)
    if m is None:
        redirect = _redirected(body, text, lead)
        if redirect is not None:
            return redirect
        raise InvalidArxivId(text, "expected YYMM.NNNNN[vN], archive/YYMMNNN or an arxiv.org URL")
    id_text, ver = _canonical(m.group("id")), m.group("v")
    error = _id_error(id_text, ver)
    if error:
        raise InvalidArxivId(text, error)
    end = m.end("v") if ver is not None else m.end("id")
    return ArxivRef(
        id=id_text,
        version=int(ver) if ver is not None else None,
        raw=text[lead:lead + len(body)],
        start=lead + m.start("id"),
        end=lead + end,
    )


def _redirected(body: str, text: str, lead: int) -> ArxivRef | None:
    """The one arXiv id of a link that reaches arxiv.org through another site
    (``https://l.example.com/r?u=https%3A%2F%2Farxiv.org%2Fabs%2F2611.04455``), else None."""
    if "://" not in body or any(c.isspace() for c in body):
        return None
    urls = [c for c in scan_arxiv(body) if "arxiv" in c.raw.lower()]
    if len(urls) != 1 or urls[0].id is None:
        return None
    return ArxivRef(id=urls[0].id, version=urls[0].version, raw=text[lead:lead + len(body)],
                    start=lead + urls[0].start, end=lead + urls[0].end)
