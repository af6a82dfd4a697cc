"""Title-citation benchmark: :func:`kb.store.titles.cited_by_title` on a ~2 MB living doc against
thousands of known titles (issue 8: no naive N×M fuzzy matching).

Usage:
    python benchmarks/bench_titles.py [--titles 5000] [--lines 20000] [--seed 1]

Synthetic titles (random words); the doc has, per line, a link text, bold text or a table
cell: one in four an exact known title, one in eight a known title with a typo, the rest
unknown titles. Prints the doc size, the index build time, the matching time and how many
exact and typo'd titles were found again.
"""

from __future__ import annotations

import argparse
import random
import string
import time

from kb.store.titles import TitleIndex, cited_by_title


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--titles", type=int, default=5000)
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    words = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 10))) for _ in range(4000)]

    def title() -> str:
        return " ".join(rng.choices(words, k=rng.randint(4, 12))).title()

    titles = [(f"arxiv:2401.{i:05d}", title()) for i in range(args.titles)]
    lines, exact, typo = [], set(), set()
    for n in range(args.lines):
        r = rng.random()
        if r < 0.25:
            key, t = rng.choice(titles)
            exact.add(key)
        elif r < 0.375:
            key, t = rng.choice(titles)
            i = rng.randrange(len(t))
            t = t[:i] + t[i + 1:]
            typo.add(key)
        else:
            t = title()
        form = n % 3
        lines.append(f"1. [**{t}.**](https://openreview.net/{n}) *A. Author, B. Author.* NeurIPS 2024."
                     if form == 0 else f"- **{t}** — notes on the method, 2.1× faster" if form == 1
                     else f"| 2024.05 | {t} | [[pdf]](https://example.org/{n}) |")
    size = sum(len(x.encode()) + 1 for x in lines)
    t0 = time.perf_counter()
    index = TitleIndex(titles, 0.9)
    t1 = time.perf_counter()
    found = cited_by_title(lines, index)
    t2 = time.perf_counter()
    print(f"doc {size / 1e6:.2f} MB, {len(lines)} lines; {len(titles)} titles")
    print(f"index {t1 - t0:.3f} s; match {t2 - t1:.3f} s")
    print(f"exact found {len(exact & set(found))}/{len(exact)}; typo'd found {len(typo & set(found))}/{len(typo)}; "
          f"other keys {len(set(found) - exact - typo)}")


if __name__ == "__main__":
    main()
