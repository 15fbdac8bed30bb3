"""Package data: tokenizers (a package so that wheels include its files)."""
