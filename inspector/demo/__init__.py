"""A deterministic, Covel-shaped demo ``covel.db`` (see ``generator``).

Recognising a demo file (``edition``) imports nothing else; the generator (and the simulation and
the store it writes through) is imported when ``generate_demo`` or ``DemoSummary`` is first used,
so the app can check its cached demo without loading what writes one.
"""

from __future__ import annotations

from typing import Any

from .edition import DEMO_APPLICATION_ID, DEMO_FORMAT, demo_format, is_demo_file

__all__ = ["DEMO_APPLICATION_ID", "DEMO_FORMAT", "DemoSummary", "demo_format", "generate_demo", "is_demo_file"]

_FROM_GENERATOR = ("DemoSummary", "generate_demo")


def __getattr__(name: str) -> Any:
    if name in _FROM_GENERATOR:
        from . import generator

        return getattr(generator, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
