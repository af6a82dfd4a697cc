"""Find cited references in text: http(s) URLs, DOIs and KB-relative file paths."""

from __future__ import annotations

import re

from kb.perf.lazyre import lazy

# URL characters: printable ASCII except space, ", <>, `, {}, |, \ and ^.
# Anything non-ASCII (CJK text or punctuation, full-width forms) ends a URL (CASES.md C04).
_URL_RE = re.compile(r"(?<![A-Za-z0-9])(?i:https?)://[!#-;=?-\[\]_a-z~]+")
# DOI: "10." registrant "/" suffix (Crossref's recommended pattern, plus [] and +).
_DOI_RE = re.compile(
    r"(?:(?i:doi)[ \t]*[:：][ \t]*|(?i:https?://(?:dx\.)?doi\.org/))?"
    r"(?<![0-9A-Za-z.])(?P<doi>10\.\d{4,9}/[-._;:()\[\]/A-Za-z0-9+]+)"
)
#: The ``10.NNNN/`` every DOI opens with, not after a letter, digit or point (:func:`find_dois`'s quick test).
_DOI_CORE_RE = re.compile(r"10\.(?<![0-9A-Za-z.]10\.)\d{4,9}/")
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PATH_CHARS = rf"[A-Za-z0-9_.\-/{_CJK}]"
_ROOTS = r"(?:inbox|organized|paper_cards|knowledge)/"
_KB_PATH_RE = lazy(globals(), "_KB_PATH_RE",  # compiled on first use (only the parser finds paths)
    rf"(?<![A-Za-z0-9_.\-/{_CJK}])(?:\./)?(?P<path>"
    # a Markdown file under a KB root (the first ".md" ends it: CJK prose may follow)
    rf"{_ROOTS}{_PATH_CHARS}*?\.md(?![A-Za-z0-9_\-])"
    # paper-card shorthand: number only, or the card's file stem without ".md"
    r"|paper_cards/\d+(?:-\d{4}-\d{4,5}|-[a-z]+(?:-[a-z]+)?-\d{7})?(?![A-Za-z0-9_\-/]|\.\w)"
    r")"
)
_TRAILING = ".,;:!?'\""


def _close(text: str, start: int, end: int) -> int:
    """End of URL/DOI ``text[start:end]``: cut at an unbalanced ``)``/``]``, drop trailing punct."""
    depth_paren = depth_bracket = 0
    for i in range(start, end):
        ch = text[i]
        if ch == "(":
            depth_paren += 1
        elif ch == "[":
            depth_bracket += 1
        elif ch == ")":
            if depth_paren == 0:
                end = i
                break
            depth_paren -= 1
        elif ch == "]":
            if depth_bracket == 0:
                end = i
                break
            depth_bracket -= 1
    while end > start and text[end - 1] in _TRAILING:
        if text[end - 1] == "'" and text.count("'", start, end) % 2 == 0:
            break  # a balanced quote belongs to the URL
        end -= 1
    return end


def find_urls(text: str) -> list[tuple[str, int, int]]:
    """http(s) URLs in ``text`` (CASES.md C04: CJK punctuation is never part of a URL).

    A URL ends before whitespace or any non-ASCII character (CJK text and punctuation,
    full-width forms), before quotes, ``<>``, backticks and ``|``; before a ``)`` or ``]``
    that does not close one opened inside it (so ``[t](https://x)`` yields ``https://x``
    and ``…/wiki/Foo_(bar)`` keeps its parentheses); and trailing ``.,;:!?'"`` are dropped.
    Scheme-less forms (``github.com/…``) are not read.

    :param text: any text.
    :returns: ``(url, start, end)`` with ``text[start:end] == url``, in text order.
    """
    out: list[tuple[str, int, int]] = []
    m = _URL_RE.search(text)
    while m is not None:
        start = m.start()
        end = _close(text, start, m.end())
        if text.find("://", start, end) + 3 < end:  # something after the scheme
            out.append((text[start:end], start, end))
        m = _URL_RE.search(text, max(end, text.find("://", start) + 3))
    return out


def find_dois(text: str) -> list[tuple[str, int, int]]:
    """DOIs in ``text``: bare ``10.1145/3803798``, ``doi:10.…``, ``https://doi.org/10.…``.

    The DOI ends as a URL does (:func:`find_urls`); DOIs are case-insensitive (DOI
    Handbook §2.4), so the value is lower-cased.

    :param text: any text.
    :returns: ``(doi, start, end)``, the span being the DOI itself (from ``10.``), without
        any ``doi:`` or resolver prefix; in text order.
    """
    out: list[tuple[str, int, int]] = []
    # every match holds its DOI's ``10.NNNN/`` (same look-behind): a text without one has none. The
    # quick test is led by a literal (re skips to "10."); _DOI_RE, led by an optional prefix, is
    # entered at every position of the text
    m = _DOI_RE.search(text) if _DOI_CORE_RE.search(text) else None
    while m is not None:
        start = m.start("doi")
        end = _close(text, start, m.end("doi"))
        doi = text[start:end]
        if not doi.endswith("/"):
            out.append((doi.lower(), start, end))
        m = _DOI_RE.search(text, max(end, text.index("/", start) + 1))
    return out


def find_kb_paths(text: str) -> list[tuple[str, int, int]]:
    """KB-relative file paths written in prose (DESIGN.md §1 layout).

    Read: Markdown files under ``inbox/``, ``organized/``, ``paper_cards/`` or
    ``knowledge/`` (``inbox/jay/2026-07-31T1735-jay-briefing.md``,
    ``organized/knowledge/inference.md``, ``paper_cards/681-2607-26627.md``), and the
    card shorthand ``paper_cards/681`` or ``paper_cards/681-2607-26627``. File names may
    hold CJK characters; a path ends at its first ``.md``, at whitespace, CJK punctuation,
    brackets, ``,``, ``+`` or ``→``. A card range such as ``paper_cards/666-681`` is not a
    path. Nothing is resolved against the disk.

    :param text: any text.
    :returns: ``(path, start, end)`` with a leading ``./`` stripped and
        ``text[start:end] == path``, in text order.
    """
    return [(m.group("path"), m.start("path"), m.end("path")) for m in _KB_PATH_RE.finditer(text)]
