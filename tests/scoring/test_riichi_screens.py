"""The riichi tables' screens only save work: a row whose screen fails for a hand must not match
any reading of it. Checked on seeded generated hands (every style: flushes, honours, terminals,
greens, seven pairs, thirteen orphans, kongs) and on the spec vectors, under every option value
a predicate reads; and the flag rows are exactly the rows whose predicate tests one flag."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.scoring.decompose import readings
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.options import resolve
from mahjong_camera_scorer.scoring.riichi import OPTIONS
from mahjong_camera_scorer.scoring.riichi.context import context
from mahjong_camera_scorer.scoring.riichi.patterns import SCREENS, Pattern, shape
from mahjong_camera_scorer.scoring.riichi.validate import normalise_flags
from mahjong_camera_scorer.scoring.riichi.yaku import YAKU, YAKU_TABLE
from mahjong_camera_scorer.scoring.riichi.yakuman import YAKUMAN, YAKUMAN_TABLE
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from tests.scoring.riichi_hands import generate
from tests.spec_vectors import load_vectors

OPTION_SETS = [
    resolve(OPTIONS),
    resolve(
        OPTIONS,
        {"all_honours_seven_pairs": "no", "all_green_dragon": "required", "haitei_rinshan": "rinshan_only"},
    ),
]
SCREENED = [p for p in (*YAKU, *YAKUMAN) if p.screen is not None]


def _hands() -> list[Hand]:
    hands = generate(3000, seed=4242)
    for vector in load_vectors("riichi"):  # none when ../shared is absent: generated hands only
        try:
            hands.append(hand_from_dict(vector))
        except ValueError:
            continue
    return hands


def _violations(pattern: Pattern, hands: list[Hand]) -> list[str]:
    out = []
    for hand in hands:
        for options in OPTION_SETS:
            ctx = context(hand, normalise_flags(hand.context.flags), options)
            if pattern.screen(ctx):  # type: ignore[misc]
                continue
            shapes = [None] if pattern.per_hand else [shape(r) for r in readings(hand)]
            if any(pattern.predicate(s, ctx) for s in shapes):  # type: ignore[arg-type]
                name = getattr(pattern.screen, "__name__", "?")
                out.append(f"{pattern.key}: screen {name} fails but the row matches {hand}")
    return out


@pytest.mark.slow
def test_screens_are_necessary() -> None:
    hands = _hands()
    problems = [v for p in SCREENED for v in _violations(p, hands)]
    assert not problems, problems[:5]


def test_every_screen_guards_a_row_and_fails_on_some_hand() -> None:
    hands = generate(300, seed=7)
    for screen in SCREENS:
        assert any(p.screen is screen for p in SCREENED), screen.__name__
        assert not all(screen(context(h, h.context.flags, OPTION_SETS[0])) for h in hands), screen.__name__


@pytest.mark.parametrize("concealed", [True, False])
def test_flag_rows_are_the_flag_predicates(concealed: bool) -> None:
    for patterns, table in ((YAKU, YAKU_TABLE[concealed]), (YAKUMAN, YAKUMAN_TABLE[concealed])):
        flagged = {
            p.key for p in patterns if hasattr(p.predicate, "flag") and (p.closed if concealed else p.open)
        }
        assert {key for _, key, _ in table.flags} == flagged
        for per_hand, per_reading in table.by_screens.values():
            assert not flagged & {key for key, _, _ in (*per_hand, *per_reading)}
