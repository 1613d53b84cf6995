"""The in-browser runtime: the JupyterLite site, and the links and code blocks that use it."""
