"""Typed answers: an output shape is a ``TypedDict``, and its schema is built from it.

Selectors return plain dicts typed by a ``TypedDict`` (mypy checks every key and value
where the dict is built), and the OpenAPI schema documents the same ``TypedDict``
through a serializer class built here from its annotations — one source for each
shape, with nothing between a selector and the answer (a real serializer costs a
match answer about 45 times the selector's time). The classes built here are for
``extend_schema`` only; nothing serializes through them.

A key's annotation says its field:

=====================================  ================================================
``int``, ``bool``, ``str``, ``float``  ``IntegerField``, ``BooleanField``, ``CharField``,
                                       ``FloatField``
``datetime``                           ``DateTimeField``
``X | None``                           the field of ``X`` with ``allow_null``
``Literal["a", "b"]``                  ``ChoiceField(choices=("a", "b"))``
a ``TypedDict``                        its serializer, nested (one class per ``TypedDict``)
``list[T]``                            ``T``'s serializer with ``many=True``, or ``ListField``
``dict[str, T]``                       ``DictField(child=…)`` (``Any``: no child)
``NotRequired[…]``                     ``required=False``
``Annotated[T, Doc(…)]``               ``T``'s field with the help text and options of
                                       :class:`Doc`
=====================================  ================================================

:func:`schema_serializer` builds the class (a component named after the ``TypedDict``,
or as its module's ``SCHEMA_NAMES`` says); the ``TypedDict``'s docstring describes it.
"""

from __future__ import annotations

import re
import sys
import types
from datetime import datetime
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from rest_framework import serializers


class Doc:
    """What the schema says of one key: ``Annotated[int, Doc("Help.", min_value=0)]``.

    ``help``: the field's help text. Options: ``choices`` (a ``ChoiceField`` of these
    values, e.g. a model's ``TextChoices.values``), ``date=True`` (an ISO date in a
    ``str``: a ``DateField``), ``const=True`` (a ``Literal`` of one string: a string
    whose ``pattern`` admits that value alone); any other option goes to the field as it is
    (``min_value``, ``max_value``, …). Several ``Doc`` on one key add up."""

    __slots__ = ("help", "options")

    def __init__(self, help: str = "", /, **options: Any) -> None:
        self.help = help
        self.options = options

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"Doc({self.help!r}{options})"


_SCALARS: dict[Any, type[serializers.Field]] = {
    int: serializers.IntegerField,
    bool: serializers.BooleanField,
    str: serializers.CharField,
    float: serializers.FloatField,
    datetime: serializers.DateTimeField,
}


def unwrap(hint: Any) -> tuple[Any, dict[str, Any]]:
    """``hint`` without ``Annotated``/``Required``/``NotRequired``, and the options of its
    ``Doc`` metadata (``help`` as ``help_text``)."""
    options: dict[str, Any] = {}
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            for meta in hint.__metadata__:
                if isinstance(meta, Doc):
                    if meta.help:
                        options["help_text"] = meta.help
                    options.update(meta.options)
            hint = hint.__origin__
        elif origin in (Required, NotRequired):
            hint = get_args(hint)[0]
        else:
            return hint, options


def is_optional(shape: Any, key: str, hint: Any) -> bool:
    """Whether ``shape`` may leave ``key`` (of type ``hint``, as ``get_type_hints(shape,
    include_extras=True)`` gives it) out. Python 3.11 misses a ``NotRequired`` in a
    module with ``from __future__ import annotations`` (its annotations are strings),
    which the resolved ``hint`` still shows."""
    return key in shape.__optional_keys__ or get_origin(hint) is NotRequired


_BUILT: dict[Any, type[serializers.Serializer]] = {}


def schema_serializer(shape: Any) -> type[serializers.Serializer]:
    """The serializer class documenting ``shape`` (a ``TypedDict``): one class for each
    shape in the process, so a shape nested in several others is one schema component.

    Its component is named after the ``TypedDict``, or as the ``SCHEMA_NAMES`` mapping of
    the ``TypedDict``'s module says (``{Board: "OutBoard"}``: a name an API has
    published); its docstring describes it."""
    if not is_typeddict(shape):
        raise TypeError(f"{shape!r} is not a TypedDict")
    built = _BUILT.get(shape)
    if built is None:
        hints = get_type_hints(shape, include_extras=True)
        attrs: dict[str, Any] = {
            key: schema_field(hint, required=not is_optional(shape, key, hint))
            for key, hint in hints.items()}
        attrs["__doc__"] = shape.__dict__.get("__doc__")
        attrs["__module__"] = shape.__module__
        names = getattr(sys.modules[shape.__module__], "SCHEMA_NAMES", {})
        name = names.get(shape, shape.__name__)
        built = _BUILT[shape] = type(f"{name}Serializer", (serializers.Serializer,), attrs)
    return built


def schema_field(hint: Any, *, required: bool = True) -> serializers.Field:
    """The field documenting a value of type ``hint``."""
    hint, options = unwrap(hint)
    if not required:
        options["required"] = False
    return _field(hint, options)


def _field(hint: Any, options: dict[str, Any]) -> serializers.Field:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"only X | None unions have a field, not {hint!r}")
        inner, inner_options = unwrap(args[0])
        return _field(inner, {**inner_options, **options, "allow_null": True})
    if options.pop("const", False):
        # One fixed string (a discriminator's value): a plain enum of one, not an enum
        # component of its own per value.
        (value,) = get_args(hint)
        return _const_field(value)(**options)
    listed = options.pop("choices", None)
    choices = get_args(hint) if origin is Literal else listed
    if choices is not None:
        return serializers.ChoiceField(choices=tuple(choices), **options)
    if is_typeddict(hint):
        return schema_serializer(hint)(**options)
    if origin is list:
        (item,) = get_args(hint)
        if is_typeddict(unwrap(item)[0]):
            return schema_serializer(unwrap(item)[0])(many=True, **options)
        return serializers.ListField(child=schema_field(item), **options)
    if origin is dict:
        key, value = get_args(hint)
        if key is not str:
            raise TypeError(f"JSON objects have string keys, not {key!r}")
        if value is Any:
            return serializers.DictField(**options)
        return serializers.DictField(child=schema_field(value), **options)
    if options.pop("date", False):
        return serializers.DateField(**options)
    if hint in _SCALARS:
        return _SCALARS[hint](**options)
    raise TypeError(f"no schema field for {hint!r}")


_CONSTS: dict[str, type[serializers.CharField]] = {}


def _const_field(value: str) -> type[serializers.CharField]:
    """A ``CharField`` class whose schema is the one string ``value`` (a class: a
    serializer deep-copies its fields by their arguments, which would drop an attribute
    set on the instance)."""
    made = _CONSTS.get(value)
    if made is None:
        # A pattern, not a one-value enum: drf-spectacular would make each such enum a
        # component of its own, all named after the field ("type").
        made = _CONSTS[value] = type("ConstField", (serializers.CharField,), {
            "_spectacular_annotation": {"field": {
                "type": "string", "pattern": f"^{re.escape(value)}$",
                "example": value}}})
    return made


def keys_of(shape: Any) -> tuple[str, ...]:
    """A ``TypedDict``'s keys in order (its inherited ones first)."""
    return tuple(get_type_hints(shape))
