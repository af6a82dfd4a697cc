"""Where ``kb.yaml`` is read from, and what kb keeps of the last one it read (``.kb/config.json``).

No pydantic here: a run that finds ``kb.yaml`` unchanged reads the kept data (and the kept
dump of the validated :class:`kb.core.config.KbConfig`, which the store's fingerprint is made of)
without loading ruamel.yaml or building the config models (issue 11: ``kb ingest`` with
nothing changed). :func:`kb.core.config.load_config` alone decides what the config *is* (it
validates the data every run and writes this file); this module only reads and writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import kb
from kb.core.paths import CONFIG_NAME
from kb.core.textio import write_atomic
from kb.perf.digest import code_digest

PARSED_NAME = ".kb/config.json"
"""The kept file, in the KB's own cache folder: the path and whole text of the ``kb.yaml``
read, its YAML data, and the dump of the config validated from it with the code that made
it (:func:`config_code`). Keyed by all of these; deleting it loses nothing.

Nothing in it is trusted that kb did not write (issue 24: an edited ``data`` changed the
executor, the arXiv URL and ``max_file_mb``): it carries a :func:`seal` over everything it
holds, made from ``kb.yaml``'s hash, kb's version and the config code's digest; a file whose
seal does not verify is ignored, and the config is read again from ``kb.yaml``."""


def seal(path: str, text: str, data: Any, dump: Any, code: str) -> str:
    """The seal of a kept config: SHA-256 of kb's version, the config code's digest, the
    ``kb.yaml`` path, the SHA-256 of its text, and the kept ``data`` and ``dump`` (as canonical
    JSON). Any edit of one of them (a key injected into ``data``, another ``dump``) breaks it."""
    text_hash = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    body = json.dumps([kb.__version__, code, path, text_hash, data, dump], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()


def config_file(root: Path) -> Path:
    """The ``kb.yaml`` of the KB at ``root``: in ``KB_CONFIG_DIR`` when set, else in ``root``."""
    folder = Path(os.environ["KB_CONFIG_DIR"]) if os.environ.get("KB_CONFIG_DIR") else root
    return folder / CONFIG_NAME


def config_code() -> str:
    """The digest of the code that reads ``kb.yaml``, validates and dumps a config
    (:mod:`kb.core.config` and what it imports: :func:`kb.perf.digest.code_digest`)."""
    return code_digest("kb.core.config")


def read_kept(root: Path, path: Path, text: str) -> dict[str, Any] | None:
    """What was kept for ``path`` holding exactly ``text`` by this code (``data`` and ``dump``),
    else None: also when its :func:`seal` does not verify (the file was edited)."""
    try:
        got = json.loads((root / PARSED_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(got, dict) or got.get("path") != str(path) or got.get("text") != text or "data" not in got:
        return None
    if got.get("code") != config_code():  # read by other code: its YAML data may differ too (breaker6)
        return None
    try:
        if got.get("seal") != seal(str(path), text, got["data"], got.get("dump"), got["code"]):
            return None  # edited by hand or another tool: never trusted, read from kb.yaml again
    except (TypeError, ValueError):
        return None
    return got


def write_kept(root: Path, path: Path, text: str, data: Any, dump: str) -> None:
    """Keep ``data`` (when it is plain JSON data: a YAML date or an integer key is not, and such
    a file is parsed every run) and the validated config's ``dump``; only into an existing ``.kb/``.
    A file that cannot be written is passed over."""
    kept = root / PARSED_NAME
    try:
        plain = json.loads(json.dumps(data, ensure_ascii=False))
        if plain != data or not kept.parent.is_dir():
            return
        code = config_code()
        write_atomic(kept, json.dumps({"path": str(path), "text": text, "data": plain, "dump": dump,
                                       "code": code, "seal": seal(str(path), text, plain, dump, code)},
                                      ensure_ascii=False), follow_links=False)
    except (TypeError, ValueError, OSError):
        pass


def kept_dump(root: Path) -> str | None:
    """The dump of the config of the KB at ``root`` as kept, when its ``kb.yaml`` is the one
    kept and this code validated it; None otherwise (then :func:`kb.core.config.load_config`)."""
    path = config_file(root)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    kept = read_kept(root, path, text)
    dump = kept.get("dump") if kept else None
    return dump if isinstance(dump, str) else None
