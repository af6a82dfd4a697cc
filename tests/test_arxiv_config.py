"""The arXiv endpoint from kb.yaml or KB_ARXIV_API must be an http(s) URL: a config error (2), not 'network down' (3)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("api", ["notaurl", "ftp://x/api/query", "http://"])
def test_a_bad_api_url_is_a_config_error(demo_kb: Path, run_kb, monkeypatch: pytest.MonkeyPatch, api: str) -> None:  # noqa: ANN001
    monkeypatch.setenv("KB_ARXIV_API", api)
    res = run_kb(["verify", "2607.26627"], cwd=demo_kb)
    assert res.exit_code == 2
    assert "is not an http(s) URL of the arXiv query endpoint" in res.stderr
