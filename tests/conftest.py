import os

# Views are tested without a display; set before any Qt import.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# PostgreSQL servers, databases and the backend parametrisation, for core and view tests alike.
pytest_plugins = ["pg_fixtures"]
