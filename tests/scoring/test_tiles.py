"""Tiles: codes, red fives, bonus tiles, face-down marker, glyphs."""

import pytest

from mahjong_camera_scorer.scoring.tiles import (
    ALL_KINDS,
    BACK,
    BONUS_TILES,
    RED_FIVES,
    Tile,
    TileError,
    counts34,
    format_tiles,
    glyphs,
    parse_tiles,
    tile,
    wind_index,
)


def test_34_kinds_round_trip_through_their_codes():
    assert len(ALL_KINDS) == 34
    codes = [t.code for t in ALL_KINDS]
    assert codes[:9] == [f"{n}m" for n in range(1, 10)]
    assert codes[27:] == [f"{n}z" for n in range(1, 8)]
    assert [tile(c) for c in codes] == list(ALL_KINDS)


def test_red_five_is_a_five_with_the_red_flag():
    red = tile("0p")
    assert red == Tile(13, True) and red in RED_FIVES
    assert red.index == tile("5p").index and red != tile("5p")
    assert red.number == 5 and red.suit == "p" and red.code == "0p"
    assert red.plain() == tile("5p")
    assert red.name == "5 circles (red)"
    assert counts34([red, tile("5p")])[13] == 2


def test_bonus_tiles_and_back():
    assert [t.code for t in BONUS_TILES] == [f"{n}f" for n in range(1, 9)]
    assert tile("3f").name == "Chrysanthemum" and tile("4f").name == "Bamboo"
    assert tile("?") == BACK and BACK.is_back and BACK.code == "?"
    assert counts34([tile("1f"), BACK]) == [0] * 34


@pytest.mark.parametrize(
    ("code", "props"),
    [
        ("1m", {"is_terminal": True, "is_simple": False, "is_honour": False, "is_terminal_or_honour": True}),
        ("5s", {"is_terminal": False, "is_simple": True, "is_suited": True}),
        ("9p", {"is_terminal": True}),
        ("1z", {"is_wind": True, "is_honour": True, "is_dragon": False, "name": "East"}),
        ("5z", {"is_dragon": True, "name": "White"}),
        ("7z", {"is_dragon": True, "name": "Red"}),
    ],
)
def test_classification(code, props):
    t = tile(code)
    for name, value in props.items():
        assert getattr(t, name) == value, name


def test_glyphs_follow_unicode_order():
    assert glyphs(parse_tiles("1m9m")) == "\U0001f007\U0001f00f"
    assert glyphs(parse_tiles("1p1s")) == "\U0001f019\U0001f010"
    assert glyphs(parse_tiles("1234567z")) == "🀀🀁🀂🀃🀆🀅🀄"
    # our 3f is chrysanthemum, 4f bamboo; Unicode has bamboo before chrysanthemum
    assert glyphs(parse_tiles("34f")) == "\U0001f025\U0001f024"
    assert BACK.glyph == "\U0001f02b"


def test_parse_and_format_keep_order_and_compact_suits():
    ts = parse_tiles("123m 0p55s7z?")
    assert [t.code for t in ts] == ["1m", "2m", "3m", "0p", "5s", "5s", "7z", "?"]
    assert format_tiles(ts) == "123m0p55s7z?"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8z", "honour tiles are 1z..7z"),
        ("9f", "bonus tiles are 1f..8f"),
        ("12", "no suit letter"),
        ("m", "no digits before it"),
        ("1x", "unexpected character"),
        ("1?m", "no suit letter"),
        # only ASCII 0-9 number a tile: '²'.isdigit() is true and int('²') fails; int('١') is 1
        ("123m456p789s²z", r"'²' \(SUPERSCRIPT TWO: only the digits 0-9 number a tile\)"),
        ("١٢٣m", "ARABIC-INDIC DIGIT ONE: only the digits 0-9"),
        ("１m", "FULLWIDTH DIGIT ONE"),
        ("1m\u200b", r"'\\u200b' \(ZERO WIDTH SPACE\)"),
        ("1" * 500 + "x", "unexpected character 'x' in tile string '1{60}…'$"),
    ],
)
def test_parse_errors_are_precise(text, message):
    with pytest.raises(TileError, match=message):
        parse_tiles(text)


def test_wind_index():
    assert wind_index("S") == 28 and wind_index("north") == 30 and wind_index("3z") == 29
    with pytest.raises(TileError):
        wind_index("X")
