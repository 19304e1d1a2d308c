"""Australian variant (Max Robertson, "The Game of Mah Jong"), seed ``003_…txt``.

Every player's hand is scored when someone goes out: the winner, each fishing player and the other
losers (L84, L125); the table is then settled with East paying and receiving double (L81) and the
totals rounded to the nearest 100 (L326). Modules: :mod:`.options` (every ambiguity of the spec),
:mod:`.parts` (classic set and pair values), :mod:`.doubles` (the 'Raddoppi' table),
:mod:`.patterns` and :mod:`.special` (the 39 special hands), :mod:`.evaluate` (legal declarations),
:mod:`.winner`, :mod:`.nonwinner`, :mod:`.scorer` (one hand), :mod:`.settlement` and :mod:`.table`
(the whole table), :mod:`.jokers` (Goulash jokers).
"""

from mahjong_camera_scorer.scoring.australian.options import OPTIONS
from mahjong_camera_scorer.scoring.australian.scorer import NAME, score
from mahjong_camera_scorer.scoring.australian.table import payment_lines, score_table

__all__ = ["NAME", "OPTIONS", "payment_lines", "score", "score_table"]
