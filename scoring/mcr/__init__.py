"""MCR, the Chinese Official rules (seed ``000_…txt``: FIMJ/WMO 2006 regulation, 81 elements).

The flow a referee follows: check the tiles and the flags, read the hand every way it can be read
(:mod:`.forms`), count each reading under the counting principles (:mod:`.principles` over the
element table of :mod:`.elements`), keep the highest, add the flowers, check the 8-point minimum
("almeno 8 punti, escludendo il valore dei fiori", seed §3.1) and settle (:mod:`.payments`).
"""

from __future__ import annotations

from collections.abc import Mapping

from mahjong_camera_scorer.scoring.decompose import shape_error
from mahjong_camera_scorer.scoring.hand import Hand, check_tiles
from mahjong_camera_scorer.scoring.i18n import msg
from mahjong_camera_scorer.scoring.mcr.elements import BY_NO, FLOWER_TILES
from mahjong_camera_scorer.scoring.mcr.facts import hand_facts
from mahjong_camera_scorer.scoring.mcr.forms import (
    WAIT_LABEL_PRIORITY,
    Tiles,
    describe,
    hand_tiles,
    mcr_readings,
    unique_wait,
)
from mahjong_camera_scorer.scoring.mcr.options import OPTIONS
from mahjong_camera_scorer.scoring.mcr.payments import BASE, discarder_error, settlement
from mahjong_camera_scorer.scoring.mcr.principles import (
    POINTS,
    ReadingScore,
    best_score,
    hand_wide_counts,
    score_reading,
)
from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.result import Score, deferred
from mahjong_camera_scorer.scoring.tiles import BACK_INDEX, FIRST_BONUS, N_KINDS

NAME = "mcr"
MINIMUM = 8

#: The flags of the spec's §0.2, each with the way of winning it needs.
FLAGS: dict[str, str] = {
    "last_tile": "self_draw",
    "last_discard": "discard",
    "kong_replacement": "self_draw",
    "robbing_kong": "discard",
    "flower_replacement": "self_draw",
    "last_of_kind": "",
}

DEFAULTS = {name: option.default for name, option in OPTIONS.items()}
NAMES = {no: row.name for no, row in BY_NO.items()}

__all__ = ["FLAGS", "MINIMUM", "NAME", "OPTIONS", "best_reading", "reading_scores", "score"]


def _flag_error(hand: Hand) -> str | None:
    if not hand.context.flags:
        return None
    unknown = sorted(hand.context.flags - FLAGS.keys())
    if unknown:
        return f"unknown flag {unknown[0]!r} for MCR (flags: {', '.join(FLAGS)})"
    for flag in sorted(hand.context.flags):
        need = FLAGS[flag]
        if need and hand.context.win_by != need:
            return f"flag {flag} needs win_by {need}, but the hand was won by {hand.context.win_by}"
    winning = hand.context.winning_tile
    assert winning is not None  # score() turns a hand without one away first
    win = winning.index
    if "kong_replacement" in hand.context.flags and not any(m.kind == "kong" for m in hand.melds):
        return "flag kong_replacement: the hand declares no kong"
    if "flower_replacement" in hand.context.flags and not hand.bonus_tiles:
        return "flag flower_replacement: the hand shows no flower or season"
    held = sum(1 for t in hand.all_tiles() if t.index == win)
    if "robbing_kong" in hand.context.flags and held > 1:
        return (
            f"flag robbing_kong: the other three {winning.code} are in the robbed pung, "
            "but the winner holds another"
        )
    concealed = sum(1 for t in hand.concealed if t.index == win)
    if "last_of_kind" in hand.context.flags and concealed > 1:
        return (
            f"flag last_of_kind: the winner holds another {winning.code} concealed, so the "
            "other three cannot all be visible (A30)"
        )
    return None


def reading_scores(hand: Hand, options: Mapping[str, str], tiles: Tiles | None = None) -> list[ReadingScore]:
    """Each reading of a checked hand with its count under the principles (non-separation).

    ``tiles`` are :func:`scoring.mcr.forms.hand_tiles`, when the caller has them already."""
    if tiles is None:
        tiles = hand_tiles(hand)
    readings = mcr_readings(hand, tiles)
    if not readings:
        return []
    needs_wait = options["winning_tile_shown"] == "yes" and any(
        r.wait in WAIT_LABEL_PRIORITY for r in readings
    )
    unique = needs_wait and unique_wait(
        hand, drop_fully_held=options["wait_drops_fully_held"] == "yes", tiles=tiles
    )
    h = hand_facts(hand, options, unique, tiles)
    hand_wide = hand_wide_counts(h, readings[0])
    return [score_reading(h, r, hand_wide) for r in readings]


