"""Document scopes read from a file's text before its block walk (issue 20): the paper a whole
file is about (:func:`file_scope`) and the one paper each heading's section links
(:func:`section_ids`). :class:`kb.read.walk._FileCtx` gives them to the units below.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kb.extract.arxiv_ids import find_arxiv
from kb.extract.titles import paper_title, title_key

#: A unit that gives the paper of the title above it: a labelled id or link (``🔗 arXiv: 2602.17664``,
#: ``**URL**: http://arxiv.org/abs/…``, ``[PDF](https://arxiv.org/pdf/…)``, ``arXiv:2611.04455``).
_ID_WORDS = r"(?:arxiv|url|paper|link|pdf|abs|论文|链接|原文|地址|https?://(?:www\.)?arxiv)"
_ID_LINE_RE = re.compile(r"^[\W_]*" + _ID_WORDS, re.IGNORECASE)
#: A line at a file's top that labels the paper's link and holds nothing else: ``**URL**: http://arxiv.org/abs/…``,
#: ``- arXiv: 2611.04455``, ``论文链接：…``, ``[Link to the paper](https://arxiv.org/abs/…)`` (alone on its line:
#: ``- A router ([paper](…arxiv…)) …`` is an item about one paper, not the file's).
_PAPER_LINE_RE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?[ \t]*(?:url|link|paper|arxiv|pdf|论文(?:链接|地址)?|原文(?:链接)?|链接)[ \t]*"
    r"(?:\*\*|__)?[ \t]*[:：][ \t]*(?:\*\*|__)?[ \t]*\S+[ \t]*$"
    r"|^[ \t]*(?:[-*+][ \t]+)?\[(?:link to (?:the )?paper|paper|arxiv|pdf|论文|原文)[^\]]{0,20}\]\(\s*\S*arxiv\S*\)\s*$",
    re.IGNORECASE | re.MULTILINE)
_ATX_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+\S")
#: A line that is only a link (``[到论文主页查看详情](https://huggingface.co/papers/2309.05793)``,
#: ``- [PDF](https://arxiv.org/pdf/…)``).
_LINK_LINE = r"{s}*(?:[-*+]{s}+|>{s}*)?\[[^\]\n]*\]\({s}*(?P<href>\S+?){s}*\){s}*$"
#: The lines :func:`section_ids` reads, found in one scan of ``"\n" + body`` (each match starts
#: at the ``\n`` before its line: re skips to one in C; ``re.MULTILINE`` for ``$``; a line's space
#: is ``[^\S\n]``, the ``\s`` of a line cut at ``\n``): a fence line, else an ATX heading, else a
#: link line (:data:`_LINK_LINE`), else a labelled id line (:data:`_ID_LINE_RE`). Alternatives in
#: that order: a line is what the first one it matches says, as the tests one after another on
#: each line did. The id line's marks before its word are taken possessively (``*+``: never given
#: back one by one to try the words earlier): every word starts with a letter (also in any case),
#: which no mark is, so the words can only follow the whole run (the same lines, the same spans;
#: ~0.2 % of a cold ingest's instructions were this backtracking).
_SECTION_LINE_RE = re.compile(
    r"\n(?: {0,3}(?P<fence>```|~~~)|(?P<atx> {0,3}#{1,6})[ \t]+\S|" + _LINK_LINE.format(s=r"[^\S\n]")
    + r"|(?P<id>(?:[^\w\n]|_)*+" + _ID_WORDS + "))",
    re.IGNORECASE | re.MULTILINE)


#: ``arxiv`` in any case: ``_ARXIV_ANY_CASE_RE.search(text)`` finds one exactly when ``"arxiv" in
#: text.lower()`` (without lowering a copy of the text): no other character lowers to one of these
#: five letters but ``İ`` (U+0130), to ``i`` followed by U+0307, never by ``v``.
_ARXIV_ANY_CASE_RE = re.compile(r"[aA][rR][xX][iI][vV]")


def section_ids(body: str) -> dict[int, str]:
    """The one paper each heading's section links, by the heading's 1-based line (issue 20).

    A daily report lists a paper as ``## <Title>``, its notes, then a line that is only a link to
    the paper (an arXiv or ``huggingface.co/papers/<id>`` URL: Hugging Face paper ids are arXiv
    ids) or a labelled id line (``**arXiv:** 2309.05793``). A heading whose section (up to the
    next heading of its level or higher) holds such lines naming exactly one id gets that id;
    several ids (a digest's top heading) give none. The caller decides whether the heading is
    a paper title. Fenced code is skipped."""
    if _ARXIV_ANY_CASE_RE.search(body) is None and "huggingface.co/papers/" not in body:
        return {}
    open_: list[tuple[int, int, set[str]]] = []  # (level, line, ids) of the headings above
    out: dict[int, str] = {}
    fenced = False

    def close(level: int) -> None:
        while open_ and open_[-1][0] >= level:
            _, heading, ids = open_.pop()
            if len(ids) == 1:
                out[heading] = next(iter(ids))

    text = "\n" + body  # (each line after a newline: a match starts at the one before its line)
    n, at = 0, 0  # the body's line n (1-based) starts at offset `at` of text (none yet: 0, 0)
    for m in _SECTION_LINE_RE.finditer(text):
        start = m.start()
        n += text.count("\n", at, start + 1)
        at = start + 1
        if m.group("fence") is not None:
            fenced = not fenced
            continue
        if fenced:
            continue
        h = m.group("atx")
        if h is not None:
            level = len(h.lstrip(" "))
            close(level)
            open_.append((level, n, set()))
            continue
        if not open_:
            continue
        href = m.group("href")
        if href is None:  # a labelled id line: the whole line is read
            end = text.find("\n", at)
            href = text[at:end] if end >= 0 else text[at:]
        keys = {r.key for r in find_arxiv(href) if r.key.startswith("arxiv:")}
        for _, _, ids in open_:
            ids.update(keys)
    close(0)
    return out


#: Files larger than this are no paper note (a file scope is looked for in smaller ones only).
_SCOPE_MAX = 200_000
#: Front-matter keys that link a paper note's paper.
_FRONT_LINKS = ("url", "link", "arxiv", "paper", "pdf", "abs", "arxiv_url", "pdf_url", "paper_url", "source")


def file_scope(front: Mapping[str, Any], body: str) -> list[str]:
    """The paper a whole file is about (issue 20: paper-per-file notes), else ``[]``.

    A file is about one paper when its top (first 30 lines, above the first section heading) names
    one: a labelled line linking one arXiv paper (``**URL**: http://arxiv.org/abs/…``, ``[Link to
    the paper](…)``), or a front matter ``title`` or first ``# Title`` that is a paper title
    (:func:`kb.extract.titles.paper_title`): the one arXiv id the file (and its front matter) names,
    or with none the title (``title:…``); or, with no title, a front-matter link (``pdf:``,
    ``arxiv:``, …) to one paper when the body names no other id. A digest (several ids, no
    labelled line) has none."""
    if len(body) > _SCOPE_MAX:
        return []
    title = None
    raw = front.get("title")
    if isinstance(raw, str):
        title = paper_title(raw, numbered_only=False)
    lines = body.lstrip("\n")[:6000].split("\n", 30)
    if title is None and lines[0].startswith("# "):
        title = paper_title(lines[0][2:], numbered_only=False)
    # the top ends at its first section heading: a line under `### 2. <item>` is that item's
    top = "\n".join(lines[:next((k for k, ln in enumerate(lines[1:30], 1) if _ATX_RE.match(ln)), 30)])
    for m in _PAPER_LINE_RE.finditer(top) if "arxiv" in top or "arXiv" in top or "ARXIV" in top else ():
        line_ids = {r.key for r in find_arxiv(m.group(0))}  # the one line the pattern matched
        if len(line_ids) == 1:  # the labelled line links one paper
            return list(line_ids)
    extra = " ".join(str(front.get(k)) for k in _FRONT_LINKS if front.get(k) is not None) if front else ""
    linked = {r.key for r in find_arxiv(extra) if r.key.startswith("arxiv:")} if extra else set()
    if len(linked) == 1 and (title is not None or linked.issuperset(
            r.key for r in find_arxiv(body) if r.key.startswith("arxiv:"))):
        return list(linked)  # front matter `pdf: https://arxiv.org/pdf/2601.09527v1`: the note's paper
    if title is None:
        return []
    ids = list(dict.fromkeys(r.key for r in find_arxiv(extra + "\n" + body) if r.key.startswith("arxiv:")))
    if len(ids) == 1:
        return ids
    return [title_key(title)] if not ids else []
