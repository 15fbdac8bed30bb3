// Golden cases for the `chatluna-renderer` template dialect, recorded from the published renderer.
//
// The expected outputs in renderer_cases.json are what `@chatluna/shared-prompt-renderer` 1.0.5
// (AGPL-3.0, the renderer koishi-plugin-chatluna 1.3.36 renders every preset with) gives for the
// inputs below. The package itself never enters this repository: only its outputs are recorded,
// and the tests never need Node. To (re)record:
//
//     mkdir -p /tmp/rend && cd /tmp/rend && npm install @chatluna/shared-prompt-renderer@1.0.5
//     cd /tmp/rend && node /path/to/repo/tests/inspector/zones/make_renderer_cases.mjs \
//         /path/to/repo/tests/inspector/zones/renderer_cases.json
//
// That writes renderer_cases.json and, beside it, renderer_cases_more.json (the extra cases at
// the end of this script: Object.prototype names, built-in string/array/number methods reached by
// property, number formatting; give a second path to write it elsewhere).
//
// The package is looked up from the current directory (so run it from the folder where it is
// installed), or from NODE_PATH (`NODE_PATH=/tmp/rend/node_modules node make_renderer_cases.mjs OUT`).
// The script refuses any version but 1.0.5.
//
// What each JSON file holds (`JSON.stringify(…, null, 1)`, cases in the order written here):
//
//   {"package", "version", "node", "recorded" (UTC date), "conventions": {…}, "function_definitions":
//    {name: one-line description}, "cases": [{"name", "source", "variables", "functions": [names],
//    "text", "error", "variables_read", "warnings"}]}
//
// * `variables` is the object passed as render()'s second argument. JavaScript values JSON cannot
//   carry are tagged: {"$js": "undefined"}, {"$js": "NaN"}, {"$js": "Infinity"},
//   {"$js": "-Infinity"}, {"$js": "-0"}. No other object in the inputs has a "$js" key.
// * `functions` names the function_definitions registered (registerFunctionProvider) for that
//   case, each a fresh instance (the stateful `more` starts over in every case). Every case
//   renders a fresh deep copy of its variables (a method such as `a.push` could change them).
// * `text` is the renderer's `text`; `variables_read` its `variables` (order as returned).
// * `error` is null, or the message render() rejected with (then `text` and `variables_read` are
//   null): the renderer throws for a block header that does not parse and for a block condition /
//   iterable / count whose evaluation throws (an unknown function, a function that throws).
// * `warnings` lists what console.warn printed during that render, one string per call: its
//   arguments joined by one space, a string as is, an Error as String(error) (no stack).
//
// Not recorded because the renderer never returns: `{repeat n}` with n = Infinity (no cap on
// repeat), nested `{while}` loops both at the 10,000 cap (10^8 iterations).

import { createRequire } from 'node:module'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const PACKAGE = '@chatluna/shared-prompt-renderer'
const VERSION = '1.0.5'

export async function loadRenderer() {
    const require = createRequire(join(process.cwd(), 'noop.js'))
    let manifest
    try {
        manifest = require.resolve(`${PACKAGE}/package.json`)
    } catch (e) {
        throw new Error(
            `${PACKAGE} is not installed here: run \`npm install ${PACKAGE}@${VERSION}\` in this folder ` +
                'or set NODE_PATH to the node_modules folder holding it'
        )
    }
    const version = JSON.parse(readFileSync(manifest, 'utf8')).version
    if (version !== VERSION) {
        throw new Error(`${PACKAGE} ${version} found at ${manifest}; these cases are recorded from ${VERSION}`)
    }
    const module = await import(pathToFileURL(join(dirname(manifest), 'lib', 'index.mjs')).href)
    return module.ChatLunaPromptRenderer
}

// ---------------------------------------------------------------------------------------------
// Registered functions: small, deterministic, easy to write again in Python for the tests.

const USER = () => ({ name: 'Alice', age: 30, tags: ['a', 'b'], profile: { city: 'Beijing' } })

export const FUNCTION_DEFINITIONS = {
    upper: 'args[0] with ASCII a-z made upper case (other characters unchanged); "" when there is no argument',
    join: 'the arguments joined with "-" (a string)',
    add: 'Number(args[0]) + Number(args[1]) with JavaScript Number() (a number; NaN when either is not numeric)',
    echo_args: 'JSON.stringify(args): the evaluated arguments as the renderer passes them (always strings)',
    count_args: 'args.length (a number)',
    get_user: 'ignores its arguments; returns the object {"name": "Alice", "age": 30, "tags": ["a", "b"], "profile": {"city": "Beijing"}} (a new one each call)',
    list3: 'ignores its arguments; returns the array [1, 2, 3]',
    nothing: 'ignores its arguments; returns undefined',
    yes: 'ignores its arguments; returns true',
    zero: 'ignores its arguments; returns the number 0',
    fail: 'throws Error("boom")',
    more: 'stateful: returns true on its first 3 calls within one render, false on every later call',
    lookup: 'returns variables[args[0]] (the variables object the renderer passes, which inside a for body also holds the loop variable); undefined when absent',
    name: 'ignores its arguments; returns "from-function" (shows that a variable of the same name wins)'
}

// The two functions of the extra cases (renderer_cases_more.json).
export const EXTRA_FUNCTION_DEFINITIONS = {
    echo: 'the arguments joined with "|" (a string)',
    k: 'ignores its arguments; returns "K"'
}

function makeFunctions(names) {
    let moreCalls = 0
    const all = {
        upper: (args) => (args.length === 0 ? '' : String(args[0]).replace(/[a-z]/g, (c) => c.toUpperCase())),
        join: (args) => args.join('-'),
        add: (args) => Number(args[0]) + Number(args[1]),
        echo_args: (args) => JSON.stringify(args),
        count_args: (args) => args.length,
        get_user: () => USER(),
        list3: () => [1, 2, 3],
        nothing: () => undefined,
        yes: () => true,
        zero: () => 0,
        fail: () => {
            throw new Error('boom')
        },
        more: () => {
            moreCalls += 1
            return moreCalls <= 3
        },
        lookup: (args, variables) => variables[args[0]],
        name: () => 'from-function',
        echo: (args) => args.join('|'),
        k: () => 'K'
    }
    const chosen = {}
    for (const n of names) {
        if (!(n in all)) throw new Error(`no function definition named ${n}`)
        chosen[n] = all[n]
    }
    return chosen
}

