"""inspector.jsjson against JavaScript: every expected value below was printed by Node 20.

(Number::toString / JSON.stringify of parsed doubles, own-property key order, string escapes,
UTF-16 slicing and lengths, String() of arrays and objects, Math.round of halves.)
"""

from __future__ import annotations

import math

import pytest

from inspector.jsjson import (
    JS_SPACE,
    UNDEFINED,
    js_code_units,
    js_is_blank,
    js_to_number,
    js_trim,
    common_prefix_utf16,
    js_number,
    js_parse,
    js_quote,
    js_round,
    js_slice,
    js_stringify,
    js_to_string,
    js_truthy,
    replace_lone_surrogates,
    utf16_len,
    utf16_to_index,
)

# (JSON number text, String(JSON.parse(text)) in Node; JSON.stringify gave the same text).
# The first forty are random doubles (random bit patterns, scaled uniforms, rounded decimals).
NUMBERS = [
    ('92865660826.47398', '92865660826.47398'),
    ('-1.8120831488631134e+270', '-1.8120831488631134e+270'),
    ('3502.382', '3502.382'),
    ('-4.731492193120388e+159', '-4.731492193120388e+159'),
    ('6.863654654419671e+69', '6.863654654419671e+69'),
    ('7.025891972853916e+17', '702589197285391600'),
    ('6.689360439949185e-12', '6.689360439949185e-12'),
    ('-3.4535772892322153e-85', '-3.4535772892322153e-85'),
    ('-5289808.898124078', '-5289808.898124078'),
    ('-2338.94', '-2338.94'),
    ('-5.2004240510801874e+137', '-5.2004240510801874e+137'),
    ('9.45159121196208e-19', '9.45159121196208e-19'),
    ('-8.769024364794594e-20', '-8.769024364794594e-20'),
    ('-4.5385548925538965e+117', '-4.5385548925538965e+117'),
    ('-1.8495067512663408e+17', '-184950675126634080'),
    ('-1047.22103315', '-1047.22103315'),
    ('-2.019794693727641e-165', '-2.019794693727641e-165'),
    ('4.309723400263379e-12', '4.309723400263379e-12'),
    ('2238.352', '2238.352'),
    ('4292.27154', '4292.27154'),
    ('8210.2', '8210.2'),
    ('6455.596071', '6455.596071'),
    ('-1.3116748956228093e+111', '-1.3116748956228093e+111'),
    ('-7.338114713757601e+34', '-7.338114713757601e+34'),
    ('2.645892543342162e+111', '2.645892543342162e+111'),
    ('9.949769663844688', '9.949769663844688'),
    ('-4.767307951198933e-277', '-4.767307951198933e-277'),
    ('1.8429084164910377e+113', '1.8429084164910377e+113'),
    ('-1584053.6061336058', '-1584053.6061336058'),
    ('-4.429278601912335e+48', '-4.429278601912335e+48'),
    ('-1.35946938567108e-147', '-1.35946938567108e-147'),
    ('2.089890441816064e-21', '2.089890441816064e-21'),
    ('-6190.195', '-6190.195'),
    ('3.2034458606492295e+139', '3.2034458606492295e+139'),
    ('6632.73013221', '6632.73013221'),
    ('-1.1311370903274628e+147', '-1.1311370903274628e+147'),
    ('8.799886683277409e+70', '8.799886683277409e+70'),
    ('-1.4697799079674718e+78', '-1.4697799079674718e+78'),
    ('6.523764149410231e+16', '65237641494102310'),
    ('-7.99076552733244e-119', '-7.99076552733244e-119'),
    ('1e+21', '1e+21'),
    ('1e+20', '100000000000000000000'),
    ('9.999999999999999e+20', '999999999999999900000'),
    ('1e-06', '0.000001'),
    ('1e-07', '1e-7'),
    ('1.5e-07', '1.5e-7'),
    ('0.30000000000000004', '0.30000000000000004'),
    ('5e-324', '5e-324'),
    ('1.7976931348623157e+308', '1.7976931348623157e+308'),
    ('9007199254740993', '9007199254740992'),
    ('9007199254740992.0', '9007199254740992'),
    ('-0.0', '0'),
    ('1.23e-18', '1.23e-18'),
    ('0.1', '0.1'),
    ('100.0', '100'),
    ('1e+301', '1e+301'),
    ('12345678901234567890', '12345678901234567000'),
    ('-1e-07', '-1e-7'),
    ('4.35', '4.35'),
    ('1.234e-06', '0.000001234'),
]


