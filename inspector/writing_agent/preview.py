"""The live preview behind the order editor: one slot of one order over one scenario.

It keeps the prepared (turn-independent) assembly of the current order, so moving the turn
slider re-renders only the history and turn segments, and it caches the prefix simulation until
the next edit. Every edit goes through ``edits.apply_edit``: it is validated like the original's
HTTP API, normalised, and its side effects (persona pinned back, history added) are returned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .assembly import AssemblyOptions, AssemblyResult, Prepared, assemble_prepared, prepare
from .blackboard import Blackboard
from .edits import EditResult, apply_edit
from .order import ContextOrder, normalise
from .prefix_sim import PrefixSimulation, simulate_prepared
from .scenario import Scenario

__all__ = ["OrderPreview"]


class OrderPreview:
    def __init__(self, order: ContextOrder, scenario: Scenario | Blackboard, slot_ref: str,
                 options: AssemblyOptions | None = None) -> None:
        self._scenario = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
        self._order = normalise(order).document
        self._slot_ref = slot_ref
        self._options = options or AssemblyOptions()
        self._prepared: Prepared | None = None
        self._results: dict[int, AssemblyResult] = {}
        self._simulation: PrefixSimulation | None = None

    # --- state ---------------------------------------------------------------------------------

    @property
    def order(self) -> ContextOrder:
        return self._order

    @property
    def slot_ref(self) -> str:
        return self._slot_ref

    @property
    def options(self) -> AssemblyOptions:
        return self._options

    @property
    def scenario(self) -> Scenario:
        return self._scenario

    def _invalidate(self) -> None:
        self._prepared = None
        self._results.clear()
        self._simulation = None

    def set_order(self, order: ContextOrder) -> list:
        """Replace the order (e.g. after an undo); returns what normalisation changed."""
        normal = normalise(order)
        self._order = normal.document
        self._invalidate()
        return normal.changes

    def set_slot(self, slot_ref: str) -> None:
        self._slot_ref = slot_ref
        self._invalidate()

    def set_options(self, options: AssemblyOptions) -> None:
        self._options = options
        self._invalidate()

    def set_scenario(self, scenario: Scenario | Blackboard) -> None:
        self._scenario = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
        self._invalidate()

    def apply(self, request: Mapping[str, Any]) -> EditResult:
        """Apply one edit request (``{"action": "move", …}``); raises ``OrderEditError`` and
        leaves the preview unchanged when the edit is rejected."""
        result = apply_edit(self._order, request)
        self._order = result.document
        self._invalidate()
        return result

    # --- views ---------------------------------------------------------------------------------

    def prepared(self) -> Prepared:
        if self._prepared is None:
            self._prepared = prepare(self._order, self._scenario, self._slot_ref, self._options)
        return self._prepared

    @property
    def turn_count(self) -> int:
        return self.prepared().turn_count

    def result(self, turn: int | None = None) -> AssemblyResult:
        """The assembly at ``turn`` (None: the latest); raises ``AssemblyError`` for a bad slot or turn."""
        prepared = self.prepared()
        key = prepared.turn_count if turn is None else turn
        cached = self._results.get(key)
        if cached is None:
            cached = assemble_prepared(prepared, turn)
            self._results[key] = cached
        return cached

    def simulation(self) -> PrefixSimulation:
        """Every turn compared with the one before; ``break_turns`` is the strip's red marks."""
        if self._simulation is None:
            self._simulation = simulate_prepared(self.prepared())
        return self._simulation
