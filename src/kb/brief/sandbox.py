"""The sandbox briefs render in: no Python internals, no mutation, and no value too big to make.

A template (one a KB brings through ``templates_dir`` or ``--template``) runs in Jinja's
:class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`: it reaches no Python internals and
cannot change a list, dict or set (``l.append(…)`` in a loop grew a list of 1 GB). The time and
output limits (``brief_seconds``, ``brief_max_mb``: :mod:`kb.brief.render`) stop a template
that runs long or writes much, but not one value made in one step: a signal cannot interrupt
Python while it allocates ``"x"|center(999999999)``. So every step that makes a value whose size
the template chooses is sized first, through Jinja's own sandbox hooks, and refused past
:attr:`Sandbox.limit` characters (or items) with a :class:`jinja2.exceptions.SecurityError`
(``a width of 999,999,999 is too big for a template``):

* ``*``, ``+`` and ``**`` (``intercepted_binops``), ``%`` formatting of a string (its widths and
  precisions, ``"%0999999999d" % 1``) and ``~`` (joining strings, sized before it joins);
* ``str.format``/``format_map`` (each field's resolved format spec, ``"{:>999999999}"``);
* the str methods that pad or grow (``center``, ``ljust``, ``rjust``, ``zfill``,
  ``expandtabs``, ``replace``, ``translate``, ``join``: :meth:`Sandbox.call`);
* the filters that do (``center``, ``indent``, ``format``, ``replace``, ``join``, ``batch``,
  ``slice``, ``wordwrap``, ``tojson``), those that write a list as text (``string``,
  ``pprint`` …) and the ``lipsum`` global;
* what an expression prints (``finalize``: a list holding one long string a thousand times).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import update_wrapper
from typing import Any

import jinja2
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.nodes import Concat
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter
from jinja2.utils import generate_lorem_ipsum

MAX_VALUE = 10_000_000
"""Most characters or items one step of a template may make (and at most ``brief_max_mb``):
``{{ "x" * 10**10 }}`` is refused before Python allocates it (a signal cannot stop it)."""

_PERCENT_RE = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?[a-zA-Z%]")
_DIGITS_RE = re.compile(r"\d+")
_PADS = frozenset({"center", "ljust", "rjust", "zfill"})
#: Filters that write their value as text (``str(value)``, ``repr``, JSON, URL or XML encoding).
_TO_TEXT = ("string", "pprint", "urlencode", "xmlattr", "escape", "e", "forceescape", "safe", "trim", "striptags",
            "upper", "lower", "title", "capitalize", "truncate", "urlize")


def _number(digits: str) -> int:
    """``digits`` as an int, a huge one for more than 18 digits (no int() of 5,000 digits)."""
    return int(digits) if len(digits.lstrip("0")) <= 18 else 10**18


def size_of(value: Any, depth: int = 4) -> int:
    """Characters ``str(value)`` is at least: a string's length; a list, tuple, set or dict
    counts its items and, ``depth`` levels down, their sizes (one string a thousand times in a
    list is a thousand strings); anything else 1."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        if depth <= 0:
            return len(value)
        items = value.items() if isinstance(value, dict) else value
        return len(value) + sum(size_of(x, depth - 1) for x in items)
    return 1


class _Formatter(SandboxedFormatter):
    """Jinja's formatter of ``str.format`` in the sandbox, each field's spec sized first."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        self._env.check_size(size_of(value))  # type: ignore[attr-defined]
        self._env.check_width(max((_number(d) for d in _DIGITS_RE.findall(format_spec)), default=0))  # type: ignore[attr-defined]
        return super().format_field(value, format_spec)


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``a ~ b`` sized (:meth:`Sandbox.concat_parts`) before it joins."""

    @optimizeconst
    def visit_Concat(self, node: Concat, frame: Frame) -> None:
        if frame.eval_ctx.volatile:  # (the join Jinja 3.1 picks, unchanged)
            func_name = "(markup_join if context.eval_ctx.volatile else str_join)"
        elif frame.eval_ctx.autoescape:
            func_name = "markup_join"
        else:
            func_name = "str_join"
        self.write(f"{func_name}(environment.concat_parts((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")


