"""The once-a-night lookups of the brief's placement give the answers of the scans they replace:
kb.night.placement.DocOutline (sections, open entries, category and metric titles), the doc views
indexed by subject, and kb.brief.snapshot.within (a doc of N headings against N inbox values was
quadratic in kb digest; the figures: benchmarks/bench_adversarial.py --kb-shapes)."""

from __future__ import annotations

import random
import re
from bisect import bisect_right
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from conftest import write_files

from kb.brief.snapshot import within
from kb.extract.sections import section_number
from kb.extract.vocab.sections import SECTION_METRIC_WORDS
from kb.night.placement import OPEN_ENTRY_RE, DocOutline, place

TITLES = ["投机解码", "RAG 推理", "GPU 租赁价格", "throughput", "KV cache", "serving cost", "Medusa", "其他"]


def _sections(rng: random.Random, n: int) -> list[tuple[int, str, str]]:
    out, line = [], 1
    for _ in range(n):
        line += rng.randint(1, 4)
        if rng.random() < 0.7:
            num = ".".join(str(rng.randint(1, 4)) for _ in range(rng.randint(1, 3)))
            label = f"§{num}"
            out.append((line, label, f"{label} {rng.choice(TITLES)}"))
        else:
            title = rng.choice(TITLES)
            out.append((line, title, title))
    return out


def _open_lines(rng: random.Random, n: int) -> list[tuple[str, str]]:
    texts = ["- O12 ShardSpec 能否并入 §{}？", "- C116 AcceptMoE §{}", "O7 no section here", "", "## §{} 投机解码",
             "1. O172：KVTide 归入 §{}", "plain line §{}"]
    return [(f"t.md:{i}", rng.choice(texts).format(f"{rng.randint(1, 4)}.{rng.randint(1, 3)}")) for i in range(n)]


def test_outline_answers_as_the_scans() -> None:
    rng = random.Random(7)
    for _ in range(60):
        secs = _sections(rng, rng.randint(0, 40))
        opens = _open_lines(rng, rng.randint(0, 30))
        o = DocOutline.of(secs, opens)
        labels = {label for _, label, _ in secs}
        assert o.labels == labels
        lines = [line for line, _, _ in secs]
        for line in range(0, (secs[-1][0] if secs else 0) + 3):
            i = bisect_right(lines, line) - 1
            assert o.section_of(line) == (secs[i][1] if i >= 0 else None)
        want = []
        for src, text in opens:
            m = OPEN_ENTRY_RE.match(text)
            named = section_number(text)
            if m and named and f"§{named}" in labels:
                want.append((src, text, m.group("id"), f"§{named}"))
        assert list(o.entries) == want
        for word in ("rag", "gpu", "cost", "kv", "medusa", "none"):
            pat = re.compile(rf"(?<![a-z]){re.escape(word)}(?![a-z])", re.IGNORECASE)
            assert o.titled(word) == next((label for _, label, title in secs if label and pat.search(title)), None)
            assert o.titled(word) == o.titled(word)  # the memo answers the same
        for metric in (*SECTION_METRIC_WORDS, "no_such_metric"):
            pats = [re.compile(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", re.IGNORECASE)
                    for w in SECTION_METRIC_WORDS.get(metric, ())]
            assert list(o.metric_sections(metric)) == [x for x in secs if x[1] and any(p.search(x[2]) for p in pats)]


def _view(key_pool: list[str], rng: random.Random, line: int, path: str = "organized/knowledge/t.md") -> Any:
    subjects = rng.sample(key_pool, rng.randint(1, 2))
    text = rng.choice(["- {} throughput 5 tok/s", "- O12 {} 能否并入 §2？", "- C3 {} §1.2", "{} notes"]).format(subjects[0])
    prov = SimpleNamespace(path=path, line=line, heading=[])
    return SimpleNamespace(subjects=subjects, subject_keys=frozenset(subjects), hint=None, facts=[],
                           claim=SimpleNamespace(text=text, provenance=prov))


def test_place_with_the_subjects_doc_views_is_place_with_all() -> None:
    rng = random.Random(11)
    keys = [f"sys{i}" for i in range(12)]
    for _ in range(80):
        secs = _sections(rng, rng.randint(1, 15))
        o = DocOutline.of(secs, _open_lines(rng, 10))
        doc = [_view(keys, rng, line) for line in sorted(rng.sample(range(1, 80), rng.randint(0, 30)))]
        for key in keys:
            held = list(dict.fromkeys(s for v in doc if key in v.subjects if (s := o.section_of(v.claim.provenance.line))))
            mine = [v for v in doc if key in v.subjects]
            assert place(key, [], doc, o, held) == place(key, [], mine, o, held)


def test_within_is_any_inside() -> None:
    def inside(label: str, top: str) -> bool:
        return label == top or (top.startswith("§") and label.startswith(top + "."))

    rng = random.Random(3)
    pool = ["§1", "§1.2", "§1.2.3", "§12", "§2", "§2.1", "§", "§.1", "Other", "Other.1", "§1.", "§1..2", "投机"]
    for _ in range(500):
        tops = set(rng.sample(pool, rng.randint(0, 5)))
        label = rng.choice(pool)
        assert within(label, tops) == any(inside(label, t) for t in tops)


HINTS = {
    "kb.yaml": 'timezone: "+08:00"\ncutoff: "22:00"\nexecutor: kim\ntopics: {serve: [serving]}\n'
               "entities: {TurboQ: [], FlashZ: [], NovaK: []}\n",
    "organized/knowledge/serve.md": "---\ntopic: serve\nversion: 2\nupdated: 2026-05-02T05:00:00+08:00\n---\n"
                                    "# 服务活文档\n\n## §1 部署\n\n- 暂无。\n\n## §2 引擎\n\n- 暂无。\n\n## §3 成本\n\n"
                                    "- O12 成本口径是否统一？\n",
    "inbox/ana/2026-05-02T0800-ana-serve.md": "# 夜报（2026-05-02 08:00）\n\n## 1. 引擎\n\n- TurboQ 吞吐 120 tok/s。\n"
                                              "- FlashZ 吞吐 90 tok/s。\n- 建议归入 §2。\n- 建议归入 §3，顺带回答 O12。\n\n"
                                              "## 2. 复测\n\n- 建议归入 §1，顺带回答 O12。\n- NovaK 吞吐 95 tok/s。\n",
}


def test_each_subject_takes_the_first_bare_hint_of_its_block(tmp_path: Path, run_kb: Any) -> None:
    """Hint lines holding no claim, found once a night: TurboQ and FlashZ (one block, two hints)
    take the block's first (§2, not §3), NovaK the hint above it in its own block (§1)."""
    kb = write_files(tmp_path / "kb", HINTS)
    res = run_kb(["digest", "--date", "2026-05-02", "--out", "-"], cwd=kb)
    assert res.exit_code == 0, res.stderr
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| \d \| (\w+) \|.*核实后归入 (§\d)；", res.stdout, re.M)}
    assert rows == {"FlashZ": "§2", "NovaK": "§1", "TurboQ": "§2"}
