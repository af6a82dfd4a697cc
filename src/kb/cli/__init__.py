"""The ``kb`` command line (Typer). Options in, one pipeline call, rich out; no logic here.

Each command lives in its own module of this package and registers itself on :data:`app`;
:func:`main` maps :class:`kb.core.errors.KbError` to its exit code (``--traceback`` re-raises).

The command modules do not use ``from __future__ import annotations``: Typer reads every
command's parameters on every run (``kb --version`` too), and string annotations are evaluated
four times each (~400 ``eval`` calls, ~15 ms CPU); an annotation naming a type imported only
for type checking is written as a string.
"""

from __future__ import annotations

import sys

# Command modules register themselves on `app` when imported.
from kb.cli import core as _core  # noqa: E402,F401
from kb.cli.common import app, console_err, escape_controls, state
from kb.core.errors import ExitCode, KbError, describe_os_error

for _name in ("diff_cmd", "digest_cmd", "bump_cmd", "verify_cmd", "card_cmd", "lint_cmd", "history_cmd", "sources_cmd",
              "trace_cmd", "export_cmd"):
    try:  # commands of later issues; absent modules simply are not registered
        __import__(f"kb.cli.{_name}")
    except ModuleNotFoundError as _exc:  # pragma: no cover - depends on the tree
        if _exc.name != f"kb.cli.{_name}":
            raise


OPTION_OF = {"day": "--date", "span": "--window"}
"""Library parameters whose option is not ``--`` plus their name (:func:`option_name`)."""


def option_name(param: str) -> str:
    """The option that gives the library parameter ``param`` (``as_of`` -> ``--as-of``,
    ``day`` -> ``--date``); a name that is an option already is kept. A
    :class:`kb.core.errors.KbError` names parameters, not options (:meth:`~kb.core.errors.KbError.naming`)."""
    if param.startswith("-") or param.isupper():  # an option already, or an argument (SUBJECT)
        return param
    return OPTION_OF.get(param) or "--" + param.replace("_", "-")




