"""KbConfig: defaults, then ``kb.yaml`` at the KB root; KB root discovery.

Precedence (lowest first): the defaults written in :class:`KbConfig`, then ``kb.yaml`` at
the KB root. Every key is optional; unknown keys are an error that names them
(pydantic ``extra="forbid"``), never a silent default. ``KB_CONFIG_DIR``, when set, is
where ``kb.yaml`` is read from instead of the KB root (tests use it).
"""

from __future__ import annotations

import difflib
import re
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from kb.core.config_kept import config_file, read_kept, write_kept
from kb.core.errors import ConfigError
from kb.core.frontmatter import load_yaml
from kb.core.paths import CONFIG_NAME, doc_path
from kb.core.textio import Problem

_TOPIC_RE = re.compile(r"(?!\.)[\w.-]+")


def topic_name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a topic, or None for a plain name.

    A topic names files (``organized/knowledge/<topic>.md``, ``history/<topic>/``, briefs
    ``<date>-<topic>-e1prep.md``), so it is letters, digits, ``-``, ``_`` and ``.``, not
    starting with ``.``: no ``/``, no ``..``, never a path out of the KB.
    """
    if isinstance(name, str) and _TOPIC_RE.fullmatch(name):
        return None
    return (f"topic {name!r} is not a plain name: use letters, digits, '-', '_' and '.', "
            "not starting with '.' (it names organized/knowledge/<topic>.md)")


def executor_problem(name: str) -> str | None:
    """Why ``name`` cannot be an executor (it names the folder ``inbox/<executor>/``), else
    None; the text follows the option or key that gave it (``--executor is empty; …``)."""
    if not name.strip():
        return "is empty; give a name (the inbox folder), or leave it out"
    if "/" in name or "\\" in name or name.startswith("."):
        return f"{name!r} is not a plain name: it names the inbox folder (e.g. tom)"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):  # NUL, newline, escape: no folder name (issue 24)
        return f"{name!r} holds a control character; it names the inbox folder (e.g. tom)"
    return None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArxivConfig(_Strict):
    """``arxiv:`` section: where the API is and how close a card title must be."""

    api_url: str | None = None
    """Query endpoint, e.g. ``http://127.0.0.1:8080/api/query``; None = the client's default."""
    title_threshold: float = Field(default=0.85, ge=0.0, le=1.0, allow_inf_nan=False)
    """Minimum normalised title similarity (0..1, rapidfuzz ratio / 100) card vs arXiv."""


class DiffConfig(_Strict):
    """``diff:`` section: how the diff reads the living document."""

    title_threshold: float = Field(default=0.9, ge=0.5, le=1.0, allow_inf_nan=False)
    """Minimum title similarity (0..1, :func:`kb.extract.titles.title_similarity`) at which a title
    written in the living doc (link text, bold or quoted text, a table cell) cites a paper
    known by that title (card, link text in the KB, arXiv cache). Exact normalised titles
    always match. See docs/diff.md "Title citations"."""


#: A web base URL the brief's links may start with: http(s), a host, no space, quote, bracket or
#: control character (they would end the Markdown link or hide another scheme).
_LINK_BASE_RE = re.compile(r"https?://[^\s\x00-\x1f\x7f/?#()<>\[\]`'\"\\]+(?:[/?#][^\s\x00-\x1f\x7f()<>\[\]`'\"\\]*)?",
                           re.IGNORECASE)


class LinksConfig(_Strict):
    """``links:`` as a mapping (issue 22): ``{base: relative, style: github}``."""

    base: str = "relative"
    """As the plain ``links`` string: ``relative``, ``none`` or a web base URL."""
    style: Literal["github", "gitlab", "plain"] = "github"
    """How a line is linked: ``github``/``gitlab`` open a Markdown file's line as text
    (``path.md?plain=1#L50``; both render ``.md`` otherwise), ``plain`` is ``path#L50``."""


class LintConfig(_Strict):
    """``lint:`` section (issue 5)."""

    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    consensus_headings: list[str] = Field(default_factory=lambda: ["共识", "consensus"])
    severity: dict[str, str] = Field(default_factory=dict)
    rules: dict[str, dict[str, Any]] = Field(default_factory=dict)
    docs_url: str | None = Field(default=None, pattern=r"^https?://\S+$")
    """Base URL of the rule pages (``…/docs/rules/``): SARIF ``helpUri`` is it plus ``KB104.md``."""


