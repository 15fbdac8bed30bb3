// Golden renders of the real ChatLuna presets, and of ChatLuna's built-in template functions.
//
// The renderer is the published `@chatluna/shared-prompt-renderer` 1.0.5; the presets are the three
// koishi-plugin-chatluna 1.3.36 ships (kept byte for byte in chatluna_presets/). Only outputs enter
// this repository; the tests never need Node. To (re)record:
//
//     mkdir -p /tmp/rend && cd /tmp/rend && npm install @chatluna/shared-prompt-renderer@1.0.5 js-yaml@4.1.0
//     cd /tmp/rend && node /path/to/repo/tests/inspector/zones/make_preset_cases.mjs \
//         /path/to/repo/tests/inspector/zones/preset_cases.json
//
// (packages found from the current directory or NODE_PATH, as for make_renderer_cases.mjs).
//
// How ChatLuna 1.3.36 renders a preset, as its code does it (read from its lib/, not copied here):
// a preset's YAML is loaded with js-yaml; every `prompts[].content` string is trimmed; every prompt
// is rendered with the renderer and the conversation's variables `{prompt, ...system variables}`;
// the user's message is rendered through `format_user_prompt` (not trimmed) with
// `{sender_id, sender, prompt, ...system variables}`. The system variables are name, date
// (Date#toLocaleString()), bot_id, is_group, is_private, group_id, group_name, user_id, platform,
// user, built {preset, platform, conversationId}, noop "", time (Date#toLocaleTimeString()),
// weekday, idle_duration. ChatLuna's render service registers the functions time_UTC, timeDiff,
// date, weekday, isotime, isodate, random, pick, roll and url. Here they are deterministic
// stand-ins written for this recorder: the clock is fixed at CLOCK, the local time zone is the
// case's `time_zone` (process.env.TZ), and Math.random is replaced by RANDOM_VALUES in turn (from
// the first value again in every render). `url` (an HTTP fetch) is not registered, so a call to
// it is an unknown function here.
//
// The JSON (`JSON.stringify(…, null, 1)`): {"package", "version", "renderer", "node", "recorded",
// "clock", "random_values", "function_definitions", "conventions", "presets": [{"file", "sha256", "time_zone",
// "variables", "user_variables", "messages": [{"role", "type", "source", "text", "error",
// "variables_read", "warnings"}], "format_user_prompt": {"source", "text", "error",
// "variables_read", "warnings"} | null}], "function_cases": [{"name", "time_zone", "source",
// "variables", "text", "error", "variables_read", "warnings"}]}. Values as in renderer_cases.json.

import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { encodeValue, loadRenderer, renderCase } from './make_renderer_cases.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
const PRESETS = ['catgirl.yml', 'sydney.yml', 'empty.yml']
const TIME_ZONES = ['UTC', 'Asia/Shanghai']
// A Saturday in UTC; already Sunday 2026-03-15 02:30 in Shanghai.
const CLOCK = '2026-03-14T18:30:05.250Z'
// The conversation was last updated 1 day, 2 hours and 3 minutes (and 4 s) before CLOCK.
const UPDATED = '2026-03-13T16:27:01.250Z'
const RANDOM_VALUES = [0, 0.25, 0.5, 0.75, 0.999999]

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

export const FUNCTION_DEFINITIONS = {
    time_UTC: 'hours = args[0] ? parseInt(args[0]) : 0 (JS parseInt); NaN -> "Invalid UTC offset"; else the UTC clock moved by that many hours as "YYYY-MM-DD HH:MM:SS"',
    timeDiff: 'difference |new Date(args[0]) - new Date(args[1])| (JS Date parsing) as "D day(s), H hour(s), M minute(s)" leaving out zero parts, "now" when all are zero or a date is invalid',
    date: 'the local date (process time zone) of the clock as "YYYY-MM-DD"',
    weekday: 'the English name of the local weekday of the clock ("Sunday" .. "Saturday")',
    isotime: 'the local time of the clock as "HH:MM:SS" (24 h)',
    isodate: 'the local date of the clock as "YYYY-MM-DD" (same as date)',
    random: 'with exactly 2 arguments both numeric under Number(): String(Math.floor(r * (max - min + 1) + min)); otherwise pick from the list args.join(",").split(",") with each item trimmed: item Math.floor(r * count)',
    pick: 'item Math.floor(r * count) of args.join(",").split(",") with each item trimmed',
    roll: 'dice formula args[0] "NdS+A": N = parseInt of the part before "d" when there is a "d" and Number() of that part is not NaN (so "" gives NaN), else 1; A = parseInt after "+" when Number() of it is not NaN, else 0; S = parseInt of the part between when Number() of it is not NaN, else 1; String(Math.floor(r * (N*S - N + 1)) + N + A); throws (-> "") without an argument'
}

