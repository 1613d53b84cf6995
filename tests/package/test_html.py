"""Tests for the HTML chat cards (``src/agentmsg/_html.py`` and ``Msg._repr_html_``)."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest

from agentmsg import Msg, deterministic
from agentmsg.cards._html import INLINE_MEDIA_LIMIT, JSON_LIMIT, STYLE, render_blocks, render_card
from samples import PNG, PNG_B64, WAV_B64

STAMP = "2025-01-01 09:00:00.000"
VOID = frozenset({"img", "br", "hr", "meta", "link", "input", "source", "wbr"})


# -- a small DOM, so tests assert on structure rather than on substrings ------------------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def iter(self) -> list[Node]:
        found = [self]
        for child in self.children:
            if isinstance(child, Node):
                found.extend(child.iter())
        return found

    def find_all(self, tag: str, cls: str | None = None) -> list[Node]:
        return [
            node for node in self.iter() if node.tag == tag and (cls is None or cls in node.classes)
        ]

    def find(self, tag: str, cls: str | None = None) -> Node:
        found = self.find_all(tag, cls)
        assert len(found) == 1, f"expected one <{tag} class={cls}>, found {len(found)}"
        return found[0]


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        keys = [key for key, _ in attrs]
        assert len(keys) == len(set(keys)), f"duplicate attribute in <{tag}>: {keys}"
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(markup: str) -> Node:
    """Parse *markup*, checking that every element is closed in order."""
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    assert [node.tag for node in builder.stack] == ["#root"]
    return builder.root


def card(content: object, **fields: object) -> Node:
    """The parsed ``<article>`` of a Msg with *content*."""
    options: dict[str, object] = {"name": "Jarvis", "role": "assistant", "timestamp": STAMP}
    options.update(fields)
    msg = Msg(content=content, id="msg-1", **options)  # type: ignore[arg-type]
    return parse(msg._repr_html_()).find("article")


def media(kind: str, source: dict[str, str]) -> Any:
    """An image, audio or video block (typed loosely: the tests also build bad ones)."""
    return {"type": kind, "source": source}


# -- the card -----------------------------------------------------------------------------


class TestReprHtml:
    """``Msg._repr_html_``: the card as a whole."""

    def test_header_shows_role_name_kind_and_time(self) -> None:
        """The header has the role badge, the sender in bold, the class name and the time."""
        article = card("Hello")
        head = article.find("div", "agentmsg-head")
        assert "assistant" == head.find("span", "agentmsg-badge").text()
        assert "Jarvis" == head.find("strong", "agentmsg-name").text()
        assert "Msg" == head.find("span", "agentmsg-kind").text()
        time = head.find("time")
        assert (STAMP, STAMP) == (time.attrs["datetime"], time.text())

    def test_article_carries_role_class_id_and_label(self) -> None:
        """The article names its role in a class, its message id and an accessible label."""
        article = card("Hello", role="user", name="Ada")
        assert ["agentmsg-card", "agentmsg-role-user"] == article.classes
        assert "msg-1" == article.attrs["data-agentmsg-id"]
        assert "user message from Ada" == article.attrs["aria-label"]

    def test_label_of_a_sender_named_after_its_role(self) -> None:
        """A reply read from a model API is named after its role: the label says it once."""
        article = card("Hello", role="assistant", name="assistant")
        assert "assistant message" == article.attrs["aria-label"]

    def test_string_content_is_one_text_element(self) -> None:
        """A string content is shown as one pre-wrapped text element, whole."""
        text = "Line one\nLine two\n" + "long " * 20_000
        body = card(text).find("div", "agentmsg-body")
        texts = body.find_all("div", "agentmsg-text")
        assert [text] == [node.text() for node in texts]

    def test_carries_its_own_style(self) -> None:
        """Every card embeds the shared style block as its first child."""
        article = card("Hello")
        first = article.children[0]
        assert isinstance(first, Node)
        assert ("style", STYLE) == (first.tag, first.text())

    def test_same_message_same_html(self) -> None:
        """Rendering is a pure function of the message: twice gives the same text."""
        msg = Msg(
            "Jarvis",
            [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "x"}],
            "assistant",
        )
        assert msg._repr_html_() == msg._repr_html_()

    def test_deterministic_mode_gives_identical_cards(self) -> None:
        """Two messages built under the same seed render to identical HTML."""

        def build() -> str:
            with deterministic(seed=3):
                return Msg("Ada", "Hi", "user")._repr_html_()

        assert build() == build()

    def test_no_element_ids(self) -> None:
        """Cards use no ``id`` attributes, which could clash or vary between renders."""
        blocks = [
            {"type": "thinking", "thinking": "t"},
            {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": 1}},
            {"type": "tool_result", "id": "c1", "name": "f", "output": "ok"},
        ]
        ids = [node.attrs["id"] for node in card(blocks).iter() if "id" in node.attrs]
        assert [] == ids

    def test_every_class_is_prefixed(self) -> None:
        """Every class in the markup and in the style starts with ``agentmsg-``."""
        blocks = [
            {"type": "text", "text": "a"},
            {"type": "thinking", "thinking": "t"},
            media("image", {"type": "base64", "media_type": "image/png", "data": PNG_B64}),
            media("audio", {"type": "url", "url": "https://example.com/a.mp3"}),
            {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": [1]}},
            {"type": "tool_result", "id": "c1", "name": "f", "output": {"k": 1}},
        ]
        classes = {cls for node in card(blocks, metadata={"m": 1}).iter() for cls in node.classes}
        css_classes = set(re.findall(r"\.([A-Za-z][\w-]*)", STYLE)) - {
            "vscode-dark",
            "vscode-light",
        }
        assert set() == {cls for cls in classes | css_classes if not cls.startswith("agentmsg-")}

    def test_importing_the_package_does_not_import_the_renderer(self) -> None:
        """``import agentmsg`` leaves ``agentmsg._html`` and :mod:`html` unimported."""
        loaded = "sorted({'agentmsg.cards._html', 'html'} & set(sys.modules))"
        code = f"import sys, agentmsg; print({loaded})"
        assert "[]" == subprocess.check_output([sys.executable, "-c", code], text=True).strip()


class TestEscaping:
    """Every piece of message text reaches the page as text, never as markup."""

    def test_text_with_script(self) -> None:
        """A ``<script>`` in the text is shown literally and creates no element."""
        text = '<script>alert("x")</script> & more'
        markup = Msg("Ada", text, "user")._repr_html_()
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in markup
        article = parse(markup)
        assert [] == article.find_all("script")
        assert text == article.find("div", "agentmsg-text").text()

    def test_name(self) -> None:
        """A sender name with markup is shown as text, in the label too."""
        name = '<b onclick="x">Eve</b>'
        article = card("hi", name=name)
        assert [] == article.find_all("b")
        assert name == article.find("strong", "agentmsg-name").text()
        assert f"assistant message from {name}" == article.attrs["aria-label"]

    def test_thinking(self) -> None:
        """Thinking text with markup stays text inside the folded section."""
        thought = "<img src=x onerror=alert(1)>"
        article = card([{"type": "thinking", "thinking": thought}])
        assert [] == article.find_all("img")
        assert thought == article.find("details").find("div", "agentmsg-text").text()

    def test_tool_call_fields(self) -> None:
        """Tool name, call id, argument names and values are all escaped."""
        block = {"type": "tool_use", "id": '"><i>', "name": "<u>", "input": {"<k>": "<v>"}}
        table = card([block]).find("table")
        assert [] == table.find_all("i") + table.find_all("u")
        codes = [node.text() for node in table.find("caption").find_all("code")]
        assert ["<u>", '"><i>'] == codes
        row = table.find("tbody").find("tr")
        assert ("<k>", "<v>") == (row.find("th").text(), row.find("td").text())

    def test_tool_output_text_and_json(self) -> None:
        """Tool output as text and as JSON is escaped."""
        blocks = [
            {"type": "tool_result", "id": "a", "name": "f", "output": "<em>plain</em>"},
            {"type": "tool_result", "id": "b", "name": "f", "output": {"html": "<em>x</em>"}},
        ]
        article = card(blocks)
        assert [] == article.find_all("em")
        first, second = article.find_all("table")
        assert "<em>plain</em>" == first.find("td").text()
        assert '{\n  "html": "<em>x</em>"\n}' == second.find("pre").text()

    def test_url_with_quote_cannot_add_attributes(self) -> None:
        """A remote URL holding a double quote stays inside the href value."""
        url = 'https://example.com/a.png" onerror="alert(1)'
        article = card([media("image", {"type": "url", "url": url})])
        link = article.find("a")
        assert (url, url) == (link.attrs["href"], link.text())
        assert [] == [node for node in article.iter() if "onerror" in node.attrs]

    def test_data_url_with_quote_cannot_add_attributes(self) -> None:
        """An inlined data: URL holding a double quote stays inside the src value."""
        url = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>" onload="x'
        img = card([media("image", {"type": "url", "url": url})]).find("img")
        assert ["alt", "class", "src"] == sorted(img.attrs)
        assert url == img.attrs["src"]

    def test_media_type_with_quote_cannot_add_attributes(self) -> None:
        """A base64 media type holding quotes stays inside the src and alt values."""
        media_type = 'image/png" onerror="alert(1)'
        source = {"type": "base64", "media_type": media_type, "data": PNG_B64}
        img = card([media("image", source)]).find("img")
        assert ["alt", "class", "src"] == sorted(img.attrs)
        assert f"data:{media_type};base64,{PNG_B64}" == img.attrs["src"]

    def test_metadata(self) -> None:
        """Metadata keys and values are escaped."""
        table = card("hi", metadata={"<k>": "<script>"}).find("table", "agentmsg-metadata")
        assert [] == table.find_all("script")
        row = table.find("tbody").find("tr")
        assert ("<k>", "<script>") == (row.find("th").text(), row.find("td").text())

    def test_role_class_is_sanitised(self) -> None:
        """An arbitrary role reaches the class attribute as letters, digits and dashes."""
        article = parse(render_card(name="n", role='x" onclick="y', content="c")).find("article")
        assert ["agentmsg-card", "agentmsg-role-x--onclick--y"] == article.classes
        assert 'x" onclick="y' == article.find("span", "agentmsg-badge").text()
        assert "onclick" not in article.attrs

    def test_tabs_survive_restructuredtext(self) -> None:
        """Tabs are written as ``&#9;`` (sphinx-gallery's raw HTML goes through rST)."""
        markup = Msg("Ada", "a\tb", "user")._repr_html_()
        assert "\t" not in markup
        assert "a\tb" == parse(markup).find("div", "agentmsg-text").text()


