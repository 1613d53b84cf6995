"""The role messages (:class:`HumanMessage`, :class:`AIMessage`, ...) and their rules."""

from ._messages import *  # noqa: F403
from ._messages import __all__ as __all__
