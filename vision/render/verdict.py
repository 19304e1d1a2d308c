"""The verdict in words (:class:`vision.verdict.Verdict`): the first line of every read a person sees.

``sure``, or what to check: each doubted tile by its place in the hand (row and position, left to
right, as a player counts them), its code and why, then what is wrong with the hand as a whole.
English or Italian (``lang``: the sentences are the catalog's, :mod:`scoring.i18n`); the JSON
record and the CSV keep the verdict's identifiers.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, translator
from mahjong_camera_scorer.vision.verdict import Doubt, Place, Verdict

#: Why a tile is doubted, in words (English: the catalog's message ids).
REASON_WORDS = {
    "unsure": "{conf:.2f} sure",
    "close": "{conf:.2f} sure, close to {maybe}",
    "faint": "faintly boxed",
    "gap": "beside a gap where a tile may be missing",
    "hand_size": "the hand's size is off",
    "fifth_copy": "a fifth copy of its kind",
    "asked": "read where the detector boxed nothing",
    "mended": "changed to complete the hand",
}
#: What is wrong with the hand as a whole, in words.
HAND_WORDS = {
    "hand_size": "the hand does not have a finished hand's number of tiles",
    "no_tiles": "no tiles found",
    "bad_set": "a declared set is not a chow, pung or kong",
    "no_concealed": "no concealed tiles found",
}


def place_words(place: Place, lang: str = DEFAULT_LANG) -> str:
    tr = translator(lang)
    if place.row > 0:
        return tr("row {row}, tile {position}").format(row=place.row, position=place.position)
    if place.row == 0:
        return tr("flower {position}").format(position=place.position)
    return tr("beside the hand, tile {position}").format(position=place.position)


def doubt_words(d: Doubt, lang: str = DEFAULT_LANG) -> str:
    """``row 1, tile 6 (5p: 0.52 sure, maybe 6p)``."""
    tr = translator(lang)
    why = [tr(REASON_WORDS.get(r, r)).format(conf=d.confidence, maybe=d.maybe or "?") for r in d.reasons]
    if "unsure" in d.reasons and d.maybe:
        why[d.reasons.index("unsure")] += tr(", maybe {maybe}").format(maybe=d.maybe)
    return f"{place_words(d.place, lang)} ({d.code}: {', '.join(why)})"


def verdict_line(verdict: Verdict, lang: str = DEFAULT_LANG) -> str:
    """The verdict as the first line of a read."""
    tr = translator(lang)
    if verdict.sure:
        return tr("Verdict: sure")
    parts = [doubt_words(d, lang) for d in verdict.doubts]
    parts += [tr(HAND_WORDS.get(k, k)) for k in verdict.hand]
    if not parts:
        return tr("Verdict: check the photo: no tile was read")
    return tr("Verdict: check {what}").format(what="; ".join(parts))


def to_check_cell(verdict: Verdict) -> str:
    """The CSV's ``to_check`` cell: each doubted tile as ``R.K:code`` (row, position; ``F.K`` a
    flower, ``B.K`` a tile beside the hand), space-separated."""

    def where(p: Place) -> str:
        return f"{p.row}.{p.position}" if p.row > 0 else f"{'F' if p.row == 0 else 'B'}.{p.position}"

    return " ".join(f"{where(d.place)}:{d.code}" for d in verdict.doubts)
