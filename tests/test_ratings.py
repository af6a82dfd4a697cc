"""Rating lines: stars make a unit the team's rating even when it names its paper only by a card
alias the parser does not know (kb gives it the card's subject when it reads the KB), and a score
written after a quality word and a space with its scale (``推荐度 4/5``) is a score, not a date."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

from kb.extract.quantities import find_quantities

CARD = """---
card: 701
arxiv: "2611.30001"
title: "TileFuse: Fused Attention Tiles for Decode"
aliases: [TileFuse]
category: inference-systems
created: 2026-11-29T10:00:00+08:00
---
# 701 · TileFuse

- 解码注意力延迟降低 21%
"""

RATINGS = """# mia 评级 · 2026-11-30

- TileFuse：★★★☆☆，值得跟进
- Rating: TileFuse ★★★, worth a follow-up.
- ★★ 先放着
- TileFuse 推荐度 4/5
"""


def _kb(tmp_path: Path) -> Path:
    return write_files(tmp_path, {
        "kb.yaml": 'timezone: "+08:00"\ntopics: {inference: [inference-systems]}\nexecutor: mia\n',
        "organized/paper_cards/701-2611-30001.md": CARD,
        "organized/knowledge/inference.md": "---\ntopic: inference\nversion: 1\nupdated: 2026-11-28\n---\n# inference\n\n## 1. 解码\n\n- vLLM 是基线。\n",
        "inbox/mia/2026-11-30-2100-ratings.md": RATINGS,
    })


def test_a_starred_line_naming_a_card_alias_is_a_rating_of_that_card(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path)
    res = run_kb(["claims", "--file", "inbox/mia/2026-11-30-2100-ratings.md", "--format", "json"], cwd=root)
    assert res.exit_code == 0, res.stderr
    got = [(c["provenance"]["line"], c["kind"], c["kind_reason"], c["subjects"],
            [(q["value"], q["unit"], q["metric"]) for q in c["quantities"]], [d["value"] for d in c["dates"]])
           for c in json.loads(res.stdout)]
    assert got == [
        (3, "internal-rating", "cue:★", ["arxiv:2611.30001"], [], []),
        (4, "internal-rating", "cue:★", ["arxiv:2611.30001"], [], []),
        (5, "internal-rating", "cue:★", [], [], []),
        (6, "secondhand", "default:inbox", ["arxiv:2611.30001"], [(4.0, None, None)], []),
    ]


def test_a_score_after_a_quality_word_and_a_space_needs_its_scale() -> None:
    def read(text: str) -> list[tuple[float | None, str | None, int, int]]:
        return [(q.value, q.unit, q.start, q.end) for q in find_quantities(text)]

    assert read("推荐度 4/5") == [(4.0, None, 4, 7)]
    assert read("实用性 4.5 / 5，值得读") == [(4.5, None, 4, 11)]
    assert read("创新性 3/10|") == [(3.0, None, 4, 8)]
    assert read("推荐度 7/5") == []  # 7 is out of a scale of 5
    assert read("推荐度 4") == []  # no scale, no colon: no score
    assert read("密度 2 倍") == [(2.0, "×", 3, 6)]


def test_kb_verify_lists_the_lines_that_name_the_paper_by_alias(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path)
    write_files(root, {"inbox/mia/2026-11-30-2200-ids.md": "# ids\n\n- arXiv:2611.30001 的解码延迟降低 21%\n"})
    res = run_kb(["verify", "--offline", "--format", "json", "2611.30001"], cwd=root)
    assert res.exit_code == 3, res.stderr  # offline, nothing cached: unverified
    (got,) = json.loads(res.stdout)
    assert [(m["path"], m["line"], m["kind"]) for m in got["mentions"]] == [
        ("inbox/mia/2026-11-30-2200-ids.md", 3, "secondhand"),
        ("organized/paper_cards/701-2611-30001.md", 3, None),
    ]
    assert [(m["path"], m["line"], m["kind"]) for m in got["named"]] == [
        ("inbox/mia/2026-11-30-2100-ratings.md", 3, "internal-rating"),
        ("inbox/mia/2026-11-30-2100-ratings.md", 4, "internal-rating"),
        ("inbox/mia/2026-11-30-2100-ratings.md", 6, "secondhand"),
    ]
    every = run_kb(["verify", "--offline", "--format", "json", "--all"], cwd=root)
    assert [r["named"] for r in json.loads(every.stdout)] == [[]]  # --all: ids only, no look-up by name
