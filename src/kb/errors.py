"""Exit codes and the KbError hierarchy: the only exceptions the command line translates."""

from __future__ import annotations

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
