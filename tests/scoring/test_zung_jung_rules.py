"""Zung Jung rules beyond the vectors: the table against the seed, input checks, payments, limits."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.hand import Hand, HandError, Meld
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.payments import paid_by
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.situation_words import NOBODY
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.scoring.tiles import Tile
from mahjong_camera_scorer.scoring.zung_jung import responsible_player, settle
from mahjong_camera_scorer.scoring.zung_jung.combine import family_rule
from mahjong_camera_scorer.scoring.zung_jung.options import OPTIONS
from mahjong_camera_scorer.scoring.zung_jung.patterns import BY_NAME, LIMIT, PATTERNS
from tests.spec_vectors import SHARED

ZJ = "zung-jung"
SEED = SHARED / "seeds" / "002_834b8e6b1d09c295.txt"
SPEC = SHARED / "rules" / "zung-jung.md"
DEFAULTS = {name: o.default for name, o in OPTIONS.items()}


def _score(text: str, **situation: object):
    hand = parse_hand(text)
    if situation:
        hand = hand.with_context(**situation)
    return score_hand(hand, ZJ)


# -- the table against the seed and the spec ---------------------------------------------------------
def _seed_table() -> dict[str, tuple[bool, int]]:
    """Number → (↑ mark, points) from the seed's first summary table ('2.1.2↑\tMANO …\t80')."""
    if not SEED.is_file():
        pytest.skip("../shared/seeds not available")
    out: dict[str, tuple[bool, int]] = {}
    for m in re.finditer(r"^(\d+(?:\.\d+)+)(↑?)\t[^\t]+\t(\d+)", SEED.read_text(encoding="utf-8"), re.M):
        out.setdefault(m.group(1), (m.group(2) == "↑", int(m.group(3))))
    return out


def test_table_matches_the_seed_summary_numbers_points_and_up_marks() -> None:
    seed = _seed_table()
    assert len(seed) == 48
    assert {p.number: (p.up, p.value) for p in PATTERNS} == seed


def test_names_match_the_spec_table() -> None:
    if not SPEC.is_file():
        pytest.skip("../shared/rules not available")
    names: dict[str, str] = {}
    for m in re.finditer(r"^\| (\d+(?:\.\d+)+) \|[^|]*\|[^|]*\| ([^|]+?) \|", SPEC.read_text("utf-8"), re.M):
        names.setdefault(m.group(1), m.group(2))
    assert {p.number: p.name for p in PATTERNS} == names


def test_listed_limits_are_the_seven_of_the_spec() -> None:
    assert {p.number for p in PATTERNS if p.listed_limit} == {
        "2.2",
        "3.3.3",
        "3.3.4",
        "3.4",
        "4.3.4",
        "5.1.4",
        "8.1.4",
    }


def test_family_rule() -> None:
    def kept(*names: str, **options: str) -> list[str]:
        opts = {**DEFAULTS, **options}
        return [p.name for p, _ in family_rule([(BY_NAME[n], 1) for n in names], opts)]

    assert kept("Two Concealed Triplets", "Three Concealed Triplets") == ["Three Concealed Triplets"]
    assert kept("Mixed Lesser Terminals", "Pure Lesser Terminals", "Mixed Greater Terminals") == [
        "Mixed Greater Terminals"
    ]
    # different series always add, even when one implies the other (seed REGOLE DI BASE 4)
    assert kept("All Triplets", "Four Concealed Triplets", "Concealed Hand") == [
        "All Triplets",
        "Four Concealed Triplets",
        "Concealed Hand",
    ]
    # series without an up-arrow keep everything (9.2 + 9.1.1 is the seed's own example)
    assert kept("Final Draw", "Win on Kong") == ["Final Draw", "Win on Kong"]
    assert kept("Non-seat Flower or Season", "Seat Flower or Season") == [
        "Non-seat Flower or Season",
        "Seat Flower or Season",
    ]


# -- limits and combinations ------------------------------------------------------------------------
def test_small_four_winds_and_all_honors_is_320() -> None:
    """Spec §4.3: two listed limits, only the single highest counts: 320, not 640."""
    result = _score("55z11z [222z] [333z] [444z] tsumo 5z seat=E")
    assert result.elements == {"Small Four Winds": 320} and result.total == 320
    assert result.details["limit"] == "listed"


def test_round_wind_pung_scores_nothing() -> None:
    """Seed 3.1: 'nel sistema Zung Jung il vento di round non è considerato'."""
    for round_wind in "ESWN":
        result = _score(f"23m55p [222z] [123p] [789s] ron 4m seat=E round={round_wind}")
        assert result.elements == {"Chicken Hand": 1}


def test_value_honor_per_set() -> None:
    result = _score("23m55p [555z] [666z] [444z] ron 4m seat=N")
    assert result.elements == {"Value Honor": 30}  # no dragon pair: not Small Three Dragons
    assert "Value Honor x3" in result.notes


