"""Rebuild the real-feed knowledge bases of issue 20 from public GitHub repositories.

Usage:
    python benchmarks/realfeeds/rebuild.py [--out DIR] [--git REPO=GITDIR ...] [KB ...]

Reads ``manifest.yaml`` next to this file. For every KB (or only those named) it writes
``DIR/<kb>/`` (default ``DIR`` = ``<repo>/../realfeeds``, outside this repository) holding:

* ``kb.yaml`` from the manifest's ``kb_yaml`` (the analyst's configuration, not source text);
* every listed file, taken from its repository at the pinned commit and written **byte for
  byte** at its KB path (``organized/knowledge/…``, ``organized/knowledge/history/<topic>/vN.md``,
  ``inbox/<author>/<stamp>-<slug>.md``). The only bytes added are a YAML front-matter block
  (``front_matter:`` in the manifest) before a living doc or snapshot that has none, because kb
  reads a living doc's ``topic``/``version``/``updated`` from it (docs/kb-format.md). Nothing
  else in the source text is changed, dropped or reordered.

Each repository is read from a local bare or normal git directory when given with
``--git owner/name=/path/to/git-dir`` (or found under ``$KB_REALFEEDS_MIRROR/<owner>+<name>/repo``),
else cloned once from ``https://github.com/<owner>/<name>.git`` (blob-less, into a temporary
folder) and read at the pinned commit with ``git show``. Exit 0 when every KB was written,
2 on a bad manifest or argument, 3 when a repository or commit cannot be fetched.

Needs only the standard library, ruamel.yaml and the ``git`` command.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ruamel.yaml import YAML

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_OUT = REPO.parent / "realfeeds"


class FetchError(RuntimeError):
    """A repository or a file at a commit could not be read (exit code 3)."""


class Sources:
    """Git directories per repository: given, mirrored, or cloned on first use."""

    def __init__(self, given: dict[str, str], tmp: Path) -> None:
        self.given = dict(given)
        self.tmp = tmp
        self.dirs: dict[str, str] = {}

    def git_dir(self, repo: str) -> str:
        """The git directory of ``repo`` (``owner/name``); clones it when not given locally."""
        if repo in self.dirs:
            return self.dirs[repo]
        path = self.given.get(repo)
        mirror = os.environ.get("KB_REALFEEDS_MIRROR")
        if path is None and mirror:
            cand = Path(mirror) / repo.replace("/", "+") / "repo"
            if cand.is_dir():
                path = str(cand)
        if path is None:
            dest = self.tmp / repo.replace("/", "+")
            url = f"https://github.com/{repo}.git"
            proc = subprocess.run(["git", "clone", "--bare", "--filter=blob:none", "-q", url, str(dest)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise FetchError(f"{repo}: git clone {url} failed: {proc.stderr.strip()}")
            path = str(dest)
        self.dirs[repo] = path
        return path

    def show(self, repo: str, commit: str, path: str) -> bytes:
        """The bytes of ``path`` at ``commit`` of ``repo``; FetchError when git cannot read it."""
        gd = self.git_dir(repo)
        proc = subprocess.run(["git", f"--git-dir={_git_dir_of(gd)}", "show", f"{commit}:{path}"],
                              capture_output=True)
        if proc.returncode != 0:
            # a blob-less clone may lack the commit: fetch it once, then retry
            subprocess.run(["git", f"--git-dir={_git_dir_of(gd)}", "fetch", "-q", "origin", commit],
                           capture_output=True)
            proc = subprocess.run(["git", f"--git-dir={_git_dir_of(gd)}", "show", f"{commit}:{path}"],
                                  capture_output=True)
        if proc.returncode != 0:
            raise FetchError(f"{repo}@{commit[:7]}:{path}: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout


def _git_dir_of(path: str) -> str:
    """``path/.git`` for a work tree, else ``path`` (a bare git dir)."""
    p = Path(path)
    return str(p / ".git") if (p / ".git").exists() else str(p)


def _yaml_block(data: dict) -> bytes:
    """``---\\n<key: value lines>---\\n``: each value written as the manifest spells it, unquoted,
    so that ``updated: 2026-05-11T15:47:43+08:00`` is a YAML time stamp to kb, not a string."""
    lines = "".join(f"{k}: {v}\n" for k, v in data.items())
    return b"---\n" + lines.encode("utf-8") + b"---\n"


def load_manifest(path: Path = HERE / "manifest.yaml") -> dict:
    """The manifest as plain data; ValueError naming the KB when an entry lacks a needed key."""
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    for name, kb in (data.get("kbs") or {}).items():
        for key in ("topic", "window", "kb_yaml", "files"):
            if key not in kb:
                raise ValueError(f"{path}: kb {name!r} has no {key!r}")
        for f in kb["files"]:
            for key in ("repo", "commit", "path", "to"):
                if key not in f:
                    raise ValueError(f"{path}: kb {name!r}: a file entry has no {key!r}")
            if Path(f["to"]).is_absolute() or ".." in Path(f["to"]).parts:
                raise ValueError(f"{path}: kb {name!r}: {f['to']!r} leaves the KB")
    return data


def build_kb(name: str, kb: dict, out: Path, sources: Sources) -> Path:
    """Write KB ``name`` into ``out/name`` (replacing an earlier rebuild); returns its path.

    The KB is written into ``out/.name.partial`` first and renamed when complete, so a fetch
    error leaves an earlier rebuild as it was and no half-written KB behind.
    """
    final = out / name
    root = out / f".{name}.partial"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    try:
        _write_kb(name, kb, root, sources)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    if final.exists():
        shutil.rmtree(final)
    root.rename(final)
    return final


def _write_kb(name: str, kb: dict, root: Path, sources: Sources) -> None:
    """kb.yaml and every file of the manifest entry ``kb`` under ``root``."""
    y = YAML()
    y.default_flow_style = False
    with (root / "kb.yaml").open("w", encoding="utf-8") as fh:
        fh.write(f"# written by benchmarks/realfeeds/rebuild.py for kb {name} (issue 20)\n")
        y.dump(dict(kb["kb_yaml"]), fh)
    for f in kb["files"]:
        body = sources.show(f["repo"], f["commit"], f["path"])
        fm = f.get("front_matter")
        if fm and not body.lstrip(b"\xef\xbb\xbf").startswith(b"---"):
            body = _yaml_block(dict(fm)) + body
        dest = root / f["to"]
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(body)


def main(argv: list[str]) -> int:
    """Parse arguments, rebuild the KBs, print one line per KB written."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kbs", nargs="*", help="KB names from manifest.yaml (default: all)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})")
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR",
                    help="read this repository from a local git directory instead of cloning it")
    args = ap.parse_args(argv)
    given = {}
    for g in args.git:
        if "=" not in g:
            print(f"--git {g!r}: expected OWNER/NAME=GITDIR", file=sys.stderr)
            return 2
        k, v = g.split("=", 1)
        given[k] = v
    try:
        manifest = load_manifest()
    except (OSError, ValueError) as exc:
        print(f"manifest: {exc}", file=sys.stderr)
        return 2
    kbs = manifest.get("kbs") or {}
    unknown = [k for k in args.kbs if k not in kbs]
    if unknown:
        print(f"unknown KB(s): {', '.join(unknown)} (manifest has {', '.join(kbs)})", file=sys.stderr)
        return 2
    out = args.out.resolve()
    if out == REPO or REPO in out.parents:
        print(f"--out {out}: must lie outside the repository {REPO}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="kb-realfeeds-") as tmp:
        sources = Sources(given, Path(tmp))
        for name in args.kbs or list(kbs):
            try:
                root = build_kb(name, kbs[name], out, sources)
            except FetchError as exc:
                print(f"{name}: {exc}", file=sys.stderr)
                return 3
            n = sum(1 for p in root.rglob("*.md"))
            print(f"{name}: {n} Markdown files -> {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
