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