def test_undeclared_four_of_a_kind_is_not_a_kong() -> None:
    result = _score("111123m555p777s8s tsumo 8s seat=E")
    assert "One Kong" not in result.elements
    assert result.elements["Three Concealed Triplets"] == 30


def test_heavenly_void_with_concealed_kong() -> None:
    """Seed 9.4.1: 'La Combinazione non è valida se Est ha composto un kong coperto'."""
    result = _score("123m456m789p1z (2222s) tsumo 1z heavenly seat=E")
    assert result.valid and "Blessing of Heaven" not in result.elements
    assert any("Blessing of Heaven void" in n for n in result.notes)


def test_heavenly_needs_no_winning_tile() -> None:
    hand = hand_from_dict({"hand": "123m456m789p234s11z", "win_by": "self_draw", "flags": ["heavenly"]})
    result = score_hand(hand, ZJ)
    assert result.elements == {"Blessing of Heaven": 155, "Concealed Hand": 5, "All Sequences": 5}


# -- input checks -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "extra", "message"),
    [
        ("11111m23m456p789s1z ron 1z", {}, "5 copies of 1m"),
        ("123m456p789s11z2z ron 3z", {}, "not a complete hand: 13 concealed tiles"),
        ("123m456p789s1z22z4z ron 3z", {}, "not a winning hand"),
        ("123m456p789s11z22z ron 2z riichi", {}, "unknown flag(s) for Zung Jung: riichi"),
        ("123m456p789s11z22z ron 2z last_tile", {}, "flag last_tile needs win_by self_draw"),
        ("123m456p789s11z22z tsumo 2z robbing_kong", {}, "flag robbing_kong needs win_by discard"),
        ("123m456p789s11z22z tsumo 2z kong_replacement", {}, "no declared kong"),
        ("123m456p789s11z22z tsumo 2z heavenly seat=S", {}, "Blessing of Heaven is East's only"),
        ("456p789s11z22z [123m] tsumo 2z heavenly", {}, "no set can have been claimed"),
        ("123m456p789s11z22z ron 2z earthly seat=E", {}, "for South, West or North"),
        ("456p789s11z22z [123m] ron 2z earthly seat=S", {}, "no set can have been declared"),
        ("123m456p789s11z22z ron 2z", {"role": "loser"}, "scores only the winning hand"),
        (
            "123m456p789s11z22z ron 2z seat=E",
            {"discarder": "S", "discards_in_window": ("E:3x",)},
            "payment: ",
        ),
    ],
)
def test_invalid_inputs_are_reported(text: str, extra: dict[str, object], message: str) -> None:
    result = _score(text, **extra)
    assert not result.valid
    assert message in result.error


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ({"discarder": "E"}, "discarder: E is the winner's own seat"),
        ({"discarder": "X"}, "discarder must be a seat E, S, W or N"),
        ({"discarder": "S", "discards_in_window": 5}, "discards_in_window is a list"),
        ({"responsible": 5}, "responsible must be a seat"),
    ],
)
def test_a_situation_no_table_has_is_refused_when_made(situation: dict[str, object], message: str) -> None:
    """The discarder and the responsible player are typed fields of the situation (they were an
    untyped ``extra`` the payment rejected): a seat that is none, or the winner's own, is refused
    as the situation is made, on every front end alike."""
    with pytest.raises(HandError, match=re.escape(message)):
        parse_hand("123m456p789s11z22z ron 2z seat=E").with_context(**situation)


def test_missing_winning_tile_is_reported() -> None:
    result = score_hand(hand_from_dict({"hand": "123m456p789s11z222z"}), ZJ)
    assert not result.valid and "no winning tile" in result.error


def test_red_five_is_a_plain_five() -> None:
    assert _score("340m456p789s11z2z ron 2z").total == _score("345m456p789s11z2z ron 2z").total


# -- payments from score() --------------------------------------------------------------------------
SMALL_THREE_DRAGONS = "67p66z [777z] [555z] [234m] ron 8p seat=S"  # 60 points


def test_discard_payment_needs_to_know_who_is_responsible() -> None:
    result = _score(SMALL_THREE_DRAGONS)
    assert result.valid and result.payments == [] and result.to_json()["payments"] == []
    assert any("give 'discarder'" in n for n in result.notes)
    paid = _score(SMALL_THREE_DRAGONS, discarder="N")
    assert paid_by(paid.payments) == {"E": 25, "W": 25, "N": 130}
    # "ogni giocatore paga inizialmente 25 punti, poi il giocatore responsabile paga il resto"
    by_n = [(p.amount, p.reason) for p in paid.payments if p.payer == "N"]
    assert by_n == [(25, "hand"), (105, "responsibility")]
    assert {p.payee for p in paid.payments} == {"S"}
    assert paid.details["responsible"] == "N"
    assert "Payment: E pays 25, W pays 25, N pays 130 -> S receives 180" in paid.notes


