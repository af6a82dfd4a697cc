"""markdown-it's tokens made field by field, not through the dataclass's ``__init__``.

A cold ingest makes ~220 tokens a file; each ``Token(type, tag, nesting)`` ran the generated
``__init__`` (thirteen fields, two default factories) and ``__post_init__`` (``convert_attrs``
of an empty dict), about half of what making a token costs (~1 % of an ingest's instructions).
:func:`new_token` sets the same thirteen fields to the same values directly, and
:class:`BlockState` is markdown-it's ``StateBlock`` with a ``push`` that makes its tokens so;
:mod:`kb.perf.mdblocks` parses with it. Speed machinery only: the tokens are equal, field for
field, to markdown-it's (tests/test_mdtokens.py checks the fields are still these thirteen).
"""

from __future__ import annotations

from typing import Literal

from markdown_it.rules_block.state_block import StateBlock
from markdown_it.token import Token

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
