"""The Markdown of the tutorials' notebooks, as each language's pages read.

sphinx-gallery turns a script's reST into notebook Markdown with regular expressions,
which leave roles, ``:ref:`` labels and list-tables as raw text; its ``pypandoc`` option
knows no Sphinx roles either. Here the text blocks of a script (English or translated)
are parsed together, as the page parses them, by docutils with Sphinx's roles and
directives in the environment of the language being built, and Sphinx resolves the
cross-references itself (:class:`~sphinx.transforms.post_transforms.ReferencesResolver`).
A role therefore becomes what the page shows: a link with the page's text (a ``:ref:``
carries the target's title in that language), to the same anchor on the published site
of the same language (:data:`agentmsg_docs.i18n.languages.SITE_URL`), since a downloaded notebook
has no local site; a target Sphinx does not know becomes a code span. In Chinese, the
page's 《》 and “” stand around a reference to a tutorial or a section
(:data:`agentmsg_docs.zh.titlemarks.TRANSFORMS`, the rule of the pages).
:class:`MarkdownWriter` then writes the doctree as CommonMark with GFM tables: headings,
lists, fenced code, tables, and admonitions as quoted blocks with Sphinx's translated
label. A space is never written between two East Asian wide characters (a line break in
Chinese prose, or the space reST needs around inline markup), so Chinese paragraphs
render without stray spaces.
"""

from __future__ import annotations

import ast
import io
import posixpath
import re
import tokenize
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import urljoin

from docutils import frontend, nodes
from docutils.parsers.rst import Parser
from docutils.transforms import references
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.locale import admonitionlabels
from sphinx.transforms import DefaultSubstitutions, SphinxSmartQuotes, SphinxTransformer
from sphinx.transforms.post_transforms import ReferencesResolver
from sphinx.util.docutils import LoggingReporter, sphinx_domains
from sphinx.util.nodes import process_only_nodes

from agentmsg_docs.i18n.languages import SITE_URL, built_language
from agentmsg_docs.zh import titlemarks
from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["MarkdownWriter", "notebook_markdown", "page_url"]

#: The comment put between two text blocks, where one notebook cell ends.
CELL_BREAK = "agentmsg-notebook-cell-break"


def page_url(lang: str, docname: str) -> str:
    """The published address of page *docname* in *lang*, which its notebooks link to.

    >>> page_url("xx", "api") == SITE_URL + "xx/api.html"
    True
    """
    return f"{SITE_URL}{lang}/{docname}.html"


def notebook_markdown(app: Sphinx, docname: str, texts: Sequence[str], source: str) -> list[str]:
    """One Markdown cell per reST text block of the script behind page *docname*.

    *texts* are parsed as one document, so section levels and in-document references work
    as on the page; *source* names the script in warnings.
    """
    separator = f"\n\n.. {CELL_BREAK}\n\n"
    document = _parse(app, docname, separator.join(texts), source)
    language = app.config.language or "en"
    images = {name: unique for name, (_docnames, unique) in app.env.images.items()}
    # Chinese has no italics: a caption is set in bold instead.
    caption = "**" if built_language(app.config).primary in PRIMARY_SUBTAGS else "*"
    writer = MarkdownWriter(page_url(language, docname), docname, images, caption)
    cells = writer.cells(document)
    if len(cells) != len(texts):
        msg = f"{source}: {len(texts)} text blocks gave {len(cells)} Markdown cells"
        raise ExtensionError(msg)
    return cells


#: Transforms of a page's reading that the notebook's doctree needs too.
_TRANSFORMS = (
    references.Substitutions,
    references.PropagateTargets,
    references.AnonymousHyperlinks,
    references.IndirectHyperlinks,
    references.ExternalTargets,
    references.InternalTargets,
    references.DanglingReferences,
    DefaultSubstitutions,
    SphinxSmartQuotes,
)


