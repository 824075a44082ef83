"""Checks an action's fields against the contract's bounds before anything is sent.

The rules come from the generated description; a keyword this module does not know is left to
the service, and so is a field the contract does not name.
"""

import json
import math
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, cast

from ._errors import InvalidFieldError

FieldBound = Dict[str, Any]
FieldRule = Dict[str, Any]

_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "None",
    "array": "a list",
    "object": "a mapping",
}

#: The longest string, in characters, a refusal quotes whole; a longer one is described by its length.
_QUOTED_STRING_LIMIT = 40

_MISSING = object()


def _has_type(value: Any, json_type: str) -> bool:
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "null":
        return value is None
    if json_type == "array":
        return isinstance(value, (list, tuple))
    if json_type == "object":
        return isinstance(value, Mapping)
    # A type this runtime does not know is the service's to judge.
    return True


def _described(value: Any) -> str:
    if value is _MISSING:
        return "it is missing"
    if isinstance(value, str):
        return f"got a string of {len(value)} characters" if len(value) > _QUOTED_STRING_LIMIT else f"got {json.dumps(value)}"
    if isinstance(value, (list, tuple)):
        return f"got a list of {len(value)}"  # type: ignore[reportUnknownArgumentType]
    if isinstance(value, Mapping):
        return "got a mapping"
    return f"got {value!r}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _broken_bound(value: object, bounds: Sequence[FieldBound]) -> Optional[FieldBound]:
    value_type = type(value)
    for bound in bounds:
        keyword = bound["keyword"]
        limit = bound.get("limit")
        values: List[Any] = list(bound.get("values") or [])
        broken = False
        if keyword in ("enum", "const", "oneOf"):
            broken = not any(candidate == value and type(candidate) is value_type for candidate in values)
        elif keyword == "minLength":
            broken = isinstance(value, str) and limit is not None and len(value) < limit
        elif keyword == "maxLength":
            broken = isinstance(value, str) and limit is not None and len(value) > limit
        elif keyword == "minimum":
            broken = _is_number(value) and limit is not None and value < limit
        elif keyword == "maximum":
            broken = _is_number(value) and limit is not None and value > limit
        elif keyword == "exclusiveMinimum":
            broken = _is_number(value) and limit is not None and value <= limit
        elif keyword == "exclusiveMaximum":
            broken = _is_number(value) and limit is not None and value >= limit
        elif keyword == "minItems":
            broken = isinstance(value, (list, tuple)) and limit is not None and len(value) < limit  # type: ignore[reportUnknownArgumentType]
        elif keyword == "maxItems":
            broken = isinstance(value, (list, tuple)) and limit is not None and len(value) > limit  # type: ignore[reportUnknownArgumentType]
        elif keyword == "uniqueItems":
            if isinstance(value, (list, tuple)):
                items = [json.dumps(item, sort_keys=True) for item in value]  # type: ignore[reportUnknownVariableType]
                broken = len(set(items)) != len(items)
        elif keyword == "pattern":
            broken = isinstance(value, str) and bool(values) and isinstance(values[0], str) and re.search(values[0], value) is None
        if broken:
            return bound
    return None


def _bound_phrase(bound: FieldBound) -> str:
    values = bound.get("values")
    if values is None:
        return str(bound["label"])
    return f"{bound['label']} {', '.join(json.dumps(item) for item in values)}"


def _type_bound(types: Sequence[str]) -> str:
    return " or ".join(_TYPE_WORDS.get(json_type, json_type) for json_type in types)


def check_fields(action: str, rules: Sequence[FieldRule], fields: Mapping[str, Any]) -> None:
    """Raises InvalidFieldError naming the first field that is missing, of another type, or outside a bound."""
    for rule in rules:
        name: str = rule["name"]
        types: List[str] = list(rule["types"])
        bounds: List[FieldBound] = list(rule["bounds"])
        value = fields.get(name, _MISSING)
        if value is _MISSING or (value is None and "null" not in types):
            if rule["required"]:
                said = f", {', '.join(_bound_phrase(bound) for bound in bounds)}" if bounds else ""
                raise InvalidFieldError(action, name, f"given (it is required): {_type_bound(types)}{said}", _described(value))
            continue
        if not any(_has_type(value, json_type) for json_type in types):
            raise InvalidFieldError(action, name, _type_bound(types), _described(value))
        broken = _broken_bound(value, bounds)
        if broken is not None:
            raise InvalidFieldError(action, name, _bound_phrase(broken), _described(value))
        items: Optional[Dict[str, Any]] = rule.get("items")
        if items is not None and isinstance(value, (list, tuple)):
            for index, item in enumerate(cast(Sequence[object], value)):
                item_name = f"{name}[{index}]"
                if not any(_has_type(item, json_type) for json_type in items["types"]):
                    raise InvalidFieldError(action, item_name, _type_bound(items["types"]), _described(item))
                broken_item = _broken_bound(item, items["bounds"])
                if broken_item is not None:
                    raise InvalidFieldError(action, item_name, _bound_phrase(broken_item), _described(item))