// Stand-ins. `now` is the fixed clock; local-time parts come from the process time zone.
function makeFunctions(now, rand) {
    const localIso = () => new Date(now.getTime() - now.getTimezoneOffset() * 60000).toISOString()
    const listPick = (args) => {
        const items = args.join(',').split(',').map((s) => s.trim())
        return items[Math.floor(rand() * items.length)]
    }
    const numberPart = (s) => !Number.isNaN(Number(s))
    return {
        time_UTC: (args) => {
            const hours = args[0] ? parseInt(args[0]) : 0
            if (Number.isNaN(hours)) return 'Invalid UTC offset'
            return new Date(now.getTime() + hours * 3600000).toISOString().slice(0, 19).replace('T', ' ')
        },
        timeDiff: (args) => {
            const ms = Math.abs(new Date(args[0]).getTime() - new Date(args[1]).getTime())
            const units = [
                [Math.floor(ms / 86400000), 'day'],
                [Math.floor((ms % 86400000) / 3600000), 'hour'],
                [Math.floor((ms % 3600000) / 60000), 'minute']
            ]
            const parts = units.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n > 1 ? 's' : ''}`)
            return parts.length ? parts.join(', ') : 'now'
        },
        date: () => localIso().slice(0, 10),
        weekday: () => DAY_NAMES[now.getDay()],
        isotime: () => localIso().slice(11, 19),
        isodate: () => localIso().slice(0, 10),
        random: (args) => {
            if (args.length === 2 && numberPart(args[0]) && numberPart(args[1])) {
                const [low, high] = args.map(Number)
                return String(Math.floor(rand() * (high - low + 1) + low))
            }
            return listPick(args)
        },
        pick: (args) => listPick(args),
        roll: (args) => {
            const formula = args[0]
            if (formula === undefined) throw new TypeError("Cannot read properties of undefined (reading 'split')")
            const pieces = formula.split('d')
            const count = pieces.length > 1 && numberPart(pieces[0]) ? parseInt(pieces[0], 10) : 1
            const tail = pieces[pieces.length - 1].split('+')
            const bonus = tail.length > 1 && numberPart(tail[1]) ? parseInt(tail[1], 10) : 0
            const sides = numberPart(tail[0]) ? parseInt(tail[0], 10) : 1
            return String(Math.floor(rand() * (count * sides - count + 1)) + count + bonus)
        }
    }
}

function systemVariables(now, updated, presetKeyword) {
    const idle = makeFunctions(now, () => 0).timeDiff([now.toISOString(), updated.toISOString()])
    return {
        name: 'ChatLuna',
        date: now.toLocaleString(),
        bot_id: '10001',
        is_group: true,
        is_private: false,
        group_id: '123456',
        group_name: '测试群',
        user_id: '42',
        platform: 'onebot',
        user: 'Alice',
        built: { preset: presetKeyword, platform: 'onebot', conversationId: 'c0ffee00-0000-4000-8000-000000000001' },
        noop: '',
        time: now.toLocaleTimeString(),
        weekday: DAY_NAMES[now.getDay()],
        idle_duration: idle
    }
}

const PROMPT = '你好，今天天气怎么样？ {not a tag} {{x}}'

const FUNCTION_CASES = [
    ['date_variable_wins', '{date}|{weekday}|{time}', 'system'],
    ['date_functions_as_bare_names', '{date}|{weekday}|{isotime}|{isodate}', 'none'],
    ['date_functions_called', '{date()}|{weekday()}|{isotime()}|{isodate()}', 'system'],
    ['time_utc_offsets', '{time_UTC()}|{time_UTC(8)}|{time_UTC("-5")}|{time_UTC(5.5)}|{time_UTC("+9h")}|{time_UTC("")}|{time_UTC(0)}', 'none'],
    ['time_utc_invalid', '{time_UTC("x")}|{time_UTC(null)}|{time_UTC}', 'none'],
    ['time_diff', '{timeDiff("2026-03-01", "2026-03-14T18:30:05Z")}|{timeDiff("2026-03-14T18:30:05Z", "2026-03-14T18:31:05Z")}|{timeDiff("2026-03-14T00:00:00Z", "2026-03-14T02:00:00Z")}|{timeDiff("2026-03-14", "2026-03-14")}', 'none'],
    ['time_diff_local_and_invalid', '{timeDiff("2026-03-14T00:00:00", "2026-03-14T00:00:00Z")}|{timeDiff("nonsense", "2026-03-14")}|{timeDiff()}', 'none'],
    ['random_numbers', '{random(1, 6)}|{random(1, 6)}|{random(1, 6)}|{random(1, 6)}|{random(1, 6)}|{random(1, 6)}', 'none'],
    ['random_reverse_and_float_range', '{random(6, 1)}|{random("0", "1")}|{random(0.5, 2.5)}|{random("", 3)}', 'none'],
    ['random_list', '{random("a", "b", "c")}|{random("x , y ,z")}|{random("one")}|{random()}|{random("a", "b")}', 'none'],
    ['pick_list', '{pick("red", "green", "blue")}|{pick("红, 绿 ,蓝")}|{pick(1, 2)}|{pick()}|{pick("a,,b")}', 'none'],
    ['roll_formulas', '{roll("2d6+3")}|{roll("1d20")}|{roll("6")}|{roll("d6")}|{roll("3d4")}', 'none'],
    ['roll_odd_formulas', '{roll("abc")}|{roll("2dx")}|{roll("2d6+x")}|{roll("2d6+1+2")}|{roll()}|{roll}', 'none'],
    ['url_is_not_registered', '[{url("GET", "https://example.invalid/")}]', 'none'],
    ['functions_in_blocks', '{if weekday() == "Sunday"}周日{else}不是周日{/if} {repeat roll("1d3")}*{/repeat}', 'none']
]

function requireFromHere(name) {
    const require = createRequire(join(process.cwd(), 'noop.js'))
    try {
        return require(name)
    } catch (e) {
        throw new Error(`${name} is not installed here: run \`npm install ${name}@4.1.0\` in this folder or set NODE_PATH`)
    }
}

