"""The words of a situation (:mod:`scoring.situation_words`): each read by one function, so every
front end accepts the same words and refuses the same ones with the same message.

Before, win_by words came from five lists (``claim`` was a way to win in the structured form and
nowhere else) and a wind was any word that started with E, S, W or N (``Wrong`` was West)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mahjong_camera_scorer.scoring.cli.common import CliError, parse_options
from mahjong_camera_scorer.scoring.context import context_from_dict
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.session.load import parse_yaml
from mahjong_camera_scorer.scoring.session.manifest import parse_manifest
from mahjong_camera_scorer.scoring.situation_words import (
    NOBODY,
    counter,
    counter_text,
    flag_names,
    option_pairs,
    option_values,
    responsible,
    role,
    win_by,
    wind,
)
from mahjong_camera_scorer.scoring.structured import hand_from_dict

PLAYERS = (
    "players: [{name: Anna, seat: E}, {name: Bruno, seat: S}, "
    "{name: Carla, seat: W}, {name: Dario, seat: N}]\n"
)


@pytest.mark.parametrize(
    ("word", "letter"),
    [("E", "E"), ("s", "S"), ("West", "W"), ("NORTH", "N"), (" south ", "S"), ("1z", "E"), ("4Z", "N")],
)
def test_a_wind_is_a_letter_a_name_or_its_tile(word: str, letter: str) -> None:
    assert wind(word, "seat") == letter


@pytest.mark.parametrize("word", ["Wrong", "Sud", "X", "", "ſ", "ß", "EE", "5z", "Eastern"])
def test_a_word_that_only_starts_like_a_wind_is_none(word: str) -> None:
    with pytest.raises(HandError, match=r"^seat must be E, S, W or N \(East, South, West, North\), not "):
        wind(word, "seat")


@pytest.mark.parametrize(
    ("word", "canonical"),
    [
        ("discard", "discard"),
        ("RON", "discard"),
        ("self_draw", "self_draw"),
        ("Self-Draw", "self_draw"),
        ("tsumo", "self_draw"),
    ],
)
def test_a_way_to_win(word: str, canonical: str) -> None:
    assert win_by(word, "win_by") == canonical


@pytest.mark.parametrize("word", ["claim", "selfdraw", "robbing", "ronn", ""])
def test_other_ways_to_win_are_refused_naming_the_words(word: str) -> None:
    with pytest.raises(HandError, match=r"^win_by must be 'discard' or 'self_draw' \(ron or tsumo\), not "):
        win_by(word, "win_by")


def test_flags_roles_responsible_counters_options() -> None:
    assert flag_names("Riichi, ippatsu", "flags") == {"riichi", "ippatsu"}
    with pytest.raises(HandError, match="'last-tile' is not a flag name"):
        flag_names(["last-tile"], "flags")
    assert role(" Fishing ", "role") == "fishing"
    assert responsible("none", "r") == NOBODY == responsible("Nobody", "r")
    assert responsible("west", "responsible") == "W"
    assert counter(100, "honba") == 100 and counter_text(" 7 ", "honba") == 7
    for bad in (101, -1, True, "3", 2.0):
        with pytest.raises(HandError, match="honba must be a whole number from 0 to 100"):
            counter(bad, "honba")
    for text in ("²", "١", "1e3", "12345", ""):
        with pytest.raises(HandError, match="honba must be a whole number from 0 to 100"):
            counter_text(text, "honba")
    assert option_values({"limit": 500, "kiriage": True, "x": " on "}, "options") == {
        "limit": "500",
        "kiriage": "true",
        "x": "on",
    }
    assert option_pairs(["limit=500", " red_fives = 0 "], "--option") == {"limit": "500", "red_fives": "0"}
    for pair in ("limit", "=1", "li mit=1", "2x=1"):
        with pytest.raises(HandError, match="--option: NAME=VALUE, not"):
            option_pairs([pair], "--option")


def _notation(value: str) -> None:
    parse_hand(f"123m456p789s1122z ron 2z seat={value}")


def _structured(value: str) -> None:
    hand_from_dict({"hand": "123m456p789s1122z", "winning_tile": "2z", "seat_wind": value})


def _cli(value: str) -> None:  # the photo commands' --seat, as vision.cli.options reads it
    context_from_dict({"seat_wind": value}, names={"seat_wind": "--seat"})


def _manifest(value: str, column: str = "seat") -> None:
    cells = f"photo,seat\nh.jpg,{value}\n" if column == "seat" else f"photo,seat,{column}\nh.jpg,E,{value}\n"
    (row,) = parse_manifest(cells)
    if row.error:
        raise HandError(row.error)


def _session(value: str) -> None:
    parse_yaml(PLAYERS.replace("seat: E}", f"seat: {value}}}") + "hands: []\n")


FRONT_ENDS: list[Callable[[str], None]] = [_notation, _structured, _cli, _manifest, _session]


@pytest.mark.parametrize("front_end", FRONT_ENDS, ids=lambda f: f.__name__.strip("_"))
def test_every_front_end_takes_the_same_winds_and_refuses_the_same_with_one_message(
    front_end: Callable[[str], None],
) -> None:
    front_end("east")  # a wind's name is a wind everywhere (the session's seats took letters only)
    with pytest.raises(HandError) as err:
        front_end("Wrong")
    assert str(err.value).endswith("must be E, S, W or N (East, South, West, North), not 'Wrong'")


@pytest.mark.parametrize(
    "read",
    [
        lambda w: parse_hand(f"123m456p789s1122z seat=S win={w}"),
        lambda w: hand_from_dict({"hand": "11m", "win_by": w}),
        lambda w: context_from_dict({"win_by": w}, names={"win_by": "--win-by"}),
        lambda w: parse_yaml(PLAYERS + f"hands: [{{hand: '123m456p789s1122z', winner: E, win_by: {w}}}]\n"),
        lambda w: _manifest(w, "win_by"),
    ],
    ids=["notation", "structured", "cli", "session", "manifest"],
)
def test_every_front_end_takes_the_same_ways_to_win(read: Callable[[str], object]) -> None:
    for word in ("ron", "Tsumo", "self-draw"):
        read(word)
    with pytest.raises(HandError) as err:
        read("claim")  # the structured form's alone, before
    assert str(err.value).endswith("must be 'discard' or 'self_draw' (ron or tsumo), not 'claim'")


def test_the_command_lines_options_are_read_as_everywhere() -> None:
    assert parse_options(["limit=none"]) == {"limit": "none"}
    with pytest.raises(CliError, match="--option: NAME=VALUE, not 'limit'"):
        parse_options(["limit"])
