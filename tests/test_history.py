"""kb history, --as-of (kb claims, kb diff) and --plot, on labelled data: a fresh zh/en fixture KB
whose FooServe TTFT changed across three dates and two doc versions, and the demo KB's TGI date."""

from __future__ import annotations

import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO, write_files

JAY = "inbox/jay/2026-08-01-foo.md"
TOM = "inbox/tom/2026-08-03-foo-en.md"
SPARK = "inbox/spark/2026-08-06T0930-foo.md"
NOTES = "inbox/jay/notes.md"
V1 = "organized/knowledge/history/serving/v1.md"
DOC = "organized/knowledge/serving.md"

FIXTURE = {
    "kb.yaml": 'timezone: "+08:00"\ncutoff: "22:00"\ndefault_topic: serving\ntopics:\n  serving: [serving]\n'
               "entities:\n  FooServe: [Foo Serve]\n  Bar: []\n",
    V1: "---\ntopic: serving\nversion: 1\nupdated: 2026-08-02T05:00:00+08:00\n---\n# Serving 活文档\n\n## §1 引擎\n\n"
        f"- FooServe：TTFT 降低 30%（来源：{JAY}）。\n",
    DOC: "---\ntopic: serving\nversion: 2\nupdated: 2026-08-05T05:00:00+08:00\n---\n# Serving 活文档\n\n## §1 引擎\n\n"
         f"- FooServe：TTFT 降低 45%（来源：{TOM}）。\n",
    JAY: "# 每日简报\n\n- 据作者博客，FooServe 的 TTFT 降低 30%。\n",
    TOM: "# Daily notes\n\n- The paper reports that FooServe cuts TTFT by 45%.\n",
    SPARK: "# 周报\n\n- 二手摘要称 FooServe 的 TTFT 降低 52%。\n",
    NOTES: "# 随手记\n\n- FooServe 的 TTFT 降低 60%（未注明日期）。\n",
}


@pytest.fixture
def fx(tmp_path: Path) -> Path:
    return write_files(tmp_path / "fx", FIXTURE)


