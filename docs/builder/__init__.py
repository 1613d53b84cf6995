"""The steps of the documentation build (``docs/build.py`` calls them)."""