def _parse(app: Sphinx, docname: str, text: str, source: str) -> nodes.document:
    """The doctree of *text*, read as part of page *docname*, its references resolved."""
    env = app.env
    settings = frontend.get_default_settings(Parser)
    for key, value in env.settings.items():
        setattr(settings, key, value)
    document = new_document(source, settings)
    document.reporter = LoggingReporter.from_reporter(document.reporter)
    reading = env.current_document
    env.prepare_settings(docname)
    try:
        with sphinx_domains(env):
            Parser().parse(text, document)
        # References are resolved last, as in a build (post-transforms run at writing),
        # with the 《》 and “” of the pages around them (in Chinese).
        for transforms in (_TRANSFORMS, (ReferencesResolver, *titlemarks.TRANSFORMS)):
            transformer = SphinxTransformer(document)
            transformer.set_environment(env)
            transformer.add_transforms(transforms)
            transformer.apply_transforms()
        process_only_nodes(document, app.tags)
    finally:
        env.current_document = reading
    return document


# ----------------------------------------------------------------------------------------
# Inline markup


def _wide(char: str) -> bool:
    """An East Asian wide or full-width character (Han, kana, full-width punctuation)."""
    return bool(char) and unicodedata.east_asian_width(char) in {"W", "F"}


def _punctuation(char: str) -> bool:
    """Punctuation or a symbol, as CommonMark's rules for emphasis delimiters see it."""
    return unicodedata.category(char)[0] in {"P", "S"}


_SPACES = re.compile(r"[ \t\r\n]+")
_TEXT_SPECIALS = re.compile(r"[\\`*\[\]<~$]|&(?=#?\w+;)|!(?=\[)")
_LINE_START = re.compile(r"^(?:[#>=]|[-+*](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))")


def _escape(text: str) -> str:
    """Plain text as Markdown that renders as that text."""
    text = _TEXT_SPECIALS.sub(lambda match: "\\" + match.group(0), text)
    # "_" can only start or end emphasis where it is not inside a word.
    return re.sub(r"(?<![^\W_])_|_(?![^\W_])", r"\\_", text)


def _guard_line_start(line: str) -> str:
    """*line* with a leading character escaped that would start a block (``#``, ``-``)."""
    match = _LINE_START.match(line)
    if not match:
        return line
    if match.group(0)[0].isdigit():  # "1. " starts a list: escape its dot
        end = match.end()
        return f"{line[:end]}\\{line[end:]}"
    return "\\" + line


def code_span(text: str) -> str:
    """A CommonMark code span that shows *text*.

    >>> code_span("a`b")
    '``a`b``'
    """
    content = text.replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if content[:1] == "`" or content[-1:] == "`" else ""
    return f"{fence}{pad}{content}{pad}{fence}"


@dataclass(frozen=True)
class _Span:
    """A piece of a paragraph: plain text (written at the end) or finished markup."""

    text: str  #: what a reader sees, for the spacing rule
    md: str = ""  #: the Markdown of markup (of its content, for emphasis)
    plain: bool = False  #: plain text, whose spaces and escapes are written by :func:`_join`
    emphasis: str = ""  #: ``*`` or ``**`` around :attr:`md`


#: The HTML element that delimits emphasis where CommonMark's ``*`` cannot.
_EMPHASIS_HTML = {"*": "em", "**": "strong"}


def _spaces(text: str, before: str, after: str) -> str:
    """*text* with each run of white space made one space, or none: at the start and end
    of a paragraph, and between two wide characters (*before* and *after* are the
    characters a reader sees on either side of *text*)."""

    def space(match: re.Match[str]) -> str:
        left = text[match.start() - 1] if match.start() else before
        right = text[match.end()] if match.end() < len(text) else after
        return "" if not left or not right or (_wide(left) and _wide(right)) else " "

    return _SPACES.sub(space, text)


def _flanking_ok(before: str, inner: str, after: str, marker: str) -> bool:
    """Whether CommonMark reads *marker* around *inner*, between the characters *before*
    and *after*, as emphasis."""
    if not inner or inner[0].isspace() or inner[-1].isspace() or marker[0] in {before, after}:
        return False
    opens = not _punctuation(inner[0]) or not before or before.isspace() or _punctuation(before)
    closes = not _punctuation(inner[-1]) or not after or after.isspace() or _punctuation(after)
    return opens and closes


