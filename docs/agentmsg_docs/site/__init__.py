"""The site's pages: markup, descriptions, source links, search ranking and the root files."""