// ---------------------------------------------------------------------------------------------
// Encoding of inputs: JSON plus the "$js" tags.

export function encodeValue(value) {
    if (value === undefined) return { $js: 'undefined' }
    if (typeof value === 'number') {
        if (Number.isNaN(value)) return { $js: 'NaN' }
        if (value === Infinity) return { $js: 'Infinity' }
        if (value === -Infinity) return { $js: '-Infinity' }
        if (Object.is(value, -0)) return { $js: '-0' }
        return value
    }
    if (Array.isArray(value)) return value.map(encodeValue)
    if (value !== null && typeof value === 'object') {
        const out = {}
        for (const [k, v] of Object.entries(value)) out[k] = encodeValue(v)
        return out
    }
    return value
}

function formatWarning(args) {
    return args.map((a) => (a instanceof Error ? String(a) : typeof a === 'string' ? a : JSON.stringify(a))).join(' ')
}

// Render one case with a fresh renderer, capturing console.warn. Returns the recorded fields.
export async function renderCase(Renderer, source, variables, functions) {
    const renderer = new Renderer()
    for (const [n, f] of Object.entries(functions)) renderer.registerFunctionProvider(n, f)
    const warnings = []
    const original = console.warn
    console.warn = (...args) => warnings.push(formatWarning(args))
    try {
        const result = await renderer.render(source, structuredClone(variables))
        return { text: result.text, error: null, variables_read: result.variables, warnings }
    } catch (e) {
        return { text: null, error: e instanceof Error ? e.message : String(e), variables_read: null, warnings }
    } finally {
        console.warn = original
    }
}

// ---------------------------------------------------------------------------------------------
// The cases. c(name, source, variables = {}, functions = [])

const CASES = []
function c(name, source, variables = {}, functions = []) {
    CASES.push({ name, source, variables, functions })
}

const ITEMS = ['apple', 'banana', 'cherry']
const ALL_FUNCS = Object.keys(FUNCTION_DEFINITIONS).filter((n) => n !== 'name' && n !== 'more')

// -- interpolation
c('interp_plain', 'Hello {name}!', { name: 'Alice' })
c('interp_unknown_variable', 'Hello {who}!', {})
c('interp_spaces_inside_tag', 'Hello {  name  }!', { name: 'Bob' })
c('interp_newline_inside_tag', 'a{\nname\n}b', { name: 'X' })
c('interp_number_values', '{i} {f} {neg} {z}', { i: 42, f: 3.5, neg: -7, z: 0 })
c('interp_booleans', '{t}/{f}', { t: true, f: false })
c('interp_null', '[{n}]', { n: null })
c('interp_undefined_value', '[{u}]', { u: undefined })
c('interp_nan_infinity', '{a} {b} {c}', { a: NaN, b: Infinity, c: -Infinity })
c('interp_negative_zero_variable', '[{z}]', { z: -0 })
c('interp_array', '[{a}]', { a: [1, 'two', null, undefined, [3, [4]], true] })
c('interp_empty_array', '[{a}]', { a: [] })
c('interp_object', '[{o}]', { o: { k: 1 } })
c('interp_array_of_objects', '[{a}]', { a: [{ k: 1 }, 2] })
c('interp_array_numbers', '[{a}]', { a: [0.1, -0, 1e21, 1e-7, NaN] })
c('interp_value_not_rerendered', '{s}', { s: '{name} and {{x}}', name: 'N' })
c('interp_dollar_underscore_names', '{$a}{_b}{c9}', { $a: 'A', _b: 'B', c9: 'C' })
c('interp_cjk_identifier_kept', '{名字}', { 名字: '小明' })
c('interp_empty_string_value', '[{s}]', { s: '' })
c('interp_adjacent_tags', '{a}{b}{a}', { a: '1', b: '2' })

// -- member access and indexing
c('member_nested', '{user.profile.city}', { user: { profile: { city: 'Beijing' } } })
c('member_missing', '[{user.nope}] [{user.nope.deeper}]', { user: { name: 'A' } })
c('member_of_unknown', '[{nobody.name}]', {})
c('member_of_null', '[{n.x}]', { n: null })
c('member_null_value', '[{o.n}] [{o.u}] [{o.z}] [{o.f}]', { o: { n: null, u: undefined, z: 0, f: false } })
c('member_length_string_array', '{s.length} {a.length} {e.length}', { s: 'héllo', a: ITEMS, e: '😀' })
c('member_on_number_boolean', '[{n.x}] [{b.x}]', { n: 5, b: true })
c('member_number_after_dot_kept', '{a.0}', { a: ['x'] })
c('member_of_literal', '{"abc".length}', {})
c('index_array', '{items[0]} {items[2]}', { items: ITEMS })
c('index_out_of_range', '[{items[3]}] [{items[100]}]', { items: ITEMS })
c('index_negative', '[{items[-1]}]', { items: ITEMS })
c('index_string_key_on_array', '{items["1"]} {items["length"]}', { items: ITEMS })
c('index_float', '[{items[1.5]}] [{items[1.0]}]', { items: ITEMS })
c('index_string', '{s[0]}{s[4]}[{s[5]}]', { s: 'héllo' })
c('index_astral_string', '[{s[0]}] [{s[1]}] [{s[2]}]', { s: '😀a' })
c('index_object_key', '{o["key"]} {o[k]}', { o: { key: 'v', other: 'w' }, k: 'other' })
c('index_expression', '{items[1 + 1]} {items[i - 1]}', { items: ITEMS, i: 1 })
c('index_nested', '{m[1][0]} {m[0][1]}', { m: [[1, 2], [3, 4]] })
c('index_of_null_and_unknown', '[{n[0]}] [{nobody[0]}]', { n: null })
c('index_null_key', '{o[null]} {o[true]}', { o: { null: 'N', true: 'T' } })
c('index_unclosed_kept', '{items[0}', { items: ITEMS })