class _StdoutFailed(BaseException):
    """Writing to stdout failed; :func:`main` ends kb. A BaseException, so that no
    ``except Exception`` on the way turns it into another error."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _GuardedStream:
    """``sys.stdout``/``sys.stderr`` while :func:`main` runs.

    An :class:`OSError` on write or flush (closed pipe, disk full, closed stream) points the
    stream's descriptor at /dev/null, so that nothing more fails, not even the interpreter's
    last flush; then stdout raises :class:`_StdoutFailed`, and stderr goes on silently (a
    diagnostic that cannot be shown does not change the outcome of the command). A reader
    that went away (EPIPE on stdout: ``kb verify --all | head -n1``) is no failure: the rest of
    the output goes to /dev/null and the command runs to its end, so it exits with its own
    code (1 for findings), quietly.
    """

    def __init__(self, stream: object, *, stdout: bool) -> None:
        self._stream = stream
        self._stdout = stdout
        self._broken = False
        self._gone = False  # the reader of a pipe went away (EPIPE): the rest is discarded

    def _failed(self, error: OSError) -> None:
        import errno
        import os

        if not self._broken:
            self._broken = True
            self._gone = error.errno == errno.EPIPE
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(devnull, self._stream.fileno())  # type: ignore[attr-defined]
                finally:
                    os.close(devnull)
            except (AttributeError, OSError, ValueError):  # no descriptor (closed, or a test's buffer)
                pass
        if self._stdout and error.errno != errno.EPIPE:
            raise _StdoutFailed(error) from error

    def write(self, text: str) -> int:
        if self._stream is None:
            import errno

            self._failed(OSError(errno.EBADF, "it is closed"))
            return len(text)
        if self._broken and (not self._stdout or self._gone):
            return len(text)
        try:
            return self._stream.write(text)  # type: ignore[attr-defined,no-any-return]
        except OSError as exc:
            self._failed(exc)
            return len(text)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._stream is None or (self._broken and (not self._stdout or self._gone)):
            return
        try:
            self._stream.flush()  # type: ignore[attr-defined]
        except OSError as exc:
            self._failed(exc)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kb`` console script.

    Typer/click handle usage errors themselves (message, exit 2); a :class:`KbError` from a
    command becomes its message on stderr and its exit code; an :class:`OSError` (ENOSPC,
    EROFS, EACCES, EDQUOT, EIO …) one line naming the file (:func:`kb.core.errors.describe_os_error`)
    and exit 2.

    Writing to standard output is guarded here, for every command: when the reader of a
    pipe goes away (EPIPE: ``kb claims --format json | head -c 10``) kb discards the rest of
    its output and ends with the command's own code, quietly: 0, or 1 for findings (``kb verify
    --all | head -n1``), never 141 (128 + SIGPIPE); any other failure (disk full, I/O error, stdout closed) is
    ``error: cannot write to standard output: …`` and exit 2, unless the command had already
    written its result to a file (``kb digest --out F``: ``state.delivered``), which is
    success whatever stdout is (exit 0, issue 24). No traceback either way, and
    no "Exception ignored" at exit. A failing stderr is ignored (see :class:`_GuardedStream`).
    """
    import os

    # kb uses no pydantic plugin; looking them up scans every installed distribution's entry
    # points (importlib.metadata) when kb's first model is built: ~30 ms of every command
    # (issue 11). A user's own setting of the variable is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    real_out, real_err = sys.stdout, sys.stderr
    _escape_what_cannot_be_encoded(real_out, real_err)
    sys.stdout = _GuardedStream(real_out, stdout=True)  # type: ignore[assignment]
    sys.stderr = _GuardedStream(real_err, stdout=False)  # type: ignore[assignment]
    code = 0
    state.delivered = None
    try:
        try:
            try:
                app(args=argv, prog_name="kb")
            finally:
                sys.stdout.flush()  # what is still buffered fails now, inside the guard
        except KbError as exc:
            if state.traceback:
                raise
            _say_error(exc.naming(option_name))
            code = int(exc.exit_code)
        except OSError as exc:  # disk full, read-only, no permission, I/O error: in any command
            if state.traceback:
                raise
            _say_error(describe_os_error(exc))
            code = int(ExitCode.USAGE)
        except KeyboardInterrupt:
            console_err.print("interrupted")
            code = 130
    except _StdoutFailed as failed:
        if state.delivered is not None:
            code = 0
        else:
            code = 2
            reason = failed.error.strerror or str(failed.error)
            _say_error(f"cannot write to standard output: {reason}")
    finally:
        sys.stdout, sys.stderr = real_out, real_err
        if argv is None:  # the console script (or python -m kb): the process ends after this command
            _no_collection_at_exit()
    sys.exit(code)


def _escape_what_cannot_be_encoded(*streams: object) -> None:
    """A stream in an encoding other than UTF-8 (``PYTHONIOENCODING=latin-1``, a cron job's
    ASCII) writes what it cannot encode as Python escapes (``\\u2192``) instead of raising
    UnicodeEncodeError in the middle of a command: kb's output holds CJK text, arrows and ``§``."""
    for stream in streams:
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if encoding and encoding not in ("utf-8", "utf8", "utf-8-sig") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]
            except (ValueError, OSError):  # (a detached or closed stream: left as it is)
                pass


def _no_collection_at_exit() -> None:
    """Leave what the command made to the process's exit, not to the cyclic garbage collector:
    :func:`gc.freeze` moves every live object to the permanent generation, which the collections
    of interpreter shutdown pass over (they walked every module, model and kept structure still
    alive, several times). Memory is freed by the exit itself; kb closes its files and the store
    itself and flushes standard output above, before this. ``kb digest --out -``, CPU, paired
    runs on this 2-core machine: the 12k KB's demo night 0.82 -> 0.66 s, the demo KB's 0.63 -> 0.52 s
    (issue 11). Not done when :func:`main` is called with ``argv`` (in-process: the tests)."""
    import gc

    gc.freeze()


def _say_error(message: str) -> None:
    """``error: <message>`` on stderr, the word in bold red, the message as plain text (no
    markup, control characters escaped)."""
    from rich.text import Text

    console_err.print(Text.assemble(("error:", "bold red"), " ", escape_controls(message)))
