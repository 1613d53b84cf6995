"""Sphinx configuration of the agentmsg documentation (English, 简体中文, Español).

Build it with ``make html`` (``python -m agentmsg_docs``), which runs the examples once
and then builds every language with ``-n -W --keep-going``. After the examples pass, a
plain ``python -m sphinx -b html docs OUT -D language=es`` writes the same pages. The
language comes from ``-D language=...``; settings that depend on it are set in
``docs/agentmsg_docs/i18n/languages.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
# The one import path edit: the docs tooling (agentmsg_docs) and the package from the tree.
sys.path[:0] = [str(DOCS), str(DOCS.parent / "src")]

import agentmsg  # noqa: E402

# -- Project ----------------------------------------------------------------------------

project = "agentmsg"
author = "The agentmsg developers"
copyright = "The agentmsg developers"  # no year: nothing on a page depends on the date
release = agentmsg.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "sphinx_copybutton",
    "sphinx_sitemap",
    "sphinxext.opengraph",
    "notfound.extension",
    "agentmsg_docs",  # ours: one package, one setup() (docs/agentmsg_docs/__init__.py)
]

root_doc = "index"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = [
    "_build",
    "agentmsg_docs",
    "intersphinx",
    "examples",  # the gallery's sources; their pages are generated into tutorial/
    "sg_execution_times.rst",
    "tutorial/sg_execution_times.rst",
    "**/*.ipynb",
    "**/*.md5",
]
templates_path = ["_templates"]
nitpicky = True
# Links into the Python documentation from an inventory kept in the repository: the build
# reads no network. It lists the standard names the pages and annotations use (Sphinx's
# plain-text inventory format, version 1: name, type, page; the anchor is the name).
intersphinx_mapping = {"python": ("https://docs.python.org/3", "intersphinx/python.inv")}
intersphinx_timeout = 1
nitpick_ignore_regex = [
    # typing_extensions mirrors typing; the Python documentation has no page for it.
    (r"py:(class|obj|data)", r"typing_extensions\..*"),
    (r"py:class", r"(agentmsg\.)?_[\w.]+"),  # private helpers that appear in annotations
    # Type aliases in annotations: ContentBlock, BlockType and MediaSource are documented
    # as data (a py:class reference cannot reach them); Role is a private Literal.
    (r"py:class", r"(agentmsg\.)?(ContentBlock|BlockType|MediaSource|Role)"),
]

# -- Translation (gettext) --------------------------------------------------------------

language = "en"  # each build sets it with -D language=<code> (locales/languages.toml)
locale_dirs = ["../locales/"]
gettext_compact = False  # one catalog per page: locales/<lang>/LC_MESSAGES/<docpath>.po
gettext_location = False  # no "#: file:line" comments: catalogs do not churn
gettext_uuid = False
gettext_auto_build = True
# Nothing beyond Sphinx's defaults: the gallery cards' titles are the tutorials' page
# titles (see docs/agentmsg_docs/gallery/tutorials.py), so raw HTML never needs translating.
gettext_additional_targets: list[str] = []

# -- HTML -------------------------------------------------------------------------------

html_theme = "furo"
html_title = f"agentmsg {release}"
html_static_path = ["_static"]
html_css_files = ["agentmsg.css"]
html_js_files = [("agentmsg.js", {"defer": "defer"})]
html_favicon = "_static/favicon.svg"  # also spares browsers a request for /favicon.ico
html_last_updated_fmt = None  # no build dates
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False  # the footer then reads "Made with Furo", which translates whole
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/languages.html",
        "sidebar/search.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ]
}
# "View this page" links to the page's source (docs/agentmsg_docs/site/source_links.py).
html_theme_options = {"top_of_page_buttons": ["view"]}
# html_search_language, html_baseurl, ogp_site_url and the sitemap's settings follow the
# language: see docs/agentmsg_docs/i18n/languages.py. The search's ranking (html_search_scorer),
# synonyms and Chinese splitting: docs/agentmsg_docs/site/search.py.

# sphinx-copybutton: copy the code only, without ">>> " / "... " prompts or their output.
# The prompts are found by the regular expression, not excluded by class: once the
# prompts' text is gone, copybutton sees no prompt and copies the output lines as blanks.
copybutton_exclude = ".linenos"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_copy_empty_lines = False  # blank output lines are output too
copybutton_selector = "div:not(.sphx-glr-script-out) > div.highlight > pre"

# sphinxext-opengraph: no images, nothing fetched or drawn.
ogp_site_name = "agentmsg"
ogp_image = None
ogp_social_cards = {"enable": False}

# sphinx-sitemap
sitemap_show_lastmod = False
sitemap_excludes = ["search.html", "genindex.html", "404.html"]

# sphinx-notfound-page renders docs/404.md with root-absolute URLs; its prefix follows
# the language and the site's address (notfound_urls_prefix, in
# docs/agentmsg_docs/i18n/languages.py).
notfound_pagename = "404"

# -- API reference ----------------------------------------------------------------------

autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_class_signature = "separated"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
add_module_names = False

# -- MyST -------------------------------------------------------------------------------

myst_enable_extensions = ["colon_fence"]

# -- sphinx-gallery ---------------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "tutorial",
    "filename_pattern": r".*",  # every script is executed
    "ignore_pattern": r"__init__\.py",
    "within_subsection_order": "agentmsg_docs.gallery.TutorialOrder",
    "image_scrapers": (),
    # A fresh agentmsg.deterministic block per example, seeded with the script's name.
    "reset_modules": ("agentmsg_docs.gallery.reset_deterministic",),
    "reset_modules_order": "both",
    "capture_repr": ("_repr_html_", "__repr__"),
    "min_reported_time": float("inf"),  # no "Total running time" lines
    "write_computation_times": False,  # no sg_execution_times page
    "download_all_examples": True,
    "first_notebook_cell": None,
    "show_signature": False,
    "show_memory": False,
    "remove_config_comments": True,
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
    "plot_gallery": "True",
    "backreferences_dir": None,
    "doc_module": (),
}