// -- calls
c('call_registered', 'Hello {upper(name)}!', { name: 'world' }, ['upper'])
c('call_string_literal_arg', '{upper("abc-é")}', {}, ['upper'])
c('call_no_args', '[{upper()}] [{count_args()}]', {}, ['upper', 'count_args'])
c('call_args_stringified', '{echo_args(1, "a", null, true, x, items, 1.5, -0, o, missing)}', { x: 'X', items: [1, [2, 3]], o: { a: 1 } }, ['echo_args'])
c('call_args_undefined_and_object_results', '{echo_args(nothing(), get_user(), list3(), yes())}', {}, ['echo_args', 'nothing', 'get_user', 'list3', 'yes'])
c('call_count_args', '{count_args(1, 2, 3)} {count_args("")}', {}, ['count_args'])
c('call_nested', '{upper(join("a", join("b", "c")))}', {}, ['upper', 'join'])
c('call_expression_args', '{add(1 + 2, n * 2)} {add("1", "2")} {add("x", 1)}', { n: 5 }, ['add'])
c('call_unknown_function', '[{nosuch()}] [{nosuch(name)}]', { name: 'A' })
c('call_unknown_in_sum', '[{name + nosuch()}]', { name: 'A' })
c('bare_name_calls_function', '[{upper}] [{count_args}] [{list3}]', {}, ['upper', 'count_args', 'list3'])
c('bare_name_variable_wins', '{name}', { name: 'variable' }, ['name'])
c('bare_name_function_when_undefined', '{name}', { name: undefined }, ['name'])
c('bare_name_function_when_null', '[{name}]', { name: null }, ['name'])
c('call_result_member', '{get_user().name} {get_user().profile.city} {get_user().tags[1]}', {}, ['get_user'])
c('call_result_object', '{get_user()}', {}, ['get_user'])
c('bare_name_result_member', '{get_user.name} {list3[2]}', {}, ['get_user', 'list3'])
c('call_result_array_index', '{list3()[0]} {list3()} {list3().length}', {}, ['list3'])
c('call_parenthesised_callee', '{(upper)("a")}', {}, ['upper'])
c('call_on_non_function', '[{get_user().name()}] [{5()}] [{s()}]', { s: 'x' }, ['get_user'])
c('call_returns_undefined_null_bool_zero', '[{nothing()}] [{yes()}] [{zero()}]', {}, ['nothing', 'yes', 'zero'])
c('call_function_throws', '[{fail()}] [{upper(fail())}]', {}, ['fail', 'upper'])
c('bare_name_function_throws_warns', '[{fail}]', {}, ['fail'])
c('call_function_reads_variables', '{lookup("name")} {for x in items}{lookup("x")}{/for}', { name: 'N', items: [1, 2] }, ['lookup'])
c('call_old_colon_syntax_kept', '{pick:a::b}', {}, ['join'])
c('call_space_separated_kept', '{upper a "b c" 3}', { a: 'x' }, ['upper'])
c('call_braces_in_args_kept', '{upper({name})}', { name: 'alice' }, ['upper'])
c('call_trailing_comma_kept', '{join("a",)}', {}, ['join'])
c('call_unclosed_kept', '{join("a"}', {}, ['join'])
c('call_all_functions_listed', '{upper("x")}{count_args()}', {}, ALL_FUNCS)

// -- arithmetic
c('add_numbers', '{1 + 2} {a + b}', { a: 2, b: 3 })
c('add_string_number_mix', '{"a" + 1} {1 + "2"} {"a" + 1 + 2} {1 + 2 + "a"}', {})
c('add_with_null_bool_undefined', '{null + 1} {true + 1} {"" + null} {"x" + missing} {missing + 1} {u + 1}', { u: undefined })
c('add_arrays_objects', '{a + "x"} {o + ""} {a + a}', { a: [1, 2], o: { k: 1 } })
c('subtract_multiply_divide', '{10 - 4} {"3" - 1} {"3" * "4"} {7 / 2} {2 * 0.5}', {})
c('modulo', '{7 % 3} {-7 % 3} {5.5 % 2} {7 % -3}', {})
c('division_by_zero', '{1 / 0} {-1 / 0} {0 / 0} {5 % 0}', {})
c('negative_zero', '{-0} {0 * -1} {1 / -0} {-0 + 0}', {})
c('float_rounding', '{0.1 + 0.2} {1 / 3} {2 / 3} {100 / 3} {0.1 * 3}', {})
c('large_numbers_from_arithmetic', '{1000000000000 * 1000000000} {100000000000 * 1000000000} {1 / 10000000} {1 / 1000000}', {})
c('large_numbers_from_variables', '{a} {b} {c} {d} {e} {f}', { a: 1e21, b: 1e-7, c: 123456789012345680000, d: 1.5e300 * 10, e: 5e-324, f: 0.000001234 })
c('integers_beyond_2_53', '{9007199254740993} {n} {n + 1} {9007199254740992 + 1}', { n: 2 ** 53 })
c('exponent_literal_kept', '{1e21} {2e-3}', {})
c('arithmetic_non_numbers', '{"a" - 1} {o * 2} {a * 2} {null * 5} {true * 3}', { o: {}, a: [4] })
c('precedence', '{1 + 2 * 3} {(1 + 2) * 3} {10 - 2 - 3} {2 * 3 % 4} {-2 * -3}', {})
c('unsupported_operators_kept', '{a ** 2} {a = 1} {a & b} {a ?? b} {a === b} {typeof a} {a, b}', { a: 2, b: 3 })

