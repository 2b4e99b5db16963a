"""``python -m mcda compare ...``: the command line."""

import sys

from mcda.app.cli import main

sys.exit(main())
