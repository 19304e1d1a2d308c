"""``python -m vision.cli``: the ``mahjong-score`` command."""

import sys

from mahjong_camera_scorer.vision.cli import main

sys.exit(main())