// -- unary
c('unary_minus_plus', '{-a} {+s} {-"3"} {+"  12  "} {+"0x1f"} {+""} {+"abc"} {- -1} {--1}', { a: 5, s: '7' })
c('unary_plus_values', '{+true} {+null} {+missing} {+a} {+b} {+o}', { a: [5], b: [1, 2], o: {} })
c('unary_not', '{!a} {!""} {!"0"} {!0} {!!x} {!e} {!o} {!null} {!missing}', { a: 1, x: 'y', e: [], o: {} })

// -- comparison
c('equality_strict', '{"1" == 1} {1 == 1} {"a" == "a"} {1 != "1"} {true == 1} {null == null}', {})
c('equality_undefined_vs_empty', '{missing == ""} {missing == null} {n == null} {u == ""}', { n: null, u: undefined })
c('equality_nan_objects', '{n == n} {n != n} {a == a} {a == b}', { n: NaN, a: [1], b: [1] })
c('equality_negative_zero', '{z == 0} {-0 == 0}', { z: -0 })
c('relational_numbers', '{1 < 2} {2 <= 2} {3 > 4} {4 >= 5}', {})
c('relational_coercion', '{s > 9} {s < 9} {"10" < "9"} {"abc" < 1} {"abc" > 1} {null < 1} {null >= 0} {null == 0}', { s: '10' })
c('relational_undefined_variable', '{missing > 0} {missing >= 0} {missing < 1}', {})
c('relational_strings', '{"a" < "b"} {"B" < "a"} {"abc" < "abd"} {"中" > "a"} {"" < "a"}', {})
c('relational_astral_utf16_order', '{e < f}', { e: '😀', f: '\uffff' })
c('relational_arrays_booleans', '{a > 1} {true > false} {true >= 1} {b < 3}', { a: [2], b: [1, 2] })
c('relational_chain', '{1 < 2 < 3} {3 > 2 > 1} {2 < 3 == true}', {})

// -- logical
c('logical_and_or_operands', '{a && b} {z && b} {z || "default"} {"" || 0} {null || ""} {e || "x"}', { a: 'A', b: 'B', z: 0, e: '' })
c('logical_results_as_text', '[{n && 1}] [{f || n}] [{t && f}]', { n: null, f: false, t: true })
c('logical_not_short_circuit', '[{false && fail()}] [{true || nosuch()}] [{x || nosuch()}]', { x: 'X' }, ['fail'])
c('logical_precedence', '{a || b && c} {(a || b) && c} {!a && b}', { a: true, b: false, c: 0 })

// -- ternary
c('ternary_basic', '{count > 10 ? "Many" : "Few"} {count < 10 ? "Many" : "Few"}', { count: 15 })
c('ternary_nested_right_assoc', '{a ? "A" : b ? "B" : "C"} {x ? y ? 1 : 2 : 3}', { a: false, b: false, x: true, y: false })
c('ternary_truthiness', '{e ? 1 : 2} {o ? 1 : 2} {s0 ? 1 : 2} {nan ? 1 : 2}', { e: [], o: {}, s0: '0', nan: NaN })
c('ternary_missing_colon_kept', '{a ? 1}', { a: true })

// -- string literals
c('string_double_single_quotes', '{"double"} {\'single\'} {"it\'s"} {\'say "hi"\'}', {})
c('string_escapes', '{"a\\nb"}|{"t\\tt"}|{"r\\rr"}|{"back\\\\slash"}|{"q\\"q"}|{\'s\\\'s\'}|{"x\\qy"}|{"\\u0041"}', {})
c('string_braces_inside', '{"a}b"} {"{x}"} {"}}"} {\'{{\'}', {})
c('string_unterminated_kept', 'before {"abc} {name} tail', { name: 'N' })
c('string_cjk_emoji_literal', '{"你好" + "😀"}', {})
c('string_escape_at_tag_end', '{"a\\"}b', {})

// -- number literals
c('number_literals', '{0} {007} {5.} {0.10} {3.14159} {123456789}', {})
c('number_literals_malformed_kept', '{.5} {1.2.3} {1_000} {1abc} {0x10}', {})

// -- if / elseif / else
c('if_true_false', '{if a}yes{/if}|{if b}yes{/if}', { a: true, b: false })
c('if_else', '{if loggedIn}Welcome, {username}!{else}Please log in.{/if}', { loggedIn: true, username: 'Alice' })
c('if_else_false', '{if loggedIn}Welcome, {username}!{else}Please log in.{/if}', { loggedIn: false })
c('if_elseif_chain', '{if score >= 90}A{elseif score >= 80}B{elseif score >= 60}C{else}F{/if}', { score: 85 })
c('if_elseif_none_match_no_else', '[{if s == 1}one{elseif s == 2}two{/if}]', { s: 3 })
c('if_truthiness_values', '{if e}1{/if}{if z}2{/if}{if s0}3{/if}{if arr}4{/if}{if obj}5{/if}{if nan}6{/if}{if nz}7{/if}{if sf}8{/if}', { e: '', z: 0, s0: '0', arr: [], obj: {}, nan: NaN, nz: -0, sf: 'false' })
c('if_strict_equality_string_number', '{if n == 1}eq{else}ne{/if} {if n > 0}gt{/if}', { n: '1' })
c('if_nested', '{if a}A{if b}B{else}b{/if}{/if}{if c}C{else}{if d}D{/if}{/if}', { a: true, b: false, c: false, d: true })
c('if_double_else_last_wins', '{if x}a{else}b{else}c{/if}', { x: false })
c('if_else_then_elseif', '{if x}a{else}b{elseif y}c{/if}', { x: false, y: true })
c('if_unclosed_renders_body', 'start {if x}body {name}', { x: true, name: 'N' })
c('if_unclosed_false', 'start {if x}body', { x: false })
c('if_bare_keyword_is_variable', '[{if}] [{else}]', {})
c('if_spaces_in_tags', '{ if  x }yes{ else }no{ /if }', { x: false })
c('if_upper_case_kept', '{IF x}y{/IF}', { x: true })
c('if_header_parse_error_throws', '{if a ==}x{/if}', { a: 1 })
c('if_header_bad_character_throws', '{if 名字}x{/if}', {})
c('if_condition_unknown_function_throws', '{if nosuch()}x{/if}', {})
c('if_condition_function_throws', '{if fail()}x{/if}', {}, ['fail'])
c('if_condition_bare_failing_function', '{if fail}x{else}y{/if}', {}, ['fail'])
c('if_elseif_parse_error_throws', '{if a}x{elseif )}y{/if}', { a: true })
c('if_stray_close_kept', 'a{/if}b{/for}c{/while}d{/repeat}', {})
c('if_stray_elseif_kept', 'a{elseif x}b', { x: true })
c('if_multiline_condition', '{if a &&\n  b}both{/if}', { a: 1, b: 2 })
c('if_depth_9_renders', '{if t}'.repeat(9) + 'X' + '{/if}'.repeat(9), { t: true })
c('if_depth_10_cut', '{if t}'.repeat(10) + 'X' + '{/if}'.repeat(10), { t: true })
c('if_depth_11_cut', '{if t}'.repeat(11) + 'X' + '{/if}'.repeat(11), { t: true })

