"""The translation: languages, catalogs, glossaries and what a translated page shows of it."""
