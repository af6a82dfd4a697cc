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

    :param message: one line the user can act on: file, line and what to do.
    """

    exit_code: ExitCode = ExitCode.USAGE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(KbError):
    """Bad arguments on the command line."""


class OptionError(UsageError):
    """A bad value of a parameter that a command-line option gives (``since``, ``as_of``, ``topic``).

    Library code names the parameter, never the option: the message is a template in which
    ``{0}``, ``{1}`` … stand for the parameters of :attr:`params` and ``{name}`` for the
    keyword :attr:`values` (inserted as data, so a value holding braces is safe). :attr:`message`
    names the parameters as given; the command line writes its options there with
    :meth:`naming` (``kb.cli.main``), so the user reads ``--as-of '2026-13-01': …``.

    :param template: the message, e.g. ``"{0} {value!r}: expected an ISO date"``.
    :param params: the parameters the message names, in the order of their ``{0}``, ``{1}`` ….
    :param values: the values the template shows.
    """

    def __init__(self, template: str, *params: str, **values: object) -> None:
        self.template = template
        self.params = params
        self.values = values
        super().__init__(self.naming(str))

    def naming(self, option_of: Callable[[str], str]) -> str:
        """The message with each parameter written as ``option_of(parameter)``."""
        return self.template.format(*(option_of(p) for p in self.params), **self.values)


class ConfigError(KbError):
    """``kb.yaml`` is unreadable or holds unknown keys or bad values."""


class InputError(KbError):
    """A user file cannot be used (encoding, front matter, missing file)."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        where = path if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {message}" if path else message)
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
