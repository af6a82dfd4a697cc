"""Exit codes and the KbError hierarchy: the only exceptions the command line translates."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes, the same for every command (DESIGN.md §5)."""

    OK = 0
    FINDINGS = 1
    """Lint findings at error level, a failed verification, a conflict asked to fail."""
    USAGE = 2
    """Usage, input or configuration error."""
    UNAVAILABLE = 3
    """Network or source unavailable and nothing cached to fall back on."""


class KbError(Exception):
    """Base of every error kb reports to the user; ``exit_code`` says how the process ends.

    Library code never spells a command-line option: an error that names one names the
    parameter that gave the value (``as_of``, ``force``), in a template, and the command line
    writes its option there (:meth:`naming`, called by ``kb.cli.main``), so the user reads
    ``--as-of '2026-13-01': …``. :attr:`message` names the parameters as given.

    :param message: one line the user can act on: file, line and what to do. With ``options``
        or ``values`` it is a template: ``{0}``, ``{1}`` … stand for the parameters of
        ``options`` and ``{name}`` for the keyword ``values`` (inserted as data: a value
        holding braces is safe).
    :param options: the parameters the message names, in the order of their ``{0}``, ``{1}`` ….
    """

    exit_code: ExitCode = ExitCode.USAGE

    def __init__(self, message: str, *, options: tuple[str, ...] = (), **values: object) -> None:
        self.template = message if options or values else None
        self.params = options
        self.values = values
        self.message = message if self.template is None else self.naming(str)
        super().__init__(self.message)

    def naming(self, option_of: Callable[[str], str]) -> str:
        """The message with each parameter it names written as ``option_of(parameter)``."""
        if self.template is None:
            return self.message
        return self.template.format(*(option_of(p) for p in self.params), **self.values)


class UsageError(KbError):
    """Bad arguments on the command line."""


class OptionError(UsageError):
    """A bad value of a parameter that a command-line option gives (``since``, ``as_of``, ``topic``).

    :param template: the message, e.g. ``"{0} {value!r}: expected an ISO date"`` (see :class:`KbError`).
    :param params: the parameters the message names, in the order of their ``{0}``, ``{1}`` ….
    :param values: the values the template shows.
    """

    def __init__(self, template: str, *params: str, **values: object) -> None:
        super().__init__(template, options=params, **values)


class ConfigError(KbError):
    """``kb.yaml`` is unreadable or holds unknown keys or bad values."""


class InputError(KbError):
    """A user file cannot be used (encoding, front matter, missing file).

    :param options: and ``values``: the message is a template naming parameters (see :class:`KbError`).
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None, *,
                 options: tuple[str, ...] = (), **values: object) -> None:
        where = path if line is None else f"{path}:{line}"
        if path:
            prefix = f"{where}: "
            message = (prefix.replace("{", "{{").replace("}", "}}") if options or values else prefix) + message
        super().__init__(message, options=options, **values)
        self.path = path
        self.line = line


class SourceUnavailable(KbError):
    """The network or an upstream source (arXiv) could not be reached."""

    exit_code = ExitCode.UNAVAILABLE


class TemplateError(KbError):
    """A brief template refers to something undefined or fails to render."""


_OS_HINTS = {
    "ENOSPC": "the disk is full; free space and run the command again",
    "EDQUOT": "the disk quota is used up; free space and run the command again",
    "EROFS": "the file system is read-only; run kb where it may write",
    "EACCES": "permission denied; check the folder's owner and mode",
    "EPERM": "operation not permitted; check the folder's owner and mode",
    "EIO": "input/output error; check the disk",
}


def describe_os_error(exc: OSError) -> str:
    """One line for an OS error that reached the command line: the file, the cause, a hint.

    ``organized/knowledge/history/inference/v4.md: No space left on device (ENOSPC): the disk
    is full; free space and run the command again``. The one translation of OSError (issue
    12); :func:`kb.cli.main` prints it and exits :attr:`ExitCode.USAGE`.
    """
    name = errno.errorcode.get(exc.errno or 0, "")
    where = exc.filename
    if where is not None:
        try:
            rel = os.path.relpath(os.fspath(where))
            where = rel if not rel.startswith("..") else os.fspath(where)
        except (TypeError, ValueError):
            where = str(where)
    reason = exc.strerror or str(exc) or type(exc).__name__
    hint = _OS_HINTS.get(name)
    head = f"{where}: " if where else ""
    return head + reason + (f" ({name})" if name else "") + (f": {hint}" if hint else "")
