"""The Chinese transforms on hand-made doctrees (no site build): each changes the text node
it means, not an equal one elsewhere in the paragraph (docutils' Text nodes are strings,
and ``Element.replace`` finds the first equal child)."""

from __future__ import annotations

from docutils import nodes

from agentmsg_docs.zh import titlemarks
from agentmsg_docs.zh.typography import ChineseSpacing


def paragraph(*children: nodes.Node) -> nodes.paragraph:
    made = nodes.paragraph()
    made.extend(children)
    return made


class TestPlaceTitleMarks:
    def test_marks_go_around_the_reference(self) -> None:
        """The marks stand right around the link, the spaces beside it go, and an equal
        text earlier in the sentence keeps its own."""
        holder = nodes.inline("", "", nodes.reference("", "小节", refuri="#s"))
        made = paragraph(
            nodes.Text("见 "),
            nodes.literal("", "a"),
            nodes.Text("见 "),
            holder,
            nodes.Text(" 一节"),
        )
        titlemarks._place(holder, "“", "”")
        assert "见 a见“小节”一节" == made.astext()
        assert [nodes.Text, nodes.literal, nodes.Text, nodes.Text, nodes.reference] == [
            type(child) for child in made.children[:5]
        ]

    def test_an_unresolved_reference_takes_none(self) -> None:
        holder = nodes.inline("", "", nodes.literal("", "missing"))
        made = paragraph(nodes.Text("见 "), holder, nodes.Text(" 一节"))
        titlemarks._place(holder, "《", "》")
        assert "见 missing 一节" == made.astext()

    def test_marks_already_written_are_kept(self) -> None:
        holder = nodes.inline("", "", nodes.reference("", "工具", refuri="tools.html"))
        made = paragraph(nodes.Text("和《"), holder, nodes.Text("》一样"))
        titlemarks._place(holder, "《", "》")
        assert "和《工具》一样" == made.astext()


class TestChineseSpacing:
    def test_the_space_that_goes_is_the_one_at_chinese(self) -> None:
        """Of two equal texts, only the one before Chinese markup loses its space."""
        made = paragraph(
            nodes.Text("B 和 "),
            nodes.emphasis("", "b"),
            nodes.Text("B 和 "),
            nodes.emphasis("", "中文"),
        )
        texts = [child for child in made.children if isinstance(child, nodes.Text)]
        ChineseSpacing._join(texts[0], made.children[1][0])
        ChineseSpacing._join(made.children[2], made.children[3][0])
        assert "B 和 bB 和中文" == made.astext()
