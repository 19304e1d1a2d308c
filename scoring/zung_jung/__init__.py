"""Zung Jung (中庸) scoring, v3.3 by Alan Kwan, as in the Italian translation (``002_…txt``).

A pattern system: no base points, no doubling; patterns add up with one per series, the hand is
capped at 320 (or scores its single listed-limit pattern), a hand with no pattern scores 1, and
the winner always collects three times the value. The optional Italian category 11 (flowers and
seasons) is in play by default. Modules:

* :mod:`.patterns` — the pattern table (seed ELENCO DELLE COMBINAZIONI);
* :mod:`.arrangement` — one arrangement of the hand and the facts the table reads;
* :mod:`.combine` — family rule, chicken hand and limits;
* :mod:`.scorer` — input checks, best arrangement, the hand's payment;
* :mod:`.payment` — the settlement rules (pure functions);
* :mod:`.options` — the spec's ambiguities as named options.
"""

from mahjong_camera_scorer.scoring.zung_jung.options import NAME, OPTIONS
from mahjong_camera_scorer.scoring.zung_jung.payment import responsible_player, settle
from mahjong_camera_scorer.scoring.zung_jung.scorer import FLAG_WIN_BY as FLAGS
from mahjong_camera_scorer.scoring.zung_jung.scorer import score

__all__ = ["FLAGS", "NAME", "OPTIONS", "responsible_player", "score", "settle"]