// -- for
c('for_array', '{for name in names}{name}, {/for}', { names: ['Alice', 'Bob', 'Charlie'] })
c('for_objects', '{for u in users}{u.name}={u.age};{/for}', { users: [{ name: 'A', age: 1 }, { name: 'B', age: 2 }] })
c('for_nested', '{for row in matrix}{for cell in row}{cell} {/for}\n{/for}', { matrix: [[1, 2], [3, 4]] })
c('for_nested_outer_variable', '{for a in xs}{for b in ys}{a}{b} {/for}{/for}', { xs: ['x', 'y'], ys: [1, 2] })
c('for_over_object_string_number_null', '[{for x in o}{x}{/for}][{for x in s}{x}{/for}][{for x in n}{x}{/for}][{for x in z}{x}{/for}][{for x in missing}{x}{/for}]', { o: { a: 1 }, s: 'abc', n: 3, z: null })
c('for_empty_array', '[{for x in e}{x}{/for}]', { e: [] })
c('for_variable_shadows_and_restores', '{x}:{for x in xs}{x}{/for}:{x}', { x: 'outer', xs: [1, 2] })
c('for_items_null_undefined', '{for x in xs}[{x}]{/for}', { xs: [null, undefined, 0, ''] })
c('for_over_function_result', '{for x in list3()}{x}{/for}|{for x in list3}{x}{/for}', {}, ['list3'])
c('for_index_expression_iterable', '{for x in m[1]}{x}{/for}', { m: [[1], [2, 3]] })
c('for_extra_spaces', '{for   x   in   xs  }{x}{/for}', { xs: [1, 2] })
c('for_without_in_kept', '{for x of xs}{x}{/for}', { xs: [1, 2], x: 'X' })
c('for_iterable_missing_kept', '{for x in }a{/for}', {})
c('for_iterable_parse_error_throws', '{for x in )}a{/for}', {})
c('for_iterable_unknown_function_throws', '{for x in nosuch()}a{/for}', {})
c('for_unclosed_renders_body', '{for x in xs}<{x}>', { xs: [1, 2] })
c('for_with_if_inside', '{for i in xs}{i}{if i == 2}!{/if},{/for}', { xs: [1, 2, 3] })
c('for_body_cut_at_depth_10', '{if t}'.repeat(9) + '{for x in xs}[{x}]{/for}' + '{/if}'.repeat(9), { t: true, xs: [1, 2] })

// -- while
c('while_false', '[{while f}x{/while}]', { f: false })
c('while_cap_with_warning', '{while true}x{/while}', {})
c('while_cap_empty_body', '[{while 1}{/while}]', {})
c('while_stateful_condition', '{while more()}x{/while}|{more()}', {}, ['more'])
c('while_condition_throws', '{while fail()}x{/while}', {}, ['fail'])
c('while_unclosed', '{while more()}y', {}, ['more'])
c('while_cap_then_text', '{while true}{/while}after{while true}{/while}', {})
c('while_zero_and_empty', '[{while z}a{/while}][{while e}b{/while}]', { z: 0, e: '' })

// -- repeat
c('repeat_positive', '{repeat 3}Hello {/repeat}', {})
c('repeat_variable', '{repeat count}* {/repeat}', { count: 5 })
c('repeat_zero', '[{repeat 0}x{/repeat}]', {})
c('repeat_negative_warns', '[{repeat -1}x{/repeat}]', {})
c('repeat_negative_fraction_warns', '[{repeat n}x{/repeat}]', { n: -0.5 })
c('repeat_negative_zero', '[{repeat n}x{/repeat}]', { n: -0 })
c('repeat_float_floors', '[{repeat 2.7}x{/repeat}]', {})
c('repeat_numeric_string', '[{repeat "3"}x{/repeat}][{repeat s}y{/repeat}]', { s: ' 2 ' })
c('repeat_non_number_warns', '[{repeat "abc"}x{/repeat}]', {})
c('repeat_object_warns', '[{repeat o}x{/repeat}]', { o: { a: 1 } })
c('repeat_null_missing_bool_array', '[{repeat n}a{/repeat}][{repeat missing}b{/repeat}][{repeat true}c{/repeat}][{repeat arr}d{/repeat}]', { n: null, arr: [2] })
c('repeat_nan_warns', '[{repeat n}x{/repeat}]', { n: NaN })
c('repeat_no_cap', '{repeat 12000}a{/repeat}', {})
c('repeat_nested', '{repeat 2}[{repeat 3}x{/repeat}]{/repeat}', {})
c('repeat_function_count', '{repeat add(1, 1)}z{/repeat}', {}, ['add'])
c('repeat_empty_count_is_a_variable', '{repeat }x{/repeat}', {})
c('repeat_count_parse_error_throws', '{repeat 1 +}x{/repeat}', {})
c('repeat_bare_keyword', '[{repeat}]', {})

