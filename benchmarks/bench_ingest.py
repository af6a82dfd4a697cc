"""Ingest benchmark: markdown-it-py parse-only vs `kb ingest` cold and unchanged, on the same files.

Usage:
    python benchmarks/bench_ingest.py [KB_DIR] [--inbox 10000 --cards 2000 --docs 5] [--repeat 3]
                                      [--cold-repeat 1] [--no-warm] [--breakdown]

Without KB_DIR a synthetic KB is generated (benchmarks/gen_kb.py) in a temporary folder.
Prints, in one run:

- parse-only: one Python process that reads and markdown-it-parses every file kb would
  ingest (the same parser options kb uses), its wall and CPU seconds (user + sys, interpreter
  start and imports included, as for kb);
- ``kb ingest`` cold (store deleted first) with ``--jobs 1`` and with the default workers: wall
  and CPU seconds (the process and its workers), and each over parse-only. Targets (issue 11):
  single-process CPU ≤ 2× parse-only CPU; wall with the default workers ≤ 1.25× parse-only
  wall (2 cores). With ``--cold-repeat N`` each figure is the best of N runs (the machine may
  be shared: read the ratios);
- ``kb ingest`` with nothing changed (median of ``--repeat``), ``kb --version``, and the peak
  RSS of the largest ``kb`` process (issue 2: no-change ≤ 1 s on 12,000 files; RSS ≤ 300 MB).

With ``--breakdown``, first: where a cold ingest's CPU goes, in this process (CPU seconds,
best of ``--cold-repeat``, over the same files): markdown-it parse-only, kb's own block loop
over markdown-it (``kb.perf.mdblocks._blocks``), the whole parse (front matter, tokens, units, claims),
the store rows (claim JSON), the store writes (a fresh store, indexes built after, as a cold
ingest does), and each extractor the parser calls, replayed alone on the arguments it was
given during one parse (hot caches, cyclic GC off: a lower bound of its share); and the
whole parse again with the cyclic GC off (the collector's share is the difference).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)


def parse_only(root: Path) -> tuple[float, int]:
    """Seconds to read and markdown-it-parse every file kb would ingest; file count."""
    from markdown_it import MarkdownIt

    from kb.store.walk import iter_kb_files

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    files = [rel for rel, _ in iter_kb_files(root)]
    t = time.perf_counter()
    for rel in files:
        md.parse((root / rel).read_bytes().decode("utf-8", errors="replace"))
    return time.perf_counter() - t, len(files)


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """``(wall s, CPU s of the process and its children, last output line)`` of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = out.stdout.strip().splitlines()
    return wall, cpu, lines[-1] if lines else ""


def run_kb(root: Path, *args: str) -> tuple[float, str]:
    """Wall seconds of one `kb` process and its last output line."""
    wall, _, line = timed([sys.executable, "-m", "kb", "--kb", str(root), *args])
    return wall, line


def parse_only_process(root: Path) -> tuple[float, float]:
    """``(wall s, CPU s)`` of a fresh process running :func:`parse_only` (start-up included)."""
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_ingest, pathlib; "
            f"bench_ingest.parse_only(pathlib.Path({str(root)!r}))")
    wall, cpu, _ = timed([sys.executable, "-c", code])
    return wall, cpu


def cold(root: Path, jobs: list[str], repeat: int) -> tuple[float, float, str]:
    """Best ``(wall, CPU, summary line)`` of ``repeat`` cold ``kb ingest`` runs (store deleted)."""
    best: tuple[float, float, str] | None = None
    for _ in range(repeat):
        shutil.rmtree(root / ".kb", ignore_errors=True)
        got = timed([sys.executable, "-m", "kb", "--kb", str(root), "ingest", *jobs])
        best = got if best is None or got[1] < best[1] else best
    assert best is not None
    return best


#: Functions the parser's modules (kb.read.parse, .walk, .unit, .tables) call, replayed alone by
#: --breakdown (names in those modules).
_REPLAYED = ("find_quantities", "find_dates", "scan_arxiv", "find_urls", "find_dois", "find_kb_paths",
             "explicit_tag", "cue_masks", "moods", "non_claim", "attribute", "Owners", "claim_id", "_inline_text",
             "_split_sentences")


_cpu = gen_kb.best_of  # best CPU seconds of ``repeat`` calls of ``fn()``