def _checked_tiles(hand: Hand) -> tuple[str | None, Tiles | None]:
    """:func:`check_tiles`' verdict, and the concealed tiles of a hand that passes.

    The common case (plain tiles, at most four of a kind, distinct bonus tiles, the winning tile
    held) is settled in one pass; anything else gets check_tiles' own precise reason.
    """
    win = hand.context.winning_tile
    counts = [0] * (N_KINDS + 9)
    present = odd = 0
    for t in hand.concealed:
        k = t.index
        counts[k] += 1
        present |= 1 << k
        odd ^= 1 << k
    concealed = counts[:N_KINDS]
    for m in hand.melds:
        for t in m.tiles:
            counts[t.index] += 1
    bonus = hand.bonus_tiles
    if (
        win is None
        or max(counts) > 4
        or any(counts[N_KINDS:])
        or win.index >= N_KINDS
        or win not in hand.concealed
        or (
            bonus
            and (any(not FIRST_BONUS <= t.index < BACK_INDEX for t in bonus) or len(set(bonus)) != len(bonus))
        )
    ):
        return check_tiles(hand, red_fives_in_set=0), None
    return None, Tiles(concealed, present, odd)


def best_reading(hand: Hand, options: Mapping[str, str]) -> ReadingScore | None:
    """The highest-scoring reading (take-the-higher); None when the tiles form no winning hand."""
    return best_score(reading_scores(hand, options))


def score(hand: Hand, options: Mapping[str, str]) -> Score:
    """Score a won MCR hand; never raises for a bad hand (the reason is in ``Score.error``)."""
    reason, tiles = _checked_tiles(hand)
    if reason is None and hand.context.winning_tile is None:
        reason = "MCR scores a won hand: give the winning tile"
    reason = reason or _flag_error(hand) or discarder_error(hand)
    if reason:
        return Score.invalid(NAME, reason)
    values = DEFAULTS | dict(options)
    best = best_score(reading_scores(hand, values, tiles))
    if best is None:
        return Score.invalid(NAME, shape_error(hand))
    ranked = sorted((-POINTS[no] * n, no) for no, n in best.counts.items())  # by value, then number
    elements = {NAMES[no]: -value for value, no in ranked}
    flowers = len(hand.bonus_tiles)
    if flowers:
        elements[NAMES[FLOWER_TILES]] = flowers
    total = best.points + flowers
    details = {
        "points_without_flowers": best.points,
        "minimum": MINIMUM,
        "reading": describe(best.reading),
    }
    valid = best.points >= MINIMUM
    error = (
        None
        if valid
        else (f"not a legal win: only {best.points} points without flowers; MCR needs {MINIMUM}")
    )
    result = Score(NAME, valid, error, elements, total, "points", details)
    # built when read (the CLI, the web page, a session), not for every hand of a batch
    if valid:
        result.payments = deferred(lambda: settlement(hand, total))
    result.notes = deferred(lambda: _notes(hand, total, result))
    return result


def _notes(hand: Hand, total: int, result: Score) -> list[str]:
    """The reading, then the settlement: net by seat, or by role when the discarder is not known
    (messages for the reader's language)."""
    notes: list[str] = [msg("Reading: {sets}", sets=result.details["reading"])]
    if not result.payments:
        return notes
    if not hand.context.self_drawn and hand.context.discarder is None:
        notes.append(
            msg(
                "Settlement: winner +{winner}; the discarder pays {discarder}, each other player {other}",
                winner=total + 3 * BASE,
                discarder=total + BASE,
                other=BASE,
            )
        )
    else:
        net = net_by_seat(result.payments)
        notes.append(
            msg(
                "Settlement: {net}",
                net=tuple(msg("{seat} {points}", seat=msg(k), points=f"{v:+d}") for k, v in net.items()),
            )
        )
    return notes