def test_explicit_responsible_and_nobody_responsible() -> None:
    assert paid_by(_score(SMALL_THREE_DRAGONS, responsible="E").payments) == {"E": 130, "W": 25, "N": 25}
    assert paid_by(_score(SMALL_THREE_DRAGONS, responsible=NOBODY).payments) == {"E": 60, "W": 60, "N": 60}


def test_winner_discarded_the_tile_in_the_window() -> None:
    result = _score(SMALL_THREE_DRAGONS, discarder="N", discards_in_window=("S:8p", "W:1m"))
    assert result.details["responsible"] is None
    assert paid_by(result.payments) == {"E": 60, "W": 60, "N": 60}


def test_up_to_par_everyone_pays_the_value_without_a_discarder() -> None:
    result = _score("345m789s2p [123m] [567p] ron 2p seat=N")
    assert paid_by(result.payments) == {"E": 5, "S": 5, "W": 5}


def test_blessing_of_earth_is_paid_by_east_without_a_discarder() -> None:
    result = _score("222m345m678p789s5p ron 5p earthly seat=W")
    assert result.total == 160
    assert paid_by(result.payments) == {"E": 430, "S": 25, "N": 25}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: settle("X", "discard", 30, None), "winner must be one of"),
        (lambda: settle("E", "tsumo", 30, None), "win_by must be"),
        (lambda: settle("E", "discard", 0, None), "at least 1 point"),
        (lambda: settle("E", "discard", 30, "E"), "responsible player must be one of S, W, N"),
        (lambda: responsible_player("E", "S", None, ["S:3s"]), "needs the winning tile"),
        (lambda: responsible_player("E", "S", "3s", ["S 3s"]), "'SEAT:tile'"),
        (lambda: responsible_player("E", "S", "3s", ["W:3s", "E:1m"]), "can only be the first"),
    ],
)
def test_payment_functions_reject_bad_input(call, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


# -- properties over generated complete hands --------------------------------------------------------
_SET = st.one_of(
    st.tuples(st.just("pung"), st.integers(0, 33)),
    st.tuples(st.just("chow"), st.integers(0, 26).filter(lambda k: k % 9 <= 6)),
)


@st.composite
def complete_hands(draw: st.DrawFn) -> Hand:
    sets = draw(st.lists(_SET, min_size=4, max_size=4))
    pair = draw(st.integers(0, 33))
    how_declared = st.sampled_from(["open", "kong", "concealed_kong", "hand"])
    declared = draw(st.lists(how_declared, min_size=4, max_size=4))
    counts = [0] * 34
    concealed: list[int] = [pair, pair]
    melds: list[Meld] = []
    for (kind, first), how in zip(sets, declared, strict=True):
        kinds = [first] * 3 if kind == "pung" else [first, first + 1, first + 2]
        if kind == "pung" and how in ("kong", "concealed_kong"):
            kinds.append(first)
            melds.append(Meld("kong", tuple(Tile(k) for k in kinds), open=how == "kong"))
        elif how == "open":
            melds.append(Meld(kind, tuple(Tile(k) for k in kinds)))
        else:
            concealed.extend(kinds)
        for k in kinds:
            counts[k] += 1
    counts[pair] += 2
    assume(max(counts) <= 4)
    win = draw(st.sampled_from(sorted(set(concealed))))
    bonus = draw(st.sets(st.integers(34, 41), max_size=3))
    return Hand(
        concealed=tuple(Tile(k) for k in concealed),
        melds=tuple(melds),
        bonus_tiles=tuple(Tile(k) for k in sorted(bonus)),
        context=HandContext(
            winning_tile=Tile(win),
            win_by=draw(st.sampled_from(["discard", "self_draw"])),
            seat_wind=draw(st.sampled_from("ESWN")),
        ),
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands())
def test_properties_of_complete_hands(hand: Hand) -> None:
    result = score_hand(hand, ZJ)
    assert result.valid, result.error
    assert 1 <= result.total <= 480
    limit = result.details["limit"]
    if limit == "listed":
        assert len(result.elements) == 1 and BY_NAME[next(iter(result.elements))].listed_limit
    elif limit == "compound":
        assert result.total == LIMIT and sum(result.elements.values()) >= LIMIT
    else:
        assert sum(result.elements.values()) == result.total < LIMIT
    if hand.context.win_by == "self_draw":
        assert paid_by(result.payments) == {s: result.total for s in "ESWN" if s != hand.context.seat_wind}
        # the same tiles won on a discard can only lose concealed triplets
        assert score_hand(hand.with_context(win_by="discard"), ZJ).total <= result.total
