"""``python -m vision.cli``: the ``mahjong-score`` command."""

import sys

from vision.cli import main

sys.exit(main())
