"""``python -m agentmsg_docs``: the build's command line (:mod:`agentmsg_docs.cli`)."""

import sys

from agentmsg_docs.cli import main

sys.exit(main())
