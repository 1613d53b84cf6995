"""Benchmarks for agentmsg, run side by side with its peers by ``make bench``.

``bench.run`` is the entry point (``python -m bench.run``). Each section lives in its
own module and is listed in ``run.SECTION_MODULES``; ``_common`` holds what they share
(timing, tables, the JSON form).
"""