async function main(argv) {
    const out = argv[2]
    if (!out) throw new Error('usage: node make_preset_cases.mjs OUT.json (run from the folder where the packages are installed)')
    const Renderer = await loadRenderer()
    const yaml = requireFromHere('js-yaml')
    const now = new Date(CLOCK)
    const updated = new Date(UPDATED)

    async function render(source, variables, timeZone) {
        process.env.TZ = timeZone
        let i = 0
        const rand = () => RANDOM_VALUES[i++ % RANDOM_VALUES.length]
        const original = Math.random
        Math.random = rand
        try {
            return await renderCase(Renderer, source, variables, makeFunctions(now, rand))
        } finally {
            Math.random = original
        }
    }

    const presets = []
    for (const timeZone of TIME_ZONES) {
        for (const file of PRESETS) {
            const bytes = readFileSync(join(HERE, 'chatluna_presets', file))
            const raw = yaml.load(bytes.toString('utf8'))
            process.env.TZ = timeZone
            const system = systemVariables(now, updated, raw.keywords[0])
            const variables = { prompt: PROMPT, ...system }
            const userVariables = { sender_id: '42', sender: 'Alice', prompt: PROMPT, ...system }
            const messages = []
            for (const p of raw.prompts) {
                const source = typeof p.content === 'string' ? p.content.trim() : p.content
                messages.push({ role: p.role, type: p.type ?? null, source, ...(await render(source, variables, timeZone)) })
            }
            const fup = raw.format_user_prompt
            presets.push({
                file,
                sha256: createHash('sha256').update(bytes).digest('hex'),
                time_zone: timeZone,
                variables: encodeValue(variables),
                user_variables: encodeValue(userVariables),
                messages,
                format_user_prompt: typeof fup === 'string' ? { source: fup, ...(await render(fup, userVariables, timeZone)) } : null
            })
        }
    }

    const functionCases = []
    for (const timeZone of TIME_ZONES) {
        for (const [name, source, vars] of FUNCTION_CASES) {
            process.env.TZ = timeZone
            const variables = vars === 'system' ? { prompt: PROMPT, ...systemVariables(now, updated, 'sydney') } : {}
            functionCases.push({
                name: `${name}@${timeZone}`,
                time_zone: timeZone,
                source,
                variables: encodeValue(variables),
                ...(await render(source, variables, timeZone))
            })
        }
    }

    const document = {
        package: 'koishi-plugin-chatluna',
        version: '1.3.36',
        renderer: '@chatluna/shared-prompt-renderer 1.0.5',
        node: process.version,
        recorded: new Date().toISOString().slice(0, 10),
        clock: CLOCK,
        random_values: RANDOM_VALUES,
        function_definitions: FUNCTION_DEFINITIONS,
        conventions: {
            presets: 'each file under chatluna_presets/ rendered once per time zone; messages in prompts order, source = content trimmed (as ChatLuna loads it)',
            variables: 'system-prompt variables {prompt, ...system variables}; user_variables for format_user_prompt {sender_id, sender, prompt, ...system variables}; date/time are Date#toLocaleString()/toLocaleTimeString() in en-US',
            functions: 'every render registers the stand-ins of function_definitions, clock fixed at `clock`, local zone `time_zone`; Math.random returns random_values in turn, restarting at the first for every render (one render per message / case)',
            url: 'not registered (an HTTP fetch in ChatLuna): a call is an unknown function',
            fields: 'text / error / variables_read / warnings as in renderer_cases.json'
        },
        presets,
        function_cases: functionCases
    }
    writeFileSync(out, JSON.stringify(document, null, 1) + '\n')
    console.log(`${presets.length} preset renders and ${functionCases.length} function cases written to ${out}`)
}

main(process.argv).catch((e) => {
    console.error(e instanceof Error ? e.message : String(e))
    process.exit(1)
})
