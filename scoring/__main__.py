"""``python -m scoring``: the scoring commands without the photo pipeline."""

import sys

from mahjong_camera_scorer.scoring.cli import main

sys.exit(main())
