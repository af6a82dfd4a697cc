"""Issue 24, item 7: kb trace names the citations it cannot follow (outside the KB, absolute
paths), citation cycles and citations of a file written later; none is dropped without a word."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files
from kb.facts.relay import _cycles

KB_YAML = 'timezone: "+08:00"\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
A = "inbox/mira/2026-05-10T0900-a.md"
B = "inbox/lin/2026-05-10T1120-b.md"
C = "inbox/tao/2026-05-10T1300-c.md"


def _kb(tmp_path: Path, files: dict[str, str]) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, **files})
    (root / "organized/knowledge").mkdir(parents=True, exist_ok=True)
    return root


def _trace(run_kb, root: Path) -> dict:  # noqa: ANN001
    res = run_kb(["--kb", str(root), "trace", "Quokka", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def test_citations_outside_the_kb_are_listed(run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    root = _kb(tmp_path, {
        A: "# a\n\n- Quokka 吞吐 2,400 tok/s（据 ../other-kb/inbox/x/2026-05-09-x.md）。\n"
           "- Quokka TTFT 80 ms（据 /home/u/kb/inbox/y/2026-05-09-y.md，见 https://quokka.dev/a/b.md）。\n",
    })
    got = _trace(run_kb, root)["unresolved"]
    assert got == [
        {"source": f"{A}:3", "ref": "../other-kb/inbox/x/2026-05-09-x.md",
         "reason": "a path that leaves the KB (../); kb follows citations of KB files only (inbox/…, organized/…)"},
        {"source": f"{A}:4", "ref": "/home/u/kb/inbox/y/2026-05-09-y.md",
         "reason": "an absolute path; kb follows KB-relative citations only (inbox/…, organized/…)"},
    ]
    text = run_kb(["--kb", str(root), "trace", "Quokka"]).stdout
    assert (f"unresolved: {A}:3: '../other-kb/inbox/x/2026-05-09-x.md': a path that leaves the KB (../); "
            "kb follows citations of KB files only (inbox/…, organized/…)") in text


def test_a_cycle_and_a_later_file_are_named(run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    root = _kb(tmp_path, {
        A: f"# a\n\n- Quokka 吞吐 2,400 tok/s（据 {B}）。\n",
        B: f"# b\n\n- Quokka 吞吐 2,400 tok/s（据 {A}）。\n",
        C: "# c\n\n- Quokka 吞吐 2,400 tok/s。\n",
    })
    got = _trace(run_kb, root)["unresolved"]
    assert got == [
        {"source": f"{A}:3", "ref": B,
         "reason": "written 2026-05-10 11:20, after the citing file (2026-05-10 09:00): a relay cannot repeat it"},
        {"source": f"{A}:3", "ref": f"{B} → {A} → {B}",
         "reason": "the files cite each other (a citation cycle): no file of it is the first"},
    ]


def test_cycles_are_found_in_linear_time() -> None:
    edges = {f"f{i:05d}": {f"f{i + 1:05d}"} for i in range(20000)}
    edges["f20000"] = {"f00000"}
    [cycle] = _cycles(edges)
    assert len(cycle) == 20001 and cycle[0] == "f00000"
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}) == [["a", "b"], ["c", "d"]]