@pytest.mark.parametrize(("text", "expected"), NUMBERS)
def test_number_formatting_matches_node(text, expected):
    value = js_parse(text)
    assert js_number(value) == expected
    assert js_stringify(value) == expected
    assert js_stringify([value]) == "[" + expected + "]"
    assert js_stringify({"k": value}, indent=2) == '{\n  "k": ' + expected + "\n}"


def test_non_finite_numbers_stringify_as_null():
    # JSON.parse("1e400") is Infinity; JSON.stringify(Infinity) is "null", String() "Infinity".
    assert js_stringify(js_parse("[1e400,-1e400]")) == "[null,null]"
    assert js_number(js_parse("1e400")) == "Infinity"
    # An integer literal past Python's int-parsing limit still reads as JavaScript's Infinity.
    assert js_stringify(js_parse("[" + "9" * 5000 + "]")) == "[null]"
    assert js_to_string(js_parse("-" + "9" * 5000)) == "-Infinity"


# (x, String(Math.round(x)) in Node): halves go towards +Infinity, -0 prints as "0".
ROUNDS = [
    (-2.5, '-2'),
    (-1.5, '-1'),
    (-0.5, '0'),
    (0.5, '1'),
    (1.5, '2'),
    (2.5, '3'),
    (3.5, '4'),
    (0.49999999999999994, '0'),
    (4503599627370495.5, '4503599627370496'),
    (2.4999999999999996, '2'),
]


@pytest.mark.parametrize(("x", "expected"), ROUNDS)
def test_math_round_matches_node(x, expected):
    assert js_number(js_round(x)) == expected


def test_key_order_matches_node():
    text = ('{"b":1,"2":0,"10":1,"4294967294":2,"4294967295":3,"01":4,"-1":5,"a":6,"a":7,'
            '"__proto__":8,"1.5":9,"0":10}')
    assert js_stringify(js_parse(text)) == '{"0":10,"2":0,"10":1,"4294967294":2,"b":1,"4294967295":3,"01":4,"-1":5,"a":7,"__proto__":8,"1.5":9}'


def test_nested_indented_output_matches_node():
    text = '{"z":{"9":[1.0,{"1":true,"x":null}],"a":"\\u2028\\u0000\\u001f\\u007f\\"\\\\/"},"3":[]}'
    assert js_stringify(js_parse(text), indent=2) == '{\n  "3": [],\n  "z": {\n    "9": [\n      1,\n      {\n        "1": true,\n        "x": null\n      }\n    ],\n    "a": "\u2028\\u0000\\u001f\x7f\\"\\\\/"\n  }\n}'


def test_escapes_match_node():
    text = "\b\f\n\r\t\u0000\u0001\u001f\u007f\u2028\u2029\"\\/\ud800x\udfff\U0001F600"
    expected = '"\\b\\f\\n\\r\\t\\u0000\\u0001\\u001f\x7f\u2028\u2029\\"\\\\/\\ud800x\\udfff😀"'
    assert js_quote(text) == expected
    assert js_stringify(text) == expected
    assert js_stringify([text]) == "[" + expected + "]"


# (s, start, end, JSON.stringify(s.slice(max(0, start), end)), s.length) in Node.
SLICES = [
    ('ab😀cd', 0, 3, '"ab\\ud83d"', 6),
    ('ab😀cd', 3, 10, '"\\ude00cd"', 6),
    ('😀😀', 1, 3, '"\\ude00\\ud83d"', 4),
    ('x😀', -5, 2, '"x\\ud83d"', 3),
    ('中文😀', 2, 4, '"😀"', 4),
]


@pytest.mark.parametrize(("text", "start", "end", "quoted", "length"), SLICES)
def test_utf16_slicing_matches_node(text, start, end, quoted, length):
    assert js_quote(js_slice(text, max(0, start), end)) == quoted
    assert utf16_len(text) == length


def test_string_conversion_matches_node():
    values = [[1, [2, None], "x"], [], [None], [[]], {}, True, None, -0.0, 1e21, 1.0, [1.5, [True, False]]]
    assert [js_to_string(v) for v in values] == ['1,2,,x', '', '', '', '[object Object]', 'true', 'null', '0', '1e+21', '1', '1.5,true,false']
    assert js_to_string(UNDEFINED) == "undefined"