// -- brace escapes
c('escape_double_braces', 'Use {{variable}} for interpolation', {})
c('escape_control_structure', '{{if}} is a control structure', {})
c('escape_json_object', 'JSON object: {{ "key": "value" }}', {})
c('escape_triple_braces', '{{{name}}}', { name: 'N' })
c('escape_open_then_tag_text', '{{name}', { name: 'N' })
c('escape_tag_then_close', '{name}}', { name: 'N' })
c('escape_tag_then_double_close', '{name}}}', { name: 'N' })
c('escape_lone_close_braces', 'a}b }}} c', {})
c('escape_quadruple', '{{{{x}}}}', { x: 'X' })
c('escape_triple_open_unterminated', '{{{', {})

// -- unknown or malformed tags kept as text
c('malformed_empty_tags', '{} { } {\t}', {})
c('malformed_embedded_json', 'data: {"key": "value"} end', {})
c('malformed_nested_json', '{"a": {"b": 1}} x', {})
c('malformed_json_multiline', 'pre\n[\n  {\n    "title": "A",\n    "url": "https://x"\n  },\n  {\n    "title": "B"\n  }\n]\npost {name}', { name: 'N' })
c('malformed_unterminated_tag', 'Hi {name b', { name: 'N' })
c('malformed_unterminated_tag_swallows_rest', 'Hi {name and then {name} more', { name: 'N' })
c('malformed_two_words', '{name b} {name}', { name: 'N' })
c('malformed_nested_braces', '{a {b} c} {b}', { b: 'B' })
c('malformed_lone_open_brace_end', 'price {', {})
c('malformed_bad_characters', '{a # b} {@x} {a; b} {[1, 2]}', { a: 1 })
c('malformed_dot_without_name', '{a.} {.a}', { a: { b: 1 } })
c('malformed_tag_with_cjk_text', '{请输入名字} {name}', { name: 'N' })

// -- whitespace and newlines around block tags
c('ws_issue_example_false', '{if d}\n私聊\n{else}\n群\n{/if}\nend', { d: false })
c('ws_issue_example_true', '{if d}\n私聊\n{else}\n群\n{/if}\nend', { d: true })
c('ws_crlf_if_else', '{if d}\r\nprivate\r\n{else}\r\ngroup\r\n{/if}\r\nend', { d: false })
c('ws_for_lines', 'List:\n{for x in items}\n- {x}\n{/for}\nDone', { items: ['a', 'b'] })
c('ws_for_lines_crlf', 'List:\r\n{for x in items}\r\n- {x}\r\n{/for}\r\nDone', { items: ['a', 'b'] })
c('ws_indented_block_tags', 'a\n    {if x}\n    yes\n    {/if}\nb', { x: true })
c('ws_empty_value_line', 'line1\n{missing}\nline3', {})
c('ws_tabs_and_lone_cr', '\t{a}\r{b}\t\r', { a: 'A', b: 'B' })
c('ws_trailing_newlines_kept', '{name}\n\n\n', { name: 'N' })
c('ws_repeat_lines', '{repeat 2}\nrow\n{/repeat}\n', {})

// -- CJK and astral characters
c('cjk_text_and_values', '你好，{name}！今天是{day}。', { name: '小明', day: '星期三' })
c('cjk_in_if_branches', '{if is_group}群聊：{group_name}{else}私聊{/if}', { is_group: true, group_name: '测试群' })
c('emoji_text_and_values', '😀 {e} 👨‍👩‍👧 {e.length}', { e: '🎉✨' })
c('emoji_in_unknown_tag', '{😀} {名} {ｎａｍｅ}', {})
c('fullwidth_braces_are_text', '｛name｝ {name}', { name: 'N' })

// -- variables_read
c('variables_read_order_and_dedupe', '{b}{a}{b}{c.d}{e[f]}', { a: 1, b: 2 })
c('variables_read_blocks', '{if x}{y}{else}{z}{/if}{for i in list}{i}{/for}{repeat n}{/repeat}', { x: true, list: [1], n: 1 })
c('variables_read_calls', '{upper(name)} {nosuch(other)}', { name: 'a' }, ['upper'])
c('variables_read_skipped_branch', '{if a}{b}{elseif c}{d}{else}{e}{/if}', { a: false, c: true })

// -- a larger template in the style of a real preset
c('preset_style_template', [
    '你是{name}。',
    '{if is_group}',
    '当前在群聊「{group_name}」中，发言者：{sender}。',
    '{else}',
    '当前在与{sender}私聊。',
    '{/if}',
    '规则：',
    '{for rule in rules}',
    '- {rule}',
    '{/for}',
    '今天是 {date}（{weekday}）。'
].join('\n'), { name: '小猫', is_group: false, sender: 'Alice', rules: ['友好', '简洁'], date: '2026-01-02', weekday: 'Friday' })

// ---------------------------------------------------------------------------------------------
// Extra cases, written to renderer_cases_more.json (same format; functions echo and k): they
// reach JavaScript's own objects through the renderer, which the main file keeps out of.

// The variables every extra case renders with (JSON numbers; -0 is JavaScript's -0).
const EXTRA_VARIABLES = {"n": "10", "a": [1, null, [2, 3]], "o": {"k": "v", "n": null, "arr": [1, 2], "inner": {"x": 1}}, "s": "abc", "x": 3, "z": null, "t": true, "f": false, "e": "", "zero": 0, "items": ["x", "y", "z"], "cjk": "你好😀", "num": 1.5, "big": 1e+21, "neg": -7, "list0": []}

