"""Page descriptions (docs/agentmsg_docs/site/descriptions.py): a display-width budget, and the
page's own introduction only."""

from __future__ import annotations

from docutils.core import publish_doctree

from agentmsg_docs.site.descriptions import LENGTH, describe, width


def doctree(source: str):
    """A doctree as Sphinx reads it: the page title stays a section."""
    return publish_doctree(source, settings_overrides={"report_level": 5, "doctitle_xform": False})


def test_wide_characters_count_twice():
    assert (4, 5, 2) == (width("中文"), width("abcde"), width("（"))


def test_chinese_gets_half_the_characters():
    """A Chinese introduction is cut at a sentence end within 100 characters, English
    within 200, so both fill about the same room in a search result."""
    sentence = "这是一句用来测试描述长度的中文句子，一共有三十个字左右。"
    english = "This sentence is here to measure how long a description may be. "
    chinese = describe(doctree("Title\n=====\n\n" + sentence * 8 + "\n"))
    latin = describe(doctree("Title\n=====\n\n" + english * 8 + "\n"))
    assert width(chinese) <= LENGTH < width(chinese + sentence)
    assert chinese.endswith("。") and latin.endswith(".")
    assert len(latin) > 1.8 * len(chinese)


def test_stops_at_the_first_subsection():
    """The changelog's first release does not run into its introduction."""
    source = "Changes\n=======\n\nWhat changed.\n\n0.1.0\n-----\n\nThe first release.\n"
    assert "What changed." == describe(doctree(source))


def test_a_page_that_opens_with_a_subsection_uses_it():
    source = "Guide\n=====\n\nPart\n----\n\nThe text of the part.\n"
    assert "The text of the part." == describe(doctree(source))


def test_too_long_a_sentence_is_cut_with_an_ellipsis():
    text = describe(doctree("T\n=\n\n" + "字" * 150 + "\n"))
    assert text.endswith("…") and width(text) <= LENGTH


def test_a_long_sentence_ends_between_words():
    """Cut inside a sentence, the description ends at a clause mark or a space with an
    ellipsis, never inside a word (the Spanish review)."""
    text = describe(doctree("T\n=\n\n" + "una palabra, otra palabra " * 20 + "\n"))
    assert text.endswith("…") and width(text) <= LENGTH
    assert text[:-1].endswith(("palabra", "otra"))


def test_a_short_first_sentence_is_followed_by_a_clause_of_the_next():
    """What follows a short first sentence ends at a clause mark, never after a bare
    preposition (the Spanish review: «…ejecuta los conversores de…»)."""
    first = "agentmsg offers two ways."
    second = "The Msg class " + "holds every kind of content, " * 12 + "and more."
    text = describe(doctree(f"T\n=\n\n{first} {second}\n"))
    assert text.startswith(first + " The Msg class") and text.endswith("content…")
    assert width(text) <= LENGTH
    unbroken = "This page is made by a program that runs every converter on a probe " * 3
    assert first == describe(doctree(f"T\n=\n\n{first} {unbroken}.\n"))
