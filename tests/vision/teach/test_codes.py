"""The codes a player types for a teaching photo (vision.teach.codes)."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.vision.teach.codes import SKIP, CodesError, parse_rows, standard_rows


def test_rows_by_slash_or_new_line_marks_ignored() -> None:
    assert parse_rows("123m / 45p\n6s") == [["1m", "2m", "3m"], ["4p", "5p"], ["6s"]]
    assert parse_rows("12*3m | 0p^, 7z") == [["1m", "2m", "3m", "0p", "7z"]]


def test_back_and_skip() -> None:
    assert parse_rows("?11p? x 5z") == [["back", "1p", "1p", "back", SKIP, "5z"]]
    assert parse_rows("xx1f") == [[SKIP, SKIP, "1f"]]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("123m / 45q", ["row 2", "'q'"]),
        ("123", ["row 1", "no suit letter"]),
        ("8z", ["row 1", "1z..7z"]),
        ("9f", ["bonus tiles are 1f..8f"]),
        ("  /  ", ["no codes given"]),
        ("1m²", ["SUPERSCRIPT TWO"]),
    ],
)
def test_bad_codes_name_the_row(text: str, words: list[str]) -> None:
    with pytest.raises(CodesError) as err:
        parse_rows(text)
    for w in words:
        assert w in str(err.value)


def test_standard_layout() -> None:
    rows = standard_rows([9, 9, 9, 7])
    assert rows[0] == [f"{n}m" for n in range(1, 10)] and rows[3] == [f"{n}z" for n in range(1, 8)]
    assert standard_rows([9, 9, 9, 7, 12])[4] == ["0m", "0p", "0s", *[f"{n}f" for n in range(1, 9)], "back"]
    assert standard_rows([9, 9, 9, 7, 8, 1])[4:] == [[f"{n}f" for n in range(1, 9)], ["back"]]
    assert standard_rows([9, 9, 9, 7, 3, 8, 1])[4:] == [
        ["0m", "0p", "0s"],
        [f"{n}f" for n in range(1, 9)],
        ["back"],
    ]
    assert standard_rows([9, 9, 9, 7, 4])[4] == ["0m", "0p", "0s", "back"]
    assert standard_rows([9, 9, 9, 7, 11])[4][-1] == "8f"


@pytest.mark.parametrize("counts", [[9, 9, 9], [9, 9, 9, 7, 2], [9, 9, 9, 7, 3, 3], [9, 9, 9, 7, 13]])
def test_standard_layout_refuses_other_rows(counts: list[int]) -> None:
    with pytest.raises(CodesError):
        standard_rows(counts)
