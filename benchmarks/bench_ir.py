"""Instructions a cold ingest executes, per source tree (valgrind callgrind): a deterministic A/B.

Usage:
    python benchmarks/bench_ir.py BASE_SRC [NEW_SRC] [--inbox 100] [--kb DIR] [--what parse|ingest]

``BASE_SRC`` and ``NEW_SRC`` are folders holding a ``kb`` package (a tree's ``src/``; e.g.
``git archive main src | tar -x -C /tmp/base``); ``NEW_SRC`` defaults to this tree's ``src/``.
Without ``--kb`` the KB is :mod:`gen_kb`'s, of ``--inbox`` files (seed 7, as the cold rows of
``bench_table.py``, only smaller: valgrind runs Python ~50x slower).

CPU seconds of one run on a shared machine vary by ±15 % (``bench_cold_ab.py`` needs many
alternating rounds to see a 5 % change); the instructions a run executes (hash seed fixed) vary
by well under 0.1 %, so a change of 1 % is seen in one run of each tree. Read them as a proxy: they do not
count cache misses or branch mispredictions, which a change may also move.

``--what parse`` (default): one process that imports kb and parses every file of the KB with
:class:`kb.read.parse.Parser` (start-up, imports and the parser; no store). ``--what ingest``:
``kb ingest --jobs 1`` with the store deleted first (the CLI, the parser and the store writes).
Both trees run at once (counts do not depend on load). Each tree runs its command once without
valgrind first, so that the measured run finds what any earlier run leaves (bytecode, the kept
regexes of :mod:`kb.perf.recache`), as a cold ingest after kb's first run does. Exits 2 when
valgrind is missing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)

#: The child of ``--what parse``: import kb, parse every file kb would ingest, once.
_PARSE = """
import sys
from pathlib import Path
from kb.core.config import load_config
from kb.read.parse import Parser
from kb.store.walk import iter_kb_files
root = Path(sys.argv[1])
parser = Parser(load_config(root))
for rel, _ in iter_kb_files(root):
    parser.parse_bytes(rel, (root / rel).read_bytes())
"""

_COLLECTED_RE = re.compile(r"Collected : (\d+)")


def instructions(src: str, kb: Path, what: str) -> int:
    """Instructions (callgrind's ``Ir``) of one run with ``src`` first on ``PYTHONPATH``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = src
    env["PYTHONHASHSEED"] = "0"  # (set and dict orders, hence counts, the same run to run)
    with tempfile.TemporaryDirectory() as tmp:
        if what == "parse":
            cmd = [sys.executable, "-c", _PARSE, str(kb)]
        else:
            work = Path(tmp) / "kb"
            shutil.copytree(kb, work, ignore=shutil.ignore_patterns(".kb"))
            shutil.copytree(kb, Path(tmp) / "warm", ignore=shutil.ignore_patterns(".kb"))
            cmd = [sys.executable, "-m", "kb", "--kb", str(work), "ingest", "--jobs", "1"]
        # one run first, plain: kb's kept files written (bytecode, kb.perf.recache's patterns), as after any run
        subprocess.run(cmd if what == "parse" else [*cmd[:4], str(Path(tmp) / "warm"), *cmd[5:]], env=env,
                       capture_output=True, check=False)
        got = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *cmd],
                             env=env, capture_output=True, text=True, check=False)
    m = _COLLECTED_RE.search(got.stderr)
    if got.returncode != 0 or m is None:
        raise SystemExit(f"valgrind run of {src} failed (exit {got.returncode}): {got.stderr[-400:]}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("new", nargs="?", default=str(HERE.parent / "src"))
    ap.add_argument("--inbox", type=int, default=100)
    ap.add_argument("--kb", type=Path, default=None)
    ap.add_argument("--what", choices=("parse", "ingest"), default="parse")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        raise SystemExit(2)
    trees = {"base": a.base, "new": a.new}
    for src in trees.values():  # bytecode written first: neither run compiles kb's modules
        subprocess.run([sys.executable, "-m", "compileall", "-q", src], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as tmp:
        kb = a.kb or Path(tmp) / "kb"
        if a.kb is None:
            gen_kb.generate(kb, a.inbox, a.inbox // 5, 2, seed=7)
        with ThreadPoolExecutor(2) as pool:
            counts = dict(zip(trees, pool.map(lambda src: instructions(src, kb, a.what), trees.values())))
    base = counts["base"]
    for who, n in counts.items():
        print(f"{who:<4} {a.what:<6} {n:>15,} instructions   {100 * (n - base) / base:+6.2f} %")


if __name__ == "__main__":
    main()
