import os

# Views are tested without a display; set before any Qt import.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
