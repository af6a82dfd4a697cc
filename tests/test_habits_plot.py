"""kb history --plot on the demo KB: magnitudes as written (万), values the doc holds at once side by
side, tooltips naming path:line, and matplotlib's cache kept out of the home folder."""

from __future__ import annotations

import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kb.history.plot import mpl_config_dir

NS = "{http://www.w3.org/2000/svg}"


def _points(svg: Path) -> dict[str, tuple[list[float], str]]:
    root = ET.parse(svg).getroot()
    return {g.get("id"): ([float(u.get("x")) for u in g.iter(f"{NS}use")], next(g.iter(f"{NS}title")).text)
            for g in root.iter(f"{NS}g") if (g.get("id") or "").startswith("kb-point-")}


def test_wan_values_are_labelled_and_ticked_as_written(run_kb, demo_kb: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "ci.svg"
    r = run_kb(["history", "vLLM", "--metric", "ci_job_minutes", "--plot", str(out)], cwd=demo_kb)
    assert r.exit_code == 0, r.stderr
    texts = [t.text for t in ET.parse(out).getroot().iter(f"{NS}text")]
    assert "1,200 万" in texts and "1,300 万" in texts  # the values, as written
    ticks = texts[texts.index("stated at") + 1:texts.index("ci_job_minutes")]
    assert ticks[0] == "1,200 万" and ticks[-1] == "1,300 万"  # … and the y ticks in 万, not 1e7
    assert not any("1e7" in (t or "") for t in texts)
    assert texts[:4] == ["2026-07-30", "2026-07-31", "2026-08-01", "2026-08-02"]  # one day of values: still dates
    titles = [t for _x, t in _points(out).values()]
    assert titles[0] == ("1,200 万 · secondhand · jay · 2026-07-31 13:35 · "
                         "inbox/jay/2026-07-31T1335-jay-engineering-filter.md:9")


def test_two_values_held_at_once_stand_side_by_side(run_kb, demo_kb: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "tgi.svg"
    r = run_kb(["history", "TGI", "--metric", "eol_date", "--plot", str(out)], cwd=demo_kb)
    assert r.exit_code == 0, r.stderr
    doc = [(xs, t) for xs, t in _points(out).values() if " · living-doc · " in t]
    assert [t.split(" · ")[0] for _xs, t in doc] == ["2025 年 12 月", "2026 年 1 月"]
    assert [t.rsplit(" · ", 1)[1] for _xs, t in doc] == ["organized/knowledge/inference.md:21",
                                                         "organized/knowledge/inference.md:228"]
    (x0,), (x1,) = doc[0][0], doc[1][0]
    assert x0 < x1  # side by side, not one above the other on a vertical line
    # the kinds have their own markers; the legend names each kind drawn
    texts = [t.text for t in ET.parse(out).getroot().iter(f"{NS}text")]
    assert {"living-doc", "secondhand"} <= set(texts)


def test_matplotlib_cache_is_not_in_the_home_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MPLCONFIGDIR", raising=False)
    path = mpl_config_dir()
    assert os.environ["MPLCONFIGDIR"] == path
    assert Path(path).parent == Path(tempfile.gettempdir()) and Path(path).name.startswith("kb-matplotlib-")
    monkeypatch.setenv("MPLCONFIGDIR", "/somewhere/mine")
    assert mpl_config_dir() == "/somewhere/mine"  # a user's own setting is kept
