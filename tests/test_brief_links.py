"""Every file link of a brief renders as a link, whatever its file name holds: ``[``/``]`` of
the link text escaped, the target percent-encoded (kb.brief.render src; a blind tester's N8:
``inbox/a/…a]b.md`` closed the link text early, 19 links of 20 rendered)."""

from __future__ import annotations

from pathlib import Path

from conftest import write_files
from markdown_it import MarkdownIt

from kb.brief.render import fold_lines

KB_YAML = 'timezone: "+08:00"\nentities: {vLLM: []}\ntopics: {inference: [inference-systems]}\n'
DOC = "---\ntopic: inference\nversion: 3\nupdated: 2026-07-30T05:00:00+08:00\n---\n# 活文档\n\n- vLLM throughput 600 tok/s\n"
ODD = ["a]b", "a[x]b", "a[b", "a(b)c", "a)b", "plain", "a\\]b"]


def _links(text: str) -> list[tuple[str, str]]:
    """``(text, href)`` of every link CommonMark reads in ``text``."""
    out = []
    for block in MarkdownIt("commonmark").enable("table").parse(text):
        children = block.children or []
        for i, tok in enumerate(children):
            if tok.type == "link_open":
                out.append((children[i + 1].content, str(tok.attrs["href"])))
    return out


def test_a_file_name_with_brackets_keeps_its_link(run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    files = {"kb.yaml": KB_YAML, "organized/knowledge/inference.md": DOC}
    files |= {f"inbox/a/2026-07-31-09{i:02d}-{odd}.md": f"- vLLM throughput {701 + i} tok/s\n" for i, odd in enumerate(ODD)}
    root = write_files(tmp_path / "kb", files)
    (root / "organized/paper_cards").mkdir()
    assert run_kb(["ingest", "--kb", str(root)]).exit_code == 0
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "a", "--out", "-", "--kb", str(root)])
    assert res.exit_code == 0, res.stderr
    links = {t: h for t, h in _links(res.stdout) if t.startswith("inbox/")}
    assert links == {
        "inbox/a/2026-07-31-0900-a]b.md:1": "inbox/a/2026-07-31-0900-a%5Db.md?plain=1#L1",
        "inbox/a/2026-07-31-0901-a[x]b.md:1": "inbox/a/2026-07-31-0901-a%5Bx%5Db.md?plain=1#L1",
        "inbox/a/2026-07-31-0902-a[b.md:1": "inbox/a/2026-07-31-0902-a%5Bb.md?plain=1#L1",
        "inbox/a/2026-07-31-0903-a(b)c.md:1": "inbox/a/2026-07-31-0903-a%28b%29c.md?plain=1#L1",
        "inbox/a/2026-07-31-0904-a)b.md:1": "inbox/a/2026-07-31-0904-a%29b.md?plain=1#L1",
        "inbox/a/2026-07-31-0905-plain.md:1": "inbox/a/2026-07-31-0905-plain.md?plain=1#L1",
        # a backslash is a character of a POSIX name (it was read as a folder: the file lost its
        # date stamp and left the window without a word)
        "inbox/a/2026-07-31-0906-a\\]b.md:1": "inbox/a/2026-07-31-0906-a%5C%5Db.md?plain=1#L1",
    }
    assert "[inbox/a/2026-07-31-0900-a\\]b.md:1](inbox/a/2026-07-31-0900-a%5Db.md?plain=1#L1)" in res.stdout


def test_a_folded_line_never_cuts_a_link_at_an_escaped_bracket() -> None:
    """A line past MAX_LINE is folded before a link it would cut: the link's own ``[``, never the
    ``\\[`` of a file name in its text (the fold kept ``[inbox/a\\`` and broke the rest)."""
    link = "[inbox/a/2026-07-31-0900-a\\[b.md:1](inbox/a/2026-07-31-0900-a%5Bb.md?plain=1#L1)"
    folded = fold_lines("- " + "".join([link] * 2000), 1000)
    head = folded.split(" … (+", 1)[0]
    assert head.endswith(")") and head.count(link) == len(head[2:]) // len(link) and (len(head) - 2) % len(link) == 0
