"""The context budget of one request: its input tokens against the model's context window, and
the output it asks for (``max_tokens`` and its kin) against the model's output ceiling, from the
``[[model_limits]]`` rows of the rules table (inspector.cache.model_limits).

A model the table does not know has no budget (``known`` is False): nothing is guessed. A request
that does not say how much output it wants reserves nothing (``requested_output`` None): the
provider's default applies, which differs by provider and is not in the table.

The input is the provider's own count when the response reported one, else the local count (exact
with the model's tokenizer or its proxy), else Covel's estimate; ``input_source`` says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.cache.model_limits import ModelLimits
from inspector.json_guards import int_accepting_integral_float

__all__ = ["OUTPUT_FIELDS", "ContextBudget", "context_budget", "request_budget", "requested_output_tokens"]

# Where a body asks for its output ceiling, in the order read: OpenAI's chat (newer name first),
# Anthropic's and OpenAI's chat (older), OpenAI's responses, Gemini's generationConfig, and
# Covel's kernel payload.
OUTPUT_FIELDS = ("max_completion_tokens", "max_tokens", "max_output_tokens", "generationConfig.maxOutputTokens",
                 "maxOutputTokens")

# Problem codes (a view words them; the JSON carries them).
INPUT_OVER_WINDOW = "input-over-window"
INPUT_OVER_INPUT_LIMIT = "input-over-input-limit"
OUTPUT_OVER_MODEL_MAX = "output-over-model-max"
TOTAL_OVER_WINDOW = "input-plus-output-over-window"


def requested_output_tokens(sampling: Mapping[str, Any] | None) -> tuple[int | None, str | None]:
    """The output ceiling a request body asks for and the field it is in; (None, None) when the
    body does not say (or says something that is not a whole number)."""
    if not sampling:
        return None, None
    for name in OUTPUT_FIELDS:
        value: Any = sampling
        for key in name.split("."):
            value = value.get(key) if isinstance(value, Mapping) else None
        number = int_accepting_integral_float(value)
        if number is not None and number >= 0:
            return number, name
    return None, None


@dataclass(frozen=True, slots=True)
class ContextBudget:
    model: str | None
    input_tokens: int
    input_source: str  # "reported", "counted" or "estimated"
    requested_output: int | None
    output_field: str | None
    limits: ModelLimits | None
    pattern: str | None  # the rules-table pattern that chose ``limits``
    problems: tuple[str, ...] = field(default=())

    @property
    def known(self) -> bool:
        return self.limits is not None

    @property
    def window(self) -> int | None:
        return self.limits.context_window if self.limits is not None else None

    @property
    def reserved_output(self) -> int:
        """The output tokens the window must keep free for this request (0 when the request does
        not ask, or when the model's output does not share the window)."""
        if self.limits is None or self.requested_output is None or not self.limits.output_in_window:
            return 0
        return self.requested_output

    @property
    def free(self) -> int | None:
        """Window tokens neither the input nor the reserved output takes (negative: over)."""
        if self.limits is None:
            return None
        return self.limits.context_window - self.input_tokens - self.reserved_output

    @property
    def input_share(self) -> float | None:
        return None if self.limits is None else self.input_tokens / self.limits.context_window

    @property
    def output_share(self) -> float | None:
        return None if self.limits is None else self.reserved_output / self.limits.context_window

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "inputTokens": self.input_tokens,
            "inputSource": self.input_source,
            "requestedOutput": self.requested_output,
            "outputField": self.output_field,
            "known": self.known,
            "limits": None if self.limits is None else {**self.limits.to_json(), "pattern": self.pattern},
            "reservedOutput": self.reserved_output,
            "free": self.free,
            "problems": list(self.problems),
        }


def context_budget(model: str | None, input_tokens: int, input_source: str, requested_output: int | None,
                   output_field: str | None, found: tuple[ModelLimits, str] | None) -> ContextBudget:
    """The budget arithmetic: which limits the request breaks (``found`` from
    :meth:`inspector.cache.rules.RuleSet.limits_for`)."""
    if found is None:
        return ContextBudget(model, input_tokens, input_source, requested_output, output_field, None, None)
    limits, pattern = found
    problems: list[str] = []
    if input_tokens > limits.context_window:
        problems.append(INPUT_OVER_WINDOW)
    elif input_tokens > limits.input_ceiling:
        problems.append(INPUT_OVER_INPUT_LIMIT)
    if requested_output is not None and requested_output > limits.max_output_tokens:
        problems.append(OUTPUT_OVER_MODEL_MAX)
    if (requested_output is not None and limits.output_in_window and input_tokens <= limits.context_window
            and input_tokens + requested_output > limits.context_window):
        problems.append(TOTAL_OVER_WINDOW)
    return ContextBudget(model, input_tokens, input_source, requested_output, output_field, limits, pattern,
                         tuple(problems))


def request_budget(detail: Any, rules: Any = None) -> ContextBudget:
    """The budget of a :class:`inspector.views.RequestDetail` under ``rules`` (a
    :class:`inspector.cache.rules.RuleSet`; the shipped table when None)."""
    if rules is None:
        from inspector.cache.rules import default_rules

        rules = default_rules()
    row = detail.record
    model = row.model or detail.request.model
    if isinstance(row.input_tokens, int) and row.input_tokens > 0:
        tokens, source = row.input_tokens, "reported"
    elif detail.exact_counted:
        tokens, source = detail.total_exact, "counted"
    else:
        tokens, source = detail.total_estimate, "estimated"
    requested, where = requested_output_tokens(detail.request.sampling)
    if requested is None and detail.kernel is not None and detail.kernel is not detail.request:
        requested, where = requested_output_tokens(detail.kernel.sampling)
    return context_budget(model, tokens, source, requested, where, rules.limits_for(model))
