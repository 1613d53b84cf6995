"""The chat cards: messages as HTML, with their labels in the display language."""

from ._labels import display_language, set_display_language

__all__ = ["display_language", "set_display_language"]
