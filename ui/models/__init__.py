"""Models of what the views show: laid out from the core's answers, never deciding them."""