// Sources rendered with EXTRA_VARIABLES and the functions echo and k: names on Object.prototype,
// built-in methods reached by property, JS number and operator corners, whitespace around tags.
const EXTRA_SOURCES = [
    "{constructor}",
    "{toString}",
    "{valueOf}",
    "{isPrototypeOf}",
    "{__proto__}",
    "{hasOwnProperty}",
    "{propertyIsEnumerable}",
    "{toLocaleString}",
    "{__lookupGetter__}",
    "{__defineGetter__}",
    "{s.length}",
    "{s[1]}",
    "{s[5]}",
    "{s[\"length\"]}",
    "{s.toUpperCase}",
    "{s.constructor}",
    "{s.__proto__}",
    "{s.trim}",
    "{s.at}",
    "{s.charCodeAt}",
    "{s.split}",
    "{s.indexOf}",
    "{s.includes}",
    "{s.repeat}",
    "{s.padStart}",
    "{s.search}",
    "{s.match}",
    "{s.big}",
    "{s.foo}",
    "{cjk.length}",
    "{cjk[2]}",
    "{cjk[3]}",
    "{cjk.codePointAt}",
    "{cjk.charCodeAt}",
    "{a}",
    "{a.length}",
    "{a[0]}",
    "{a[1]}",
    "{a[2]}",
    "{a[2][1]}",
    "{a.join}",
    "{a.toString}",
    "{a.at}",
    "{a.slice}",
    "{a.flat}",
    "{a.constructor}",
    "{a.__proto__}",
    "{a.map}",
    "{a.indexOf}",
    "{a.includes}",
    "{a.push}",
    "{a[\"1\"]}",
    "{a[1.0]}",
    "{a[\"01\"]}",
    "{o}",
    "{o.k}",
    "{o.n}",
    "{o.missing}",
    "{o.arr}",
    "{o.inner.x}",
    "{o[\"k\"]}",
    "{o.toString}",
    "{o.valueOf}",
    "{o.hasOwnProperty}",
    "{o.constructor}",
    "{o.__proto__}",
    "{o.isPrototypeOf}",
    "{o.toLocaleString}",
    "{o.propertyIsEnumerable}",
    "{x.toFixed}",
    "{num.toFixed}",
    "{x.constructor}",
    "{x.toString}",
    "{x.valueOf}",
    "{x.__proto__}",
    "{t.__proto__}",
    "{t.toString}",
    "{t.constructor}",
    "{num.toPrecision}",
    "{1/0}{-1/0}{0/0}{-0}{5%0}{-5%3}{1e3}",
    "{5.5%2}{-5.5%2}{1/-0}{0*-1}{-(0)}",
    "{\"a\"+1}{1+true}{null+1}{z+1}{s-1}",
    "{a+1}{o+1}{a+o}{list0+1}{list0-1}{o-1}",
    "{t+t}{t-f}{\"3\"*\"4\"}{\"3\"-1}{\" 12 \"*1}{\"0x10\"*1}{\"1e3\"*1}{\"\"*1}",
    "{n == 10}{n > 9}{\"b\" > \"a\"}{a == a}{1 == 1.0}{null == null}{z == null}{t == 1}{\"1\" != 1}",
    "{n < \"9\"}{\"10\" < \"9\"}{z < 1}{z >= 0}{o < 1}{a < 2}{\"a\" < 1}{1 <= 1}{t > f}",
    "{s.x.y}",
    "{z.x}",
    "{z[0]}",
    "{unknown.x}",
    "{unknown[0]}",
    "{t ? \"y\" : \"n\"}{0 || \"d\"}{\"\" && \"x\"}{1 && 2}{0 && 2}{null || z}",
    "{!t}{!!s}{!e}{!list0}{!o}{-s}{+s}{+\"3\"}{-\"x\"}{+t}{-z}{+list0}{+a}",
    "{repeat -1}x{/repeat}|{repeat \"a\"}x{/repeat}|{repeat 2.7}x{/repeat}|{repeat \"2\"}y{/repeat}|{repeat z}q{/repeat}|{repeat list0}r{/repeat}",
    "{{x}}",
    "}}}",
    "{{{{",
    "}",
    "{",
    "a{b",
    "{\"}\"}",
    "{a b}",
    "{}",
    "{ s }",
    "{\"{\"}",
    "{'a\\'b'}",
    "{\"a\\nb\\tc\\\\d\\qe\"}",
    "{if t}A{else}B{elseif t}C{/if}",
    "{if f}A{else}B{elseif t}C{/if}",
    "{if f}A{elseif f}B{else}C{else}D{/if}",
    "{if f}A{elseif zero}B{elseif s}C{/if}",
    "{if d}\n私聊\n{else}\n群\n{/if}\nend",
    "{if t}\n  {for i in items}\n  - {i}\n  {/for}\n{/if}",
    "{for i in items}{i},{/for}",
    "{for i in s}{i}{/for}",
    "{for i in o}{i}{/for}",
    "{for i in a}[{i}]{/for}",
    "{for i in items}{for j in items}{i}{j} {/for}{/for}",
    "{for x in items}{x}{/for}{x}",
    "{for s in items}{s}{/for}{s}",
    "{for  i  in  items }{i}{/for}",
    "{for i in items",
    "{for i}x{/for}",
    "{ for i }x",
    "{while f}x{/while}",
    "{while zero}x{/while}",
    "{else}",
    "{/if}",
    "{/for}",
    "{elseif t}",
    "{elseif}",
    "{if t}a{/for}b{/if}",
    "{if t}unclosed",
    "{for i in items}{i}",
    "{while f}never",
    "{if )}x{/if}",
    "{if}x{/if}",
    "{if }x{/if}",
    "{if\tt}x{/if}",
    "{ if t }x{ /if }",
    "{IF t}x{/IF}",
    "{if t}{elseif )}{/if}",
    "{for x in )}{/for}",
    "{repeat )}{/repeat}",
    "{echo(1, \"b\", z, t, a, o)}",
    "{echo}",
    "{k}",
    "{k()}",
    "{k(1)}",
    "{nofn()}",
    "x{nofn(1)}y",
    "{if nofn()}x{/if}",
    "{echo(nofn())}",
    "{s.x(1)}",
    "{toString()}",
    "{constructor(1,2)}",
    "{valueOf()}",
    "{1.5}{1.}{0.1+0.2}{100000000000000000000}{1000000000000000000000}{0.000001}{0.0000001}{123456789012345680000}",
    "{2*3+4}{2+3*4}{(2+3)*4}{10/4}{10%4}{-10%4}{7-2-1}{2*-3}",
    "{1 ? 2 : 3 ? 4 : 5}{0 ? 2 : 0 ? 4 : 5}{(t ? s : x).length}",
    "{a[0] + a[2][0]}",
    "{o.arr[1]}",
    "{items[1+1]}",
    "{items[\"1\"]}",
    "{items[t]}",
    "{items[z]}",
    "{big}{neg}{num}{zero}{-zero}{e}{z}",
    "{true}{false}{null}{undefined}{NaN}{Infinity}",
    "{true.x}",
    "{\"abc\".length}",
    "{\"abc\"[0]}",
    "{(1).toFixed}",
    "{1 .toFixed}",
    "{x = 1}",
    "{x === 1}",
    "{x & 1}",
    "{x | 1}",
    "{a.}",
    "{a[}",
    "{f(}",
    "{(1}",
    "{1)}",
    "{a ? b}",
    "{?}",
    "{,}",
    "{1 2}",
    "{\"unterminated}",
    "{'x}",
    "{名字}",
    "{s.名}",
    "line1\r\nline2\r\n{if t}\r\nyes\r\n{/if}\r\n",
    "{ \n s \n }",
    "{　s　}",
    "{﻿s}",
    "{s }",
    "{s}",
    "{if t}{if t}{if t}{if t}{if t}{if t}{if t}{if t}{if t}{if t}deep{/if}{/if}{/if}{/if}{/if}{/if}{/if}{/if}{/if}{/if}",
    "{if t}{if t}{if t}{if t}{if t}{if t}{if t}{if t}{if t}nine{s}{/if}{/if}{/if}{/if}{/if}{/if}{/if}{/if}{/if}",
    "{repeat 3}{repeat 2}ab{/repeat}-{/repeat}",
    "{repeat 0}x{/repeat}",
    "{repeat 1e2}x{/repeat}",
    "{o.k == \"v\" && t}",
    "{o.k == \"v\" || nofn()}",
    "{t || nofn()}",
    "{f && nofn()}",
    "{t ? s : nofn()}",
    "{f ? nofn() : s}",
    "{cjk}{cjk + 1}{\"😀\".length}",
    "{a[-1]}",
    "{s[-1]}",
    "{o[o]}",
    "{o[a]}",
    "{items.length > 2 ? \"many\" : \"few\"}"
]

