"""``python -m scoring``: the scoring commands without the photo pipeline."""

import sys

from scoring.cli import main

sys.exit(main())