def test_common_prefix_counts_utf16_units():
    # Node: the charCodeAt loop of comparePrefix.
    assert common_prefix_utf16("x\U0001F600", "x\U0001F601") == 2  # shared high surrogate
    assert common_prefix_utf16("ab\ud83d!", "ab\U0001F600!") == 3  # lone high vs the pair
    assert common_prefix_utf16("ab\U0001F600", "ab\ud83d") == 3
    assert common_prefix_utf16("\U0001F600", "\U0001F640") == 1
    assert common_prefix_utf16("\U0001F600", "\U0001F000") == 0  # different high surrogates
    assert common_prefix_utf16("\U0001F600a", "\U0001F600b") == 2
    assert common_prefix_utf16("中文", "中文字") == 2
    assert common_prefix_utf16("", "a") == 0


def test_utf16_to_index_and_lone_surrogates():
    assert utf16_to_index("a\U0001F600b", 1) == 1
    assert utf16_to_index("a\U0001F600b", 2) == 1  # mid-pair: the pair is not whole yet
    assert utf16_to_index("a\U0001F600b", 3) == 2
    assert replace_lone_surrogates("a\ud800b\U0001F600\udfff") == "a\ufffdb\U0001F600\ufffd"


def test_truthiness():
    assert [js_truthy(v) for v in ("", 0, 0.0, -0.0, False, None, UNDEFINED)] == [False] * 7
    assert [js_truthy(v) for v in ("0", 1, -1.5, True, [], {}, " ")] == [True] * 7


def test_parse_keeps_escaped_pairs_whole_and_lone_surrogates_lone():
    assert js_parse('"\\ud83d\\ude00"') == "\U0001F600"
    assert js_parse('"\\ud83d"') == "\ud83d"
    assert js_parse(b'{"a":"\\udc00x"}') == {"a": "\udc00x"}
    with pytest.raises(ValueError):
        js_parse("NaN")
    with pytest.raises(ValueError):
        js_parse("[Infinity]")


# --- String.prototype.trim, \s, Number(), code-unit order ---------------------------------------
# Expected values from the ECMAScript definitions (WhiteSpace, LineTerminator, StringToNumber).

def test_trim_uses_javascripts_whitespace() -> None:
    assert js_trim("\ufeff\u3000 标题 \u2028") == "标题"
    assert js_trim("\x1c a \x85") == "\x1c a \x85"  # Python's strip() would take these
    assert js_is_blank(" \ufeff ") and js_is_blank(None) and not js_is_blank(" x ")
    import re

    assert re.fullmatch(f"[{JS_SPACE}]+", "\t\v\u00a0\u200a\ufeff") and not re.match(f"[{JS_SPACE}]", "\x1f")


@pytest.mark.parametrize(("value", "expected"), [
    ("", 0.0), ("  12 ", 12.0), ("0x10", 16.0), ("0b101", 5.0), ("0o17", 15.0), ("-0x10", math.nan),
    ("1_000", math.nan), ("Infinity", math.inf), ("-Infinity", -math.inf), ("infinity", math.nan),
    ("5.", 5.0), (".", math.nan), (True, 1.0), (None, 0.0), ([7], 7.0), ([1, 2], math.nan), ({}, math.nan),
    (10**400, math.inf), (-(10**400), -math.inf),
])
def test_number_conversion_is_javascripts(value: object, expected: float) -> None:
    got = js_to_number(value)
    assert (math.isnan(got) and math.isnan(expected)) or got == expected


def test_code_unit_order_puts_astral_characters_before_the_private_use_area() -> None:
    # U+1F600 is D83D DE00 in UTF-16, which sorts before U+E000 in JavaScript (not in Python).
    assert sorted(["\ue000", "😀"], key=js_code_units) == ["😀", "\ue000"]
    assert sorted(["\ue000", "😀"]) == ["\ue000", "😀"]


# --- Covel's rules at the edges: bytes as Node decodes them, any depth, Uint8Array ids ---------

import json as _json
import sys as _sys

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.json_deep import dumps_iterative, json_key, json_text, parse_iterative
from inspector.jsjson import JsBytes, js_column, node_text


