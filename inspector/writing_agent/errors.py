"""The writing agent's rejected edits as a person reads them, in the locale's language.

The edit route's messages are the original's, verbatim and in Chinese (A.11, ``edits.ERROR_*``):
``OrderEditError.message`` keeps them so the JSON and the tests compare with Covel. A person at an
English command line reads them in English; each has an English source text here, and the shared
catalog (:mod:`inspector.messages`) gives back the original's exact Chinese in a Chinese session.
The editor's own messages are English templates already and go through the same catalog.
"""

from __future__ import annotations

from inspector.messages import localized, marked

from .edits import (
    ERROR_ANCHOR_ARGS,
    ERROR_BAD_ACTION,
    ERROR_DROP_OUTSIDE,
    ERROR_EMPTY_REF,
    ERROR_INDEX_OUT_OF_RANGE,
    ERROR_INSERT_WITHOUT_REF,
    ERROR_MOVE_ARGS,
    ERROR_NO_ORDER,
    ERROR_PROJECTION_ARGS,
    ERROR_REPLACE_UNPARSEABLE,
    ERROR_SLOT_NOT_FOUND,
)
from .order import ERROR_WORKER_SET_NOT_JSON, OrderEditError

__all__ = ["ENGLISH_SOURCES", "edit_error_text", "english_source"]

# Each error template → its English source text in the catalog (the same placeholders).
ENGLISH_SOURCES = {
    ERROR_BAD_ACTION: marked("action must be move | set_anchor | set_projection | replace"),
    ERROR_INDEX_OUT_OF_RANGE: marked("insert index out of range"),
    ERROR_REPLACE_UNPARSEABLE: marked("context_order cannot be parsed"),
    ERROR_MOVE_ARGS: marked("move needs slotRef, index, delta(±1)"),
    ERROR_ANCHOR_ARGS: marked("set_anchor needs slotRef, index, anchor(pre_history|post_history)"),
    ERROR_PROJECTION_ARGS: marked("set_projection needs slotRef, index, projection"),
    ERROR_NO_ORDER: marked("no context projection order to edit yet; finish the play topology / final refinement "
                           "first, or submit a complete replace"),
    ERROR_SLOT_NOT_FOUND: marked("slot {ref} not found"),
    ERROR_WORKER_SET_NOT_JSON: marked("设计.worker集 cannot be parsed as JSON"),
    ERROR_DROP_OUTSIDE: marked("drop position {dest} is outside 0..{count}"),
    ERROR_INSERT_WITHOUT_REF: marked("an insert needs a ref (a blackboard tag, worker.persona or 对话.历史)"),
    ERROR_EMPTY_REF: marked("a ref cannot be empty; remove the insert instead"),
}


def english_source(error: OrderEditError) -> str:
    """The English source text of ``error``'s template (the template itself when it has none)."""
    return ENGLISH_SOURCES.get(error.template, error.template)


def edit_error_text(error: OrderEditError, lang: str | None = None) -> str:
    """``error`` as a person reads it in ``lang`` (default: the locale's language)."""
    return localized(english_source(error), lang=lang, **error.values)