class TestBlocks:
    """How each kind of content block is shown."""

    def test_thinking_is_folded(self) -> None:
        """Thinking sits in a closed ``<details>`` whose summary gives its length."""
        details = card([{"type": "thinking", "thinking": "abc"}]).find("details")
        assert "agentmsg-thinking" in details.classes
        assert "open" not in details.attrs
        assert "Thinking (3 characters)" == details.find("summary").text()

    def test_blocks_keep_their_order(self) -> None:
        """Blocks appear in content order."""
        blocks = [
            {"type": "text", "text": "first"},
            {"type": "thinking", "thinking": "second"},
            {"type": "text", "text": "third"},
        ]
        body = card(blocks).find("div", "agentmsg-body")
        shown = [child.tag for child in body.children if isinstance(child, Node)]
        assert ["div", "details", "div"] == shown

    def test_empty_content(self) -> None:
        """Empty text and an empty block list say so rather than render nothing."""
        assert "(empty text)" == card("").find("p", "agentmsg-text").text()
        assert "(no content)" == card([]).find("p", "agentmsg-muted").text()

    def test_tool_call_table(self) -> None:
        """A tool call is a table: caption with name and id, one row per argument."""
        block = {
            "type": "tool_use",
            "id": "call_7",
            "name": "get_weather",
            "input": {"city": "Lima", "days": 3, "units": {"temp": "C"}, "hourly": False},
        }
        table = card([block]).find("table", "agentmsg-tool-use")
        caption = table.find("caption")
        assert "Tool call get_weather id call_7" == caption.text()
        header = [(th.text(), th.attrs.get("scope")) for th in table.find("thead").find_all("th")]
        assert [("argument", "col"), ("value", "col")] == header
        rows = table.find("tbody").find_all("tr")
        keys = [(row.find("th").text(), row.find("th").attrs.get("scope")) for row in rows]
        assert [("city", "row"), ("days", "row"), ("units", "row"), ("hourly", "row")] == keys
        city, days, units, hourly = (row.find("td") for row in rows)
        assert "Lima" == city.find("span", "agentmsg-str").text()
        assert "3" == days.find("code").text()
        assert '{\n  "temp": "C"\n}' == units.find("pre", "agentmsg-json").text()
        assert "false" == hourly.find("code").text()

    def test_tool_call_without_arguments(self) -> None:
        """A tool call with an empty input says so in its one row."""
        block = {"type": "tool_use", "id": "c", "name": "now", "input": {}}
        cell = card([block]).find("tbody").find("td")
        assert ("no arguments", "2") == (cell.text(), cell.attrs["colspan"])

    def test_tool_result_text(self) -> None:
        """A text output is shown as wrapped text in the output row."""
        block = {"type": "tool_result", "id": "c", "name": "f", "output": "18 °C\ncloudy"}
        table = card([block]).find("table", "agentmsg-tool-result")
        assert "Tool result f id c" == table.find("caption").text()
        row = table.find("tr")
        assert ("output", "row") == (row.find("th").text(), row.find("th").attrs["scope"])
        assert "18 °C\ncloudy" == row.find("div", "agentmsg-text").text()

    def test_tool_result_json_string_is_pretty_printed(self) -> None:
        """An output string holding a JSON object is shown pretty-printed."""
        output = json.dumps({"temp": 18, "sky": "cloudy"})
        block = {"type": "tool_result", "id": "c", "name": "f", "output": output}
        pre = card([block]).find("pre", "agentmsg-json")
        assert '{\n  "temp": 18,\n  "sky": "cloudy"\n}' == pre.text()

    def test_tool_result_broken_json_string_stays_text(self) -> None:
        """An output string that only looks like JSON is shown as text."""
        block = {"type": "tool_result", "id": "c", "name": "f", "output": "{not json"}
        article = card([block])
        assert [] == article.find_all("pre")
        assert "{not json" == article.find("td").find("div", "agentmsg-text").text()

    def test_tool_result_json_value(self) -> None:
        """A JSON output keeps its key order and non-ASCII text."""
        output = {"zeta": 1, "alpha": ["ü", None]}
        block = {"type": "tool_result", "id": "c", "name": "f", "output": output}
        pre = card([block]).find("pre", "agentmsg-json")
        assert json.dumps(output, ensure_ascii=False, indent=2) == pre.text()

    def test_tool_result_scalar(self) -> None:
        """A number output is shown as code."""
        block = {"type": "tool_result", "id": "c", "name": "f", "output": 42}
        assert "42" == card([block]).find("td").find("code").text()

    def test_tool_result_with_media_blocks(self) -> None:
        """An output of blocks shows its text and embeds its image inside the table cell."""
        output = [
            {"type": "text", "text": "camera 1"},
            media("image", {"type": "base64", "media_type": "image/png", "data": PNG_B64}),
        ]
        block = {"type": "tool_result", "id": "c", "name": "snap", "output": output}
        cell = card([block]).find("td")
        assert "camera 1" == cell.find("div", "agentmsg-text").text()
        assert f"data:image/png;base64,{PNG_B64}" == cell.find("img").attrs["src"]

    def test_long_json_is_truncated_with_a_note(self) -> None:
        """JSON longer than the limit is cut at a line end and a note gives both lengths."""
        output = {f"key{index}": "x" * 40 for index in range(1_000)}
        full = json.dumps(output, indent=2)
        block = {"type": "tool_result", "id": "c", "name": "f", "output": output}
        cell = card([block]).find("td")
        shown = cell.find("pre", "agentmsg-json").text()
        cut = full.rfind("\n", 0, JSON_LIMIT)
        assert full[:cut] + "\n…" == shown
        note = f"JSON truncated: {cut:,} of {len(full):,} characters shown."
        assert note == cell.find("p", "agentmsg-note").text()

    def test_long_text_is_not_truncated(self) -> None:
        """Tool output text longer than the JSON limit is still shown whole."""
        text = "word " * (JSON_LIMIT // 2)
        block = {"type": "tool_result", "id": "c", "name": "f", "output": text}
        assert text == card([block]).find("td").find("div", "agentmsg-text").text()

    def test_metadata_table(self) -> None:
        """Metadata is a key/value table under the content; none means no table."""
        table = card("hi", metadata={"score": 0.5, "tags": ["a"]}).find(
            "table", "agentmsg-metadata"
        )
        rows = [
            (row.find("th").text(), row.find("td").text())
            for row in table.find("tbody").find_all("tr")
        ]
        assert [("score", "0.5"), ("tags", '[\n  "a"\n]')] == rows
        assert [] == card("hi").find_all("table")
        empty = card("hi", metadata={}).find("table", "agentmsg-metadata").find("td")
        assert "empty" == empty.text()


class TestMedia:
    """Images, audio and video: embedded when small and local, summarised otherwise."""

    def test_small_base64_image_is_embedded(self) -> None:
        """A base64 image becomes an ``<img>`` with a data: URL and alt text."""
        source = {"type": "base64", "media_type": "image/png", "data": PNG_B64}
        img = card([media("image", source)]).find("img", "agentmsg-img")
        assert f"data:image/png;base64,{PNG_B64}" == img.attrs["src"]
        assert f"image (image/png, {len(PNG)} bytes)" == img.attrs["alt"]

    @pytest.mark.parametrize(
        ("size", "shown"),
        [
            (1, "1 byte"),
            (1023, "1,023 bytes"),
            (1024, "1 KiB"),
            (1536, "1.5 KiB"),
            (3 * 1024 * 1024, "3 MiB"),
        ],
    )
    def test_sizes_in_alt_text(self, size: int, shown: str) -> None:
        """The decoded size is given in bytes, KiB or MiB."""
        data = base64.b64encode(bytes(size)).decode()
        source = {"type": "base64", "media_type": "image/png", "data": data}
        article = card([media("image", source)])
        if len(data) <= INLINE_MEDIA_LIMIT:
            assert f"image (image/png, {shown})" == article.find("img").attrs["alt"]
        else:
            assert f"image/png, {shown}" in article.find("p", "agentmsg-media").text()

    def test_base64_at_the_limit_is_embedded(self) -> None:
        """A payload of exactly the limit is still embedded."""
        data = "A" * INLINE_MEDIA_LIMIT
        source = {"type": "base64", "media_type": "image/png", "data": data}
        assert (
            f"data:image/png;base64,{data}"
            == card([media("image", source)]).find("img").attrs["src"]
        )

    def test_large_base64_is_summarised(self) -> None:
        """A payload over the limit is described by type and size, not embedded."""
        data = "A" * (INLINE_MEDIA_LIMIT + 4)
        source = {"type": "base64", "media_type": "video/mp4", "data": data}
        markup = Msg("Jarvis", [media("video", source)], "assistant")._repr_html_()
        assert data not in markup
        article = parse(markup)
        assert [] == article.find_all("video")
        line = article.find("p", "agentmsg-media").text()
        assert "video video/mp4, 384 KiB (not embedded: over the 512 KiB inline limit)" == line
        assert len(markup) < 20_000

    def test_remote_image_is_a_link_not_an_img(self) -> None:
        """An https image is linked (nothing fetched), with rel nofollow/noopener."""
        url = "https://example.com/cat.png"
        article = card([media("image", {"type": "url", "url": url})])
        assert [] == article.find_all("img")
        link = article.find("a")
        assert url == link.attrs["href"]
        assert {"nofollow", "noopener", "noreferrer"} == set((link.attrs["rel"] or "").split())
        assert f"image {url} (remote, not loaded)" == article.find("p", "agentmsg-media").text()

    def test_json_output_with_an_odd_type_field(self) -> None:
        """A JSON tool output whose items have a ``type`` that is no string (so not
        blocks) is shown as JSON; it once made the card raise TypeError."""
        output = [{"type": {"kind": "chart"}, "points": [1, 2]}]
        block = {"type": "tool_result", "id": "1", "name": "plot", "output": output}

        article = card([block])

        assert '"kind": "chart"' in article.find("pre", "agentmsg-json").text()

    @pytest.mark.parametrize(
        ("kind", "url"),
        [
            ("image", "/home/ada/photos/cat.png"),
            ("audio", "file:///srv/sounds/bell.mp3"),
            ("video", "C:\\clips\\intro.mp4"),
        ],
    )
    def test_local_files_are_paths_not_links(self, kind: str, url: str) -> None:
        """A local path or file:// URL is shown as its path: no link, no ``<img>`` or
        player, so the page never points into its reader's disk."""
        article = card([media(kind, {"type": "url", "url": url})])
        assert ([], [], [], [], [url]) == (
            article.find_all("a"),
            article.find_all("img"),
            article.find_all("audio"),
            article.find_all("video"),
            [node.text() for node in article.find_all("code")],
        )
        line = article.find("p", "agentmsg-media").text()
        assert f"{kind} {url} (local file, not loaded)" == line

    @pytest.mark.parametrize("kind", ["audio", "video"])
    def test_remote_audio_and_video_are_links(self, kind: str) -> None:
        """Remote audio and video give a summary line, no player."""
        url = f"http://example.com/clip.{'mp3' if kind == 'audio' else 'mp4'}"
        article = card([media(kind, {"type": "url", "url": url})])
        assert [] == article.find_all(kind)
        assert url == article.find("a").attrs["href"]

    def test_base64_audio_gets_a_player(self) -> None:
        """Base64 audio becomes an ``<audio controls>`` with a label and a caption."""
        source = {"type": "base64", "media_type": "audio/wav", "data": WAV_B64}
        figure = card([media("audio", source)]).find("figure", "agentmsg-media")
        player = figure.find("audio")
        label = "audio (audio/wav, 40 bytes)"
        assert f"data:audio/wav;base64,{WAV_B64}" == player.attrs["src"]
        assert "controls" in player.attrs
        assert (label, label) == (player.attrs["aria-label"], figure.find("figcaption").text())

    def test_data_url_video_gets_a_player(self) -> None:
        """A small data: URL video is played from that URL."""
        url = "data:video/mp4;base64,AAAAIGZ0eXBpc29t"
        player = card([media("video", {"type": "url", "url": url})]).find("video")
        assert (url, "video (video/mp4, 12 bytes)") == (
            player.attrs["src"],
            player.attrs["aria-label"],
        )

    def test_data_url_without_media_type_is_not_embedded(self) -> None:
        """A data: URL that names no media type (so text/plain) is summarised."""
        article = card([media("image", {"type": "url", "url": "data:,abc%20d"})])
        assert [] == article.find_all("img")
        line = article.find("p", "agentmsg-media").text()
        assert "image data: URL of type text/plain, 5 bytes (not embedded: not image data)" == line

    def test_data_url_of_another_type_is_not_embedded(self) -> None:
        """Given unvalidated blocks, a data: URL of another type is summarised, escaped."""
        url = "data:text/html,<script>alert(1)</script>"
        root = parse(render_blocks([media("image", {"type": "url", "url": url})]))
        assert [] == root.find_all("img") + root.find_all("script")
        line = root.find("p", "agentmsg-media").text()
        assert "image data: URL of type text/html, 25 bytes (not embedded: not image data)" == line

    def test_large_data_url_is_summarised(self) -> None:
        """A data: URL over the limit is summarised."""
        url = "data:image/png;base64," + "A" * INLINE_MEDIA_LIMIT
        article = card([media("image", {"type": "url", "url": url})])
        assert [] == article.find_all("img")
        assert "image/png, 384 KiB" in article.find("p", "agentmsg-media").text()


class TestAccessibility:
    """Header cells have a scope, images have alt text, colours meet WCAG 2 AA."""

    def test_every_header_cell_has_a_scope(self) -> None:
        """Every ``<th>`` in tool and metadata tables says what it heads."""
        blocks = [
            {"type": "tool_use", "id": "c", "name": "f", "input": {"a": 1, "b": "x"}},
            {"type": "tool_result", "id": "c", "name": "f", "output": "ok"},
        ]
        cells = card(blocks, metadata={"k": 1}).find_all("th")
        assert 8 == len(cells)
        assert set() == {cell.attrs.get("scope") for cell in cells} - {"row", "col"}

    def test_every_table_has_a_caption(self) -> None:
        """Each table is named by a caption."""
        blocks = [
            {"type": "tool_use", "id": "c", "name": "f", "input": {}},
            {"type": "tool_result", "id": "c", "name": "f", "output": "ok"},
        ]
        tables = card(blocks, metadata={"k": 1}).find_all("table")
        assert [1, 1, 1] == [len(table.find_all("caption")) for table in tables]

    @staticmethod
    def _palettes() -> tuple[dict[str, str], dict[str, str]]:
        """The light palette (``var()`` fallbacks) and the dark one, read from the CSS."""
        light = dict(re.findall(r"var\(--agentmsg-([\w-]+),(#[0-9a-f]{6})\)", STYLE))
        block = re.search(r'body\[data-theme="dark"\] \.agentmsg-card[^{]*\{([^}]*)\}', STYLE)
        assert block is not None
        dark = dict(re.findall(r"--agentmsg-([\w-]+):(#[0-9a-f]{6})", block.group(1)))
        return light, dark

    @staticmethod
    def _contrast(first: str, second: str) -> float:
        def luminance(colour: str) -> float:
            channels = [int(colour[index : index + 2], 16) / 255 for index in (1, 3, 5)]
            linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

        high, low = sorted((luminance(first), luminance(second)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    def test_dark_palette_covers_every_colour(self) -> None:
        """Every colour the light palette uses is redefined for dark pages."""
        light, dark = self._palettes()
        assert set(light) == set(dark)

    def test_dark_mode_selectors(self) -> None:
        """Dark colours follow furo, JupyterLab and the system preference."""
        for selector in (
            'body[data-theme="dark"] .agentmsg-card',
            'body[data-jp-theme-light="false"] .agentmsg-card',
            '@media (prefers-color-scheme:dark){body:not([data-theme="light"])',
        ):
            assert selector in STYLE

    @pytest.mark.parametrize("palette", ["light", "dark"])
    def test_text_contrast_is_aa(self, palette: str) -> None:
        """Each text colour on each background it is drawn on reaches 4.5:1."""
        light, dark = self._palettes()
        colours = light if palette == "light" else dark
        pairs = [
            (text, background) for text in ("fg", "muted", "link") for background in ("bg", "panel")
        ] + [(f"{role}-fg", f"{role}-bg") for role in ("user", "assistant", "system", "other")]
        ratios = {
            pair: round(self._contrast(colours[pair[0]], colours[pair[1]]), 2) for pair in pairs
        }
        assert {} == {pair: ratio for pair, ratio in ratios.items() if ratio < 4.5}


class TestRenderCard:
    """``render_card`` and ``render_blocks``, for the role messages."""

    def test_extras_and_label(self) -> None:
        """Extras are shown in the header; no timestamp means no ``<time>``."""
        markup = render_card(
            name="Ada",
            role="function",
            content="18",
            label="FunctionMessage",
            extras=[("tokens", "3")],
        )
        article = parse(markup).find("article")
        assert "FunctionMessage" == article.find("span", "agentmsg-kind").text()
        assert "tokens 3" == article.find("span", "agentmsg-extra").text()
        assert [] == article.find_all("time")
        assert "data-agentmsg-id" not in article.attrs
        assert ["agentmsg-card", "agentmsg-role-function"] == article.classes

    def test_render_blocks_alone(self) -> None:
        """``render_blocks`` renders content without the card around it."""
        root = parse(render_blocks([{"type": "text", "text": "a<b"}]))
        assert [] == root.find_all("article")
        assert "a<b" == root.find("div", "agentmsg-text").text()


BIDI_CONTROLS = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
]


class TestBidirectionalText:
    """A card cannot be spoofed with bidirectional controls: each shows as its code
    point, and right-to-left names are isolated from the rest of the header."""

    @pytest.mark.parametrize("control", BIDI_CONTROLS, ids=lambda char: f"U+{ord(char):04X}")
    def test_controls_are_shown_not_obeyed(self, control: str) -> None:
        """A control in the name, a text, a tool argument, the metadata or a URL never
        reaches the page: it is written as ``[U+XXXX]``, and a link keeps its target
        percent-encoded."""
        url = f"https://example.com/{control}gnp.exe"
        msg = Msg(
            f"Ali{control}ce",
            [
                {"type": "text", "text": f"pay {control}moc.elgoog"},
                {"type": "tool_use", "id": "c", "name": "f", "input": {"to": f"x{control}y"}},
                {"type": "image", "source": {"type": "url", "url": url}},
            ],
            "user",
            {f"k{control}": f"v{control}"},
            timestamp=STAMP,
        )

        markup = msg._repr_html_()
        article = parse(markup).find("article")
        shown = f"[U+{ord(control):04X}]"

        assert control not in markup
        assert f"Ali{shown}ce" == article.find("strong", "agentmsg-name").text()
        assert f"pay {shown}moc.elgoog" == article.find("div", "agentmsg-text").text()
        link = article.find("a")
        encoded = "".join(f"%{byte:02X}" for byte in control.encode())
        assert (f"https://example.com/{encoded}gnp.exe", f"https://example.com/{shown}gnp.exe") == (
            link.attrs["href"],
            link.text(),
        )

    def test_right_to_left_names_are_isolated(self) -> None:
        """A Hebrew or Arabic sender name is wrapped in ``<bdi>``; a Latin one is not."""
        hebrew = card("hi", name="משה").find("strong", "agentmsg-name")
        arabic = card("hi", name="سارة").find("strong", "agentmsg-name")
        latin = card("hi", name="Ada").find("strong", "agentmsg-name")

        assert (["bdi"], ["bdi"], []) == (
            [node.tag for node in hebrew.children if isinstance(node, Node)],
            [node.tag for node in arabic.children if isinstance(node, Node)],
            [node.tag for node in latin.children if isinstance(node, Node)],
        )
        assert "משה" == hebrew.text()

    def test_tool_names_are_isolated(self) -> None:
        """A right-to-left tool name in a caption is isolated too."""
        block = {"type": "tool_use", "id": "c", "name": "بحث", "input": {}}

        codes = card([block]).find("table").find("caption").find_all("code")

        assert ["bdi", None] == [
            next((node.tag for node in code.children if isinstance(node, Node)), None)
            for code in codes
        ]


class TestHostileToolOutputText:
    """A tool's text output that holds JSON is shown as JSON only when a message could
    hold that JSON; otherwise as the text it is."""

    @pytest.mark.parametrize(
        "text",
        [
            "[" * 5000 + "]" * 5000,
            "[" * 101 + "]" * 101,
            '{"a": "\\ud800"}',
            '{"n": ' + "1" * 5000 + "}",
        ],
        ids=["far too deep", "one level too deep", "lone surrogate", "huge int"],
    )
    def test_shown_as_text(self, text: str) -> None:
        """The card renders, writable as UTF-8, and shows the output as text."""
        block = {"type": "tool_result", "id": "c", "name": "f", "output": text}

        markup = Msg("A", [block], "user")._repr_html_()

        markup.encode("utf-8")
        cell = parse(markup).find("article").find("td")
        assert text == cell.find("div", "agentmsg-text").text()

    def test_json_at_the_limit_is_shown_as_json(self) -> None:
        """JSON text of exactly the depth limit is pretty-printed."""
        text = "[" * 100 + "]" * 100
        block = {"type": "tool_result", "id": "c", "name": "f", "output": text}

        cell = card([block]).find("td")

        assert ["agentmsg-json"] == cell.find("pre").classes