class CuesConfig(_Strict):
    """Extra cue phrases per claim kind, added to the built-in zh/en defaults."""

    secondhand: list[str] = Field(default_factory=list)
    paper_fact: list[str] = Field(default_factory=list, alias="paper-fact")
    internal_rating: list[str] = Field(default_factory=list, alias="internal-rating")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class KbConfig(_Strict):
    """The whole of ``kb.yaml``. Shape and defaults: DESIGN.md §6."""

    timezone: str = "+08:00"
    """UTC offset of file-name stamps and of the night cut-off, ``+HH:MM``."""
    cutoff: str = "22:00"
    """Local time at which a night's 24 h window ends."""
    default_topic: str | None = None
    """Topic ``kb digest`` uses with no argument; None = the first of ``topics``."""
    topics: list[str] | dict[str, list[str]] = Field(default_factory=lambda: ["inference"])
    """Topic names, or topic -> card categories that belong to it."""
    entities: dict[str, list[str]] = Field(default_factory=dict)
    """Canonical entity name -> aliases (matched case-insensitively, longest first)."""
    metrics: dict[str, list[str]] = Field(default_factory=dict)
    """Metric key -> phrases; extends the built-in vocabulary."""
    cues: CuesConfig = Field(default_factory=CuesConfig)
    tolerance: float = Field(default=0.02, ge=0.0, lt=1.0, allow_inf_nan=False)
    """Relative tolerance under which two numbers are the same value (0 <= t < 1)."""
    arxiv: ArxivConfig = Field(default_factory=ArxivConfig)
    diff: DiffConfig = Field(default_factory=DiffConfig)
    lint: LintConfig = Field(default_factory=LintConfig)
    templates_dir: str | None = None
    """Folder (relative to the KB root) searched before the shipped templates."""
    max_file_mb: float = Field(default=20.0, gt=0, le=1_000_000, allow_inf_nan=False)
    """Files larger than this many MB (10^6 bytes) are reported and not parsed (memory bound, issue 12); at most 10^6."""
    links: str | LinksConfig = "relative"
    """``path:line`` in the brief (or a mapping ``{base: …, style: github|gitlab|plain}``, :class:`LinksConfig`;
    the string form has style ``github``): ``relative`` (a link from the brief's folder, ``#L<line>``),
    ``none`` (plain text), or a web base URL such as ``https://github.com/o/r/blob/main/``."""
    brief_fold: int = Field(default=5, ge=1)
    """How many rows a long group of the brief shows (the subjects that are not increments)
    before "… and M more (kb diff --format json)"."""
    brief_seconds: float = Field(default=60.0, gt=0, le=86400, allow_inf_nan=False)
    """Longest time rendering a brief's template may take, in seconds (at most a day); past it ``kb digest``
    stops with an error and writes nothing (a KB's template that loops forever, issue 24). It
    bounds the template only, the one part of a digest running code the KB supplies; kb's own
    steps before it grow linearly with the night (docs/kb-format.md says why)."""
    brief_max_mb: float = Field(default=20.0, gt=0, le=1_000_000, allow_inf_nan=False)
    """Largest brief, in MB (10^6 characters; at most 10^6); past it ``kb digest`` stops with an error."""
    executor: str | None = None
    """Who runs the nights (the inbox folder the brief is written to) when ``kb digest`` is
    given no ``--executor``; None = the KB's ``git config user.name``."""

    @field_validator("links")
    @classmethod
    def _links(cls, v: str | LinksConfig) -> str | LinksConfig:
        base = v.base if isinstance(v, LinksConfig) else v
        if base.strip().lower() not in ("relative", "none", "off", "false", "") and not _LINK_BASE_RE.fullmatch(base):
            raise PydanticCustomError("links", "expected relative, none or an http(s) base URL such as "
                                      f"https://github.com/o/r/blob/main/, got {base!r}")
        return v

    @field_validator("timezone")
    @classmethod
    def _tz(cls, v: str) -> str:
        m = re.fullmatch(r"[+-](\d{2}):(\d{2})", v)
        if not m or int(m.group(1)) > 14 or int(m.group(2)) > 59:
            raise ValueError(f"timezone must be a UTC offset from -14:00 to +14:00 such as +08:00, got {v!r}")
        return v

    @field_validator("cutoff")
    @classmethod
    def _cutoff(cls, v: str) -> str:
        m = re.fullmatch(r"(\d{1,2}):(\d{2})", v)
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise ValueError(f"cutoff must be a local time from 00:00 to 23:59 such as 22:00, got {v!r}")
        return v

    @field_validator("executor")
    @classmethod
    def _executor(cls, v: str | None) -> str | None:
        if v is not None and executor_problem(v):
            raise ValueError(executor_problem(v))
        return v

    @field_validator("entities", "metrics")
    @classmethod
    def _phrases(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for name, phrases in v.items():
            if not str(name).strip() or any(not str(p).strip() for p in phrases):
                raise ValueError(f"{name!r}: names and phrases must not be empty")
        return v

    @property
    def tzinfo(self) -> timezone:
        """The configured offset as a :class:`datetime.timezone`."""
        sign = -1 if self.timezone.startswith("-") else 1
        hours, minutes = self.timezone[1:].split(":")
        return timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))

    @field_validator("topics", "default_topic")
    @classmethod
    def _topic_names(cls, v: Any) -> Any:
        for name in [v] if isinstance(v, str) else list(v or ()):  # list items or mapping keys
            problem = topic_name_problem(name)
            if problem:
                raise ValueError(problem)
        return v

    def topic_names(self) -> list[str]:
        """Topic names in the order written."""
        return list(self.topics) if isinstance(self.topics, (list, dict)) else []

    def topic_categories(self, topic: str) -> list[str]:
        """Card categories that count as ``topic`` (the topic name itself by default)."""
        if isinstance(self.topics, dict) and topic in self.topics:
            return list(self.topics[topic]) or [topic]
        return [topic]

    def unknown_topic(self, root: Path, topic: str) -> str | None:
        """Why ``topic`` names no topic — not in ``topics`` and no living document of that name
        under ``root`` — with the nearest name (``did you mean 'inference'?``), else None: the
        one message of ``kb digest``/``diff``/``sources`` (``kb.night.run.check_topic``) and ``kb bump``."""
        if topic in self.topic_names() or (root / doc_path(topic)).is_file():
            return None
        names = self.topic_names()
        near = self.near_topic(topic)
        hint = f"did you mean {near!r}? Or add" if near else "add"
        return f"unknown topic {topic!r} ({CONFIG_NAME} topics: {', '.join(names) or 'none'}); {hint} it to {CONFIG_NAME} `topics:`"

    def near_topic(self, topic: str) -> str | None:
        """The topic of ``topics`` closest to a mistyped ``topic`` (difflib), else None."""
        near = difflib.get_close_matches(topic, self.topic_names(), n=1)
        return near[0] if near else None

    def first_topic(self) -> str:
        """The topic used when a command is given none."""
        if self.default_topic:
            return self.default_topic
        names = self.topic_names()
        if not names:
            raise ConfigError(f"{CONFIG_NAME}: no topics configured; add `topics: [inference]`")
        return names[0]


