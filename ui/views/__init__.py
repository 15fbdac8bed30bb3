"""Widgets that show one thing each; they format what the core computed."""
