"""The conversion matrix page (``docs/conversions.md``): what each conversion keeps, found
by running it, in the page's language.

- :mod:`.cells`: the formats, a cell (what one conversion did with one thing) and how it
  is read from a conversion's result;
- :mod:`.probes`: the rows of the conversion tables (``to_*`` and ``from_*``);
- :mod:`.replies` and :mod:`.events`: the rows of the reply tables, unstreamed and as the
  events a stream class takes;
- :mod:`.directive`: the ``conversion-matrix`` and ``reply-matrix`` directives, which write
  the cells in the page's language, and the catalog entries of their words.

It reads the package through its public API only, as a user would.
"""

from __future__ import annotations

from .directive import merge_contexts, register

__all__ = ["merge_contexts", "register"]
