"""Prompt Inspector's headless core: stores, wire protocols, request anatomy, tokens, prefix analysis.

Nothing in this package imports Qt; every number a view shows is computed here.
"""

__version__ = "0.1.0"
