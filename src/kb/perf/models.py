"""(moved from kb.core.claims)"""

from __future__ import annotations

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
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", known[1].copy())  # (a copy of a set: no hashing of the names again)
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
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
    _set(new, "__dict__", values)
    _set(new, "__pydantic_fields_set__", obj.__pydantic_fields_set__ | update.keys())
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


M = TypeVar("M", bound=BaseModel)


_FIELDS: dict[type, tuple[tuple[str, ...], set[str]]] = {}


_set = object.__setattr__


_new = object.__new__
