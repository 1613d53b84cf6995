"""``agentmsg.__all__`` is exactly the documented public API (nothing exported by accident)."""

from __future__ import annotations

import pathlib
import re

import agentmsg

# The public names, as docs/api.rst documents them. Adding a public name means adding it
# here and to the API page.
DOCUMENTED = [
    "AIMessage",
    "AIMessageChunk",
    "AnthropicStream",
    "AudioBlock",
    "BLOCK_TYPES",
    "Base64Source",
    "BlockType",
    "ChatMessage",
    "ContentBlock",
    "Conversion",
    "FunctionCall",
    "FunctionMessage",
    "GeminiStream",
    "HumanMessage",
    "ImageBlock",
    "Loss",
    "MediaError",
    "MediaSource",
    "Message",
    "MessageAttributeError",
    "MessageError",
    "Msg",
    "OpenAIChatStream",
    "OpenAIResponsesStream",
    "Parsed",
    "PluginInfo",
    "SearchInfo",
    "SystemMessage",
    "TextBlock",
    "ThinkingBlock",
    "TokenCountError",
    "TokenUsage",
    "ToolResultBlock",
    "ToolUseBlock",
    "URLSource",
    "VideoBlock",
    "block_from_bytes",
    "block_from_file",
    "block_from_url",
    "card_labels",
    "detect_media_type",
    "deterministic",
    "display_language",
    "estimate_tokens",
    "from_anthropic",
    "from_gemini",
    "from_openai_chat",
    "from_openai_responses",
    "json_schema",
    "set_display_language",
    "to_anthropic",
    "to_gemini",
    "to_openai_chat",
    "to_openai_responses",
]
API_PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "api.rst"


class TestExportedMembers:
    """The names ``agentmsg`` exports."""

    def test_all_is_the_documented_names(self):
        """``__all__`` holds exactly the documented public names."""
        assert sorted(DOCUMENTED) == sorted(agentmsg.__all__)

    def test_all_is_sorted_without_duplicates(self):
        """``__all__`` is kept sorted (as ruff's RUF022 sorts it) and has no duplicates."""
        assert len(set(agentmsg.__all__)) == len(agentmsg.__all__)
        constants = [name for name in agentmsg.__all__ if name.isupper()]
        classes = [name for name in agentmsg.__all__ if name[0].isupper() and not name.isupper()]
        functions = [name for name in agentmsg.__all__ if name[0].islower()]
        assert constants + sorted(classes) + sorted(functions) == agentmsg.__all__

    def test_every_name_is_importable(self):
        """Each exported name is an attribute of the package."""
        assert [] == [name for name in agentmsg.__all__ if not hasattr(agentmsg, name)]

    def test_star_import(self):
        """``from agentmsg import *`` brings exactly ``__all__``."""
        namespace: dict[str, object] = {}
        exec("from agentmsg import *", namespace)
        namespace.pop("__builtins__")

        assert sorted(agentmsg.__all__) == sorted(namespace)

    def test_api_page_documents_every_name(self):
        """docs/api.rst has an entry for each exported name, and no other."""
        page = API_PAGE.read_text()
        documented = set(re.findall(r"^\.\. auto\w+:: agentmsg\.(\w+)", page, re.M))
        documented |= set(re.findall(r"^\.\. py:data:: (\w+)", page, re.M))

        assert sorted(DOCUMENTED) == sorted(documented)

    def test_public_classes_name_the_package(self):
        """Public classes say they live in ``agentmsg``, where users import them from."""
        classes = [
            name
            for name in agentmsg.__all__
            if isinstance(getattr(agentmsg, name), type)
            and not getattr(getattr(agentmsg, name), "__required_keys__", None)
        ]

        assert {name: "agentmsg" for name in classes} == {
            name: getattr(agentmsg, name).__module__ for name in classes
        }
        assert "<class 'agentmsg.Msg'>" == str(agentmsg.Msg)

    def test_version(self):
        """The package has a version string."""
        assert isinstance(agentmsg.__version__, str)
        assert re.fullmatch(r"\d+\.\d+\.\d+.*", agentmsg.__version__)
