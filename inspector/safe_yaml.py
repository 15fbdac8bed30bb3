"""YAML reading with a bound on alias expansion: the one YAML loader every config and scenario
reader uses.

``yaml.safe_load`` shares an aliased value instead of copying it, so a "billion laughs" document
of a few hundred bytes loads quickly, but any walk over the result (copying, merging, counting,
rendering) meets the alias expanded every time it is used: nine anchors of nine aliases each are
387 million values. :class:`BoundedLoader` counts, while composing, how many nodes the document
holds with every alias expanded in place, and refuses the document (an :class:`AliasLimitError`,
a ``yaml.YAMLError``, so every existing ``except yaml.YAMLError`` reports it with its line and
column) once the aliases alone add more than :data:`MAX_ALIAS_NODES`. An alias to a collection
that contains the alias itself (``&a [*a]``) expands without end and is refused as well.
A document without aliases is never refused by this count.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, SequenceNode

# Nodes that aliases may add to a document, counted with every alias expanded in place. Real
# configs use a handful of anchors for shared snippets; past this the document is a bomb.
MAX_ALIAS_NODES = 1_000_000


class AliasLimitError(ComposerError):
    """A YAML document whose aliases expand past :data:`MAX_ALIAS_NODES` nodes, or into themselves."""


class BoundedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that counts alias expansions while composing and refuses a bomb."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._sizes: dict[int, int] = {}
        self._alias_nodes = 0

    def compose_node(self, parent, index):  # noqa: D401 - PyYAML override
        if self.check_event(AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            if node is not None:
                size = self._sizes.get(id(node))
                if size is None:
                    raise AliasLimitError(None, None, f"the alias *{event.anchor} refers to the collection it "
                                          "is inside, so it expands without end", event.start_mark)
                self._alias_nodes += size
                if self._alias_nodes > MAX_ALIAS_NODES:
                    raise AliasLimitError(None, None, f"the aliases expand to more than {MAX_ALIAS_NODES:,} values "
                                          "(an alias bomb?); write the values out or use fewer aliases",
                                          event.start_mark)
            return super().compose_node(parent, index)
        node = super().compose_node(parent, index)
        sizes = self._sizes
        if isinstance(node, SequenceNode):
            size = 1 + sum(sizes.get(id(child), 1) for child in node.value)
        elif isinstance(node, MappingNode):
            size = 1 + sum(sizes.get(id(k), 1) + sizes.get(id(v), 1) for k, v in node.value)
        else:
            size = 1
        sizes[id(node)] = size
        return node


def load(text: str) -> Any:
    """The first YAML document of ``text`` as plain Python values, like ``yaml.safe_load``, but
    refusing alias bombs (:class:`AliasLimitError`)."""
    loader = BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
