"""``python -m tui.cli``: the same as the ``scopewatch`` command."""

import sys

from tui.cli import main

sys.exit(main())
