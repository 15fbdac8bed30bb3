"""Package data: translations (a package so that wheels include its files)."""
