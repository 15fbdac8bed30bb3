"""Reading a preset's YAML the way ChatLuna does (js-yaml 4, the YAML 1.2 core schema), on top
of :mod:`inspector.safe_yaml`'s alias-bounded loader.

PyYAML follows YAML 1.1, where ``yes``/``no``/``on``/``off`` are booleans, ``12:30`` is a
sexagesimal number and ``010`` is octal; js-yaml reads the first two as strings and ``010`` as
ten. A preset keyword ``- on`` or a prompt ``content: no`` must stay text, so this loader resolves
plain scalars with the 1.2 core rules: booleans are only ``true``/``false`` (three spellings),
integers decimal, ``0x``, ``0o`` or ``0b`` (``_`` allowed between digits, as js-yaml allows),
floats without the sexagesimal form.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from inspector import safe_yaml

_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^(?:[-+]?[0-9][0-9_]*|[-+]?0b[01_]+|[-+]?0o[0-7_]+|[-+]?0x[0-9a-fA-F_]+)$")
_FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
                    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")


class CoreLoader(safe_yaml.BoundedLoader):
    """:class:`inspector.safe_yaml.BoundedLoader` with YAML 1.2 core-schema scalars."""


CoreLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
    for first, resolvers in safe_yaml.BoundedLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOL, list("tTfF"))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789"))


def _construct_int(loader: CoreLoader, node: yaml.ScalarNode) -> int:
    text = loader.construct_scalar(node).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    for prefix, base in (("0b", 2), ("0o", 8), ("0x", 16)):
        if text.startswith(prefix):
            return sign * int(text[2:], base)
    return sign * int(text)


CoreLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def load(text: str) -> Any:
    """The first YAML document of ``text``; raises ``yaml.YAMLError`` (alias bombs included)."""
    loader = CoreLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
