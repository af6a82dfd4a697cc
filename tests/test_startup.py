"""Start-up and the no-change path load only what they need (issue 11). Structural, not timed:
each check runs a fresh interpreter and asserts which modules it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import write_files

HEAVY = ("kb.read.parse", "kb.lint.engine", "kb.verify.verifier", "kb.night.run", "kb.brief.render", "markdown_it", "arxiv",
         "requests", "jinja2", "rapidfuzz", "rich.console", "pydantic")


def _modules_after(code: str, cwd: Path | None = None) -> set[str]:
    """Names in ``sys.modules`` after running ``code`` in a fresh interpreter (its stdout is
    ignored; the module list goes through a file descriptor of its own: stderr)."""
    probe = (
        "import sys, json, atexit\n"
        "atexit.register(lambda: sys.__stderr__.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
        + code
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("MODULES "))
    return set(json.loads(line[len("MODULES "):]))


def test_version_and_help_import_no_pipeline() -> None:
    for argv in (["--version"], ["--help"]):
        mods = _modules_after(f"import sys\nsys.argv = ['kb', *{argv!r}]\nfrom kb.cli import main\nmain()\n")
        assert "kb.cli.lint_cmd" in mods and "typer" in mods  # every command is registered
        assert [m for m in HEAVY if m in mods] == [], argv


def test_ingest_with_nothing_changed_imports_no_parser(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", {
        "kb.yaml": "entities: {vLLM: []}\n",
        "inbox/jay/2026-07-31-x.md": "vLLM 吞吐 1.5×（arXiv:2607.26627）。\n",
    })
    first = _modules_after("from pathlib import Path\nfrom kb.store.ingest import ingest\nprint(ingest(Path('.')).summary())\n", root)
    assert "kb.read.parse" in first  # a file was parsed
    again = _modules_after("from pathlib import Path\nfrom kb.store.ingest import ingest\n"
                           "r = ingest(Path('.'))\nassert (r.parsed, r.unchanged) == (0, 1), r.summary()\n", root)
    assert "kb.store.ingest" in again
    assert [m for m in ("kb.read.parse", "markdown_it", "kb.extract.quantities") if m in again] == []


def test_no_change_ingest_and_look_ups_load_no_yaml_parser(tmp_path: Path) -> None:
    """The second `kb ingest` (nothing changed) reads kb.yaml's kept data (no ruamel.yaml), no
    claim model, no title scorer; `kb verify --offline ID` and `kb claims --subject ID` load no
    parser, no ruamel.yaml, no rapidfuzz and no table renderer in a pipe."""
    root = write_files(tmp_path / "kb", {
        "kb.yaml": "entities: {vLLM: []}\n",
        "inbox/jay/2026-07-31-x.md": "vLLM 吞吐 1.5×（arXiv:2607.26627）。\n",
        "organized/paper_cards/1-2607-26627.md": '---\ncard: 1\narxiv: "2607.26627"\ntitle: "Bole: Tree Speculation"\n---\n# x\n',
    })

    def cli(*argv: str) -> set[str]:
        return _modules_after(f"import sys\nsys.argv = ['kb', *{list(argv)!r}]\nfrom kb.cli import main\n"
                              "try:\n    main()\nexcept SystemExit:\n    pass\n", root)

    assert "ruamel.yaml" in cli("ingest")  # parsed kb.yaml, and the files (.kb/ made: kb.yaml's data kept next time)
    assert "kb.read.parse" not in cli("ingest")
    again = cli("ingest")
    assert [m for m in ("ruamel.yaml", "kb.core.config", "kb.read.parse", "kb.core.claims", "rapidfuzz", "rich.table")
            if m in again] == []  # kb.core.config: no config model built (kb.core.config_kept's dump)
    for argv in (("verify", "--offline", "2607.26627"), ("claims", "--subject", "2607.26627", "--format", "json")):
        mods = cli(*argv)
        assert "kb.store.db" in mods, argv
        assert [m for m in ("ruamel.yaml", "kb.read.parse", "markdown_it", "rapidfuzz", "rich.table", "arxiv")
                if m in mods] == [], argv


def test_look_ups_build_nothing_they_do_not_use(tmp_path: Path) -> None:
    """`kb claims --subject ID` reads claims through the Attributor (kb.facts.attributor) without the
    diff's result models (kb.night.model), its rules or the metric vocabulary's built-in trie
    (kb.extract.metrics.DEFAULT_VOCAB); `kb verify --offline ID` loads no logging (the arxiv
    client's handler is installed where the client is imported); neither compiles the CJK
    patterns of the title index or the parser (kb.perf.lazyre)."""
    root = write_files(tmp_path / "kb", {
        "kb.yaml": "entities: {vLLM: []}\n",
        "inbox/jay/2026-07-31-x.md": "vLLM 吞吐 1.5×（arXiv:2607.26627）。\n",
        "organized/paper_cards/1-2607-26627.md": '---\ncard: 1\narxiv: "2607.26627"\ntitle: "Bole: Tree Speculation"\n---\n# x\n',
    })
    probe = ("import sys\nsys.argv = ['kb', *{argv!r}]\nfrom kb.cli import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "import kb.store.titles, kb.extract.arxiv_ids\n"
             "from kb.perf.lazyre import LazyPattern\n"
             "lazy = [n for m, n in ((kb.store.titles, '_CJK_CHAR_RE'), (kb.extract.arxiv_ids, '_CTX_RE'))"
             " if isinstance(vars(m)[n], LazyPattern)]\n"
             "m = sys.modules.get('kb.extract.metrics')\n"
             "print('STATE', lazy, m is not None and 'DEFAULT_VOCAB' in vars(m), file=sys.__stderr__)\n")
    _modules_after(probe.format(argv=["ingest"]), root)  # the look-ups below find the store fresh
    mods = _modules_after(probe.format(argv=["claims", "--subject", "2607.26627", "--format", "json"]), root)
    assert "kb.facts.attributor" in mods and "kb.extract.metrics" in mods
    assert [m for m in ("kb.night.model", "kb.night.rules", "kb.core.window", "kb.read.parse") if m in mods] == []
    done = subprocess.run([sys.executable, "-c", probe.format(argv=["verify", "--offline", "2607.26627"])],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert "STATE ['_CJK_CHAR_RE', '_CTX_RE'] False" in done.stderr, done.stderr
    mods = _modules_after(probe.format(argv=["verify", "--offline", "2607.26627"]), root)
    assert "kb.verify.verifier" in mods and "logging" not in mods
    claims = subprocess.run([sys.executable, "-c", probe.format(argv=["claims", "--subject", "2607.26627",
                                                                       "--format", "json"])],
                            cwd=root, capture_output=True, text=True, timeout=120)
    assert "STATE ['_CJK_CHAR_RE', '_CTX_RE'] False" in claims.stderr, claims.stderr