def test_node_text_replaces_invalid_utf8_as_v8_does():
    # Printed by Node 20 (better-sqlite3 and node:sqlite both decode TEXT with V8's decoder).
    raw = b"a\xffb\xed\xa0\x80c\xf0\x9f\x98d\x00e"
    assert node_text(raw) == "a\ufffdb\ufffd\ufffd\ufffdc\ufffdd\x00e"
    assert node_text(b"\xc0\xaf\xf4\x90\x80\x80\x80") == "\ufffd" * 7
    assert js_parse(b'{"k":"x\xff\xfey"}') == {"k": "x\ufffd\ufffdy"}
    # An encoded surrogate is invalid UTF-8 for V8 too: three U+FFFD, not a lone surrogate.
    assert js_parse(b'["\xed\xa0\x80"]') == ["\ufffd\ufffd\ufffd"]
    with pytest.raises(ValueError):
        js_parse(b'{"k":1}\xff')  # outside a string it is no JSON, for JSON.parse too


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.booleans(), st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", " :\t")]))
def test_iterative_parser_gives_what_the_stdlib_gives(value, ascii_only, separators):
    text = _json.dumps(value, ensure_ascii=ascii_only, separators=separators)
    ours = parse_iterative(text)
    # The same values in the same key order.
    assert _json.dumps(ours) == _json.dumps(_json.loads(text))


@pytest.mark.parametrize("text", [
    '{"a":1,"b":2,"a":3}', '{"__proto__":{"x":1},"constructor":2}', '[12345678901234567890123]',
    '"\\ud800\\udc00\\udbff"', '[1e400,-1e400,-0,5e-324]', '{"k":"\\u0000\\n\\"\\\\"}',
])
def test_iterative_parser_follows_json_parse(text):
    # The same JavaScript values (an integer past 2**53 is a double either way).
    assert js_stringify(parse_iterative(text)) == js_stringify(js_parse(text))
    assert list(parse_iterative('{"a":1,"b":2,"a":3}').items()) == [("a", 3), ("b", 2)]


@pytest.mark.parametrize("text", ["", " ", "[1,]", "{\"a\":1,}", "[1 2]", "NaN", "Infinity", "01", "[1]x",
                                  "\"\x01\"", "{'a':1}", "tru", "[", "{\"a\""])
def test_iterative_parser_refuses_what_json_parse_refuses(text):
    with pytest.raises(ValueError):
        parse_iterative(text)


def _without_recursion(fn, *args):
    """Run ``fn`` with hardly any Python stack left: it must not recurse."""
    limit = _sys.getrecursionlimit()
    depth = 0
    frame = _sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    _sys.setrecursionlimit(depth + 40)
    try:
        return fn(*args)
    finally:
        _sys.setrecursionlimit(limit)


@pytest.mark.parametrize("kind", ["array", "object"])
def test_ten_thousand_levels_parse_and_stringify_without_recursion(kind):
    depth = 10_000
    text = ("[" * depth + "1" + "]" * depth) if kind == "array" else ('{"k":' * depth + "1" + "}" * depth)
    value = _without_recursion(js_parse, text.encode())
    assert _without_recursion(parse_iterative, text) is not None
    assert _without_recursion(js_stringify, value) == text
    pretty = _without_recursion(js_stringify, value, 2)
    assert pretty.count("\n") == 2 * depth and pretty.endswith("\n" + "]" if kind == "array" else "\n}")
    assert _without_recursion(dumps_iterative, value) == text
    assert json_key(value) == text.encode() and json_text(value) == text


def test_deep_json_stringify_matches_node_at_the_depths_covel_reads():
    # JSON.stringify in Node 20 writes 1,500 levels (it throws "Maximum call stack size exceeded"
    # at about 5,000): the same text comes back.
    for depth in (990, 1023, 1024, 1500):
        text = "[" * depth + '{"a":[1.0,1e21]}' + "]" * depth
        assert js_stringify(js_parse(text)) == "[" * depth + '{"a":[1,1e+21]}' + "]" * depth


def test_js_bytes_is_a_uint8array():
    blob = js_column(b"\x01\x02\xff")
    assert isinstance(blob, JsBytes) and js_column(b"\x01\x02\xff") != blob and blob == blob
    assert js_to_string(blob) == "1,2,255" and js_to_string(JsBytes(b"")) == ""
    assert js_stringify({"s": blob}) == '{"s":{"0":1,"1":2,"2":255}}'
    assert js_stringify([JsBytes(b"")], 2) == "[\n  {}\n]"
    assert js_stringify(blob, 2) == '{\n  "0": 1,\n  "1": 2,\n  "2": 255\n}'
    assert js_truthy(JsBytes(b"")) is True
    assert js_column("s") == "s" and js_column(7) == 7 and js_column(None) is None
    # Raw bytes (a BLOB that reached a report unconverted) are written the same way, never refused.
    assert js_stringify({"t": b"t"}) == '{"t":{"0":116}}' and js_to_string(b"\x01\x02") == "1,2"