def load_config(root: Path) -> KbConfig:
    """Read ``kb.yaml`` (safe loader) from ``KB_CONFIG_DIR`` or ``root``; defaults if absent.

    :raises ConfigError: unreadable YAML, unknown keys or bad values, naming the file,
        the key and, where known, the line.
    """
    path = config_file(root)
    if not path.is_file():
        return KbConfig()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config: {exc}") from exc
    kept = read_kept(root, path, text)  # the same text as last time: its YAML data (kb.core.config_kept)
    data = kept["data"] if kept is not None else _parse_yaml(path, text)
    if data is None:
        return KbConfig()
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at top level")
    try:
        config = KbConfig.model_validate(data)
    except ValidationError as exc:
        messages: list[str] = []
        for err in exc.errors():
            # union members show up as loc parts such as 'list[str]': not the user's words
            parts = [str(p) for p in err["loc"] if not re.search(r"[\[\]]|^(?:str|int|float|bool|dict|list)$", str(p))]
            key = ".".join(parts)
            line = _key_line(text, parts[0]) if parts else None
            where = f"line {line}: " if line else ""
            if err["type"] == "extra_forbidden":
                msg = f"{where}unknown key '{key}'" + _did_you_mean(parts)
            else:
                msg = f"{where}'{key}': {err['msg']}"
            if msg not in messages:
                messages.append(msg)
        raise ConfigError(f"{path}: " + "; ".join(messages)) from exc
    if kept is None or "dump" not in kept:
        write_kept(root, path, text, data, config.model_dump_json())
    return config


def _parse_yaml(path: Path, text: str) -> Any:
    """The YAML data of ``kb.yaml`` (ruamel, safe).

    :raises ConfigError: the YAML is invalid, naming the file and line.
    """
    problems: list[Problem] = []
    data = load_yaml(text.replace("\r\n", "\n"), str(path), problems, first_line=1, what="kb.yaml")
    if problems:
        raise ConfigError(re.sub(r"; (?:kb\.yaml )?ignored$", "", str(problems[0])))
    return data