// One source of number methods and arithmetic, rendered with {x: value} for each value.
const NUMBER_SOURCE = "{x.toFixed}|{x.toLocaleString}|{x.toPrecision}|{x.toExponential}|{x}|{-x}|{x * 3}|{x / 7}|{x % 0.3}"
const NUMBER_VALUES = [-0.4, -0.5, 0.5, 1.5, 2.5, -2.5, 1234.5678, 1234567.0005, 0.0001, -1234.5, 1e+21, 1e-07, 123456789012345680000, 0.30000000000000004, -0, 0, 7, -7, 1e+300, 5e-324, 0.000123, 999.9995, 1.0005]

const EXTRA_CASES = [
    ...EXTRA_SOURCES.map((source, i) => ({
        name: `extra_${String(i).padStart(3, '0')}`,
        source,
        variables: EXTRA_VARIABLES,
        functions: ['echo', 'k']
    })),
    ...NUMBER_VALUES.map((x, i) => ({
        name: `number_${String(i).padStart(2, '0')}`,
        source: NUMBER_SOURCE,
        variables: { x },
        functions: []
    }))
]

// ---------------------------------------------------------------------------------------------

async function record(Renderer, cases, functionDefinitions) {
    const names = new Set()
    const out = []
    for (const k of cases) {
        if (names.has(k.name)) throw new Error(`duplicate case name ${k.name}`)
        names.add(k.name)
        const result = await renderCase(Renderer, k.source, k.variables, makeFunctions(k.functions))
        out.push({
            name: k.name,
            source: k.source,
            variables: encodeValue(k.variables),
            functions: k.functions,
            ...result
        })
    }
    return {
        package: PACKAGE,
        version: VERSION,
        node: process.version,
        recorded: new Date().toISOString().slice(0, 10),
        conventions: {
            variables: 'render() second argument; {"$js": "undefined"|"NaN"|"Infinity"|"-Infinity"|"-0"} stands for that JavaScript value',
            functions: 'names from function_definitions registered for the case (fresh instances per case)',
            text: "the renderer's text; null when render() rejected",
            error: 'null, or the message render() rejected with',
            variables_read: "the renderer's variables (order as returned); null when render() rejected",
            warnings: 'console.warn calls during the render: arguments joined by one space, an Error as String(error)'
        },
        function_definitions: functionDefinitions,
        cases: out
    }
}

export async function main(argv) {
    const out = argv[2]
    if (!out) {
        throw new Error(
            'usage: node make_renderer_cases.mjs OUT.json [MORE.json] (run from the folder where the package is installed)'
        )
    }
    const more = argv[3] ?? join(dirname(out), 'renderer_cases_more.json')
    const Renderer = await loadRenderer()
    const primary = await record(Renderer, CASES, FUNCTION_DEFINITIONS)
    const extra = await record(Renderer, EXTRA_CASES, EXTRA_FUNCTION_DEFINITIONS)
    writeFileSync(out, JSON.stringify(primary, null, 1) + '\n')
    writeFileSync(more, JSON.stringify(extra, null, 1) + '\n')
    console.log(`${primary.cases.length} cases written to ${out}, ${extra.cases.length} to ${more}`)
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
    main(process.argv).catch((e) => {
        console.error(e instanceof Error ? e.message : String(e))
        process.exit(1)
    })
}
