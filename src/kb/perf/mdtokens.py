"""markdown-it's tokens made field by field, and its options read by a dict's own ``get``.

A cold ingest makes ~220 tokens a file; each ``Token(type, tag, nesting)`` ran the generated
``__init__`` (thirteen fields, two default factories) and ``__post_init__`` (``convert_attrs``
of an empty dict), about half of what making a token costs (~1 % of an ingest's instructions).
:func:`new_token` sets the same thirteen fields to the same values directly, and
:class:`BlockState` is markdown-it's ``StateBlock`` with a ``push`` that makes its tokens so;
:mod:`kb.perf.mdblocks` parses with it. Speed machinery only: the tokens are equal, field for
field, to markdown-it's (tests/test_mdtokens.py checks the fields are still these thirteen).

markdown-it's list rule asks ``md.options.get("tasklists", False)`` at every list item: its
``OptionsDict`` answers through ``Mapping.get`` (a ``try`` around ``__getitem__``), ~0.4 % of an
ingest. :class:`Options` answers from its dict directly, the same answer.
"""

from __future__ import annotations

from typing import Any, Literal

from markdown_it.rules_block.state_block import StateBlock
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

#: The fields of markdown-it's ``Token``, as :func:`new_token` sets them (its tests compare).
FIELDS = ("type", "tag", "nesting", "attrs", "map", "level", "children", "content", "markup", "info", "meta",
          "block", "hidden")

_new = object.__new__


def new_token(ttype: str, tag: str, nesting: Literal[-1, 0, 1], level: int = 0, block: bool = False) -> Token:
    """``Token(ttype, tag, nesting)`` with ``level`` and ``block`` set: every other field its
    default (``attrs`` and ``meta`` a new empty dict each, ``map`` and ``children`` None, the
    strings empty, ``hidden`` False), as the dataclass's ``__init__`` and ``__post_init__`` give it."""
    token = _new(Token)
    token.type = ttype
    token.tag = tag
    token.nesting = nesting
    token.attrs = {}
    token.map = None
    token.level = level
    token.children = None
    token.content = ""
    token.markup = ""
    token.info = ""
    token.meta = {}
    token.block = block
    token.hidden = False
    return token


class BlockState(StateBlock):
    """markdown-it's block state, its tokens made by :func:`new_token` (the rest is its own)."""

    def push(self, ttype: str, tag: str, nesting: Literal[-1, 0, 1]) -> Token:
        """``StateBlock.push``: a new block token at the state's level (an opening one raises
        the level after it, a closing one lowers it before), appended to the tokens."""
        if nesting < 0:
            self.level -= 1  # closing tag
        token = new_token(ttype, tag, nesting, self.level, True)
        if nesting > 0:
            self.level += 1  # opening tag
        self.tokens.append(token)
        return token


class Options(OptionsDict):
    """markdown-it's ``OptionsDict`` whose ``get`` is its dict's own (``Mapping.get`` gives the
    same: the value, else ``default``)."""

    def get(self, key: str, default: Any = None) -> Any:
        """``options[key]``, or ``default`` when unset."""
        return self._options.get(key, default)
