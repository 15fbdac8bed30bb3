"""A deterministic, Covel-shaped demo ``covel.db`` (see ``generator``)."""

from .generator import DEMO_APPLICATION_ID, DEMO_FORMAT, DemoSummary, demo_format, generate_demo, is_demo_file

__all__ = ["DEMO_APPLICATION_ID", "DEMO_FORMAT", "DemoSummary", "demo_format", "generate_demo", "is_demo_file"]