def breakdown(root: Path, repeat: int) -> list[tuple[str, float]]:
    """``(stage, CPU seconds)`` of a cold ingest of ``root``, stage by stage, in this process
    (see the module docstring). Extractors are those of :data:`_REPLAYED` plus the KB's entity
    and cue matchers and its metric vocabulary's table and date look-ups; ``built`` is the claim
    records' construction (:func:`kb.perf.models.built`: Claim, Provenance, ArxivRef)."""
    import tempfile

    import kb.read.parse as kp
    import kb.read.tables as kt
    import kb.read.unit as ku
    import kb.read.walk as kw
    from kb.core.config import load_config
    from kb.perf.mdblocks import _blocks
    from kb.store.rows import to_rows
    from kb.store.walk import iter_kb_files
    from kb.store.db import Store
    from kb.core.textio import decode

    config = load_config(root)
    datas = [(rel, (root / rel).read_bytes()) for rel, _ in iter_kb_files(root)]
    md = kp._md()
    parser = kp.Parser(config)
    parser.parse_bytes(*datas[0])  # lazy imports and caches, before any timing
    out: list[tuple[str, float]] = []
    texts = [(rel, decode(d, rel).text) for rel, d in datas]
    out.append(("read + decode (kb.core.textio)", _cpu(lambda: [decode(d, rel) for rel, d in datas], repeat)))
    out.append(("markdown-it parse-only", _cpu(lambda: [md.parse(t) for _, t in texts], repeat)))
    out.append(("kb block loop (_blocks)", _cpu(lambda: [list(_blocks(md, t)) for _, t in texts], repeat)))
    parsed: list[Any] = []
    out.append(("kb parse (whole)", _cpu(lambda: parsed.__setitem__(slice(None), [parser.parse_bytes(rel, d)
                                                                            for rel, d in datas]), repeat)))
    gc.disable()
    try:
        out.append(("kb parse (whole), cyclic GC off", _cpu(lambda: [parser.parse_bytes(rel, d) for rel, d in datas],
                                                              repeat)))
    finally:
        gc.enable()
    rows: list[Any] = []
    out.append(("store rows (claim JSON)", _cpu(lambda: rows.__setitem__(slice(None), [to_rows(p, "0" * 32, 0, 0)
                                                                                   for p in parsed]), repeat)))

    def write() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            st = Store(Path(tmp), "bench")
            st.drop_indexes()
            st.bulk_checkpoints(True)  # as a cold ingest does
            with st.tx():
                for r in rows:
                    st.put(r, replace=False)
            st.create_indexes()
            st.close()
    out.append(("store writes (fresh store)", _cpu(write, repeat)))
    # replay each extractor on the arguments of one parse
    calls: dict[str, list[tuple[Any, ...]]] = {}
    saved: dict[str, Any] = {}

    def recorder(name: str, fn: Any) -> Any:
        log = calls.setdefault(name, [])

        def rec(*a: Any, **k: Any) -> Any:
            log.append((a, k))
            return fn(*a, **k)
        return rec
    bound = (parser.entities, parser.cues, parser.vocab)  # instances: their recorder shadows the class's method
    homes = (kp, kw, ku, kt)  # a function is recorded in every parser module that calls it
    targets = [(m, n) for n in _REPLAYED for m in homes if n in vars(m)] + [
        (parser.entities, "find"), (parser.cues, "match"), (parser.vocab, "table_metrics"),
        (parser.vocab, "metric_at"), (ku, "built"), (kp.frontmatter, "split")]
    for obj, name in targets:
        saved[name] = getattr(obj, name)
        setattr(obj, name, recorder(name, saved[name]))
    try:
        for rel, d in datas:
            parser.parse_bytes(rel, d)
    finally:
        for obj, name in targets:
            if any(obj is b for b in bound):
                delattr(obj, name)  # back to the class's method
            else:
                setattr(obj, name, saved[name])
    gc.disable()  # the recorded arguments (every file's tokens) are alive: the replays time
    try:          # the functions alone, not the collector walking what they hold
        once: dict[str, Any] = {}  # a name recorded in several modules is replayed once
        for obj, name in targets:
            once.setdefault(name, obj)
        for name, obj in once.items():
            fn = getattr(obj, name)
            log = calls.get(name, [])
            label = {"find": "entities (NameMatcher.find)", "match": "cues (CueMatcher.match)",
                     "table_metrics": "MetricVocab.table_metrics",
                     "metric_at": "MetricVocab.metric_at",
                     "split": "front matter (frontmatter.split)",
                     "built": "claim records (kb.perf.models.built)"}.get(name, name)
            out.append((f"  {label} ×{len(log)}", _cpu(lambda: [fn(*a, **k) for a, k in log], repeat)))
    finally:
        gc.enable()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gen_kb.add_size_args(ap)
    ap.add_argument("--repeat", type=int, default=3, help="no-change runs (median reported)")
    ap.add_argument("--cold-repeat", type=int, default=1, help="cold runs of each kind (best reported)")
    ap.add_argument("--no-warm", action="store_true", help="skip the no-change, --version and RSS rows")
    ap.add_argument("--breakdown", action="store_true", help="first print where a cold ingest's CPU goes")
    a = ap.parse_args()
    with gen_kb.kb_for(a) as root:
        shutil.rmtree(root / ".kb", ignore_errors=True)
        if a.breakdown:
            stages = breakdown(root, a.cold_repeat)
            base = stages[1][1]
            print("in-process CPU, best of", a.cold_repeat, "(× markdown-it parse-only)")
            for label, sec in stages:
                print(f"  {label:<40} {sec:7.2f} s  {sec / base:5.2f}×")
        parse_s, n = parse_only(root)
        pw, pc = min(parse_only_process(root) for _ in range(a.cold_repeat))
        print(f"files                      {n}")
        print(f"cpus                       {os.cpu_count()}")
        print(f"parse-only (markdown-it)   {parse_s:8.2f} s   in-process, parsing alone")
        print(f"parse-only process         {pw:8.2f} s wall {pc:8.2f} s CPU   (start-up and imports included)")
        for label, jobs in (("--jobs 1", ["--jobs", "1"]), ("default workers", [])):
            w, c, line = cold(root, jobs, a.cold_repeat)
            print(f"kb ingest cold, {label:<15} {w:8.2f} s wall {c:8.2f} s CPU   ({line})")
            print(f"  over parse-only process    {w / pw:8.2f}× wall {c / pc:8.2f}× CPU   "
                  + ("(target: CPU <= 2x)" if jobs else "(target: wall <= 1.25x on 2 cores)"))
        if a.no_warm:
            return
        warm = sorted(run_kb(root, "ingest")[0] for _ in range(a.repeat))
        version = sorted(run_kb(root, "--version")[0] for _ in range(a.repeat))
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"kb ingest, nothing changed {warm[len(warm) // 2]:8.2f} s   median of {a.repeat} (target <= 1 s)")
        print(f"kb --version               {version[len(version) // 2]:8.2f} s   median of {a.repeat}")
        print(f"peak RSS, largest process  {peak_mb:8.1f} MB (target <= 300 MB)")


if __name__ == "__main__":
    main()
