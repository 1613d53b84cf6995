"""The chat cards: messages as HTML, with their labels in the display language.

``_html.py`` writes a card (:meth:`Msg._repr_html_ <agentmsg.Msg._repr_html_>` imports it
on first use) with the style sheet ``card.css``; ``_labels.py`` writes its labels in the
display language from the catalogs ``locale/<lang>/LC_MESSAGES/agentmsg.po``
(:func:`card_labels` reads what a language translates).
"""

from ._labels import card_labels, display_language, set_display_language

__all__ = ["card_labels", "display_language", "set_display_language"]
