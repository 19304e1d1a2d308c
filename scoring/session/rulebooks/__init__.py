"""Each rule system's session rulebook, behind the one interface of
:class:`scoring.session.rulebook.Rulebook` (as each system's scorer lives in ``scoring/<system>/``).
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.session.rulebook import Rulebook
from mahjong_camera_scorer.scoring.session.rulebooks.australian import AustralianRulebook
from mahjong_camera_scorer.scoring.session.rulebooks.classical import ClassicalRulebook
from mahjong_camera_scorer.scoring.session.rulebooks.mcr import MCRRulebook
from mahjong_camera_scorer.scoring.session.rulebooks.riichi import RiichiRulebook
from mahjong_camera_scorer.scoring.session.rulebooks.zung_jung import ZungJungRulebook

RULEBOOKS: dict[str, type[Rulebook]] = {
    book.name: book
    for book in (MCRRulebook, RiichiRulebook, ZungJungRulebook, AustralianRulebook, ClassicalRulebook)
}


def rulebook(rules: str) -> type[Rulebook]:
    """The session rulebook of ``rules`` (a key of :data:`scoring.rules.RULE_SYSTEMS`)."""
    return RULEBOOKS[rules]
