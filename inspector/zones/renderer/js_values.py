"""The JavaScript value rules ChatLuna's renderer applies, on the project's model of JS values.

Values: ``None`` is ``null``, :data:`~inspector.jsjson.UNDEFINED` is ``undefined``, ``bool``,
``int``/``float`` are numbers, ``str``, ``list``/``tuple`` are arrays, ``dict`` is a plain object,
and a Python callable is a function. ``String()``, ``Number()``, truthiness and relational
comparison are the project's one implementation of each (:mod:`inspector.jsjson`,
:mod:`inspector.zones.evaluate`); this module adds what the renderer needs besides: ``===``,
``+`` (concatenation or addition), ``- * / %`` and unary ``- +`` with IEEE results (Infinity,
NaN, -0), and property access (``obj.name``, ``obj[key]``) with the built-in properties a
template can reach: a string's ``length`` and characters (UTF-16 code units), an array's
``length`` and elements, an object's own keys, and the prototype methods that take no argument
(the renderer calls a method it reads, with no arguments).

A JavaScript exception is :class:`JsThrow`; the evaluator decides what it does to the render.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from inspector.jsjson import (
    UNDEFINED,
    js_code_units,
    js_number,
    js_slice,
    js_to_string,
    js_trim,
    js_truthy,
    utf16_len,
)

from ..evaluate import compare, is_js_number, to_number, to_primitive, to_text

__all__ = [
    "OBJECT_PROTOTYPE_NAMES",
    "JsThrow",
    "binary",
    "get_property",
    "global_property",
    "is_function",
    "strict_equals",
    "to_number",
    "to_output",
    "to_string",
    "truthy",
    "unary",
]


class JsThrow(Exception):
    """A JavaScript exception raised while evaluating. ``reported``: a diagnostic already says why."""

    def __init__(self, message: str, reported: bool = False) -> None:
        super().__init__(message)
        self.reported = reported


def is_function(value: Any) -> bool:
    return callable(value) and not isinstance(value, (str, bytes, list, tuple, dict, bool, int, float, type(None)))


def to_output(value: Any) -> str:
    """``String(value ?? "")``: what an expression tag writes."""
    return to_text(value)


def to_string(value: Any) -> str:
    """``String(value)`` (``null`` → ``"null"``): what a function argument becomes."""
    if is_function(value):
        return "function () { [native code] }"
    return js_to_string(value)


def truthy(value: Any) -> bool:
    """JavaScript truthiness (``!!value``)."""
    return js_truthy(value)


def strict_equals(a: Any, b: Any) -> bool:
    """``a === b``: no conversion; numbers by value (NaN is unequal to itself, 0 equals -0),
    arrays, objects and functions by identity."""
    if is_js_number(a) and is_js_number(b):
        return to_number(a) == to_number(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or b is None or a is UNDEFINED or b is UNDEFINED:
        return a is b
    if isinstance(a, str) or isinstance(b, str) or is_js_number(a) or is_js_number(b):
        return False
    return a is b


def _primitive(value: Any) -> Any:
    """ToPrimitive (:func:`~inspector.zones.evaluate.to_primitive`), plus what only this dialect
    meets: a function value (a registered function or a callable variable), whose ToPrimitive is
    its source text."""
    return to_string(value) if is_function(value) else to_primitive(value)


def _add(a: Any, b: Any) -> Any:
    a, b = _primitive(a), _primitive(b)
    if isinstance(a, str) or isinstance(b, str):
        return to_string(a) + to_string(b)
    return to_number(a) + to_number(b)


def _divide(x: float, y: float) -> float:
    if y == 0:
        if math.isnan(x) or x == 0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


def _remainder(x: float, y: float) -> float:
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
        return math.nan
    if math.isinf(y):
        return x
    return math.fmod(x, y)


def _arithmetic(op: str, a: Any, b: Any) -> float:
    x, y = to_number(a), to_number(b)
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if op == "/":
        return _divide(x, y)
    return _remainder(x, y)


def binary(op: str, a: Any, b: Any) -> Any:
    """The renderer's binary operators: ``==``/``!=`` are ``===``/``!==``; ``&&``/``||`` give an
    operand (both sides were already evaluated)."""
    if op == "+":
        return _add(a, b)
    if op in ("-", "*", "/", "%"):
        return _arithmetic(op, a, b)
    if op == "==":
        return strict_equals(a, b)
    if op == "!=":
        return not strict_equals(a, b)
    if op == "&&":
        return b if truthy(a) else a
    if op == "||":
        return a if truthy(a) else b
    return compare(_primitive(a), op, _primitive(b))


def unary(op: str, value: Any) -> Any:
    if op == "!":
        return not truthy(value)
    if op == "-":
        return -to_number(value)
    return to_number(value)


# --- properties --------------------------------------------------------------------------------

def property_key(value: Any) -> str:
    """ToPropertyKey: what ``obj[value]`` looks up."""
    return value if isinstance(value, str) else to_string(value)


def _array_index(key: str) -> int | None:
    """The index a canonical array-index key names (``"0"``, ``"12"``; not ``"01"`` or ``"1.0"``)."""
    if key.isdigit() and key.isascii() and (key == "0" or key[0] != "0") and len(key) <= 10:
        index = int(key)
        return index if index < 2**32 - 1 else None
    return None


# A method the renderer calls with no arguments: fn(this) -> value. ``_THROWS`` marks a method
# whose call with no arguments throws in JavaScript (a callback or a setter it needs).
def _throws(name: str) -> Callable[[Any], Any]:
    def call(_this: Any) -> Any:
        raise JsThrow(f"{name} needs an argument")
    return call


def _object_to_string(this: Any) -> str:
    if this is UNDEFINED:
        return "[object Undefined]"
    if this is None:
        return "[object Null]"
    if isinstance(this, (list, tuple)):
        return "[object Array]"
    if isinstance(this, str):
        return "[object String]"
    if isinstance(this, bool):
        return "[object Boolean]"
    if is_js_number(this):
        return "[object Number]"
    if is_function(this):
        return "[object Function]"
    return "[object Object]"


def _to_object(this: Any) -> Any:
    if this is None or this is UNDEFINED:
        raise JsThrow("Cannot convert undefined or null to object")
    return this


def _has_own(this: Any, key: str) -> bool:
    this = _to_object(this)
    if isinstance(this, dict):
        return key in this
    if isinstance(this, str):
        return key == "length" or (_array_index(key) is not None and int(key) < utf16_len(this))
    if isinstance(this, (list, tuple)):
        return key == "length" or (_array_index(key) is not None and int(key) < len(this))
    return False


def _nothing_on(this: Any) -> Any:
    _to_object(this)
    return UNDEFINED


# Object.prototype, as an identifier (``{toString}``, this = undefined) or a property of any value.
_OBJECT_METHODS: dict[str, Callable[[Any], Any]] = {
    "constructor": lambda _this: {},  # Object() called with no argument
    "toString": _object_to_string,
    "toLocaleString": lambda this: _call_method(_to_object(this), "toString"),
    "valueOf": _to_object,
    "hasOwnProperty": lambda this: _has_own(this, "undefined"),
    "isPrototypeOf": lambda _this: False,
    "propertyIsEnumerable": lambda this: _has_own(this, "undefined"),
    "__defineGetter__": _throws("__defineGetter__"),
    "__defineSetter__": _throws("__defineSetter__"),
    "__lookupGetter__": lambda this: _nothing_on(this),
    "__lookupSetter__": lambda this: _nothing_on(this),
}
OBJECT_PROTOTYPE_NAMES = frozenset(_OBJECT_METHODS) | {"__proto__"}


def _string_index_of(this: str, needle: str, last: bool = False) -> int:
    at = this.rfind(needle) if last else this.find(needle)
    return at if at < 0 else utf16_len(this[:at])


def _first_unit(this: str) -> float | Any:
    if not this:
        return math.nan
    unit = js_slice(this, 0, 1)
    return float(ord(unit))


def _code_point(this: str) -> Any:
    return float(ord(this[0])) if this else UNDEFINED


def _well_formed(this: str) -> str:
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in this)


def _trim_start(this: str) -> str:
    stripped = js_trim(this + "x")
    return stripped[:-1]


def _trim_end(this: str) -> str:
    stripped = js_trim("x" + this)
    return stripped[1:]


_STRING_METHODS: dict[str, Callable[[str], Any]] = {
    "constructor": lambda _this: "",  # String() with no argument
    "toString": lambda this: this,
    "valueOf": lambda this: this,
    "toUpperCase": str.upper,
    "toLowerCase": str.lower,
    "toLocaleUpperCase": str.upper,
    "toLocaleLowerCase": str.lower,
    "trim": js_trim,
    "trimStart": _trim_start,
    "trimLeft": _trim_start,
    "trimEnd": _trim_end,
    "trimRight": _trim_end,
    "normalize": lambda this: unicodedata.normalize("NFC", this),
    "at": lambda this: js_slice(this, 0, 1) if this else UNDEFINED,
    "charAt": lambda this: js_slice(this, 0, 1) if this else "",
    "charCodeAt": _first_unit,
    "codePointAt": _code_point,
    "split": lambda this: [this],
    "concat": lambda this: this,
    "slice": lambda this: this,
    "substring": lambda this: this,
    "substr": lambda this: this,
    "padStart": lambda this: this,
    "padEnd": lambda this: this,
    "repeat": lambda _this: "",
    "indexOf": lambda this: float(_string_index_of(this, "undefined")),
    "lastIndexOf": lambda this: float(_string_index_of(this, "undefined", last=True)),
    "includes": lambda this: "undefined" in this,
    "startsWith": lambda this: this.startswith("undefined"),
    "endsWith": lambda this: this.endswith("undefined"),
    "search": lambda _this: 0.0,
    "match": lambda _this: [""],
    "replace": lambda this: this,
    "replaceAll": lambda this: this,
    "isWellFormed": lambda this: _well_formed(this) == this,
    "toWellFormed": _well_formed,
}
# The HTML methods (String.prototype.big …), called with no argument: an attribute is "undefined".
for _name, (_tag, _attribute) in {
        "anchor": ("a", "name"), "big": ("big", None), "blink": ("blink", None), "bold": ("b", None),
        "fixed": ("tt", None), "fontcolor": ("font", "color"), "fontsize": ("font", "size"),
        "italics": ("i", None), "link": ("a", "href"), "small": ("small", None), "strike": ("strike", None),
        "sub": ("sub", None), "sup": ("sup", None)}.items():
    _open = f'<{_tag} {_attribute}="undefined">' if _attribute else f"<{_tag}>"
    _STRING_METHODS[_name] = (lambda o, c: lambda this: o + this + c)(_open, f"</{_tag}>")


def _flat(items: list | tuple) -> list:
    out: list = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.extend(item)
        else:
            out.append(item)
    return out


_ARRAY_METHODS: dict[str, Callable[[Any], Any]] = {
    "constructor": lambda _this: [],  # Array() with no argument
    "toString": js_to_string,
    "join": js_to_string,
    "at": lambda this: this[0] if this else UNDEFINED,
    "slice": list,
    "concat": list,
    "flat": _flat,
    "toReversed": lambda this: list(reversed(this)),
    "includes": lambda this: any(item is UNDEFINED for item in this),
    "indexOf": lambda this: -1.0,
    "lastIndexOf": lambda this: -1.0,
    "push": lambda this: float(len(this)),
    "unshift": lambda this: float(len(this)),
    "splice": lambda _this: [],
    "toSpliced": list,
}


def _sorted(this: list | tuple) -> list:
    """``Array.prototype.sort()``: by ``String(item)`` in UTF-16 order, ``undefined`` last."""
    present = [item for item in this if item is not UNDEFINED]
    present.sort(key=lambda item: js_code_units(to_string(item)))
    return present + [UNDEFINED] * (len(this) - len(present))


# The methods that change the array in JavaScript give the same result here but leave the value
# as it was (ChatLuna's later reads of the variable would see the change).
_ARRAY_METHODS.update({
    "sort": _sorted,
    "toSorted": _sorted,
    "reverse": lambda this: list(reversed(this)),
    "pop": lambda this: this[-1] if this else UNDEFINED,
    "shift": lambda this: this[0] if this else UNDEFINED,
    "fill": lambda this: [UNDEFINED] * len(this),
    "copyWithin": list,
})
for _name in ("every", "some", "filter", "map", "forEach", "find", "findIndex", "findLast", "findLastIndex",
              "reduce", "reduceRight", "flatMap"):
    _ARRAY_METHODS[_name] = _throws(_name)


def _to_fixed(this: float) -> str:
    """``x.toFixed()``: the exact value rounded to a whole number, halves away from zero."""
    x = to_number(this)
    if math.isnan(x):
        return "NaN"
    if abs(x) >= 1e21 or math.isinf(x):
        return js_number(x)
    if x == 0:
        return "0"
    return str(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


# Enough digits for any double written out in full with three decimals (1.8e308 has 309).
_WIDE = Context(prec=400)


def _shortest(x: float) -> Decimal:
    """The shortest decimal that reads back as ``x`` (the digits ``String(x)`` shows)."""
    return Decimal(repr(x))


def _to_exponential(this: float) -> str:
    """``x.toExponential()``: as many digits as ``String(x)`` has, in exponent form."""
    x = to_number(this)
    if math.isnan(x) or math.isinf(x):
        return js_number(x)
    if x == 0:
        return "0e+0"
    d = _shortest(abs(x)).normalize()
    digits = "".join(map(str, d.as_tuple().digits))
    e = d.adjusted()
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return ("-" if x < 0 else "") + mantissa + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def _to_locale(this: Any) -> str:
    """``x.toLocaleString()`` in Node's default (en-US) format: digits grouped by three with ",",
    at most three decimals (halves away from zero)."""
    x = to_number(this)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "-∞" if x < 0 else "∞"
    rounded = _shortest(abs(x)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP, context=_WIDE)
    whole, _, fraction = f"{rounded:f}".partition(".")
    fraction = fraction.rstrip("0")
    grouped = f"{int(whole):,}"
    negative = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
    return ("-" if negative else "") + grouped + ("." + fraction if fraction else "")


def _array_to_locale(this: list | tuple) -> str:
    out: list[str] = []
    for item in this:
        if item is None or item is UNDEFINED:
            out.append("")
        else:
            out.append(to_string(_call_method(item, "toLocaleString")))
    return ",".join(out)


_NUMBER_METHODS: dict[str, Callable[[Any], Any]] = {
    "constructor": lambda _this: 0.0,  # Number() with no argument
    "toString": js_number,
    "toPrecision": js_number,
    "valueOf": lambda this: this,
    "toFixed": _to_fixed,
    "toExponential": _to_exponential,
    "toLocaleString": _to_locale,
}
_ARRAY_METHODS["toLocaleString"] = _array_to_locale

_BOOLEAN_METHODS: dict[str, Callable[[Any], Any]] = {
    "constructor": lambda _this: False,  # Boolean() with no argument
    "toString": js_to_string,
    "valueOf": lambda this: this,
}

# String(X.prototype) for each kind of value: what ``value.__proto__`` renders as.
_PROTOTYPE_OF = {"string": "", "array": [], "number": 0.0, "boolean": False}


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if is_js_number(value):
        return "number"
    if isinstance(value, (list, tuple)):
        return "array"
    if is_function(value):
        return "function"
    return "object"


_METHODS = {"string": _STRING_METHODS, "array": _ARRAY_METHODS, "number": _NUMBER_METHODS,
            "boolean": _BOOLEAN_METHODS, "object": {}, "function": {}}


def _call_method(this: Any, name: str) -> Any:
    method = _METHODS[_kind(this)].get(name) or _OBJECT_METHODS.get(name)
    return UNDEFINED if method is None else method(this)


def get_property(obj: Any, key: Any) -> tuple[Any, bool]:
    """``obj[key]`` as the renderer reads it (``obj`` is neither null nor undefined):
    ``(value, False)`` for a data property (``UNDEFINED`` when missing), ``(result, True)`` when
    the property is a function, which the renderer calls with ``obj`` as ``this`` and no
    arguments. Raises :class:`JsThrow`."""
    name = property_key(key)
    kind = _kind(obj)
    if kind == "object" and isinstance(obj, dict):
        if name in obj:
            value = obj[name]
            return (call_value(value), True) if is_function(value) else (value, False)
    elif kind == "string":
        if name == "length":
            return float(utf16_len(obj)), False
        index = _array_index(name)
        if index is not None:
            return (js_slice(obj, index, index + 1) if index < utf16_len(obj) else UNDEFINED), False
    elif kind == "array":
        if name == "length":
            return float(len(obj)), False
        index = _array_index(name)
        if index is not None:
            return (obj[index] if index < len(obj) else UNDEFINED), False
    if name == "__proto__":
        return _PROTOTYPE_OF.get(kind, {}), False
    if name in _METHODS[kind] or name in _OBJECT_METHODS:
        return _call_method(obj, name), True
    return UNDEFINED, False


def global_property(name: str) -> tuple[bool, Any]:
    """What a name no scope defines reads from ``Object.prototype`` (the renderer's variables are
    a plain object): ``(True, value)`` for one of its properties, called with ``this`` undefined
    when it is a method; ``(False, UNDEFINED)`` otherwise. Raises :class:`JsThrow`."""
    if name == "__proto__":
        return True, {}
    method = _OBJECT_METHODS.get(name)
    if method is None:
        return False, UNDEFINED
    return True, method(UNDEFINED)


def call_value(value: Any, *args: Any) -> Any:
    """Call a Python callable standing for a JavaScript function; its exception is a JS throw."""
    try:
        return value(*args)
    except JsThrow:
        raise
    except Exception as exc:  # a function value failing is a JavaScript exception, not ours
        raise JsThrow(f"{type(exc).__name__}: {exc}") from None
