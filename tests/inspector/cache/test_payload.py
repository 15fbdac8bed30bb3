"""Reading a payload as far as the provider body (inspector.cache.payload): the body's end found where a
plain search finds it, and a decode hint gives what decoding gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inspector.cache.payload import _AFTER_COMPLETE_BODY, _find_after_complete_body, decode_payload, decoded_from_hint
from inspector.store import open_store


def test_a_decode_hint_gives_what_decoding_gives(demo_store):
    """The worker process takes what the app's side decoded of a row (_Decoded.hint) instead
    of decoding it again: the same, field for field; bytes that do not fit are decoded."""
    with open_store(demo_store) as store:
        payloads = [row[2] for s in store.sessions() for row in store.iter_llm_calling_rows(s.id)]
    hinted = 0
    for raw in payloads:
        try:
            dec = decode_payload(raw)
        except ValueError:
            continue
        hint = dec.hint()
        hinted += hint is not None
        assert decoded_from_hint(raw, hint) == dec
        longer = raw + b" "
        assert decoded_from_hint(longer, hint) == decode_payload(longer)
    assert hinted
    kernel_only = b'{"messages":[{"role":"user","content":"hi"}],"runtimeId":"r"}'  # no provider body: no hint
    assert decode_payload(kernel_only).hint() is None
    assert decoded_from_hint(kernel_only, None) == decode_payload(kernel_only)



_MARKER_PIECES = [_AFTER_COMPLETE_BODY, _AFTER_COMPLETE_BODY[:-1], _AFTER_COMPLETE_BODY[3:], b"F", b"FF",
                  b',"complete":true,"omittedF', b"x", "灯".encode(), b'{"a":1}']


@given(st.lists(st.sampled_from(_MARKER_PIECES), max_size=60), st.integers(min_value=0, max_value=400))
def test_the_body_end_is_found_where_a_plain_search_finds_it(pieces, start):
    raw = b"".join(pieces)
    assert _find_after_complete_body(raw, start) == raw.find(_AFTER_COMPLETE_BODY, start)


def test_a_body_full_of_the_rare_letter_is_searched_plainly():
    raw = b"F" * 100 + _AFTER_COMPLETE_BODY + b"F" * 5 + _AFTER_COMPLETE_BODY
    assert _find_after_complete_body(raw, 0) == 100
    assert _find_after_complete_body(raw, 101) == raw.rfind(_AFTER_COMPLETE_BODY)
    assert _find_after_complete_body(b"F" * 100, 0) == -1
