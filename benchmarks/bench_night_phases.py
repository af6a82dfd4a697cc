"""Where a night's time goes: CPU ms per phase of `kb digest --out -`, in one process, for two KBs side by side.

Usage:
    python benchmarks/bench_night_phases.py KB_A KB_B [--repeat 5]

Each round runs the digest of KB_A, then of KB_B, in this process (imports and the first run
of each KB are untimed: a warm-up digest of each comes first), with the phases below wrapped
by a CPU timer (``time.process_time``: the machine is shared, CPU time is steadier than wall).
Printed: the median per phase over ``--repeat`` rounds, for each KB, and B - A. Issue 11
compares the demo's nights inside a KB grown to 12k files (gen_kb.demo_in_background) with the
demo KB itself: run ``KB_A`` = the grown KB, ``KB_B`` = the demo. Both stores must be up to date
(``kb ingest`` first), else the first phase (``open_kb``) is an ingest.

Phases: ``open_kb`` (the freshness check), ``window_files``, ``load_cards``, ``known_titles``,
``title_claims``, ``attributor`` (:func:`kb.facts.query.attributor`), ``doc_title_citations``,
``diff``, ``previous_counts``, ``run_night`` (all of the night), ``build_context``, ``render``
and ``total`` (the whole command, output to a string).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)

gen_kb.as_installed()

#: (module, name, also patched in) of each timed phase: kb.night.run and kb.brief.digest call them by the
#: names they imported.
PHASES = [("kb.store.workspace", "open_kb", ("kb.cli.common",)), ("kb.night.run", "window_files", ()),
          ("kb.store.cards", "load_cards", ("kb.night.run",)), ("kb.store.titles", "known_titles", ("kb.night.run",)),
          ("kb.night.run", "title_claims", ()), ("kb.facts.query", "attributor", ("kb.night.run",)),
          ("kb.night.run", "doc_title_citations", ()), ("kb.night.rules", "diff", ("kb.night.run",)),
          ("kb.night.run", "previous_counts", ()), ("kb.night.run", "run_night", ("kb.brief.digest",)),
          ("kb.brief.context", "build_context", ("kb.brief.digest",)), ("kb.brief.render", "render", ("kb.brief.digest",))]


def _wrap(totals: dict[str, float]) -> None:
    """Wrap every phase of :data:`PHASES` with a CPU timer adding into ``totals``."""
    for module, name, also in PHASES:
        mod = importlib.import_module(module)
        inner = getattr(mod, name)

        @functools.wraps(inner)
        def timed(*args: object, _inner=inner, _name=name, **kwargs: object) -> object:
            t = time.process_time()
            try:
                return _inner(*args, **kwargs)
            finally:
                totals[_name] = totals.get(_name, 0.0) + time.process_time() - t

        for target in (module, *also):
            setattr(importlib.import_module(target), name, timed)


def _digest(root: Path) -> None:
    from kb.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(["--kb", str(root), "digest", "--out", "-"])
        except SystemExit as exc:
            if exc.code not in (0, None):
                raise RuntimeError(f"kb digest of {root} exited {exc.code}") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kb_a", type=Path)
    ap.add_argument("kb_b", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    import kb.cli  # noqa: F401  (imports before any timing)

    for root in (a.kb_a, a.kb_b):
        _digest(root)  # warm-up: lazy imports, compiled patterns
    totals: dict[str, float] = {}
    _wrap(totals)
    runs: dict[Path, list[dict[str, float]]] = {a.kb_a: [], a.kb_b: []}
    for _ in range(a.repeat):
        for root in (a.kb_a, a.kb_b):
            totals.clear()
            t = time.process_time()
            _digest(root)
            runs[root].append({**totals, "total": time.process_time() - t})
    names = [n for _, n, _ in PHASES] + ["total"]
    med = {root: {n: 1000 * statistics.median(r.get(n, 0.0) for r in rs) for n in names} for root, rs in runs.items()}
    print(f"{'phase (CPU ms, median of ' + str(a.repeat) + ')':34s}{'A':>10s}{'B':>10s}{'A - B':>10s}")
    for n in names:
        x, y = med[a.kb_a][n], med[a.kb_b][n]
        print(f"{n:34s}{x:10.1f}{y:10.1f}{x - y:10.1f}")
    print(f"A = {a.kb_a}\nB = {a.kb_b}")


if __name__ == "__main__":
    main()
