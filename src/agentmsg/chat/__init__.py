"""The role messages (:class:`HumanMessage`, :class:`AIMessage`, ...) and their rules."""

from ._messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionCall,
    FunctionMessage,
    HumanMessage,
    Message,
    PluginInfo,
    SearchInfo,
    SystemMessage,
    TokenUsage,
)

__all__ = [
    "AIMessage",
    "AIMessageChunk",
    "ChatMessage",
    "FunctionCall",
    "FunctionMessage",
    "HumanMessage",
    "Message",
    "PluginInfo",
    "SearchInfo",
    "SystemMessage",
    "TokenUsage",
]