class Sandbox(ImmutableSandboxedEnvironment):
    """The environment of briefs (see the module docstring); ``limit``: most characters or items
    one step may make (:data:`MAX_VALUE`, or less: ``brief_max_mb``).

    :raises jinja2.exceptions.SecurityError: while rendering, for a step past ``limit``.
    """

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _CodeGenerator

    def __init__(self, *args: Any, limit: int = MAX_VALUE, **kwargs: Any) -> None:
        super().__init__(*args, finalize=self._printed, **kwargs)
        self.limit = limit
        for name, check in (("center", lambda v, width=80: self.check_width(width)),
                            ("indent", self._indent), ("format", self._percent_filter),
                            ("replace", self._replace), ("batch", lambda v, n, fill=None: self.check_width(n)),
                            ("slice", lambda v, n, fill=None: self.check_width(n))):
            self.filters[name] = self._guarded(self.filters[name], check)
        for name in _TO_TEXT:  # a list written as text: its size first (a list holding one long string 1,000 times)
            self.filters[name] = self._guarded(self.filters[name], lambda v, *a, **k: self.check_size(size_of(v)))
        self.filters["tojson"] = self._guarded(self.filters["tojson"], self._tojson)
        self.filters["wordwrap"] = self._guarded(self.filters["wordwrap"], self._wordwrap)
        self.filters["join"] = self._join_filter(self.filters["join"])
        self.globals["lipsum"] = self._lipsum

    # -- the checks ------------------------------------------------------------------------
    def check_size(self, n: int) -> None:
        """Refuse a value of ``n`` characters or items past :attr:`limit`."""
        if n > self.limit:
            raise jinja2.exceptions.SecurityError(f"a sequence of {n:,} items is too big for a template")

    def check_width(self, width: Any) -> None:
        """Refuse a width, precision or count past :attr:`limit` (``center(999999999)``)."""
        if isinstance(width, int) and width > self.limit:
            raise jinja2.exceptions.SecurityError(f"a width of {width:,} is too big for a template")

    def _percent(self, fmt: str, values: Any) -> None:
        """``fmt % values``: every written width and precision, ``*`` ones taken from ``values``,
        and the size of the values."""
        self.check_size(len(fmt) + size_of(values))
        for m in _PERCENT_RE.finditer(fmt):
            for part in m.groups():
                if part == "*":
                    for v in values if isinstance(values, tuple) else (values,):
                        self.check_width(v)
                elif part:
                    self.check_width(_number(part))

    def _tojson(self, value: Any, indent: Any = None) -> None:
        self.check_width(indent)
        self.check_size(size_of(value) * (1 + (indent if isinstance(indent, int) and indent > 0 else 0)))

    def _wordwrap(self, s: Any, width: Any = 79, break_long_words: bool = True, wrapstring: Any = None,
                  break_on_hyphens: bool = True) -> None:
        n = len(str(s))
        lines = n // width + 1 if isinstance(width, int) and width > 0 else n + 1
        self.check_size(n + min(lines, n + 1) * len(str(wrapstring or "\n")))

    def _percent_filter(self, value: Any, *args: Any, **kwargs: Any) -> None:
        self._percent(str(value), kwargs or args)

    def _indent(self, s: Any, width: Any = 4, first: bool = False, blank: bool = False) -> None:
        w = len(width) if isinstance(width, str) else width
        self.check_width(w)
        if isinstance(w, int):
            self.check_size(len(str(s)) + w * (str(s).count("\n") + 1))

    def _replace(self, s: Any, old: Any, new: Any, count: Any = None) -> None:
        s, old, new = str(s), str(old), str(new)
        times = s.count(old) if old else len(s) + 1
        if isinstance(count, int) and 0 <= count < times:
            times = count
        self.check_size(len(s) + times * max(0, len(new) - len(old)))

    def _joined(self, sep: Any, items: list[Any]) -> None:
        self.check_size(size_of(items) + len(str(sep)) * max(0, len(items) - 1))

    # -- Jinja's hooks -----------------------------------------------------------------------
    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """``*``, ``**``, ``+`` and ``%`` of a template, sized first (see the module docstring)."""
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 \
                and abs(left) > 1 and right * max(abs(left), 2).bit_length() > self.limit * 3.33:
            raise jinja2.exceptions.SecurityError(f"{left} ** {right} is too big for a template")
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and n > 0:
                    self.check_size(size_of(seq) * n)
        if operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
            self.check_size(size_of(left) + size_of(right))
        if operator == "%" and isinstance(left, str):
            self._percent(left, right)
        return super().call_binop(context, operator, left, right)

    def concat_parts(self, parts: tuple[Any, ...]) -> tuple[Any, ...]:
        """The parts of ``a ~ b ~ …``, once their joined size is within :attr:`limit`."""
        self.check_size(sum(size_of(p) for p in parts))
        return parts

    def _printed(self, value: Any) -> Any:
        """What ``{{ … }}`` prints, sized (``finalize``)."""
        self.check_size(size_of(value))
        return value

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """A call of a template: str methods that pad or grow are sized first."""
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, str) and name == "expandtabs":  # (the one of them taking a keyword: tabsize=)
            tab = args[0] if args else kwargs.get("tabsize", 8)
            __self.check_width(tab)
            if isinstance(tab, int):
                __self.check_size(len(owner) + owner.count("\t") * tab)
        elif isinstance(owner, str) and args:
            if name in _PADS:
                __self.check_width(args[0])
            elif name == "replace" and len(args) >= 2:
                __self._replace(owner, *args[:3])
            elif name == "translate" and isinstance(args[0], dict):
                longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
                __self.check_size(len(owner) * max(1, longest))
            elif name == "join":
                args = (list(args[0]), *args[1:])
                __self._joined(owner, args[0])
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format``/``format_map`` as Jinja sandboxes it, each field's spec sized."""
        if super().wrap_str_format(value) is None:
            return None
        f_self: str = value.__self__
        if type(f_self) is not str:  # Markup (autoescape is off in briefs): Jinja's own, escaping formatter
            return super().wrap_str_format(value)
        formatter = _Formatter(self)
        is_map = value.__name__ == "format_map"

        def wrapper(*args: Any, **kwargs: Any) -> str:
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument and no keyword arguments")
                args, kwargs = (), args[0]
            return type(f_self)(formatter.vformat(f_self, args, kwargs))

        return update_wrapper(wrapper, value)

    # -- wrapped filters and globals -----------------------------------------------------------
    @staticmethod
    def _guarded(orig: Callable[..., Any], check: Callable[..., None]) -> Callable[..., Any]:
        """Filter ``orig`` with ``check`` (given its arguments after any context) run first."""
        passed = getattr(orig, "jinja_pass_arg", None)

        def run(*args: Any, **kwargs: Any) -> Any:
            check(*(args[1:] if passed else args), **kwargs)
            return orig(*args, **kwargs)

        if passed is not None:
            run.jinja_pass_arg = passed  # type: ignore[attr-defined]
        return update_wrapper(run, orig)

    def _join_filter(self, orig: Callable[..., Any]) -> Callable[..., Any]:
        def join(eval_ctx: Any, value: Iterable[Any], d: str = "", attribute: Any = None) -> Any:
            items = list(value)
            if attribute is None:
                self._joined(d, items)
            return orig(eval_ctx, items, d, attribute)

        join.jinja_pass_arg = orig.jinja_pass_arg  # type: ignore[attr-defined]
        return update_wrapper(join, orig)

    def _lipsum(self, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
        if isinstance(n, int) and isinstance(max, int):
            self.check_size(n * max * 10)
        return generate_lorem_ipsum(n, html, min, max)
