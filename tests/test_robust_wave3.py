"""Nothing dropped silently, nothing quadratic: a closed pipe keeps the findings code, a file kb
cannot read fails ``kb ingest``, a named pipe is listed as skipped, citations kb cannot follow
(other kinds of file outside the KB, a file's own path) are listed, a one-character entity name
is warned about, ``brief_seconds`` says what it bounds, and the digest reads a heading block, a
claim's citations and a line's moods once however many values or subjects share them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_files

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. Quokka\n\n- Quokka 吞吐 1.1×。\n"
A = "inbox/mira/2026-05-10T0900-a.md"


def _kb(tmp_path: Path, files: dict[str, str], kb_yaml: str = KB_YAML) -> Path:
    return write_files(tmp_path / "kb", {"kb.yaml": kb_yaml, "organized/knowledge/serving.md": DOC, **files})


def _env() -> dict[str, str]:
    env = {**os.environ, "KB_ARXIV_API": "http://127.0.0.1:9/api/query", "COLUMNS": "80"}
    env.pop("KB_CONFIG_DIR", None)
    return env


def test_a_closed_pipe_keeps_the_findings_code(demo_kb: Path) -> None:
    """``kb lint | head -n1``: 1 (the findings), quietly; it was 0 whatever was found."""
    proc = subprocess.Popen([sys.executable, "-m", "kb", "lint"], cwd=demo_kb, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 1
    assert first.strip() != b""
    assert "Broken pipe" not in err and "cannot write" not in err and "Traceback" not in err


def test_a_binary_file_fails_the_ingest_with_exit_2(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path, {A: "# a\n\n- Quokka 吞吐 2.0×。\n"})
    (root / "inbox/mira/2026-05-10T1000-scan.md").write_bytes(bytes(range(256)) * 4)
    res = run_kb(["ingest"], cwd=root)
    assert (res.exit_code, res.stdout) == (2, "2 parsed, 0 unchanged, 1 failed; 2 claims\n")
    assert res.stderr == "error: inbox/mira/2026-05-10T1000-scan.md: binary file (NUL or control bytes, not text); skipped\n"
    assert run_kb(["ingest"], cwd=root).exit_code == 2  # every run, until the file is fixed or moved
    (root / "inbox/mira/2026-05-10T1000-scan.md").unlink()
    res = run_kb(["ingest"], cwd=root)
    assert (res.exit_code, res.stdout) == (0, "0 parsed, 2 unchanged, 0 failed; 2 claims\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_listed_as_skipped_and_never_opened(tmp_path: Path) -> None:
    root = _kb(tmp_path, {A: "# a\n\n- Quokka 吞吐 2.0×。\n"})
    os.mkfifo(root / "inbox/mira/2026-05-10T1000-pipe.md")
    os.mkfifo(root / "inbox/mira/feed")
    res = subprocess.run([sys.executable, "-m", "kb", "ingest"], cwd=root, env=_env(), capture_output=True, text=True,
                         timeout=120, check=False)  # reading a pipe with no writer would block: it must not be opened
    assert (res.returncode, res.stdout) == (0, "2 parsed, 0 unchanged, 0 failed; 2 claims\n")
    assert res.stderr.splitlines() == [
        "warning: inbox/mira/2026-05-10T1000-pipe.md: not a regular file (a named pipe); skipped",
        "warning: inbox/mira/feed: not a regular file (a named pipe); skipped",
    ]


def test_citations_kb_cannot_follow_are_listed(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path, {A: (f"# a\n\n- Quokka 吞吐 2,400 tok/s（据 ../reports/q.pdf 与 ../notes.txt）。\n"
                              f"- Quokka TTFT 80 ms（见 {A}，原始数据 /srv/data/q.CSV）。\n")})
    res = run_kb(["--kb", str(root), "trace", "Quokka", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    leaves = "a path that leaves the KB (../); kb follows citations of KB files only (inbox/…, organized/…)"
    assert json.loads(res.stdout)["unresolved"] == [
        {"source": f"{A}:3", "ref": "../reports/q.pdf", "reason": leaves},
        {"source": f"{A}:3", "ref": "../notes.txt", "reason": leaves},
        {"source": f"{A}:4", "ref": "/srv/data/q.CSV",
         "reason": "an absolute path; kb follows KB-relative citations only (inbox/…, organized/…)"},
        {"source": f"{A}:4", "ref": A, "reason": "the file cites itself: a citation of its own file is no source"},
    ]


def test_a_one_character_entity_name_is_warned_about(tmp_path: Path, run_kb) -> None:
    kb_yaml = KB_YAML.replace("entities: {Quokka: []}", "entities:\n  Quokka: [q, quokka-serve]\n  R: []")
    root = _kb(tmp_path, {A: "# a\n\n- Quokka 吞吐 2.0×；R 语言不相干。\n"}, kb_yaml)
    res = run_kb(["ingest"], cwd=root)
    assert (res.exit_code, res.stdout) == (0, "2 parsed, 0 unchanged, 0 failed; 2 claims\n")
    assert res.stderr.splitlines() == [
        ("warning: kb.yaml:5: alias of entity 'Quokka' 'q' is one character: kb never matches it in text "
         "(names need 2 characters or more); write a longer name or alias"),
        ("warning: kb.yaml:6: entity 'R' is one character: kb never matches it in text "
         "(names need 2 characters or more); write a longer name or alias"),
    ]
    res = run_kb(["claims", "--subject", "q", "--format", "json"], cwd=root)  # a whole-name look-up still works
    assert res.exit_code == 0
    assert [c["provenance"]["line"] for c in json.loads(res.stdout) if c["provenance"]["path"] == A] == [3]


def test_brief_seconds_says_what_it_bounds() -> None:
    from kb.core.config import KbConfig

    doc = (Path(__file__).resolve().parents[1] / "docs/kb-format.md").read_text(encoding="utf-8")
    assert "`brief_seconds` bounds the rendering of the template only, not the whole of `kb digest`" in doc
    assert "bounds the template only" in (KbConfig.model_fields["brief_seconds"].description or
                                          _attr_doc(KbConfig, "brief_seconds"))


def _attr_doc(cls: type, name: str) -> str:
    import inspect

    src = inspect.getsource(cls)
    at = src.index(f"    {name}:")
    return src[at:src.index('"""', src.index('"""', at) + 3)]


def _digest_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_kb, n: int) -> dict[str, int]:
    """How often the digest of a night with ``n`` values of one subject (one heading block)
    reads a line's mood and a claim's citations."""
    from kb.brief import reading
    from kb.facts import cites

    lines = "".join(f"- 据悉 Quokka 吞吐 {1 + i / 100:.2f}×（据 ../x{i}.pdf）。\n" for i in range(n))
    root = _kb(tmp_path / str(n), {"inbox/ana/2026-07-31-big.md": "# big\n\n- 这组数只能看个趋势。\n" + lines})
    counts = {"moods": 0, "citations": 0}
    mood, refs = reading.line_mood, cites.Resolver._file_refs

    def counted_mood(text: str):
        counts["moods"] += 1
        return mood(text)

    def counted_refs(self, claim):
        counts["citations"] += 1
        return refs(self, claim)

    monkeypatch.setattr(reading, "line_mood", counted_mood)
    monkeypatch.setattr(cites.Resolver, "_file_refs", counted_refs)
    res = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert res.exit_code == 0, res.stderr
    monkeypatch.undo()
    return counts


def test_the_digest_reads_each_line_once_however_many_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              run_kb) -> None:
    """200 more values of one subject cost 200 more mood reads and 200 more citation reads
    (each line once), not 200 × the block (was one read of the whole block per value)."""
    small = _digest_counts(tmp_path, monkeypatch, run_kb, 100)
    big = _digest_counts(tmp_path, monkeypatch, run_kb, 300)
    assert (big["moods"] - small["moods"], big["citations"] - small["citations"]) == (200, 200)


def test_a_text_file_that_is_no_markdown_is_listed_as_not_read(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path, {A: "# a\n\n- Quokka 吞吐 2.0×。\n", "inbox/mira/2026-05-10T1000-b.txt": "- Quokka 吞吐 3.0×。\n",
                          "inbox/mira/figure.png": "x"})
    res = run_kb(["ingest"], cwd=root)
    assert (res.exit_code, res.stdout) == (0, "2 parsed, 0 unchanged, 0 failed; 2 claims\n")
    assert res.stderr == ("warning: inbox/mira/2026-05-10T1000-b.txt: not read: kb reads *.md files only "
                          "(rename it to .md to have it read)\n")


def _hop(i: int, path: str, when: str, origins: list[str], value: float, unit: str = "ms", via: bool = False) -> object:
    from types import SimpleNamespace

    fact = SimpleNamespace(value=value, low=None, high=None, bound=None, date=None, precision=None, unit=unit,
                           raw=f"{value:g} {unit}")
    return SimpleNamespace(order=(when, path, i), via=["x"] if via else [], origins=origins, fact=fact,
                           claim=SimpleNamespace(provenance=SimpleNamespace(path=path)))


def _naive(h, members, tol):
    """Rule 4 as written: every hop of the chain looked at (the reference the index must equal)."""
    from kb.facts.values import same_value

    path = h.claim.provenance.path
    direct = [x for x in members if x is not h and not x.via and x.claim.provenance.path != path
              and set(x.origins) & set(h.origins)]
    refs = [x for x in direct if x.order < h.order] or (direct if h.via else [])
    return (next((r for r in refs if same_value(r.fact, h.fact, tol)), None), refs[0]) if refs else None


def test_a_relay_hop_is_compared_with_the_same_references_as_rule_4_says() -> None:
    """:class:`kb.facts.earlier.References` (an index: ``kb trace`` over 2,400 files 4.5 s -> 1 s)
    names, for every hop, the very references of comparing it with every hop of its chain."""
    import random

    from kb.facts.earlier import References

    rnd = random.Random(7)
    members = []
    for i in range(400):
        f = rnd.randrange(60)  # a file's hops share its time and path
        origins = rnd.sample(["url:a", "url:b", "url:c"], rnd.choice([1, 1, 2]))
        unit = "s" if i % 97 == 0 else "ms"  # one source with two units: compared one by one
        members.append(_hop(i, f"inbox/a/f{f:02d}.md", f"2026-05-{1 + f % 28:02d}", origins,
                            rnd.choice([80, 81, 100, 120, 0.08, 400 + i]), unit, via=i % 50 == 0))
    members.sort(key=lambda h: h.order)
    refs = References(members, 0.02)
    got = [refs.compare(h) for h in members]
    assert got == [_naive(h, members, 0.02) for h in members]
    assert sum(g is not None for g in got) == 391 and sum(g is not None and g[0] is not None for g in got) == 356


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_kb_lint_never_opens_a_named_pipe(tmp_path: Path) -> None:
    root = _kb(tmp_path, {})
    os.mkfifo(root / "organized/knowledge/feed.md")
    res = subprocess.run([sys.executable, "-m", "kb", "lint", "organized/knowledge/feed.md"], cwd=root, env=_env(),
                         capture_output=True, text=True, timeout=120, check=False)
    assert (res.returncode, res.stdout) == (2, "")
    assert res.stderr == "error: organized/knowledge/feed.md: not a regular file (a named pipe); kb lint reads files only\n"
    res = subprocess.run([sys.executable, "-m", "kb", "lint"], cwd=root, env=_env(), capture_output=True, text=True,
                         timeout=120, check=False)
    # a living doc of the KB that is a pipe: an error, as in every command reading living docs
    assert (res.returncode, res.stderr) == (2, "error: organized/knowledge/feed.md: not a regular file (a named pipe)\n")
    os.mkfifo(root / "notes.md")  # a pipe in a folder the user names: skipped, with a note
    (root / "ok.md").write_text("# ok\n", encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "kb", "lint", "."], cwd=root, env=_env(), capture_output=True,
                         text=True, timeout=120, check=False)
    assert "note: notes.md: not a regular file (a named pipe); skipped" in res.stderr.splitlines()


def test_the_rivals_of_conflicting_files_are_those_of_every_pair() -> None:
    """``kb sources`` over 4,800 files: the rivals some conflicting file shares no value with,
    found from the smallest share, are the union of ``rivals − shares[p] − {p}`` over the files."""
    import random

    from kb.night.conflicts import _against

    rnd = random.Random(11)
    for _ in range(200):
        paths = [f"f{i}" for i in range(rnd.randrange(1, 12))]
        rivals = {p for p in paths if rnd.random() < 0.7}
        shares = {p: {q for q in paths if rnd.random() < 0.6} | ({p} if rnd.random() < 0.9 else set()) for p in paths}
        conflicting = [p for p in paths if rnd.random() < 0.5]
        union = set().union(*((rivals - shares[p]) - {p} for p in conflicting))
        assert _against(rivals, conflicting, shares) == union


def test_entities_sharing_a_name_are_warned_about(tmp_path: Path, run_kb) -> None:
    kb_yaml = KB_YAML.replace("entities: {Quokka: []}",
                              "entities:\n  Quokka: [Wombat]\n  Wombat: [Quokka]\n  QUOKKA: []\n  Numbat: []")
    root = _kb(tmp_path, {A: "# a\n\n- Numbat 吞吐 2.0×。\n"}, kb_yaml)
    res = run_kb(["ingest"], cwd=root)
    assert (res.exit_code, res.stdout) == (0, "2 parsed, 0 unchanged, 0 failed; 2 claims\n")
    tail = "give each entity names of its own"
    assert res.stderr.splitlines() == [
        ("warning: kb.yaml:6: entity 'Wombat' is also 'Wombat', an alias of entity 'Quokka', as kb matches names "
         f"(in any case): kb reads entities 'Quokka' and 'Wombat' as one; {tail}"),
        ("warning: kb.yaml:7: entity 'QUOKKA' is also entity 'Quokka' as kb matches names "
         f"(in any case): kb reads entities 'Quokka' and 'QUOKKA' as one; {tail}"),
    ]