def test_string_of_nested_arrays_flattens_without_recursion():
    assert js_to_string([[1, [2, None]], [], "x", [[]]]) == "1,2,,,x,"
    deep = [1]
    for _ in range(5000):
        deep = [deep]
    assert _without_recursion(js_to_string, deep) == "1"


# --- the writers of parsed values: one rule each (json_deep) ---------------------------------------


@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_the_sorted_writers_agree_where_orjson_writes_the_value(value):
    # json_key (a comparison key) and sorted_json_text (shown) are one rule where orjson takes
    # the value; json_text keeps the value's own key order.
    import orjson
    from hypothesis import assume

    from inspector.json_deep import sorted_json_text

    try:
        orjson.dumps(value)
    except TypeError:
        assume(False)  # integers past 64 bits: each writer's own stand-in (the next test)
    assert sorted_json_text(value).encode() == json_key(value)
    assert _json.loads(json_text(value)) == _json.loads(sorted_json_text(value))
    if isinstance(value, dict):
        assert list(_json.loads(json_text(value))) == list(value)


def test_sorted_json_text_shows_what_orjson_refuses():
    from inspector.json_deep import sorted_json_text

    big = {"b": 2**70, "a": [1]}
    # Integers past 64 bits: the standard library's JSON, keys sorted.
    assert sorted_json_text(big) == '{"a": [1], "b": 1180591620717411303424}'
    depth = 10_000
    deep: list = [1]
    for _ in range(depth - 1):
        deep = [deep]
    assert sorted_json_text(deep) == "[" * depth + "1" + "]" * depth


# --- js_stringify's fast path (orjson) against the exact writer ------------------------------------

_ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12)
_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | _ANY_TEXT
    | st.sampled_from(["1.5", "v2.0", "1e5", "12", "x0", ""]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(_ANY_TEXT | st.sampled_from(["0", "1", "01", "4294967294", "4294967295", "-1", "a1"]),
                      children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=500, deadline=None)
@given(_ANY_JSON, st.sampled_from([None, 2]))
def test_the_fast_writer_gives_the_exact_writers_text_wherever_it_answers(value, indent):
    from inspector.jsjson import _stringify_exact, _stringify_orjson

    fast = _stringify_orjson(value, indent)
    exact = _stringify_exact(value, " " * indent if indent else "")
    assert fast is None or fast == exact
    assert js_stringify(value, indent) == exact


def test_the_fast_writer_answers_for_the_values_covel_stores():
    from inspector.jsjson import _stringify_orjson

    tool = {"type": "function", "function": {"name": "roll_dice", "description": "掷骰子。Roll two dice.\n",
                                             "parameters": {"type": "object", "required": ["sides"],
                                                            "properties": {"sides": {"type": "integer",
                                                                                     "minimum": 2}}}}}
    message = {"role": "user", "content": [{"type": "text", "text": "灯\u2028\x00\x7f\"\\/ 😀"}]}
    for value in (tool, message, "text", 12, None, [], {}):
        for indent in (None, 2):
            assert _stringify_orjson(value, indent) == js_stringify(value, indent)
            assert _stringify_orjson(value, indent) is not None
    # Each thing JSON.stringify writes otherwise is left to the exact writer.
    for value in ([1.0], [-0.0], [1e16], {"b": 1, "7": 2}, [2**60], ["\ud800"], [UNDEFINED], {"x": {"y": 0.5}}):
        assert _stringify_orjson(value, None) is None
    assert js_stringify([1.0, -0.0, 1e16, {"b": 1, "7": 2}, 2**60, "\ud800", UNDEFINED]) == \
        '[1,0,10000000000000000,{"7":2,"b":1},1152921504606847000,"\\ud800",null]'
    # A float-like text inside a string is a false alarm: the exact writer, the same text.
    assert _stringify_orjson({"d": "Roll 2d6. v1.5"}, None) is None
    assert js_stringify({"d": "Roll 2d6. v1.5"}) == '{"d":"Roll 2d6. v1.5"}'
