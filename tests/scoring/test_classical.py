"""Classical (Seipalle) scorer: every option, the pluggable limit-hand table, bad input, the table."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_camera_scorer.scoring import classical
from mahjong_camera_scorer.scoring.classical import (
    LIMIT_HANDS,
    LimitHand,
    LimitHandTable,
    pairwise_differences,
    round_half_up,
    settle,
)
from mahjong_camera_scorer.scoring.decompose import Decomposition
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.scoring.tiles import DRAGONS


def hand(
    text: str,
    melds: tuple[str, ...] = (),
    win: str | None = None,
    by: str = "discard",
    seat: str = "S",
    rnd: str = "E",
    **more: Any,
) -> dict[str, Any]:
    """A structured hand; melds as 'pung 777z', 'kong 1111s', 'ckong 3333p' (concealed kong)."""
    ms = []
    for m in melds:
        kind, tiles = m.split()
        ms.append({"type": "kong" if kind == "ckong" else kind, "tiles": tiles, "open": kind != "ckong"})
    d: dict[str, Any] = {"hand": text, "melds": ms, "win_by": by, "seat_wind": seat, "round_wind": rnd}
    d.update(more)
    if win:
        d["winning_tile"] = win
    return d


def score(d: dict[str, Any], **opts: str) -> Score:
    return classical.score(hand_from_dict(d), opts)


DOUBLE_WIND_PAIR = hand("234p678s123s11z", ("pung 555m",), "1z", seat="E")
OWN_FLOWER_SEASON = hand("234p567s345m88p", ("pung 999m",), "8p", seat="N", bonus_tiles=["4f", "8f"])
SEVEN_PAIRS_DRAGON = hand("1155m3399p2288s55z", (), "5z")
ALL_HEADS = hand("999s11p", ("pung 111m", "pung 999p", "pung 444z"), "1p")
NO_HEADS_FLOWER = hand("234m678m345s66s", ("pung 555p",), "6s", bonus_tiles=["5f"])
PUREST_FLOWER = hand("44555678999s", ("chow 123s",), "6s", bonus_tiles=["1f"])
CONCEALED_KONG = hand("456m777m222s99p", ("ckong 3333p",), "9p")
WITHIN_15 = hand("123m678p555s789s44z", (), "3m")
SEED_2560 = hand("345m567m789m22m", ("chow 123m",), "9m")
MET_BY_CLOSING = hand("234m567p345s88m", ("pung 111z",), "8m", seat="E", flags=["last_discard"])
RIICHI_OPEN = hand("234s678s456m99m", ("pung 111p",), "9m", flags=["riichi"])
SEVEN_PAIRS_HEADS = hand("1199m1199p11s5577z", (), "7z")
SEVEN_PAIRS_PUREST = hand("11223344557799m", (), "9m")


# -- options, one test (at least) each -----------------------------------------------------------
def test_every_option_has_a_test_below() -> None:
    tested = {
        "limit",
        "min_doubles_to_win",
        "min_doubles_count",
        "riichi_required",
        "riichi_concealed_only",
        "double_wind_pair",
        "own_bonus_double",
        "loser_pairs",
        "seven_pairs_pair_points",
        "all_terminals_extra_double",
        "bonus_tiles_as_honours",
        "concealed_kong_counts_as_concealed_pung",
        "within_15_strict",
        "seed_limit_hands",
        "round_scores_first",
        "non_winners_settle",
        "no_winner_settlement",
    }
    assert set(classical.OPTIONS) == tested


@pytest.mark.parametrize(("value", "total"), [("1000", 1000), ("none", 2560), ("500", 500), ("5000", 2560)])
def test_limit(value: str, total: int) -> None:
    s = score(SEED_2560, limit=value)
    assert (s.total, s.details["raw_total"], s.details["doubles_total"]) == (total, 2560, 7)


def test_limit_rejects_words_other_than_none() -> None:
    s = score_hand(hand_from_dict(SEED_2560), "classical", {"limit": "lots"})
    assert not s.valid and "whole number or none" in (s.error or "")


def test_min_doubles_to_win_and_what_counts() -> None:
    assert score(MET_BY_CLOSING, min_doubles_to_win="3").valid
    assert score(MET_BY_CLOSING, min_doubles_to_win="4").error == (
        "below the house minimum: 3 doubles, 4 needed to go out"
    )
    s = score(MET_BY_CLOSING, min_doubles_to_win="3", min_doubles_count="fundamental")
    assert not s.valid and s.error == "below the house minimum: 2 fundamental doubles, 3 needed to go out"
    assert s.details["total"] == 192 and s.details["legal_win"] is False


def test_riichi_required() -> None:
    plain = hand("111p234s678s456m99m", (), "9m")
    assert score(plain).valid
    s = score(plain, riichi_required="yes")
    assert not s.valid and "richi obbligatorio" in (s.error or "")
    assert score({**plain, "flags": ["riichi"]}, riichi_required="yes").total == 56


def test_riichi_concealed_only() -> None:
    assert score(RIICHI_OPEN).total == 48  # 20 + 4 (exposed 111p), C16
    assert not score(RIICHI_OPEN, riichi_concealed_only="yes").valid


def test_double_wind_pair() -> None:
    assert score(DOUBLE_WIND_PAIR).total == 24
    s = score(DOUBLE_WIND_PAIR, double_wind_pair="4")
    assert s.total == 26 and s.details["base_points"]["B13 Pair of double wind 11z"] == 4


def test_own_bonus_double() -> None:
    assert score(OWN_FLOWER_SEASON).total == 128
    both = score(OWN_FLOWER_SEASON, own_bonus_double="both")
    assert both.total == 64 and both.details["doubles"] == {"F1 Own flower 4f+8f": 1}
    only_flower = {**OWN_FLOWER_SEASON, "bonus_tiles": ["4f"]}
    assert score(only_flower).total == 56
    assert score(only_flower, own_bonus_double="both").total == 28


@pytest.mark.parametrize(("value", "total"), [("all", 20), ("one", 18), ("none", 16)])
def test_loser_pairs(value: str, total: int) -> None:
    loser = hand("66z77z234m58p3s", ("kong 1111s",), role="loser")
    assert score(loser, loser_pairs=value).total == total


def test_seven_pairs_pair_points() -> None:
    assert score(SEVEN_PAIRS_DRAGON).total == 88
    assert score(SEVEN_PAIRS_DRAGON, seven_pairs_pair_points="no").total == 80


def test_all_terminals_extra_double() -> None:
    # seed 004: "Una chiusura con sole tegole di testa porta un raddoppio" and "Questa chiusura in
    # realtà vale almeno altri quattro raddoppi": 1 + 4 = 5 (the default since issue 36 item 2; the
    # spec's D-7 table count, 4, is the option's no)
    assert score(ALL_HEADS, all_terminals_extra_double="no").total == 640
    s = score(ALL_HEADS, limit="none")
    assert s.total == 1280 and s.details["doubles_total"] == 5
    assert score(ALL_HEADS).total == 1000


def test_bonus_tiles_as_honours() -> None:
    assert score(NO_HEADS_FLOWER).total == 52
    assert score(NO_HEADS_FLOWER, bonus_tiles_as_honours="yes").total == 26
    purest = score(PUREST_FLOWER)
    assert "C2 Purest hand (mano purissima)" in purest.details["doubles"] and purest.total == 36 * 8
    pure = score(PUREST_FLOWER, bonus_tiles_as_honours="yes")
    assert "C1 Pure hand (mano pura)" in pure.details["doubles"] and pure.total == 36 * 2


def test_concealed_kong_counts_as_concealed_pung() -> None:
    assert score(CONCEALED_KONG).total == 44
    assert score(CONCEALED_KONG, concealed_kong_counts_as_concealed_pung="yes").total == 88


@pytest.mark.parametrize(
    ("by", "played", "strict", "c12"),
    [
        ("discard", 15, "no", True),
        ("discard", 15, "yes", False),
        ("discard", 14, "yes", True),
        ("discard", 16, "no", False),
        ("self_draw", 14, "no", True),
        ("self_draw", 15, "no", False),
        ("self_draw", 14, "yes", True),
    ],
)
def test_within_15_strict(by: str, played: int, strict: str, c12: bool) -> None:
    s = score({**WITHIN_15, "win_by": by, "discards_played": played}, within_15_strict=strict)
    assert any(k.startswith("C12 ") for k in s.details["doubles"]) is c12


def test_within_15_flag_without_count() -> None:
    assert score({**WITHIN_15, "flags": ["within_15"]}).total == 48
    assert score(WITHIN_15).total == 24


def test_seed_limit_hands() -> None:
    heads = score(SEVEN_PAIRS_HEADS)
    assert heads.total == 24 * 8 and "tutte coppie di testa" in heads.details["grande_gioco"]
    assert heads.details["limit_hand"] is None
    assert score(SEVEN_PAIRS_HEADS, seed_limit_hands="limit").total == 1000
    purest = score(SEVEN_PAIRS_PUREST)
    assert purest.total == 20 * 32 and "purissima" in purest.details["grande_gioco"]
    at_limit = score(SEVEN_PAIRS_PUREST, seed_limit_hands="limit")
    assert at_limit.total == 1000 and "purissima" in at_limit.details["limit_hand"]
    unscorable = score(SEVEN_PAIRS_PUREST, seed_limit_hands="limit", limit="none")
    assert not unscorable.valid and "no value" in (unscorable.error or "")


SEED_EXAMPLE = {"E": 24, "S": 0, "W": 500, "N": 28}


def test_round_scores_first() -> None:
    data = {"scores": SEED_EXAMPLE, "winners": ["W"]}
    assert classical.score_table(data, {}).details["net"] == {"E": -960, "S": -580, "W": 2000, "N": -460}
    first = classical.score_table(data, {"round_scores_first": "yes"}).details
    assert first["net"] == {"E": -980, "S": -570, "W": 2000, "N": -450}
    rounded_first = classical.score_table(data, {"round_scores_first": "yes"})
    # rounded scores leave nothing to round
    assert first["payments_raw"] == [p.as_dict() for p in rounded_first.payments]


def test_non_winners_settle() -> None:
    scores = {"E": 48, "S": 320, "W": 8, "N": 112}
    with_losers = {str(p) for p in settle(scores, ["S", "N"]).payments}
    without = {str(p) for p in settle(scores, ["S", "N"], non_winners_settle=False).payments}
    assert with_losers - without == {"W→E 80"}
    one_winner = {str(p) for p in settle(scores, ["S"], non_winners_settle=False).payments}
    assert "W→E 80" in one_winner  # the option is about several winners only


def test_no_winner_settlement() -> None:
    scores = {"E": 64, "S": 0, "W": 24, "N": 8}
    assert settle(scores, []).payments == []
    diff = {str(p) for p in settle(scores, [], no_winner="differences").payments}
    assert diff == {"S→E 130", "W→E 80", "N→E 110", "S→W 20", "S→N 10", "N→W 20"}
    table = classical.score_table({"scores": scores, "winners": []}, {"no_winner_settlement": "differences"})
    assert table.details["net"]["E"] == 320


# -- the pluggable limit-hand table -------------------------------------------------------------
DRAGONS_HAND = hand("555z666z777z234m99s", (), "9s")


def _three_dragon_pungs(h: Hand, r: Decomposition) -> bool:
    return sum(g.first in DRAGONS and g.is_pung_like for g in r.groups) == 3


def test_limit_hand_table_is_empty_by_default_and_pluggable() -> None:
    assert len(LIMIT_HANDS) == 0
    dragons = DRAGONS_HAND
    plain = score(dragons)
    assert plain.details["limit_hand"] is None and "big three dragons" in plain.details["possible_limit_hand"]
    club = LimitHandTable([LimitHand("Tre draghi (club list)", _three_dragon_pungs, 500)])
    s = classical.score(hand_from_dict(dragons), {}, limit_hands=club)
    assert s.total == 500 and s.details["limit_hand"] == "Tre draghi (club list)"
    at_limit = LimitHandTable([LimitHand("Tre draghi", _three_dragon_pungs)])
    assert classical.score(hand_from_dict(dragons), {}, limit_hands=at_limit).total == 1000
    # a limit hand is legal whatever the house minimum of doubles
    assert classical.score(hand_from_dict(dragons), {"min_doubles_to_win": "20"}, limit_hands=club).valid


@pytest.mark.parametrize(
    ("d", "name"),
    [
        (hand("222m999m666p888s11p", (), "8s", "self_draw"), "four concealed pungs"),
        (hand("556677m66z", ("chow 567m", "chow 567m"), "6z"), "four identical chows in one suit"),
        (hand("1112345678999m5m", (), "5m"), "nine gates"),
    ],
)
def test_possible_limit_hands_are_flagged_not_valued(d: dict[str, Any], name: str) -> None:
    s = score(d, limit="none")
    assert name in s.details["possible_limit_hand"] and s.details["limit_hand"] is None
    assert s.total == s.details["base_total"] * 2 ** s.details["doubles_total"]


# -- bad input: a precise reason, never an exception ---------------------------------------------
@pytest.mark.parametrize(
    ("d", "reason"),
    [
        (hand("111p234s678s456m99m", (), "6m", flags=["riichi"]), "waited on 3m, 6m"),
        (hand("111p234s678s456m9m"), "needs its winning tile"),
        (hand("111p234s678s456m9m", role="fishing"), "role must be winner or loser"),
        (hand("111p234s678s456m99m", role="loser"), "a loser holds 13 tiles"),
        (hand("123m345s789m22p", ("pung 777p",), "5s", flags=["kong_replacement"]), "needs win_by self_draw"),
        (
            hand("123m345s789m22p", ("pung 777p",), "5s", "self_draw", flags=["robbing_kong"]),
            "needs win_by discard",
        ),
        (hand("123m345s789m23p", ("pung 777p",), "5s"), "not a winning hand"),
        (hand("11111m234s678s99m", (), "9m"), "5 copies of 1m"),
    ],
)
def test_invalid_hands(d: dict[str, Any], reason: str) -> None:
    s = score(d)
    assert not s.valid and reason in (s.error or ""), s.error


def test_flags_notes() -> None:
    s = score({**WITHIN_15, "flags": ["bottled", "ippatsu"]})
    assert s.valid and s.total == 24
    assert any("bottled ignored" in n for n in s.notes) and any("ippatsu" in n for n in s.notes)


def test_through_the_registry_with_hand_options() -> None:
    h = hand_from_dict({**DOUBLE_WIND_PAIR, "options": {"double_wind_pair": "4"}})
    s = score_hand(h, "classical")
    assert s.valid and s.total == 26 and s.unit == "points"
    assert s.elements["B1 Mah jong"] == 20 and "B13 Pair of double wind 11z" in s.render()


def test_loser_never_gets_closing_doubles_or_the_20() -> None:
    s = score(hand("2224566778899s", role="loser"))
    assert s.valid and s.total == 4 and s.details["doubles"] == {}
    assert "B1 Mah jong" not in s.details["base_points"]


# -- generic settlement pieces -------------------------------------------------------------------
def test_pairwise_differences_and_rounding() -> None:
    diffs = pairwise_differences({"E": 24, "S": 0, "N": 28, "X": 28}, ["E", "S", "N", "X"])
    assert [str(p) for p in diffs] == ["S→E 24", "E→N 4", "E→X 4", "S→N 28", "S→X 28"]
    assert [round_half_up(a) for a in (4, 5, 24, 25, 26, 48)] == [0, 10, 20, 30, 30, 50]


# -- a whole table of hands --------------------------------------------------------------------
TABLE = {
    "round_wind": "E",
    "players": {
        "E": {"role": "loser", "hand": "222m13p57p146z", "melds": [{"type": "pung", "tiles": "444m"}]},
        "S": {"role": "loser", "hand": "139m68p245s35z", "melds": [{"type": "pung", "tiles": "777z"}]},
        "W": {
            "role": "winner",
            "hand": "123456789s55m",
            "melds": [{"type": "pung", "tiles": "999p"}],
            "winning_tile": "5m",
            "win_by": "discard",
        },
        "N": {"role": "loser", "hand": "147m258p369s1234z"},
    },
}


def test_table_scores_every_hand_and_settles() -> None:
    s = classical.score_table(TABLE, {})
    assert s.valid, s.error
    d = s.details
    assert d["scores"] == {"E": 6, "S": 8, "W": 96, "N": 0}
    assert sorted(str(p) for p in s.payments) == sorted(["E→W 190", "S→W 100", "N→W 100", "N→E 10", "N→S 10"])
    assert d["net"] == {"E": -180, "S": -90, "W": 390, "N": -120}
    assert net_by_seat(s.payments) == d["net"] and d["hands"]["W"]["total"] == 96
    assert "payments" not in d and "matrix" not in d
    assert s.total == 96 and d["rounded"] == {"E": 10, "S": 10, "W": 100, "N": 0}
    text = s.render()
    assert "E→W 190" in text and "Net: E -180" in text


def test_table_options_from_the_file_and_the_caller() -> None:
    capped = classical.score_table({**TABLE, "limit": "50"}, {})
    assert capped.details["capped_scores"]["W"] == 50
    uncapped = classical.score_table({**TABLE, "limit": "50"}, {"limit": "none"})
    assert uncapped.details["capped_scores"]["W"] == 96
    below = classical.score_table({**TABLE, "options": {"min_doubles_to_win": "3"}}, {})
    assert not below.valid and (below.error or "").startswith("W: below the house minimum")


def test_table_pre_scored_seed_example() -> None:
    players = {s: {"role": "winner" if s == "W" else "loser", "score": v} for s, v in SEED_EXAMPLE.items()}
    s = classical.score_table({"players": players}, {})
    assert s.details["net"] == {"E": -960, "S": -580, "W": 2000, "N": -460}


_EWS = {k: v for k, v in TABLE["players"].items() if k != "N"}


@pytest.mark.parametrize(
    ("players", "reason"),
    [
        ({**_EWS, "N": {"role": "loser", "hand": "147m258p369s1111z"}}, "5 copies of 1z on the table"),
        (_EWS, "four seats"),
        ({**_EWS, "N": {"role": "loser", "score": "lots"}}, "whole score"),
        ({**_EWS, "N": {"role": "loser", "score": -5}}, "whole score"),
        ({**_EWS, "N": {"hand": "147m258p369s1234z"}}, "N: role must be winner or loser"),
        ({**_EWS, "N": {"role": "loser", "hand": "147m258p369s123z"}}, "N: a loser holds 13 tiles"),
    ],
)
def test_table_errors(players: dict[str, Any], reason: str) -> None:
    s = classical.score_table({**TABLE, "players": players}, {})
    assert not s.valid and reason in (s.error or ""), s.error


# -- properties over random hands --------------------------------------------------------------
_KIND_CODES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
_CHOWS = [f"{n}{n + 1}{n + 2}{s}" for s in "mps" for n in range(1, 8)]
_FLAGS = sorted(classical.hands.FLAGS | {"ippatsu"})
_SET = st.one_of(st.sampled_from(_CHOWS), st.sampled_from(_KIND_CODES).map(lambda c: c[0] * 3 + c[1]))


@st.composite
def _hands(draw: st.DrawFn) -> dict[str, Any]:
    """A winner built from 4 sets + a pair (some declared), or a loser's 13 random tiles."""
    common = {
        "seat": draw(st.sampled_from("ESWN")),
        "rnd": draw(st.sampled_from("ESWN")),
        "flags": draw(st.lists(st.sampled_from(_FLAGS), max_size=3, unique=True)),
        "bonus_tiles": draw(
            st.lists(st.sampled_from([f"{n}f" for n in range(1, 9)]), max_size=4, unique=True)
        ),
    }
    if draw(st.booleans()):
        return hand(
            "".join(draw(st.lists(st.sampled_from(_KIND_CODES), min_size=13, max_size=13))),
            role="loser",
            **common,
        )
    sets = draw(st.lists(_SET, min_size=4, max_size=4))
    pair = draw(st.sampled_from(_KIND_CODES))
    n_melds = draw(st.integers(0, 4))
    melds = tuple(("chow " if s[0] != s[1] else "pung ") + s for s in sets[:n_melds])
    concealed = "".join(sets[n_melds:]) + pair[0] * 2 + pair[1]
    return hand(concealed, melds, pair, draw(st.sampled_from(["discard", "self_draw"])), **common)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True)
@given(d=_hands())
def test_never_raises_and_total_is_capped_base_times_doubles(d: dict[str, Any]) -> None:
    s = score(d)
    assert s.valid or s.error
    if "base_total" not in s.details:
        return
    raw = s.details["base_total"] * 2 ** s.details["doubles_total"]
    assert s.details["raw_total"] == raw and s.details["total"] == min(raw, 1000)
    if d.get("role") == "loser":
        assert s.valid and not any(k[0] == "C" or k.startswith("B1 ") for k in s.elements)
    else:
        assert s.details["base_points"]["B1 Mah jong"] == 20
