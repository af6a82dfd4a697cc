"""Which living-doc value is first-hand cited: the doc line cites a primary source (the paper,
the project's repository, its docs or official blog; ``来源：官方博客 / README / docs / 论文``).

The one place of this decision: the diff (a secondhand number that a first-hand cited doc line
states is no secondhand-only number, so ``kb diff``, ``kb sources`` and the brief agree) and lint
KB108 (a consensus number on such a line is not secondhand only) both call it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from kb.core.claims import Claim
from kb.extract.vocab.kinds import BUILTIN_CUES
from kb.facts.attributor import Attributor
from kb.facts.fact import Fact

#: A citation naming a primary source in words; a KB path or a relay site is none.
_PRIMARY_WORDS = re.compile(r"官方博客|官方文档|官方公告|发布说明|README|\bdocs?\b|论文|official blog|release notes|\bpaper\b",
                            re.IGNORECASE)
#: Paper and repository hosts, and the hosts of projects' own docs sites (GitHub Pages such as
#: nvidia.github.io/TensorRT-LLM, Read the Docs).
_PRIMARY_HOSTS = ("arxiv.org", "github.com", "gitlab.com", "huggingface.co", "doi.org", "github.io", "readthedocs.io",
                  "readthedocs.org")
_RELAY_HOSTS = ("csdn.net", "zhihu.com", "infoq.cn", "news.ycombinator.com", "substack.com", "medium.com", "reddit.com",
                "twitter.com", "x.com", "weixin.qq.com")
_SOURCE_LINE_RE = re.compile(r"^\W*(?:来源|出处|source|sources)\s*[:：]", re.IGNORECASE)
_CITED_RE = re.compile(r"https?://\S+|arXiv:\s?\d{4}\.\d{4,5}")


def primary_source(cited: str) -> bool:
    """True when ``cited`` (a URL, ``arxiv:…``, ``doi:…``, a KB path or words) is a primary source:
    an arXiv id or DOI, or a URL on a paper/repository host (arxiv.org, github.com, huggingface.co, …)
    or a project's docs site (``*.github.io``, ``*.readthedocs.io``),
    a ``docs.``/``blog.`` host or a ``/blog``, ``/docs``, ``/research``, ``/releases`` path; a
    relay site (csdn, zhihu, medium, …) never is."""
    low = cited.lower()
    if low.startswith(("arxiv:", "doi:")):
        return True
    if low.startswith("http"):
        host = (urlsplit(low).hostname or "").removeprefix("www.")
        if any(host == h or host.endswith("." + h) for h in _RELAY_HOSTS):
            return False
        path = urlsplit(low).path
        return (any(host == h or host.endswith("." + h) for h in _PRIMARY_HOSTS) or host.startswith(("docs.", "blog."))
                or "/blog" in path or "/docs" in path or "/research" in path or "/releases" in path)
    return False


def doc_citation(c: Claim, lines: Sequence[str]) -> str | None:
    """The primary source a living-doc line cites: one of the claim's own sources, else the next
    line of the file (``lines``, 0-based list of the doc's lines) when it starts ``来源：``/``Source:``
    and names one (a URL, an arXiv id or words: ``官方博客``), else the words after ``来源`` on the
    line itself; None when the line cites no primary source or says in a strong relay cue that
    it relays (``上游摘要称``, ``据报道``: the secondhand ``BUILTIN_CUES`` of
    :mod:`kb.extract.vocab.kinds`), whatever its link."""
    low = c.text.lower()
    if any(w in low for w in BUILTIN_CUES["secondhand"]):
        return None
    for s in c.sources:
        if primary_source(s):
            return s
    end = c.provenance.end_line
    nxt = lines[end] if 0 <= end < len(lines) else ""
    m = _SOURCE_LINE_RE.match(nxt)
    if m:
        urls = _CITED_RE.findall(nxt)
        hit = next((u for u in urls if primary_source(re.sub(r"(?i)^arxiv:\s?", "arxiv:", u))), None)
        if hit:
            return hit
        if _PRIMARY_WORDS.search(nxt[m.end():]):
            return nxt[m.end():].strip()
    tail = c.text.split("来源", 1)[1] if "来源" in c.text else ""
    return tail.strip("：: ）)") if tail and _PRIMARY_WORDS.search(tail) else None


def firsthand_facts(doc_claims: Iterable[Claim], lines: Sequence[str], at: Attributor) -> list[tuple[Fact, str]]:
    """``(fact, citation)`` of each fact (:func:`kb.facts.fact.facts_of`, through ``at``) of a
    living-doc line citing a primary source (:func:`doc_citation`): a value it states is
    first-hand cited."""
    out: list[tuple[Fact, str]] = []
    for c in doc_claims:
        cited = doc_citation(c, lines)
        if cited:
            out.extend((f, cited) for f in at.view(c).facts)
    return out
