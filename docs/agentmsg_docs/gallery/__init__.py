"""The tutorials: sphinx-gallery's examples, their downloads and notebooks, the chat cards.

``docs/conf.py`` names sphinx-gallery's two hooks here, as ``agentmsg_docs.gallery.*``:
the order of the tutorials and the reset before each example.
"""

from agentmsg_docs.gallery.tutorials import TutorialOrder, reset_deterministic

__all__ = ["TutorialOrder", "reset_deterministic"]
