"""Issue 24, item 2: the indexes that make per-night loops linear give the answers of the pairwise
comparisons they replace (the figures: benchmarks/bench_adversarial.py --kb-shapes, by hand)."""

from __future__ import annotations

import random
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

from kb.facts.fact import Fact
from kb.facts.near import NearIndex
from kb.facts.same import SameFacts, comparable, disjoint_from, same_fact
from kb.facts.values import same_value
from kb.night.conflicts import find_conflicts, value_groups

TOL = 0.02


def _fact(rng: random.Random, path: str, line: int, *, dates: bool = False) -> Fact:
    if dates:
        day = f"2026-{rng.randint(1, 3):02d}-{rng.randint(1, 3):02d}"
        precision = rng.choice(["day", "month", "year"])
        return Fact("vllm", "vllm", "release_date", None, None, None, None, None, day, precision, day, "secondhand",
                    f"c{path}{line}", path, line)
    shape = rng.random()
    value = rng.choice([1.0, 1.01, 1.02, 1.03, 1.5, 1.52, 2.0, 2.1, 0.0, 100.0])
    low = high = None
    bound = None
    if shape < 0.15:
        low, high, value = value, value * rng.choice([1.0, 1.1, 1.5]), None
    elif shape < 0.25:
        bound = rng.choice([">", "<", "≥", "≤"])
    qualifier = rng.choice([None, None, "batch1", "batch1+int4", "rtx4090"])
    metric = rng.choice(["throughput", "throughput", "ttft"])
    unit = rng.choice(["×", "×", "%"])
    return Fact("vllm", "vllm", metric, qualifier, unit, value, low, high, None, None, f"{value or low}{unit}",
                "secondhand", f"c{path}{line}", path, line, bound)


def test_near_index_finds_every_value_that_is_the_same() -> None:
    rng = random.Random(24)
    facts = [_fact(rng, "p", i) for i in range(400)] + [_fact(rng, "d", i, dates=True) for i in range(100)]
    index = NearIndex(TOL)
    for i, f in enumerate(facts):
        index.add(f, i)
    for i, a in enumerate(facts):
        near = set(index.near(a))
        same = {j for j, b in enumerate(facts) if b.unit == a.unit and same_value(a, b, TOL)}
        assert same <= near, (a, [facts[j] for j in same - near])


def _pairwise(views: list[Any], tol: float) -> dict[tuple[str, str, str], tuple[set[str], set[tuple[str, str]]]]:
    """The window conflicts as issue 10's code found them: disjoint_from of every ordered pair; then
    those whose values all sit in a wider one dropped (kb.night.conflicts._drop_contained)."""
    by_path: dict[str, list[Fact]] = defaultdict(list)
    for v in views:
        for f in v.facts:
            by_path[f.path].append(f)
    out: dict[tuple[str, str, str], tuple[set[str], set[tuple[str, str]]]] = {}
    for path in sorted(by_path):
        for other in sorted(by_path):
            if other == path:
                continue
            for f in disjoint_from(by_path[path], by_path[other], tol):
                entry = out.setdefault((f.subject, f.metric or "", f.qualifier or ""), (set(), set()))
                entry[0].add("window")
                entry[1].update({(f.source, f.raw), *((g.source, g.raw) for g in by_path[other] if comparable(f, g))})
    # a conflict whose values all sit in another of its subject and metric is listed once, in that one
    for key in sorted(out, key=lambda k: (len(out[k][1]), len(k[2]), k[2])):
        wider = next((o for o in out if o != key and o[:2] == key[:2] and out[key][1] <= out[o][1]), None)
        if wider is not None:
            out[wider][0].update(out.pop(key)[0])
    return out


def test_window_conflicts_are_those_of_every_pair_of_files() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        views = [SimpleNamespace(facts=[_fact(rng, f"inbox/a/f{p}.md", line) for line in range(rng.randint(1, 4))])
                 for p in range(rng.randint(2, 9))]
        got = find_conflicts(views, SimpleNamespace(facts={}), {"vllm": None}, TOL)
        want = _pairwise(views, TOL)
        assert {(c.subject, c.metric, c.qualifier or ""): set(c.against) for c in got} == \
            {k: v[0] for k, v in want.items()}, seed
        for c in got:
            members = {(s, v.raw) for v in c.values for s in v.sources}
            assert {s for s, _ in members} == {s for s, _ in want[(c.subject, c.metric, c.qualifier or "")][1]}, seed


def test_value_groups_cluster_as_the_first_same_head() -> None:
    rng = random.Random(7)
    members = [(_fact(rng, f"inbox/a/f{i}.md", i), "window") for i in range(300)]
    got = value_groups(members, TOL)
    clusters: list[list[Fact]] = []
    seen: set[tuple[str, str]] = set()
    for f, _ in sorted(members, key=lambda m: (m[1] != "living-doc", m[0].path, m[0].line, m[0].raw)):
        if (f.source, f.raw) in seen:
            continue
        seen.add((f.source, f.raw))
        home = next((c for c in clusters if same_value(c[0], f, TOL)), None)
        if home is None:
            clusters.append([f])
        else:
            home.append(f)
    assert [(v.raw, v.sources) for v in got] == [(c[0].raw, list(dict.fromkeys(f.source for f in c))) for c in clusters]


def test_near_index_finds_byte_sizes_read_binary() -> None:
    """``0.75 GB`` is ``768 MB`` read binary (kb.facts.values): 2.4 % apart as stored, beyond
    the tolerance, yet the index offers each for the other."""
    sizes = [("0.75 GB", 0.75e9), ("768 MB", 768e6), ("640 MB", 640e6), ("80 GB", 80e9), ("74.5 GiB", 74.5 * 2**30)]
    facts = [SimpleNamespace(raw=raw, value=v, unit="B", low=None, high=None) for raw, v in sizes]
    index = NearIndex(TOL)
    for i, f in enumerate(facts):
        index.add(f, i)
    for i, a in enumerate(facts):
        same = {j for j, b in enumerate(facts) if same_value(a, b, TOL)}
        assert same <= set(index.near(a)), (a.raw, same)
    assert same_value(facts[0], facts[1], TOL) and 1 in set(index.near(facts[0]))


def test_same_facts_answers_as_every_pair() -> None:
    """SameFacts.holds and .first give what a scan of every filed fact with same_fact gives."""
    rng = random.Random(6)
    filed = [_fact(rng, "d", i) for i in range(300)] + [_fact(rng, "e", i, dates=True) for i in range(60)]
    asked = [_fact(rng, "w", i) for i in range(300)] + [_fact(rng, "x", i, dates=True) for i in range(60)]
    index = SameFacts(filed, TOL)
    for f in asked:
        want = next((i for i, d in enumerate(filed) if same_fact(f, d, TOL)), None)
        assert (index.first(f), index.holds(f)) == (want, want is not None), f
