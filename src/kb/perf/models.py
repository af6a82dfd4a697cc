"""(moved from kb.core.claims)"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel


def built(cls: type[M], **values: object) -> M:
    """An instance of the claim model ``cls`` (:class:`Claim`, :class:`Provenance`,
    :class:`ArxivRef` …) from values already of their fields' types, without validation: the
    parser's hot loop, where every value was built by kb itself (a validated ``Claim(...)``
    costs ~8 µs, this ~1.5 µs; ``model_construct`` is slower than validation). The instance
    equals ``cls(**values)``: the same field values, the same set fields, no extra or private
    attributes (tests/test_claims_built.py checks it against validation for every claim of the demo KB).

    Every field must be given (a missing one raises ``KeyError``, an unknown one ``TypeError``);
    values are kept as given, not copied: lists passed in must not be changed afterwards.
    """
    known = _FIELDS.get(cls)
    if known is None:
        known = _FIELDS[cls] = (tuple(cls.model_fields), set(cls.model_fields))
    names = known[0]
    if tuple(values) != names:  # (callers name the fields in their declared order: no new dict)
        fields = {name: values[name] for name in names}
        if len(values) != len(names):
            raise TypeError(f"{cls.__name__}: unknown fields {sorted(set(values) - set(names))}")
        values = fields
    obj = _new(cls)
    _set_dict(obj, values)
    _set_fields_set(obj, known[1].copy())  # (a copy of a set: no hashing of the names again)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def replaced(obj: M, **update: object) -> M:
    """``obj.model_copy(update=update)`` of a claim model (frozen, ``extra="forbid"``, no private
    attributes: every model of this module), without pydantic's general copy: a new instance
    with ``obj``'s field values, those of ``update`` in their place (kept as given, not
    validated: each must be of its field's type) and ``update``'s names added to the set
    fields. ~1 µs where ``model_copy`` costs ~3 (the parser copies ~20k quantities per 1,500
    files); tests/test_claims_built.py checks it equals ``model_copy`` field by field."""
    values = obj.__dict__.copy()
    values.update(update)
    new = _new(type(obj))
    _set_dict(new, values)
    _set_fields_set(new, obj.__pydantic_fields_set__ | update.keys())
    _set_extra(new, None)
    _set_private(new, None)
    return new


M = TypeVar("M", bound=BaseModel)


_FIELDS: dict[type, tuple[tuple[str, ...], set[str]]] = {}


def _setter(name: str) -> Callable[[object, object], None]:
    """The setter of ``BaseModel``'s slot ``name`` (its descriptor's ``__set__``: what
    ``object.__setattr__(obj, name, value)`` ends in, without looking the name up along the
    class's MRO on every call; ~16 % fewer instructions a :func:`built`, callgrind), or
    ``object.__setattr__`` bound to ``name`` when pydantic keeps no such descriptor."""
    slot = BaseModel.__dict__.get(name)
    if slot is not None and hasattr(slot, "__set__"):
        return slot.__set__  # type: ignore[no-any-return]
    return lambda obj, value: object.__setattr__(obj, name, value)


_set_dict = _setter("__dict__")
_set_fields_set = _setter("__pydantic_fields_set__")
_set_extra = _setter("__pydantic_extra__")
_set_private = _setter("__pydantic_private__")


_new = object.__new__
