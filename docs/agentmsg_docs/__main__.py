"""``python -m agentmsg_docs``: the build's command line (:mod:`agentmsg_docs.build.cli`)."""

import sys

from agentmsg_docs.build.cli import main

sys.exit(main())
