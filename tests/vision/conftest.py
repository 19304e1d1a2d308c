"""What the vision tests share: taught tile sets go to a temporary folder, never the user's own.

The web app lists the sets of the user's folder when no other is given (``create_app()``, the
phone page on load), and a ``mahjong-score`` command without ``--profile`` would write there:
``$MAHJONG_SETS`` points every such default at a folder made for this test run (set before any
test module makes its app).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from mahjong_camera_scorer.vision.teach.store import PROFILE_ENV

_SETS = tempfile.mkdtemp(prefix="mahjong-sets-test-")
os.environ[PROFILE_ENV] = _SETS
atexit.register(shutil.rmtree, _SETS, True)
