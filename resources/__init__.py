"""Data files: tokenizer ranks, themes, icons, sample documents, the provider rules table."""

from pathlib import Path

RESOURCES_DIR = Path(__file__).resolve().parent


def resource_path(*parts: str) -> Path:
    return RESOURCES_DIR.joinpath(*parts)
