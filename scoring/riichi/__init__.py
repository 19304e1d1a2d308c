"""EMA Riichi (2012 rules, seed 001): every yaku and yakuman, fu, dora, limits and payments.

The package reads as the seed does: :mod:`.yaku` and :mod:`.yakuman` are the pattern tables,
:mod:`.fu` the mini-points, :mod:`.dora` the bonus fan, :mod:`.payments` the limits and payments,
:mod:`.validate` the impossible inputs, and :mod:`.scorer` puts them together.
"""

from mahjong_camera_scorer.scoring.riichi.options import OPTIONS
from mahjong_camera_scorer.scoring.riichi.scorer import NAME, score
from mahjong_camera_scorer.scoring.riichi.validate import FLAGS

__all__ = ["FLAGS", "NAME", "OPTIONS", "score"]