def _did_you_mean(parts: list[str]) -> str:
    """`` (did you mean 'tolerance'?)`` for an unknown kb.yaml key ``parts`` (``["tolerence"]``,
    ``["lint", "selct"]``): the closest key of the settings it sits in, else ``""``."""
    model: Any = KbConfig
    for part in parts[:-1]:
        field = getattr(model, "model_fields", {}).get(part)
        model = field.annotation if field is not None else None
    keys = list(getattr(model, "model_fields", {}))
    near = difflib.get_close_matches(parts[-1], keys, n=1, cutoff=0.6) if parts and keys else []
    return f" (did you mean '{near[0]}'?)" if near else ""


def _key_line(text: str, key: str) -> int | None:
    """1-based line of a top-level ``key:`` in the YAML text, else None."""
    m = re.search(rf"(?m)^{re.escape(key)}\s*:", text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def config_warnings(config: KbConfig, root: Path) -> list[Problem]:
    """What ``kb.yaml`` sets that is valid but does nothing, as warnings naming the file, the
    line, the name and why (``kb ingest`` prints them; never an error):

    * an entity name or alias of one character (``R``, ``图``): the name matcher
      (:class:`kb.extract.names.NameMatcher`) ignores names shorter than 2 characters (one
      letter would match inside every word), so no text is ever attributed to it; a
      ``--subject`` look-up of the whole name still finds the entity.
    * two entities that share a name: one's name or alias is another's name or alias, or two
      names differ only in case (``vLLM``, ``VLLM``) or in ``-``/``_``/space, as the name matcher
      folds them: kb reads the text of both as one entity, the one written first.
    """
    path = config_file(root)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        text = ""
    shown = CONFIG_NAME if path == root / CONFIG_NAME else str(path)
    out: list[Problem] = []
    for canon, aliases in config.entities.items():
        for name in (canon, *aliases):
            if len(name.strip()) == 1:
                what = "entity" if name == canon else f"alias of entity {canon!r}"
                out.append(Problem(shown, _line_of(text, name),
                                   f"{what} {name.strip()!r} is one character: kb never matches it in text "
                                   f"(names need 2 characters or more); write a longer name or alias", "warning"))
    out.extend(_shared_names(config, text, shown))
    return out


_SEP_RE = re.compile(r"[-_ ]")


def folded_name(name: str) -> str:
    """A whole name as the name matcher compares names (:meth:`kb.extract.names.NameMatcher.key_for`):
    stripped, lower-cased, ``-``/``_``/space alike (``Text-Generation_Inference`` →
    ``text generation inference``). Here, below the matcher, so kb.yaml's warnings read
    names as it does."""
    return _SEP_RE.sub(" ", name.strip().lower())


def _line_of(text: str, name: str, after: str | None = None) -> int:
    """The kb.yaml line (1-based; 0 when not found) where ``name`` is written as a key, a list
    item or a flow item; with ``after`` (an entity), the first such line at or below the line
    where ``after`` is written as a key."""
    key = re.search(rf"(?m)(?:^|[\s{{,])['\"]?{re.escape(after)}['\"]?\s*:", text) if after is not None else None
    m = re.compile(rf"(?m)^(?:\s*(?:-\s+)?|.*[\[,{{]\s*)['\"]?{re.escape(name.strip())}['\"]?\s*(?::|,|\]|}}|$)").search(
        text, text.rfind("\n", 0, key.start() + 1) + 1 if key else 0)  # from the start of the key's line
    return text.count("\n", 0, m.start()) + 1 if m else 0


def _named(entity: str, name: str) -> str:
    """``entity 'vLLM'`` or ``'SGLang', an alias of entity 'vLLM',`` for a warning."""
    return f"entity {name!r}" if name == entity else f"{name!r}, an alias of entity {entity!r},"


def _shared_names(config: KbConfig, text: str, shown: str) -> list[Problem]:
    """Warnings for kb.yaml entities that share a name (:func:`config_warnings`), each at the
    line of the later entity, naming both entities and the name."""
    seen: dict[str, tuple[str, str]] = {}  # folded name -> (entity, name as written)
    out: list[Problem] = []
    pairs: set[tuple[str, str]] = set()
    for canon, aliases in config.entities.items():
        for name in (canon, *aliases):
            first = seen.setdefault(folded_name(name), (canon, name.strip()))
            if first[0] == canon or (first[0], canon) in pairs:
                continue
            pairs.add((first[0], canon))
            out.append(Problem(shown, _line_of(text, name, after=canon),
                               f"{_named(canon, name.strip())} is also {_named(*first)} as kb matches names "
                               f"(in any case): kb reads entities {first[0]!r} and {canon!r} as one; "
                               f"give each entity names of its own", "warning"))
    return out
