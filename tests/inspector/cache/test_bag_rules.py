"""The message-bag rules of covel-assembly.md §1.6 as the anatomy applies them to a whole request
and as the cache analysis applies them to its cached per-part facts: both must give every
message the same bag, kind, label and recognition, on generated requests of every wire and on
every request of the demo database.

The cache side is run the way the analysis runs it: from the recorded payload's bytes, with a
second request read against the first (reused elements, reused facts), so what is compared is
the analysis's own path, not a stand-in for it.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.cache.analysis import analyse_session
from inspector.cache.calls import Call
from inspector.cache.layout import build_layout
from inspector.cache.pairs import PairMaker
from inspector.cache.parts import PartTable
from inspector.cache.payload import decode_payload
from inspector.cache.reasons import _extra_region, _kind_at
from inspector.anatomy.labelling import label_request
from inspector.cache.rules import default_rules
from inspector.covel import markers
from inspector.store import open_store, parse_json_object
from inspector.wire.model import SRC_SYSTEM_BLOCK
from inspector.wire.parse import request_for
from inspector.wire.protocols import ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI, OPENAI_CHAT, OPENAI_RESPONSES

NOTE = "[image data omitted: 5120 base64 characters]"
OPEN, CLOSE = markers.SYSTEM_INSTRUCTION_OPEN, markers.SYSTEM_INSTRUCTION_CLOSE
STARTED = "2026-10-06T08:00:00.000Z"

# Message shapes; each wire renders them its own way.
SHAPES = (
    "system",       # a system message (on Anthropic and Gemini: a wrapped user message once history began)
    "developer",    # the same under the role OpenAI's newer models use
    "user",
    "wrapped",      # a user message carrying a <system-instruction> (late system)
    "wrapped-parts",  # the same as three text parts
    "pictures",     # caption and an image
    "assistant",
    "tool-call",
    "tool-call-text",
    "tool-result",
)

# Texts that trip every rule: markers, cues, tags, near misses, and plain text.
TEXTS = (
    "I light the lantern.",
    "",
    "  ",
    "prompt",
    markers.PRUNED_MARKER_EN,
    markers.PRUNED_MARKER_ZH,
    "[... 12 older messages pruned to stay within token budget ...]",
    "  " + markers.PRUNED_MARKER_EN + "\n",
    markers.COMPACTED_HISTORY_OPEN + "# sections: [plot]\nThey met.\n" + markers.COMPACTED_HISTORY_CLOSE
    + markers.COMPACTED_HISTORY_NOTE_EN,
    " " + markers.COMPACTED_HISTORY_OPEN + "x\n" + markers.COMPACTED_HISTORY_CLOSE,
    markers.LEGACY_COMPACTED_PREFIX + "plot]] They met.",
    markers.RESPONSE_FORMAT_PREFIX + "\n<response-format>{}</response-format>",
    markers.CLOSING_CUE_EN,
    markers.CLOSING_CUE_ZH,
    "\n" + markers.CLOSING_CUE_EN_PREFIX,
    markers.BLANK_INPUT_CUE_EN,
    markers.BLANK_INPUT_CUE_ZH,
    markers.MANUAL_TRIGGER_CUE_EN_PREFIX + "narrator/main" + markers.MANUAL_TRIGGER_CUE_EN_SUFFIX,
    markers.ANTHROPIC_CONTINUATION_OPENER,
    '<runtime-inputs>{"turn":3}</runtime-inputs>',
    '<narrator-output>(none)</narrator-output>\n<runtime-inputs>{}</runtime-inputs>\n\n<world-dimensions>\nhour: dusk\n</world-dimensions>',
    '<runtime-activation>{"source":"stage"}</runtime-activation>',
    "<style-guide>Short sentences.</style-guide>",
    "Notes first.\n<memory-block>\n# Ana\n</memory-block>",
    "not a tag <runtime-inputs>{}</runtime-inputs>",
    NOTE,
)

SPECS = st.lists(st.tuples(st.sampled_from(SHAPES), st.sampled_from(TEXTS)), max_size=14)
WIRES = ("kernel", OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI)
MODELS = {
    "kernel": "deepseek-chat",
    OPENAI_CHAT: "gpt-4o",
    OPENAI_RESPONSES: "gpt-5",
    ANTHROPIC_MESSAGES: "claude-sonnet-4-5",
    GOOGLE_GENERATIVE_AI: "gemini-2.5-flash",
}
PROVIDERS = {OPENAI_CHAT: "openai", OPENAI_RESPONSES: "openai", ANTHROPIC_MESSAGES: "anthropic",
             GOOGLE_GENERATIVE_AI: "google"}


# --- rendering a list of shapes on each wire ------------------------------------------------------


def _leading_system(specs) -> tuple[list[str], list]:
    """The system texts before the first other message, and the rest."""
    n = 0
    while n < len(specs) and specs[n][0] in ("system", "developer"):
        n += 1
    return [t for _, t in specs[:n]], list(specs[n:])


_IMAGE_BLOCKS = {
    "kernel": {"type": "image", "image": NOTE, "mediaType": "image/png"},
    OPENAI_CHAT: {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
    OPENAI_RESPONSES: {"type": "input_image", "image_url": "data:image/png;base64,AAAA"},
}


def _list_items(wire: str, shape: str, text: str) -> list:
    """One message as items of the kernel's, OpenAI Chat's or OpenAI Responses' message list."""
    text_type = "input_text" if wire == OPENAI_RESPONSES else "text"
    if shape in ("system", "developer"):
        # The kernel's roles are system, user, assistant and tool (covel-db.md §2.2).
        return [{"role": "system" if wire == "kernel" else shape, "content": text}]
    if shape == "user":
        return [{"role": "user", "content": text}]
    if shape == "wrapped":
        return [{"role": "user", "content": OPEN + text + CLOSE}]
    if shape == "wrapped-parts":
        return [{"role": "user", "content": [{"type": text_type, "text": t} for t in (OPEN, text, CLOSE)]}]
    if shape == "pictures":
        return [{"role": "user", "content": [{"type": text_type, "text": text}, _IMAGE_BLOCKS[wire]]}]
    if shape == "assistant":
        if wire == OPENAI_RESPONSES:
            return [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}]
        return [{"role": "assistant", "content": text}]
    said = text if shape == "tool-call-text" else None
    if shape in ("tool-call", "tool-call-text"):
        if wire == OPENAI_RESPONSES:
            call = {"type": "function_call", "call_id": "c1", "name": "look", "arguments": "{}"}
            return ([{"role": "assistant", "content": said}] if said is not None else []) + [call]
        if wire == OPENAI_CHAT:
            calls = {"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "look", "arguments": "{}"}}]}
        else:
            calls = {"toolCalls": [{"id": "c1", "name": "look", "arguments": "{}"}]}
        return [{"role": "assistant", "content": said, **calls}]
    if wire == OPENAI_RESPONSES:
        return [{"type": "function_call_output", "call_id": "c1", "output": text}]
    if wire == OPENAI_CHAT:
        return [{"role": "tool", "tool_call_id": "c1", "content": text}]
    return [{"role": "tool", "content": text, "toolCallId": "c1"}]


def _message_list(wire: str, specs) -> list:
    return [item for shape, text in specs for item in _list_items(wire, shape, text)]


def _anthropic_message(shape: str, text: str) -> dict:
    if shape in ("system", "developer", "wrapped"):
        return {"role": "user", "content": OPEN + text + CLOSE}
    if shape == "wrapped-parts":
        return {"role": "user", "content": [{"type": "text", "text": t} for t in (OPEN, text, CLOSE)]}
    if shape == "user":
        return {"role": "user", "content": text}
    if shape == "pictures":
        return {"role": "user", "content": [
            {"type": "text", "text": text},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": NOTE}}]}
    if shape == "assistant":
        # A cache_control marker is not content: the analysis strips it, the reader ignores it.
        return {"role": "assistant", "content": [{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}]}
    if shape in ("tool-call", "tool-call-text"):
        blocks = [{"type": "text", "text": text}] if shape == "tool-call-text" else []
        return {"role": "assistant", "content": blocks + [{"type": "tool_use", "id": "c1", "name": "look", "input": {}}]}
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": text}]}


def _gemini_contents(specs) -> list[dict]:
    """Covel's Gemini adapter merges a message into the content before it when the role repeats
    and that content holds no function call or response (covel-assembly.md §4)."""
    contents: list[dict] = []
    for shape, text in specs:
        if shape in ("assistant", "tool-call", "tool-call-text"):
            role = "model"
            parts = [{"text": text}] if shape != "tool-call" else []
            if shape != "assistant":
                parts.append({"functionCall": {"name": "look", "args": {}}})
        else:
            role = "user"
            if shape in ("system", "developer", "wrapped", "wrapped-parts"):
                parts = [{"text": OPEN + text + CLOSE}]
            elif shape == "pictures":
                parts = [{"text": text}, {"inlineData": {"mimeType": "image/png", "data": NOTE}}]
            elif shape == "tool-result":
                parts = [{"functionResponse": {"name": "look", "response": {"output": text}}}]
            else:
                parts = [{"text": text}]
        last = contents[-1] if contents else None
        if last is not None and last["role"] == role and not any(
                "functionCall" in p or "functionResponse" in p for p in last["parts"]):
            last["parts"].extend(parts)
        else:
            contents.append({"role": role, "parts": parts})
    return contents


def render(wire: str, specs) -> bytes:
    """An ``llm.calling`` payload as Covel writes it (key order of covel-db.md §2.2-2.3)."""
    model = MODELS[wire]
    if wire == "kernel":
        return orjson.dumps({"runtimeId": "narrator/main", "pluginId": "narrator", "model": model,
                             "messages": _message_list("kernel", specs), "tools": [], "attempt": 0, "startedAt": STARTED})
    if wire == OPENAI_CHAT:
        body: dict = {"model": model, "messages": _message_list(wire, specs), "max_tokens": 512}
    elif wire == OPENAI_RESPONSES:
        # The first system text is the instructions; further leading ones stay system items.
        leading, rest = _leading_system(specs)
        body = {"model": model, "instructions": leading[0] if leading else "",
                "input": [{"role": "system", "content": t} for t in leading[1:]] + _message_list(wire, rest)}
    elif wire == ANTHROPIC_MESSAGES:
        leading, rest = _leading_system(specs)
        body = {"model": model, "max_tokens": 512}
        if leading:
            body["system"] = "\n\n".join(leading)
        body["messages"] = [_anthropic_message(*s) for s in rest]
    else:
        leading, rest = _leading_system(specs)
        body = {"contents": _gemini_contents(rest)}
        if leading:
            body["systemInstruction"] = {"parts": [{"text": t} for t in leading]}
    provider = PROVIDERS[wire]
    return orjson.dumps({
        "providerRequests": [{"schemaVersion": 1, "provider": provider, "protocol": wire, "body": body,
                              "complete": True, "omittedFieldCount": 0, "startedAt": STARTED, "durationMs": 5,
                              "transportAttempt": 0, "statusCode": 200}],
        "maxOutputTokens": 512, "runtimeId": "narrator/main", "pluginId": "narrator", "slot": "story",
        "model": model, "provider": provider, "messages": [{"role": "system", "content": "kernel copy"}],
        "tools": [], "attempt": 0, "startedAt": STARTED,
    })


# --- the two sides ----------------------------------------------------------------------------------

# The cache analysis names a leading system message after the prompt by its own words: its region
# (the turn context, or history) and, for a history difference, its (bag, kind).
_EXTRA_REGION = {"pruned-marker": "history", "legacy-compacted-history": "history",
                 "response-format": "turn-context", "turn-context": "turn-context", "system-message": "history"}
_EXTRA_KIND = {"pruned-marker": ("pre-history", "pruned-marker"),
               "legacy-compacted-history": ("summaries", "legacy-compacted-history")}


def anatomy_labels(raw) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """Per message ``(bag, kind, label, recognised_by)`` by the anatomy, and the kinds of the
    leading system messages after the prompt: the system blocks that came from a message (or a
    Gemini system part) of their own rather than from the prompt's."""
    request = request_for(parse_json_object(raw, merge_data=True)[0])[0]
    anatomy = label_request(request)
    messages = [anatomy.by_message[i] for i in range(len(request.messages))]
    first = request.system[0] if request.system else None
    extras: list[str] = []
    embedded_tc = False

    def visit(nodes) -> None:
        nonlocal embedded_tc
        for node in nodes:
            if node.kind == "system-prompt":
                continue
            if node.source is not None and node.source[0] == "system":
                block = request.system[node.source[1]]
                if block.source != SRC_SYSTEM_BLOCK and (block.source, block.origin_index) != (first.source, first.origin_index):
                    extras.append(node.kind)
                elif node.kind == "turn-context":
                    embedded_tc = True
                continue
            visit(node.children)

    visit(anatomy.roots)
    if embedded_tc and "system-message" in extras:
        # A known difference: the analysis picks the turn context among these leading messages
        # from the messages alone, while the anatomy also counts one it found inside the joined
        # prompt text (an instructions string or Anthropic system string). Without a turn context
        # among the messages the analysis takes the last plain one for it.
        last = len(extras) - 1 - extras[::-1].index("system-message")
        extras[last] = "turn-context"
    return [(n.bag, n.kind, n.label, n.recognised_by) for n in messages], extras


def analysed_calls(raws: list[bytes], eager: bool = False) -> list[Call]:
    """The requests read one after another as the analysis reads one runtime's requests: each
    against the one before, its locator built while the reference still holds (the shortcut).
    ``eager`` classifies every message of a request before the next is read, as naming its pair
    does, so a later request's locator is built after the earlier one has been asked."""
    table = PartTable()
    rules = default_rules()
    calls: list[Call] = []
    ref: Call | None = None
    for n, raw in enumerate(raws):
        dec = decode_payload(raw)
        resolved = rules.resolve(dec.provider, dec.protocol, dec.model)
        layout = build_layout(dec, table, resolved, ref.layout if ref is not None else None)
        call = Call(f"e{n}", "s", f"t{n}", dec, layout, resolved)
        if ref is not None and layout.same_as_ref:
            call.ref = ref
        loc = call.locator()
        if eager:
            for k in range(loc.n):
                loc.classify(k)
        calls.append(call)
        ref = call
    return calls


def cache_labels(call: Call) -> list[tuple]:
    loc = call.locator()
    return [loc.classify(k) for k in range(loc.n)]


def cache_extras(call: Call) -> tuple[list[str], list[tuple[str | None, str | None]]]:
    lay = call.layout
    first = lay.n_tools + lay.n_settings + lay.n_prompt
    span = range(first, call.message_start)
    return ([_extra_region(call, d) for d in span],
            [_kind_at(call, d) for d in span])


def assert_agree(raw: bytes, call: Call) -> None:
    expected, extras = anatomy_labels(raw)
    assert cache_labels(call) == expected
    regions, kinds = cache_extras(call)
    assert regions == [_EXTRA_REGION[k] for k in extras]
    assert kinds == [_EXTRA_KIND.get(k, ("pre-history", "system-insertion")) for k in extras]


# --- generated requests -------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wire=st.sampled_from(WIRES), specs=SPECS, cut=st.integers(min_value=0, max_value=14))
def test_generated_requests_get_the_same_bags(wire, specs, cut):
    # The first request is a prefix of the second, as a turn's history is of the next turn's.
    raws = [render(wire, specs[:cut]), render(wire, specs)]
    for raw, call in zip(raws, analysed_calls(raws)):
        assert_agree(raw, call)


@settings(max_examples=150, deadline=None)
@given(wire=st.sampled_from(WIRES), before=SPECS, after=SPECS)
def test_generated_unrelated_requests_get_the_same_bags(wire, before, after):
    """The second request shares only what it happens to share with the first."""
    raws = [render(wire, before), render(wire, after)]
    for raw, call in zip(raws, analysed_calls(raws)):
        assert_agree(raw, call)


EDITS = st.lists(st.tuples(st.sampled_from(("append", "insert", "delete", "move")), st.integers(0, 20),
                          st.tuples(st.sampled_from(SHAPES), st.sampled_from(TEXTS))), min_size=1, max_size=6)


def _edited(specs: list, edits) -> list[list]:
    """The successive requests of a runtime: each one the one before with one edit, as history
    grows, a depth insertion moves and a tool loop comes and goes."""
    out = [list(specs)]
    current = list(specs)
    for op, index, spec in edits:
        current = list(current)
        at = index % (len(current) + 1)
        if op == "append":
            current.append(spec)
        elif op == "insert":
            current.insert(at, spec)
        elif current:
            moved = current.pop(at % len(current))
            if op == "move":
                current.insert((at * 7) % (len(current) + 1), moved)
        out.append(current)
    return out


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wire=st.sampled_from(WIRES), specs=SPECS, edits=EDITS, eager=st.booleans())
def test_generated_request_sequences_get_the_same_bags(wire, specs, edits, eager):
    raws = [render(wire, s) for s in _edited(specs, edits)]
    for raw, call in zip(raws, analysed_calls(raws, eager)):
        assert_agree(raw, call)


def test_the_rendered_wires_reach_every_bag():
    """The generator is worth running: together the hand-picked lists below, written on every
    wire, put a message into every bag through both sides."""
    lists = [
        [("system", "prompt"), ("system", markers.PRUNED_MARKER_EN), ("user", TEXTS[8]), ("user", "old"),
         ("assistant", "reply"), ("system", TEXTS[19]), ("pictures", "Recent pictures:"),
         ("system", TEXTS[11]), ("user", "now"), ("assistant", "story"), ("user", markers.CLOSING_CUE_EN),
         ("system", "<style-guide>x</style-guide>"), ("tool-call", ""), ("tool-result", "done"), ("user", "hurry")],
        [("system", "prompt"), ("user", "pre-history"), ("system", TEXTS[10]), ("user", markers.ANTHROPIC_CONTINUATION_OPENER),
         ("assistant", "a"), ("system", "depth insertion"), ("user", "b"), ("system", TEXTS[19]), ("user", "now")],
    ]
    seen: set[str] = set()
    for wire in WIRES:
        for specs in lists:
            raws = [render(wire, specs)]
            call = analysed_calls(raws)[0]
            assert_agree(raws[0], call)
            seen.update(bag for bag, *_ in cache_labels(call))
    assert seen == {"pre-history", "summaries", "history", "turn-context", "response-format", "pictures",
                    "current-input", "execution-story", "closing-cue", "post-history", "tool-loop"}


# --- the demo database ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def demo(demo_store):
    return demo_store


def test_every_demo_request_gets_the_same_bags(demo, monkeypatch):
    """Every request of every demo session, through the analyser itself: each call's locator is
    built inside the analysis (reusing the previous request's facts where it may)."""
    seen: list[Call] = []
    pair = PairMaker._pair

    def spy(self, state, prev, cur, kind, gap):
        result = pair(self, state, prev, cur, kind, gap)
        cur.locator()
        seen.append(cur)
        return result

    monkeypatch.setattr(PairMaker, "_pair", spy)
    with open_store(demo) as store:
        sessions = [s.id for s in store.sessions()]
        for session in sessions:
            analyse_session(store, session)
        rows = {row[3]: row[2] for session in sessions for row in store.iter_llm_calling_rows(session)}
    assert len(seen) == len(rows) > 100
    for call in seen:
        assert_agree(rows[call.event_id], call)