def _join(spans: list[_Span]) -> str:
    """The Markdown of a paragraph's spans: spaces by the wide-character rule, escapes,
    and emphasis delimited by ``*`` where CommonMark reads it so, else by HTML."""
    merged: list[_Span] = []
    for span in spans:
        if span.plain and merged and merged[-1].plain:
            merged[-1] = _Span(merged[-1].text + span.text, plain=True)
        elif span.text or span.md:
            merged.append(span)
    seen = [span.text for span in merged]
    for index, span in enumerate(merged):
        if span.plain:
            before = next((text[-1] for text in reversed(seen[:index]) if text), "")
            after = next((text[0] for text in seen[index + 1 :] if text), "")
            text = _spaces(span.text, before, after)
            merged[index] = _Span(text, md=_escape(text), plain=True)
    out: list[str] = []
    for index, span in enumerate(merged):
        if span.emphasis:
            before = out[-1][-1:] if out else ""
            following = next((s for s in merged[index + 1 :] if s.md), None)
            after = "" if following is None else (following.emphasis or following.md)[0]
            if _flanking_ok(before, span.md, after, span.emphasis):
                out.append(f"{span.emphasis}{span.md}{span.emphasis}")
            else:
                tag = _EMPHASIS_HTML[span.emphasis]
                out.append(f"<{tag}>{span.md}</{tag}>")
        else:
            out.append(span.md)
    return "".join(out)


# ----------------------------------------------------------------------------------------
# The writer

#: Inline nodes whose text is shown as it is, spaces included.
_VERBATIM_INLINE = (
    nodes.Text,
    nodes.literal,
    addnodes.literal_strong,
    addnodes.literal_emphasis,
    nodes.math,
    nodes.raw,
)
_PYTHON = {"default", "python", "python3", "py", "py3", "pycon", "ipython", "ipython3"}


