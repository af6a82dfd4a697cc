"""Pieces of the look-up path (issue 11): one claim read by its key, patterns compiled on first use."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import write_files
from kb.core.config import load_config
from kb.store.fresh import fingerprint
from kb.store.ingest import ingest
from kb.perf.lazyre import LazyPattern, lazy
from kb.store.db import Store


def test_store_claim_is_the_claim_of_that_file_with_that_id(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", {
        "kb.yaml": "entities: {vLLM: [], TGI: []}\n",
        "inbox/jay/2026-07-31-a.md": "- vLLM 吞吐 1.5×（arXiv:2607.26627）。\n- TGI 延迟 20 ms。\n",
        "inbox/jay/2026-07-31-b.md": "- vLLM 吞吐 1.5×（arXiv:2607.26627）。\n",
    })
    ingest(root)
    st = Store(root, fingerprint(load_config(root)))
    try:
        every = {(c.provenance.path, c.id): c for c in st.claims()}
        assert len(every) == 3
        for (path, claim_id), c in every.items():
            got = st.claim(path, claim_id)
            assert got == c and got.provenance.path == path
        a_ids = [cid for p, cid in every if p.endswith("-a.md")]
        assert [st.claim("inbox/jay/2026-07-31-a.md", i).text for i in a_ids] == [  # type: ignore[union-attr]
            "vLLM 吞吐 1.5×（arXiv:2607.26627）。", "TGI 延迟 20 ms。"]
        b_id = next(cid for p, cid in every if p.endswith("-b.md"))
        assert st.claim("inbox/jay/2026-07-31-c.md", b_id) is None  # another file: none
        assert st.claim("inbox/jay/2026-07-31-b.md", "0" * 16) is None
    finally:
        st.close()


def test_lazy_pattern_compiles_on_first_use_and_becomes_the_global() -> None:
    namespace: dict[str, object] = {}
    namespace["WORD"] = lazy(namespace, "WORD", r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", re.IGNORECASE)
    held = namespace["WORD"]
    assert isinstance(held, LazyPattern)
    assert held.sub("", "中 文 a b 字 x") == re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", "中 文 a b 字 x")
    assert held.sub("", "中 文 a b 字 x") == "中文 a b 字 x"
    compiled = namespace["WORD"]
    assert isinstance(compiled, re.Pattern) and compiled.flags & re.IGNORECASE
    assert compiled.pattern == r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])"
    assert [m.start() for m in held.finditer("中 文 字")] == [1, 3]  # a kept reference still works
    assert namespace["WORD"] is compiled  # rebound once


def test_lazy_module_patterns_match_as_compiled(tmp_path: Path) -> None:
    """The patterns made lazy find what their compiled forms find."""
    import kb.extract.arxiv_ids
    import kb.extract.refs
    import kb.store.titles

    text = "见 arXiv:2607.26627v2 与 https://arxiv.org/abs/2401.00001 ，inbox/jay/x.md 和 paper_cards/12 中文 标题"
    assert [m.group("id") for m in kb.extract.arxiv_ids._CTX_RE.finditer(text)] == ["2607.26627", "2401.00001"]
    assert [m.group("path") for m in kb.extract.refs._KB_PATH_RE.finditer(text)] == ["inbox/jay/x.md", "paper_cards/12"]
    assert kb.store.titles._words("中文 标题 ab x") == {"中文", "标题", "ab"}
    for module, name in ((kb.store.titles, "_CJK_CHAR_RE"), (kb.extract.arxiv_ids, "_CTX_RE"), (kb.extract.refs, "_KB_PATH_RE")):
        assert isinstance(vars(module)[name], re.Pattern), name


def test_a_subject_names_any_kb_yaml_name_whole() -> None:
    """Issue 19: one name matcher serves `--subject` too; a whole name is looked up at any length
    and in any case (a one-letter alias, a name whose lower case is longer: ``İ``), with ``-``,
    ``_`` and space alike, as the entity matcher it replaced did."""
    from kb.core.config import KbConfig
    from kb.extract.names import NameMatcher, entity_names

    config = KbConfig(entities={"R": ["Q"], "İnferX": ["İX-Serve"], "TGI": ["Text Generation Inference"]})
    m = NameMatcher(entity_names(config))
    assert [m.key_for(n) for n in ("Q", "r", "İnferX", "İX-Serve", "text-generation_inference", "vLLM")] == [
        "entity:r", "entity:r", "entity:i̇nferx", "entity:i̇nferx", "entity:tgi", None]
    again = NameMatcher.from_state(m.state())
    assert again.key_for("text generation inference") == "entity:tgi"
