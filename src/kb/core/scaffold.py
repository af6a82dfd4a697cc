"""``kb init``: the folders of DESIGN.md §1, a commented kb.yaml and a .gitignore."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from kb.core.config import topic_name_problem
from kb.core.errors import InputError, OptionError
from kb.core.paths import (
    CARDS_DIR,
    HISTORY_ROOT,
    INBOX_DIR,
    KNOWLEDGE_DIR,
    bumped_in_path,
    doc_path,
    inside_kb,
    write_target,
)
from kb.core.textio import write_atomic

FOLDERS = (INBOX_DIR, CARDS_DIR, KNOWLEDGE_DIR, HISTORY_ROOT)

KB_YAML = """\
# kb.yaml: configuration of this knowledge base. Every key is optional; the values shown
# are the built-in defaults. Unknown keys are an error. Reference: docs/kb-format.md.

timezone: "+08:00"          # offset of file-name stamps (inbox/<author>/2026-07-31T1735-….md)
cutoff: "22:00"             # a night's window ends at this local time (kb digest --date)
# executor: tom             # who runs the nights (brief: inbox/<executor>/…); unset = git user.name
topics: [inference]         # or a map, topic -> card categories:
# topics: {inference: [inference-systems, inference-efficient], llm-infra: [llm-infra]}
entities: {}                # canonical name -> aliases, matched case-insensitively, longest first
# entities:
#   TGI: [Text Generation Inference]
#   vllm-mlx: [vLLM-MLX]
metrics: {}                 # extends the built-in metric vocabulary
# metrics:
#   ci_job_minutes: [CI job minutes, job minutes]
cues: {}                    # extends the built-in cue phrases of each claim kind
# cues:
#   secondhand: [据悉]
#   paper-fact: []
#   internal-rating: [强推]
tolerance: 0.02             # relative tolerance under which two numbers are the same value
arxiv:
  api_url: null             # null = export.arxiv.org; tests point it at a local server
  title_threshold: 0.85     # card title vs arXiv title, normalised similarity 0..1
lint:
  select: []
  ignore: []
  consensus_headings: [共识, consensus]
"""

GITIGNORE = ".kb/\n"

LIVING_DOC = """---
topic: {topic}
version: 1
updated: {updated}
citations: 0
---

# {topic} 活文档 / living document

## §1 概览 / Overview

<!-- One section per theme: `## §2 …`, `### §2.1 …`. Cite every item (arXiv id, paper card,
inbox path or URL); `kb lint` checks section numbers, references and the citations count. -->
"""


def init_kb(path: Path, *, now: datetime | None = None, topic: str = "inference") -> tuple[list[str], list[str]]:
    """Create an empty KB at ``path`` without overwriting anything: the folders, a commented
    ``kb.yaml`` whose ``topics`` is ``[topic]``, a ``.gitignore`` holding ``.kb/`` and a
    version-1 living document ``organized/knowledge/<topic>.md``, so that ``kb digest`` runs at once,
    with kb's copy of it as version 1 (:func:`kb.core.paths.bumped_in_path`), so that the first
    ``kb bump`` after editing it keeps version 1 as it was created.

    :returns: ``(created, kept)``: relative paths made, and those that already existed.
    :raises InputError: ``path`` exists and is not a folder.
    :raises OptionError: ``topic`` is not a plain name (it names files).
    """
    problem = topic_name_problem(topic)
    if problem:
        raise OptionError("{0}: {problem}", "topic", problem=problem)
    if not str(path).strip():
        raise InputError("kb init: give the folder to make the KB in (e.g. `kb init .`)")
    if path.exists() and not path.is_dir():
        raise InputError(f"{path}: exists and is not a folder")
    try:
        return _init(path, now, topic)
    except OSError as exc:
        raise InputError(f"{exc.filename or path}: cannot create the KB there: {exc.strerror or exc}") from exc


def _init(path: Path, now: datetime | None, topic: str) -> tuple[list[str], list[str]]:
    path.mkdir(parents=True, exist_ok=True)
    created: list[str] = []
    kept: list[str] = []
    for folder in FOLDERS:
        p = inside_kb(path, path / folder, what="folder kb init creates")
        (kept if p.is_dir() else created).append(folder + "/")
        p.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(timezone(timedelta(hours=8)))).replace(microsecond=0).isoformat()
    starter = LIVING_DOC.format(topic=topic, updated=stamp)
    config = KB_YAML.replace("topics: [inference]         #", f"topics: [{topic}]".ljust(27) + " #", 1)
    for name, text in (("kb.yaml", config), (".gitignore", GITIGNORE),
                       (doc_path(topic), starter), (bumped_in_path(topic, 1), starter)):
        if name == bumped_in_path(topic, 1) and doc_path(topic) not in created:
            continue  # (kb's copy of version 1 as created: only of the doc it creates)
        if name == bumped_in_path(topic, 1):
            write_target(path, path / name, what="file kb init creates").parent.mkdir(parents=True, exist_ok=True)
        target = write_target(path, path / name, what="file kb init creates")
        try:
            write_atomic(target, text, overwrite=False)
            created.append(name)
        except FileExistsError:
            if name == ".gitignore" and ".kb/" not in target.read_text(encoding="utf-8", errors="replace"):
                kept.append(f"{name} (add a line '.kb/' yourself: kb does not edit your files)")
            else:
                kept.append(name)
    return created, kept