@dataclass
class MarkdownWriter:
    """Writes a Sphinx doctree (references resolved) as notebook Markdown cells.

    *page* is the published address of the page the text belongs to: relative link
    targets are resolved against it. *images* maps a source image path to the file name
    Sphinx gave it under ``_images/``. *caption* is the emphasis (``*`` or ``**``) of
    table and figure captions.
    """

    page: str
    docname: str
    images: dict[str, str] = field(default_factory=dict)
    caption: str = "*"

    # -- cells and blocks ------------------------------------------------------------

    def cells(self, document: nodes.document) -> list[str]:
        """The Markdown of each part of *document* between two cell breaks."""
        cells: list[list[list[str]]] = [[]]
        for item in self._flatten(document):
            if item is None:
                cells.append([])
            elif item:
                cells[-1].append(item)
        return ["\n\n".join("\n".join(block) for block in blocks) for blocks in cells]

    def _flatten(self, parent: nodes.Element, level: int = 0) -> Iterator[list[str] | None]:
        """Top-level blocks as lists of lines; ``None`` where a cell ends."""
        for child in parent.children:
            if isinstance(child, nodes.section):
                title = child.next_node(nodes.title)
                if title is not None:
                    yield [f"{'#' * min(level + 1, 6)} {self._inline(title)}"]
                yield from self._flatten(child, level + 1)
            elif isinstance(child, nodes.title):
                continue  # written by its section
            elif isinstance(child, nodes.comment) and child.astext() == CELL_BREAK:
                yield None
            else:
                yield self._block(child)

    def _blocks(self, children: Sequence[nodes.Node], *, tight: bool = False) -> list[str]:
        """Blocks one after the other, with a blank line between them unless *tight*."""
        lines: list[str] = []
        for child in children:
            block = self._block(child)
            if not block:
                continue
            if lines and not tight:
                lines.append("")
            lines.extend(block)
        return lines

    def _block(self, node: nodes.Node) -> list[str]:
        for kind in type(node).__mro__:
            method: Callable[[nodes.Node], list[str]] | None = getattr(
                self, f"_block_{kind.__name__}", None
            )
            if method is not None:
                return method(node)
        self._unsupported(node)

    def _unsupported(self, node: nodes.Node) -> NoReturn:
        where = f"{node.source}:{node.line}" if node.source else self.docname
        msg = (
            f"{where}: the notebook writer has no Markdown for a {type(node).__name__} "
            f"node yet ({node.astext()[:60]!r}); teach "
            "agentmsg_docs.gallery.notebooks.MarkdownWriter"
        )
        raise ExtensionError(msg)

    def _block_paragraph(self, node: nodes.Element) -> list[str]:
        return [_guard_line_start(self._inline(node))]

    def _block_line_block(self, node: nodes.Element) -> list[str]:
        lines = [self._inline(line) for line in node.findall(nodes.line)]
        return [_guard_line_start(line) for line in "\\\n".join(lines).split("\n")]

    def _block_Invisible(self, node: nodes.Node) -> list[str]:
        """Comments, targets, index entries: nothing a reader sees. (A system message has
        been reported as a warning by the parser.)"""
        return []

    _block_system_message = _block_index = _block_Invisible

    def _block_transition(self, node: nodes.Node) -> list[str]:
        return ["---"]

    def _block_raw(self, node: nodes.raw) -> list[str]:
        return node.astext().split("\n") if _html(node) else []

    def _block_literal_block(self, node: nodes.FixedTextElement) -> list[str]:
        code = node.astext()
        language = node.get("language") or "default"
        if isinstance(node, nodes.doctest_block):
            language = "pycon"
        language = "python" if language in _PYTHON else language
        longest = max((len(run) for run in re.findall(r"^`{3,}", code, re.M)), default=2)
        fence = "`" * (longest + 1)
        return [f"{fence}{language}", *code.split("\n"), fence]

    _block_doctest_block = _block_literal_block

    def _block_math_block(self, node: nodes.math_block) -> list[str]:
        return ["$$", *node.astext().split("\n"), "$$"]

    def _block_container(self, node: nodes.Element) -> list[str]:
        """Containers (a code block with its caption, a figure, compound paragraphs,
        a version change): their content."""
        return self._blocks(node.children)

    _block_compound = _block_figure = _block_legend = _block_versionmodified = _block_container

    def _block_caption(self, node: nodes.Element) -> list[str]:
        return [self._join([self._emphasis(node, self.caption)])]

    def _block_rubric(self, node: nodes.Element) -> list[str]:
        return [self._join([self._emphasis(node, "**")])]

    def _block_topic(self, node: nodes.Element) -> list[str]:
        """A topic or sidebar: its title in bold, then its content."""
        title = node.next_node(nodes.title)
        body = [child for child in node.children if not isinstance(child, nodes.title)]
        head = [] if title is None else [self._join([self._emphasis(title, "**")]), ""]
        return head + self._blocks(body)

    _block_sidebar = _block_topic

    def _block_block_quote(self, node: nodes.Element) -> list[str]:
        body = self._blocks(
            [child for child in node.children if not isinstance(child, nodes.attribution)]
        )
        for attribution in node.children:
            if isinstance(attribution, nodes.attribution):
                body += ["", f"— {self._inline(attribution)}"]
        return _quoted(body)

    def _block_Admonition(self, node: nodes.Element) -> list[str]:
        """A note, tip, warning, see-also...: a quoted block that starts with its label."""
        title = node.next_node(nodes.title) if isinstance(node, nodes.admonition) else None
        if title is not None:
            label = title.astext()
        else:
            label = str(admonitionlabels.get(node.tagname, node.tagname.capitalize()))
        head = _label(label)
        body = [child for child in node.children if not isinstance(child, nodes.title)]
        lines = self._blocks(body)
        if body and isinstance(body[0], nodes.paragraph):
            lines[0] = head + lines[0]
        else:
            lines = [head.rstrip(), "", *lines] if lines else [head.rstrip()]
        return _quoted(lines)

    def _block_bullet_list(self, node: nodes.Element) -> list[str]:
        start = int(node.get("start", 1))
        ordered = isinstance(node, nodes.enumerated_list)
        tight = all(_simple_item(item) for item in node.children)
        lines: list[str] = []
        for number, item in enumerate(node.children, start=start):
            marker = f"{number}. " if ordered else "- "
            body = self._blocks(item.children, tight=tight) or [""]
            if lines and not tight:
                lines.append("")
            lines.append(marker + body[0])
            lines.extend(" " * len(marker) + line if line else "" for line in body[1:])
        return lines

    _block_enumerated_list = _block_bullet_list

    def _block_definition_list(self, node: nodes.Element) -> list[str]:
        """Definitions and fields: a list of "**term**: definition" items."""
        lines: list[str] = []
        for item in node.children:
            parts = [child for child in item.children if isinstance(child, nodes.Element)]
            if len(parts) != 2 or not isinstance(parts[0], nodes.term | nodes.field_name):
                self._unsupported(item)
            term, definition = parts
            head = _label(term.astext(), self._inline(term))
            body = self._blocks(definition.children)
            if lines:
                lines.append("")
            if definition.children and isinstance(definition.children[0], nodes.paragraph):
                lines.append(f"- {head}{body[0]}")
                body = body[1:]
            else:
                lines.append(f"- {head}".rstrip())
            lines.extend("  " + line if line else "" for line in body)
        return lines

    _block_field_list = _block_definition_list

    def _block_image(self, node: nodes.Element) -> list[str]:
        return [self._join([self._image(node)])]

    def _block_table(self, node: nodes.table) -> list[str]:
        """A GFM table (cells on one line each), after its caption (emphasised)."""
        title = node.next_node(nodes.title)
        tgroup = node.next_node(nodes.tgroup)
        if tgroup is None:
            self._unsupported(node)
        columns = int(tgroup["cols"])
        head = tgroup.next_node(nodes.thead)
        body = tgroup.next_node(nodes.tbody)
        header_rows = list(head.children) if head is not None else []
        rows = header_rows[1:] + (list(body.children) if body is not None else [])
        header = self._row(header_rows[0], columns) if header_rows else [""] * columns
        lines = [] if title is None else [self._join([self._emphasis(title, self.caption)]), ""]
        lines.append(_table_row(header))
        lines.append(_table_row(["---"] * columns))
        lines.extend(_table_row(self._row(row, columns)) for row in rows)
        return lines

    def _row(self, row: nodes.Node, columns: int) -> list[str]:
        cells: list[str] = []
        for entry in row.children:
            if entry.get("morecols") or entry.get("morerows"):
                self._unsupported(entry)
            parts = [self._cell_block(child) for child in entry.children]
            cells.append("<br>".join(part for part in parts if part).replace("|", "\\|"))
        if len(cells) != columns:
            self._unsupported(row)
        return cells

    def _cell_block(self, node: nodes.Node) -> str:
        """A block inside a table cell, on one line."""
        if isinstance(node, nodes.paragraph):
            return self._inline(node)
        if isinstance(node, nodes.literal_block):
            code = node.astext()
            language = node.get("language") or "default"
            one_line = _python_one_line(code) if language in _PYTHON else None
            if one_line is not None:
                return code_span(one_line)
            return "<br>".join(code_span(line.strip()) for line in code.split("\n") if line)
        if isinstance(node, nodes.bullet_list | nodes.enumerated_list):
            items = [" ".join(self._cell_block(child) for child in item.children) for item in node]
            return "<br>".join(f"• {item}" for item in items)
        if isinstance(node, nodes.Invisible):
            return ""
        self._unsupported(node)

    # -- inline ----------------------------------------------------------------------

    def _inline(self, node: nodes.Element) -> str:
        return self._join(self._spans(node))

    @staticmethod
    def _join(spans: list[_Span]) -> str:
        return _join(spans)

    def _spans(self, node: nodes.Element) -> list[_Span]:
        spans: list[_Span] = []
        for child in node.children:
            spans.extend(self._span(child))
        return spans

    def _span(self, node: nodes.Node) -> list[_Span]:
        """The spans of inline *node*; spaces at the edges of its markup go outside it."""
        spans = self._markup(node)
        if isinstance(node, _VERBATIM_INLINE) or not spans:
            return spans
        text = node.astext()
        before = [_Span(" ", plain=True)] if text[:1].isspace() else []
        after = [_Span(" ", plain=True)] if text[-1:].isspace() else []
        return before + spans + after

    def _markup(self, node: nodes.Node) -> list[_Span]:
        if isinstance(node, nodes.Text):
            return [_Span(node.astext(), plain=True)]
        if isinstance(node, nodes.literal | addnodes.literal_strong | addnodes.literal_emphasis):
            text = node.astext()
            return [_Span(text, md=code_span(text))]
        if isinstance(node, nodes.strong):
            return [self._emphasis(node, "**")]
        if isinstance(node, nodes.emphasis | nodes.title_reference):
            return [self._emphasis(node, "*")]
        if isinstance(node, nodes.reference):
            return [self._link(node)]
        if isinstance(node, nodes.image):
            return [self._image(node)]
        if isinstance(node, nodes.math):
            return [_Span(node.astext(), md=f"${node.astext()}$")]
        if isinstance(node, nodes.raw):
            return [_Span("", md=node.astext())] if _html(node) else []
        if isinstance(node, nodes.Invisible | nodes.system_message | addnodes.index):
            return []
        if isinstance(node, nodes.inline) and "versionmodified" in node["classes"]:
            return [self._emphasis(node, "*")]  # "Added in version 0.2.0:", as on the page
        if isinstance(node, nodes.problematic):  # docutils has reported the error already
            return [_Span(node.astext(), plain=True)]
        if isinstance(node, nodes.inline | nodes.abbreviation | nodes.acronym | nodes.target):
            return self._spans(node)
        if isinstance(node, nodes.generated | addnodes.pending_xref_condition):
            return self._spans(node)
        self._unsupported(node)

    def _emphasis(self, node: nodes.Element, marker: str) -> _Span:
        return _Span(node.astext().strip(), md=self._inline(node), emphasis=marker)

    def _url(self, node: nodes.Element) -> str:
        if node.get("refuri") is not None:
            return urljoin(self.page, str(node["refuri"]))
        if node.get("refid"):
            return f"{self.page}#{node['refid']}"
        self._unsupported(node)

    def _link(self, node: nodes.reference) -> _Span:
        url = self._url(node).replace(" ", "%20").replace("(", "%28").replace(")", "%29")
        text = self._inline(node)
        return _Span(node.astext().strip(), md=f"[{text}]({url})")

    def _image(self, node: nodes.Element) -> _Span:
        uri = str(node["uri"])
        if "://" not in uri and not uri.startswith("data:"):
            path = (
                uri.lstrip("/")
                if uri.startswith("/")
                else posixpath.join(posixpath.dirname(self.docname), uri)
            )
            unique = self.images.get(posixpath.normpath(path))
            if unique is None:
                self._unsupported(node)
            uri = urljoin(self.page, f"{'../' * self.docname.count('/')}_images/{unique}")
        alt = str(node.get("alt", ""))
        return _Span(alt, md=f"![{_escape(alt)}]({uri})")


