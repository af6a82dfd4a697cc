"""kb.perf.flatyaml reads a front matter only as ruamel's safe loader reads it: the same mapping,
value for value and of the same types, on every front matter of the test KBs and on random
ones built of the forms it reads and their near misses (what it does not read, ruamel loads)."""

from __future__ import annotations

import random
import sys
import tempfile
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from kb.core import frontmatter
from kb.core.textio import decode
from kb.perf.flatyaml import flat_mapping

REPO = Path(__file__).resolve().parent.parent


def _ruamel(src: str) -> Any:
    """What ruamel gives ``src`` (the loader kb uses), or the exception it raises."""
    try:
        return frontmatter._yaml().load(src)
    except Exception as exc:  # noqa: BLE001  (any refusal: the flat reader must not have read it)
        return exc


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (a date-time's zone and its name too)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, datetime):
        return a == b and a.tzinfo == b.tzinfo and a.tzname() == b.tzname() and a.utcoffset() == b.utcoffset()
    return bool(a == b)


def _check(src: str) -> bool:
    """True when the flat reader read ``src``; fails when it read it otherwise than ruamel."""
    got = flat_mapping(src)
    if got is None:
        return False
    want = _ruamel(src)
    assert isinstance(want, dict), (src, want)
    assert _same(got, {str(k): v for k, v in want.items()}), (src, got, want)
    return True


def test_reads_a_card_front_matter_as_ruamel() -> None:
    src = ('card: 16\narxiv: "2511.32564"\ntitle: Batch 路由 引擎 Quantization 引擎\naliases: [部署16, b c]\n'
           "category: rag\nalso: []\ncreated: 2026-07-29T04:30:00+08:00\nday: 2026-07-29\nat: 2026-07-29T04:30:00Z\n"
           "naive: 2026-07-29T04:30:00\nquoted: 'it is'\n")
    got = flat_mapping(src)
    assert got == {"card": 16, "arxiv": "2511.32564", "title": "Batch 路由 引擎 Quantization 引擎",
                   "aliases": ["部署16", "b c"], "category": "rag", "also": [],
                   "created": datetime(2026, 7, 29, 4, 30, tzinfo=timezone(timedelta(hours=8))),
                   "day": date(2026, 7, 29), "at": datetime(2026, 7, 29, 4, 30, tzinfo=timezone.utc),
                   "naive": datetime(2026, 7, 29, 4, 30), "quoted": "it is"}
    assert _check(src)


def test_leaves_every_other_form_to_ruamel() -> None:
    for src in ("title: Fast KVzip: Efficient\n", "on: 1\n", "a: yes\n", "a: Null\n", "a: ~\n", "a: 045\n",
                "a: 0x10\n", "a: +5\n", "a: 1_000\n", "a: 1.5\n", "a: .inf\n", "a: 2026-02-30\n",
                "a: 2026-07-29T04:30:00+99:00\n", "a: 1\na: 2\n", "a:\n  - b\n", "# c\na: 1\n", "a: b # c\n",
                'a: "b\\tc"\n', "a: 'it''s'\n", "a: [1, 2]\n", "a: [b, [c]]\n", "a: b\tc\n", "a: b\u2028c\n",
                "a:  b\n", "a: b \n", "a: -b\n", "a: *b\n", "a: !b c\n", "a: 2026-7-29\n", "a: ２０２６\n",
                "k" * 1025 + ": v\n", "k" * 129 + ": v\n"):
        assert flat_mapping(src) is None, src


def _front_matters() -> list[str]:
    """The YAML of every front matter in the repository's Markdown (as kb.core.frontmatter.split cuts it)."""
    out = []
    for path in sorted(REPO.rglob("*.md")):
        if ".git" in path.parts:
            continue
        lines = decode(path.read_bytes(), path.name).text.split("\n")
        if lines[0].rstrip() != "---":
            continue
        close = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
        if close is not None:
            out.append("\n".join(lines[1:close]) + "\n")
    return out


def test_every_front_matter_of_the_test_kbs() -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gen_kb

    srcs = _front_matters()
    read = sum(map(_check, srcs))
    assert read >= 100 and len(srcs) - read >= 5  # both ways taken
    with tempfile.TemporaryDirectory() as tmp:
        gen_kb.generate(Path(tmp) / "kb", 60, 30, 2, seed=3)
        for path in sorted((Path(tmp) / "kb").rglob("*.md")):
            text = path.read_text(encoding="utf-8")
            if text.startswith("---\n"):
                _check(text.split("\n---", 1)[0][4:] + "\n")


#: Pieces of random values: the forms read, their near misses, and what YAML reads otherwise.
_PIECES = ["a", "Batch", "路由", "Fast", "KVzip", "é", "…", " ", "  ", "-", "_", "0", "1", "16", "045", "2026",
           "2026-07-29", "T04:30:00", "+08:00", "Z", "-05:30", "+99:00", "T25:00:00", ":", ": ", "#", " #", '"',
           "'", "\\", "[", "]", "{", "}", ",", ", ", "~", "null", "Null", "true", "False", "yes", "No", "on", "y",
           ".inf", ".5", "1e3", "0x1", "0o7", "1_0", "<<", "=", "&", "*", "!", "%", "@", "`", "|", ">", "?", "\t",
           "\u2028", "\x85", "\ufeff", "\u00a0", "٣", "２"]
_KEYS = ["title", "card", "a-b", "_x", "y", "n", "on", "Yes", "true", "null", "k1", "ab_c", "x-"]


def test_random_front_matters_read_as_ruamel() -> None:
    rng = random.Random(20261204)
    read = 0
    for _ in range(30_000):
        lines = []
        for _ in range(rng.randint(1, 3)):
            pieces = _PIECES if rng.random() < 0.6 else _PIECES[:20]  # (a third drawn near the forms read)
            value = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 4)))
            if rng.random() < 0.25:
                value = "[" + ", ".join(rng.choice(_PIECES[:6] + _PIECES[36:50]) for _ in range(rng.randint(0, 3))) + "]"
            elif rng.random() < 0.15:
                value = rng.choice("\"'") + value + rng.choice("\"'")
            lines.append(f"{rng.choice(_KEYS)}: {value}")
        read += _check("\n".join(lines) + "\n")
    assert read >= 1_500  # (the forms read are drawn often enough to test them)
