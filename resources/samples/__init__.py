"""Package data: samples (a package so that wheels include its files)."""