def _simple_item(item: nodes.Node) -> bool:
    """A list item of one paragraph, maybe followed by a simple list: a tight list's."""
    children = [child for child in item.children if not isinstance(child, nodes.Invisible)]
    if not children or not isinstance(children[0], nodes.paragraph):
        return False
    if len(children) == 1:
        return True
    nested = children[1]
    return (
        len(children) == 2
        and isinstance(nested, nodes.bullet_list | nodes.enumerated_list)
        and all(_simple_item(sub) for sub in nested.children)
    )


def _label(text: str, md: str | None = None) -> str:
    """A bold label before the text it introduces: "**Note:** ", or "**备注**：".

    >>> _label("Note"), _label("备注")
    ('**Note:** ', '**备注**：')
    """
    md = _escape(text) if md is None else md
    return f"**{md}**：" if _wide(text[-1:]) else f"**{md}:** "


def _html(node: nodes.Element) -> bool:
    """Whether raw *node* is HTML, which Jupyter shows as the page does."""
    return "html" in str(node.get("format", "")).split()


def _quoted(lines: list[str]) -> list[str]:
    return [f"> {line}" if line else ">" for line in lines]


def _table_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _python_one_line(code: str) -> str | None:
    """*code* (one Python statement over several lines) on one line, or ``None``.

    >>> _python_one_line('Block(\\n    type="text",\\n    text="Hi",\\n)')
    'Block(type="text", text="Hi")'
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
        tree = ast.dump(ast.parse(code))
    except (SyntaxError, tokenize.TokenError):
        return None
    statements = sum(token.type == tokenize.NEWLINE for token in tokens)
    if statements > 1 or any(token.type == tokenize.COMMENT for token in tokens):
        return None
    joined = ""
    for line in (line.strip() for line in code.split("\n")):
        if not line:
            continue
        if not joined or joined.endswith(("(", "[", "{")) or line.startswith((")", "]", "}")):
            joined += line
        else:
            joined += " " + line
    for candidate in (re.sub(r",(?=[)\]}])", "", joined), joined):
        try:
            if ast.dump(ast.parse(candidate)) == tree:
                return candidate
        except SyntaxError:
            continue
    return None
