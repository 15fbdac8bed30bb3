"""ChatLuna v2 prompt zones (spec B): blocks, variables and environment assembled into the system
zone, context messages and an input transformer; the template language those blocks use; the
static diagnostics an editor shows; and the ``{{ variable }}`` templates of Covel's runtime bodies.

Headless: nothing here imports Qt. The editor builds on ``check``, ``render``, ``simulate_turns``
and the config model.
"""

from __future__ import annotations

from .blocks import (
    RenderedBlock,
    RenderResult,
    TurnRow,
    TurnSimulator,
    build_environment,
    render,
    simulate_turns,
)
from .config import (
    Block,
    ConfigError,
    Contributor,
    Environment,
    PromptConfig,
    Settings,
    Variable,
    dump_config,
    load_config,
    loads_config,
    save_config,
)
from .diagnostics import Diagnostic, check
from .template import Template, parse

__all__ = [
    "Block",
    "ConfigError",
    "Contributor",
    "Diagnostic",
    "Environment",
    "PromptConfig",
    "RenderResult",
    "RenderedBlock",
    "Settings",
    "Template",
    "TurnRow",
    "TurnSimulator",
    "Variable",
    "build_environment",
    "check",
    "dump_config",
    "load_config",
    "loads_config",
    "parse",
    "render",
    "save_config",
    "simulate_turns",
]