def _json(run_kb, args: list[str], cwd: Path) -> dict:  # type: ignore[no-untyped-def]
    r = run_kb(args + ["--format", "json"], cwd=cwd)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_fixture_timeline_three_dates_two_versions(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    h = _json(run_kb, ["history", "FooServe", "--metric", "ttft"], fx)
    assert (h["subject"], h["label"], h["metric"], h["topics"]) == ("entity:fooserve", "FooServe", "ttft", ["serving"])
    assert [(s["at"], s["path"], s["line"], s["author"], s["kind"], s["raw"], s["value"], s["group"])
            for s in h["sources"]] == [
        ("2026-08-01T00:00:00+08:00", JAY, 3, "jay", "secondhand", "30%", -30.0, 0),      # zh, cue 据
        ("2026-08-03T00:00:00+08:00", TOM, 3, "tom", "paper-fact", "45%", -45.0, 1),      # en, "the paper reports"
        ("2026-08-06T09:30:00+08:00", SPARK, 3, "spark", "secondhand", "52%", -52.0, 2),  # zh, 二手摘要称
        (None, NOTES, 3, "jay", "secondhand", "60%", -60.0, 3),                           # no stamp: last
    ]
    assert [(v["version"], v["updated"], v["path"], v["current"],
             [(d["line"], d["section"], d["raw"], d["group"]) for d in v["values"]]) for v in h["versions"]] == [
        (1, "2026-08-02T05:00:00+08:00", V1, False, [(10, "§1", "30%", 0)]),
        (2, "2026-08-05T05:00:00+08:00", DOC, True, [(10, "§1", "45%", 1)]),
    ]
    assert [(g["group"], g["raw"], g["first_at"], g["sources"], g["versions"]) for g in h["values"]] == [
        (0, "30%", "2026-08-01T00:00:00+08:00", [f"{JAY}:3"], ["serving v1"]),
        (1, "45%", "2026-08-03T00:00:00+08:00", [f"{TOM}:3"], ["serving v2"]),
        (2, "52%", "2026-08-06T09:30:00+08:00", [f"{SPARK}:3"], []),
        (3, "60%", None, [f"{NOTES}:3"], []),
    ]
    assert h["notes"] == [f"{NOTES}: no stamp; its value 60% has no place in time"]


def test_fixture_text_timeline_is_in_time_order(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    r = run_kb(["history", "FooServe", "--metric", "TTFT"], cwd=fx)  # a phrase names the metric too
    assert r.exit_code == 0, r.stderr
    order = [m.group(1) for m in re.finditer(r"(\S+\.md):\d+", r.stdout)]
    assert order == [JAY, V1, TOM, DOC, SPARK, NOTES]
    assert "value #1 45% (ttft): first 2026-08-03 00:00+08:00; 1 source; held by serving v2" in r.stdout


def test_as_of_claims_leave_out_later_files_and_read_the_older_version(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    r = run_kb(["claims", "--subject", "FooServe", "--as-of", "2026-08-02", "--format", "json"], cwd=fx)
    assert r.exit_code == 0, r.stderr
    got = [(c["provenance"]["path"], c["provenance"]["line"], c["text"]) for c in json.loads(r.stdout)]
    assert got == [(JAY, 3, "据作者博客，FooServe 的 TTFT 降低 30%。"),
                   (V1, 10, f"FooServe：TTFT 降低 30%（来源：{JAY}）。")]
    # the unstamped file is named once, the version used once
    assert r.stderr.count(NOTES) == 1
    assert "left out of --as-of" in r.stderr
    assert f"{DOC} as of 2026-08-02: v1 ({V1}, updated 2026-08-02 05:00+08:00)" in r.stderr
    # without --as-of: every stamped and unstamped file, the current doc only
    now = [c["provenance"]["path"] for c in _json(run_kb, ["claims", "--subject", "FooServe"], fx)]
    assert now == [JAY, NOTES, SPARK, TOM, DOC]


def test_as_of_a_date_time_holds_up_to_that_minute(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    before = _json(run_kb, ["claims", "--subject", "FooServe", "--as-of", "2026-08-06T09:29"], fx)
    at = _json(run_kb, ["claims", "--subject", "FooServe", "--as-of", "2026-08-06T09:30"], fx)
    assert [c["provenance"]["path"] for c in before] == [JAY, TOM, DOC]
    assert [c["provenance"]["path"] for c in at] == [JAY, SPARK, TOM, DOC]


def test_as_of_diff_uses_the_doc_version_then(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    d = _json(run_kb, ["diff", "serving", "--as-of", "2026-08-03"], fx)
    assert d["baseline"] == {"path": V1, "version": 1, "updated": "2026-08-02T05:00:00+08:00", "citations": None}
    assert d["window"] == {"since": "2026-08-02T22:00:00+08:00", "until": "2026-08-03T22:00:00+08:00"}
    assert [(c["subject"], [(v["raw"], v["sources"]) for v in c["values"]]) for c in d["conflicts"]] == [
        ("entity:fooserve", [("30%", [f"{V1}:10"]), ("45%", [f"{TOM}:3"])])]
    today = _json(run_kb, ["diff", "serving"], fx)
    assert today["baseline"]["version"] == 2
    assert [(v["raw"], v["sources"]) for v in today["conflicts"][0]["values"]] == [
        ("45%", [f"{DOC}:10"]), ("52%", [f"{SPARK}:3"])]


def test_as_of_diff_cuts_the_window_and_refuses_a_time_before_every_version(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    r = run_kb(["diff", "serving", "--date", "2026-08-06", "--as-of", "2026-08-05T12:00"], cwd=fx)
    assert r.exit_code == 2 and "starts after --as-of 2026-08-05T12:00" in r.stderr
    r = run_kb(["diff", "serving", "--date", "2026-08-04", "--as-of", "2026-08-04T12:00", "--format", "json"], cwd=fx)
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["window"] == {"since": "2026-08-03T22:00:00+08:00",
                                              "until": "2026-08-04T12:00:00.000001+08:00"}
    assert "window cut at --as-of 2026-08-04T12:00" in r.stderr
    r = run_kb(["diff", "serving", "--window", "2d", "--as-of", "2026-08-06T09:30", "--format", "json"], cwd=fx)
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["window"] == {"since": "2026-08-04T09:31:00+08:00", "until": "2026-08-06T09:30:00.000001+08:00"}
    assert [f["path"] for f in d["sources_checked"]] == [SPARK]  # stamped 09:30: held
    r = run_kb(["diff", "serving", "--as-of", "2026-08-01"], cwd=fx)
    assert r.exit_code == 2
    assert f"{DOC}: no version kb finds" in r.stderr and "before --as-of 2026-08-01" in r.stderr
    r = run_kb(["diff", "serving", "--as-of", "2026-08-03", "--from", "v1"], cwd=fx)
    assert r.exit_code == 2 and "--as-of picks the doc version itself" in r.stderr


def test_as_of_history_keeps_what_was_held(run_kb, fx: Path) -> None:  # type: ignore[no-untyped-def]
    h = _json(run_kb, ["history", "FooServe", "--metric", "ttft", "--as-of", "2026-08-04"], fx)
    assert h["as_of"] == "2026-08-04"
    assert [(s["path"], s["raw"]) for s in h["sources"]] == [(JAY, "30%"), (TOM, "45%")]
    assert [(v["version"], [d["raw"] for d in v["values"]]) for v in h["versions"]] == [(1, ["30%"])]


def test_as_of_leaves_out_cards_created_later(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    files = dict(FIXTURE)
    files["organized/paper_cards/700-2608-01234.md"] = (
        "---\ncard: 700\narxiv: '2608.01234'\ntitle: 'QuuxCache: Caching for Serving'\naliases: [QuuxCache]\n"
        "category: serving\ncreated: 2026-08-04T10:00:00+08:00\n---\n# QuuxCache\n\nQuuxCache 的 TTFT 降低 20%。\n")
    files["inbox/tom/2026-08-03-quux.md"] = "# notes\n\n- QuuxCache lowers TTFT by 25%.\n"
    root = write_files(tmp_path / "cards", files)
    then = _json(run_kb, ["claims", "--subject", "arXiv:2608.01234", "--as-of", "2026-08-03"], root)
    later = _json(run_kb, ["claims", "--subject", "arXiv:2608.01234", "--as-of", "2026-08-04"], root)
    assert then == []  # the name QuuxCache was nobody's paper yet
    assert [c["provenance"]["path"] for c in later] == ["inbox/tom/2026-08-03-quux.md",
                                                        "organized/paper_cards/700-2608-01234.md"]
    h = _json(run_kb, ["history", "QuuxCache", "--metric", "ttft"], root)
    assert [(s["at"], s["path"], s["author"], s["kind"], s["role"], s["raw"]) for s in h["sources"]] == [
        ("2026-08-03T00:00:00+08:00", "inbox/tom/2026-08-03-quux.md", "tom", "secondhand", "inbox", "25%"),
        ("2026-08-04T10:00:00+08:00", "organized/paper_cards/700-2608-01234.md", None, "paper-fact", "card", "20%"),
    ]
    assert _json(run_kb, ["history", "arXiv:2608.01234", "--as-of", "2026-08-03"], root)["sources"] == []


def test_as_of_a_doc_without_updated_is_read_as_it_is_and_said_so(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    files = {k: v for k, v in FIXTURE.items() if k != V1}
    files[DOC] = FIXTURE[DOC].replace("updated: 2026-08-05T05:00:00+08:00\n", "")
    root = write_files(tmp_path / "noupd", files)
    r = run_kb(["claims", "--subject", "FooServe", "--as-of", "2026-08-02", "--format", "json"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert [c["provenance"]["path"] for c in json.loads(r.stdout)] == [JAY, DOC]
    assert f"{DOC} has no `updated` in its front matter: kb cannot tell when it was written; read as it is now" in r.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["history", "FooServe", "--metric", "speed of light"], "--metric 'speed of light': not a metric key or phrase"),
    (["history", "Nobody"], "SUBJECT 'Nobody': not an arXiv id"),  # the argument typed, not an option
    (["history", "FooServe", "--as-of", "2026-13-01"], "--as-of '2026-13-01': month 13 is out of range (01-12)"),
    (["claims", "--as-of", " "], "--as-of is empty"),
    (["history", "FooServe", "--topic", "nope"], "unknown topic 'nope'"),
    (["history", "FooServe", "--plot", "out.pdf"], "give a file ending in .svg or .png"),
])
def test_bad_input_is_exit_2(run_kb, fx: Path, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    r = run_kb(args, cwd=fx)
    assert r.exit_code == 2
    assert message in r.stderr


# -- the demo KB: TGI's maintenance-mode date ---------------------------------------------------

JAY1735 = "inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md"


def test_demo_tgi_eol_date_timeline(run_kb, demo_kb: Path) -> None:  # type: ignore[no-untyped-def]
    h = _json(run_kb, ["history", "TGI", "--metric", "eol_date"], demo_kb)
    assert (h["subject"], h["metric"], h["topics"]) == ("entity:tgi", "eol_date", ["inference"])
    assert [(v["version"], v["updated"], v["path"], v["current"],
             [(d["line"], d["section"], d["raw"], d["value"]) for d in v["values"]]) for v in h["versions"]] == [
        (44, "2026-07-30T05:00:00+08:00", "organized/knowledge/history/inference/v44.md", False,
         [(21, "§1.1", None, None), (204, "§8.1", None, None)]),   # 维护模式（日期待核）, C102 without a date
        (45, "2026-07-31T05:00:00+08:00", "organized/knowledge/inference.md", True,
         [(21, "§1.1", "2025 年 12 月", "2025-12"), (228, "§8.1", "2026 年 1 月", "2026-01"),
          (262, "§10", None, None)]),                               # the changelog names it, no date
    ]
    assert "维护模式（日期待核）" in h["versions"][0]["values"][0]["text"]
    assert [(s["at"], s["path"], s["line"], s["author"], s["kind"], s["raw"], s["precision"]) for s in h["sources"]] == [
        ("2026-07-31T17:35:00+08:00", JAY1735, 12, "jay", "secondhand", "2026-03-21", "day"),
        ("2026-07-31T17:35:00+08:00", JAY1735, 71, "jay", "secondhand", "2026-03-21", "day"),
    ]
    assert [(g["value"], g["sources"], g["versions"]) for g in h["values"]] == [
        ("2025-12", [], ["inference v45"]),
        ("2026-01", [], ["inference v45"]),
        ("2026-03-21", [f"{JAY1735}:12", f"{JAY1735}:71"], []),
    ]
    r = run_kb(["history", "TGI", "--metric", "eol_date"], cwd=demo_kb)
    lines = [line.strip() for line in r.stdout.splitlines() if line.startswith("2026-")]
    assert lines == [
        "2026-07-30 05:00+08:00  (no value)  inference v44  living-doc §1.1  organized/knowledge/history/inference/v44.md:21",
        "2026-07-30 05:00+08:00  (no value)  inference v44  living-doc §8.1  organized/knowledge/history/inference/v44.md:204",
        "2026-07-31 05:00+08:00  2025 年 12 月  #0  inference v45 (current)  living-doc §1.1  organized/knowledge/inference.md:21",
        "2026-07-31 05:00+08:00  2026 年 1 月  #1  inference v45 (current)  living-doc §8.1  organized/knowledge/inference.md:228",
        "2026-07-31 05:00+08:00  (no value)  inference v45 (current)  living-doc §10  organized/knowledge/inference.md:262",
        f"2026-07-31 17:35+08:00  2026-03-21  #2  jay  secondhand  {JAY1735}:12",
        f"2026-07-31 17:35+08:00  2026-03-21  #2  jay  secondhand  {JAY1735}:71",
    ]


def test_demo_as_of_the_first_night(run_kb, demo_kb: Path) -> None:  # type: ignore[no-untyped-def]
    h = _json(run_kb, ["history", "TGI", "--metric", "eol_date", "--as-of", "2026-07-30"], demo_kb)
    assert h["sources"] == [] and h["values"] == []
    assert [(v["version"], [d["value"] for d in v["values"]]) for v in h["versions"]] == [(44, [None, None])]
    d = _json(run_kb, ["diff", "inference", "--as-of", "2026-07-30"], demo_kb)
    assert d["baseline"]["version"] == 44
    net_new = {s["key"] for s in d["subjects"] if s["outcome"] == "net-new"}
    assert {"arxiv:2607.19712", "arxiv:2607.24410"} <= net_new  # docs/demo-kb.md: the night of 07-30


# -- JSON shape as documented ---------------------------------------------------------------------


def test_json_shape_is_the_documented_one(run_kb, demo_kb: Path) -> None:  # type: ignore[no-untyped-def]
    text = (REPO / "docs/history.md").read_text(encoding="utf-8")
    block = text.split("### JSON (`--format json`)", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    doc = json.loads(block)
    real = _json(run_kb, ["history", "TGI", "--metric", "eol_date"], demo_kb)
    assert set(doc) == set(real)
    for part in ("values", "sources", "versions"):
        assert set(doc[part][0]) == set(real[part][0]), part
    assert set(doc["versions"][0]["values"][0]) == set(real["versions"][0]["values"][0])
    assert doc["sources"][0]["path"] == real["sources"][0]["path"] and doc["sources"][0]["line"] == real["sources"][0]["line"]
    documented = set(re.findall(r"^\| `([a-z_]+)(?:\[\])?`", text, re.M)) | {"label"}
    assert set(real) <= documented


# -- --plot -------------------------------------------------------------------------------------


def test_plot_svg_has_one_marker_per_point(run_kb, fx: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "ttft.svg"
    r = run_kb(["history", "FooServe", "--metric", "ttft", "--plot", str(out)], cwd=fx)
    assert r.exit_code == 0, r.stderr
    assert f"{out}: 5 points" in r.stderr  # 3 stamped sources + 2 doc versions; the unstamped file has no x
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    points = {g.get("id"): (len(list(g.iter(f"{ns}use"))), [t.text for t in g.iter(f"{ns}title")])
              for g in root.iter(f"{ns}g") if (g.get("id") or "").startswith("kb-point-")}
    # one marker and one tooltip per point, in time order: value · kind · who · when · path:line
    assert [points[f"kb-point-{n}"] for n in range(5)] == [
        (1, [f"30% · secondhand · jay · 2026-08-01 00:00 · {JAY}:3"]),
        (1, [f"30% · living-doc · serving v1 · 2026-08-02 05:00 · {V1}:10"]),
        (1, [f"45% · paper-fact · tom · 2026-08-03 00:00 · {TOM}:3"]),
        (1, [f"45% · living-doc · serving v2 · 2026-08-05 05:00 · {DOC}:10"]),
        (1, [f"52% · secondhand · spark · 2026-08-06 09:30 · {SPARK}:3"]),
    ]
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert {"30%", "45%", "52%"} <= set(texts)  # each value labelled as written
    assert texts[:6] == ["2026-08-01", "2026-08-02", "2026-08-03", "2026-08-04", "2026-08-05", "2026-08-06"]  # dates, not hours
    assert texts[7:12] == ["-50%", "-45%", "-40%", "-35%", "-30%"]  # y ticks in %, signed as kb compares them (降低 30%)
    r = run_kb(["history", "FooServe", "--metric", "ttft", "--plot", str(out)], cwd=fx)
    assert r.exit_code == 2 and "exists; use --force" in r.stderr


def test_plot_png_of_dates(run_kb, demo_kb: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "tgi.png"
    r = run_kb(["history", "TGI", "--metric", "eol_date", "--plot", str(out)], cwd=demo_kb)
    assert r.exit_code == 0, r.stderr
    assert f"{out}: 4 points" in r.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (800, 450)


def test_plot_needs_one_metric(run_kb, demo_kb: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    r = run_kb(["history", "vLLM", "--plot", str(tmp_path / "v.svg")], cwd=demo_kb)
    assert r.exit_code == 2 and "--plot draws one metric; give --metric" in r.stderr
    assert not (tmp_path / "v.svg").exists()


def test_plot_path_is_checked_before_any_output_and_no_folder_is_made(  # type: ignore[no-untyped-def]
        run_kb, fx: Path, tmp_path: Path) -> None:
    """A breaker's finds: ``--plot /nonexistent-dir/x.svg`` made the folder (at the file-system
    root) and wrote there; a folder named ``dir.svg`` was refused only after the timeline had
    printed, and as "exists" without --force."""
    missing = tmp_path / "nodir" / "sub" / "x.svg"
    r = run_kb(["history", "FooServe", "--metric", "ttft", "--plot", str(missing)], cwd=fx)
    assert (r.exit_code, r.stdout) == (2, "")
    assert "folder" in r.stderr and "does not exist; create it first" in r.stderr
    assert not (tmp_path / "nodir").exists()
    (tmp_path / "dir.svg").mkdir()
    for force in ([], ["--force"]):
        r = run_kb(["history", "FooServe", "--metric", "ttft", "--plot", str(tmp_path / "dir.svg"), *force], cwd=fx)
        assert (r.exit_code, r.stdout) == (2, "")
        assert f"--plot {tmp_path / 'dir.svg'} is a folder; give a file path" in r.stderr


def test_plot_without_matplotlib_says_how_to_install(run_kb, fx: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    r = run_kb(["history", "FooServe", "--metric", "ttft", "--plot", str(tmp_path / "x.svg")], cwd=fx)
    assert r.exit_code == 2
    assert "--plot needs matplotlib: pip install 'kb-e1brief[plot]'" in r.stderr
    assert not (tmp_path / "x.svg").exists()


def test_versions_from_git_history(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """No snapshot on disk: v1 lives only in git; history lists it, --as-of reads it."""
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    files = {k: v for k, v in FIXTURE.items() if k != V1}
    files[DOC] = FIXTURE[V1]  # v1 first, committed, then edited into v2
    root = write_files(tmp_path / "git", files)

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                              check=True, capture_output=True, text=True).stdout

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "v1")
    rev = git("rev-parse", "HEAD").strip()
    (root / DOC).write_text(FIXTURE[DOC], encoding="utf-8")
    git("commit", "-q", "-am", "v2")
    h = _json(run_kb, ["history", "FooServe", "--metric", "ttft"], root)
    assert [(v["version"], v["path"], v["current"], [d["raw"] for d in v["values"]]) for v in h["versions"]] == [
        (1, f"{DOC}@{rev[:10]}", False, ["30%"]), (2, DOC, True, ["45%"])]
    then = _json(run_kb, ["claims", "--subject", "FooServe", "--as-of", "2026-08-02"], root)
    assert [(c["provenance"]["path"], c["provenance"]["line"]) for c in then] == [(JAY, 3), (f"{DOC}@{rev[:10]}", 10)]
    d = _json(run_kb, ["diff", "serving", "--as-of", "2026-08-03"], root)
    assert (d["baseline"]["version"], d["baseline"]["path"]) == (1, f"{DOC}@{rev[:10]}")


def _unversioned_kb(root: Path) -> Path:
    """A KB whose current doc's ``version:`` does not read and whose v1 snapshot has none."""
    return write_files(root, {
        "kb.yaml": "topics:\n  inference: [inference]\nexecutor: tom\nentities:\n  vLLM: []\n",
        "organized/knowledge/inference.md": "---\ntopic: inference\nversion: abc\nupdated: 2026-07-31T05:00:00+08:00\n"
                                            "---\n# inf\n\n- vLLM 吞吐 1600 tok/s。\n",
        "organized/knowledge/history/inference/v1.md": "---\ntopic: inference\nupdated: 2026-07-30T05:00:00+08:00\n"
                                                       "---\n# inf\n\n- vLLM 吞吐 1500 tok/s。\n",
        "organized/knowledge/history/inference/v2.md": "---\ntopic: inference\nversion: 2\n"
                                                       "updated: 2026-07-30T15:00:00+08:00\n---\n# inf\n\n- vLLM 吞吐 1550 tok/s。\n",
    })


def test_a_version_without_a_number_is_named_honestly(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """No ``vNone`` or ``v0``: a snapshot without ``version:`` is its file name's v1, the current
    doc whose ``version:`` does not read is ``(no version)``, and a note names each file."""
    root = _unversioned_kb(tmp_path)
    r = run_kb(["history", "vLLM"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert "None" not in r.stdout and " v0" not in r.stdout
    assert [line for line in r.stdout.splitlines() if line.startswith("value #")] == [
        "value #0 1500 tok/s (throughput): first 2026-07-30 05:00+08:00; 0 sources; held by inference v1",
        "value #1 1550 tok/s (throughput): first 2026-07-30 15:00+08:00; 0 sources; held by inference v2",
        "value #2 1600 tok/s (throughput): first 2026-07-31 05:00+08:00; 0 sources; held by inference (no version)",
    ]
    assert "inference (no version) (current)" in r.stdout
    assert r.stderr.splitlines()[-2:] == [
        "note: organized/knowledge/history/inference/v1.md: no `version:` kb reads in its front matter (a whole "
        "number from 1 to 999,999); shown as v1, its file name's",
        "note: organized/knowledge/inference.md: no `version:` kb reads in its front matter (a whole number from 1 "
        "to 999,999); shown as (no version)",
    ]
    js = json.loads(run_kb(["history", "vLLM", "--format", "json"], cwd=root).stdout)
    assert [(v["version"], v["current"]) for v in js["versions"]] == [(1, False), (2, False), (None, True)]


def test_diff_and_digest_name_an_unversioned_doc_honestly(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _unversioned_kb(tmp_path)
    r = run_kb(["diff", "inference", "--from", "1", "--to", "2"], cwd=root)
    assert r.exit_code == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "inference: v1 → v2"
    assert out[-2:] == ["citations from: counted 0 (no `citations:` in the front matter)",
                        "citations to: counted 0 (no `citations:` in the front matter)"]
    (root / "inbox/tom").mkdir(parents=True)
    (root / "inbox/tom/2026-07-31T1000_a.md").write_text("---\nauthor: tom\n---\n# 夜\n\n- vLLM 吞吐 1700 tok/s。\n",
                                                         encoding="utf-8")
    r = run_kb(["digest", "inference", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert r.exit_code in (0, 1), r.stderr
    assert "None" not in r.stdout and "None" not in r.stderr
    assert [line for line in r.stdout.splitlines() if "organized/knowledge/inference.md (no version)" in line] == [
        "- 基线：organized/knowledge/inference.md (no version)（更新 2026-07-31 05:00 · 0 节）",
        "- 基线快照（organized/knowledge/inference.md (no version) 已收，本窗口涉及的节）：",
        "- organized/knowledge/inference.md (no version)",
    ]
