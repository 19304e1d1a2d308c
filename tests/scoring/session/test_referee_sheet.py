"""What a referee meets on the sheet (issue 36 items 1 and 5): a mistyped field is the file's error,
never a penalty on a player; an invalid win is settled by its penalty row; the table-scored systems'
lines can be checked; the Italian sheet is Italian, one wind letter per language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.australian.table import score_table as australian_table
from mahjong_camera_scorer.scoring.classical import score_table as classical_table
from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.html import sheet_html
from mahjong_camera_scorer.scoring.session.load import parse_yaml
from mahjong_camera_scorer.scoring.session.model import SessionError
from mahjong_camera_scorer.scoring.session.output import sheet_csv, sheet_json, sheet_text

README = Path(__file__).resolve().parents[3] / "README.md"
PLAYERS = "players: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def session(rows: str) -> str:
    return PLAYERS + "hands:\n" + rows


# ------------------------------------------------------------------------------------------------
# a wrong pao: a file error
# ------------------------------------------------------------------------------------------------
def test_a_wrong_pao_is_a_file_error_never_a_chombo() -> None:
    # seed 001 §3.4.6 makes a chombo only of "dichiarare una chiusura non valida": the win below is
    # valid (tanyao), the pao cannot apply to it (no Dai sangen): the row is refused, nobody pays
    row = "  - {hand: '234m567p234s678s5m ron 5m', winner: Bruno, discarder: Carla%s}\n"
    with pytest.raises(SessionError, match=r"hands\[0\]\.pao: pao applies only to Dai sangen.*valid without"):
        run_session(parse_yaml(session(row % ", pao: Dario")), "riichi")
    sheet = run_session(parse_yaml(session(row % "")), "riichi")
    assert sheet.complete and sheet.lines[0].deltas["Bruno"] > 0


def test_a_pao_on_an_invalid_hand_leaves_it_invalid() -> None:
    # the hand itself is not a win (no yaku): that is the chombo's case, whatever the pao says
    row = "  - {hand: '123m456p789s1234z ron 5z', winner: Bruno, discarder: Anna, pao: Dario}\n"
    sheet = run_session(parse_yaml(session(row)), "riichi")
    assert sheet.lines[0].invalid and not sheet.complete


# ------------------------------------------------------------------------------------------------
# an invalid MCR win is settled by its false Hu row
# ------------------------------------------------------------------------------------------------
FALSE_HU = (
    "  - {hand: '123m456p789s234s55m ron 5m', winner: Bruno, discarder: Carla}\n"  # 4 points: under 8
    "  - {penalty: false_hu_short, player: Bruno}\n"
)


def test_the_false_hu_row_clears_the_invalid_mcr_win() -> None:
    # the README: "A win that is not valid moves nothing under any system …: the sheet keeps it for
    # the referee (exit 1) until the penalty row (MCR false Hu, riichi chombo) is written."
    assert "until the penalty row (MCR false Hu, riichi chombo) is written" in " ".join(
        README.read_text().split()
    )
    alone = run_session(parse_yaml(session(FALSE_HU.splitlines()[0] + "\n")), "mcr")
    assert not alone.complete and "NOT COMPLETE" in sheet_text(alone)
    sheet = run_session(parse_yaml(session(FALSE_HU)), "mcr")
    invalid, penalty = sheet.lines
    assert sheet.complete and "NOT COMPLETE" not in sheet_text(sheet)
    assert invalid.status == "void" and invalid.deltas == dict.fromkeys(NAMES, 0)
    assert penalty.deltas == {"Anna": 10, "Bruno": -30, "Carla": 10, "Dario": 10}
    assert "Bruno: invalid win, settled by a penalty" in sheet_text(sheet)
    assert sheet.next["label"] == "1"  # the hand is not over: nothing moved


def test_only_the_false_wins_own_player_and_penalty_settle_it() -> None:
    other = FALSE_HU.replace("player: Bruno", "player: Dario")
    assert not run_session(parse_yaml(session(other)), "mcr").complete
    late = FALSE_HU.replace("false_hu_short, player: Bruno", "late, player: Bruno, minutes: 3")
    assert not run_session(parse_yaml(session(late)), "mcr").complete


# ------------------------------------------------------------------------------------------------
# Australian and Classical lines a referee can check
# ------------------------------------------------------------------------------------------------
TABLE_ROW = """  - hand: {hand: "222777999p66z", melds: [{type: pung, tiles: "444p"}], winning_tile: "9p",
            win_by: discard}
    winner: Bruno
    others:
      Anna: {hand: "111z999m468p9s", melds: [{type: pung, tiles: "555z"}]}
      Carla: {hand: "13579m2568p1357s"}
      Dario: {hand: "22334m567s44z", melds: [{type: pung, tiles: "888s"}]}
"""


@pytest.mark.parametrize(
    ("rules", "table"), [("australian", australian_table), ("classical", classical_table)]
)
def test_a_table_scored_line_carries_the_combinations_the_scores_and_the_payments(
    rules: str, table: object
) -> None:
    # seed 004: "gli altri giocatori calcolano il proprio punteggio e tra loro regolano le differenze":
    # the line shows what the 'table' command prints, so that each result can be checked
    sheet = run_session(parse_yaml(session(TABLE_ROW)), rules)
    line = sheet.lines[0]
    doc = parse_yaml(session(TABLE_ROW)).rows[0]
    players = {"S": {**doc.hand, "role": "winner"}}
    for name, wind in (("Anna", "E"), ("Carla", "W"), ("Dario", "N")):
        players[wind] = {**doc.others[name], "seat_wind": wind, "role": "loser"}
    score = table({"round_wind": "E", "players": players}, {})  # type: ignore[operator]
    assert line.table == score.render().splitlines()[1:]  # the table's own rendering, reused
    by_seat = net_by_seat(score.payments)
    assert line.deltas == {n: by_seat[w] for n, w in zip(NAMES, "ESWN", strict=True)}
    assert line.elements == score.details["hands"]["S"]["elements"] and line.elements
    text, csv, html = sheet_text(sheet), sheet_csv(sheet), sheet_html(sheet)
    for shown in (text, csv, html):
        assert "→" in shown and str(score.details["scores"]["E"]) in shown  # Anna's score, a payment
    assert "ron ?" not in text and sheet_json(sheet)["lines"][0]["table"] == line.table


# ------------------------------------------------------------------------------------------------
# the sheet's own Italian
# ------------------------------------------------------------------------------------------------
MCR_ROWS = "".join("  - {hand: '123m456p789s5556z ron 6z', winner: E, discarder: S}\n" for _ in range(4))


def test_the_italian_sheet_writes_its_own_words_and_one_wind_letter() -> None:
    sheet = run_session(parse_yaml(session(MCR_ROWS)), "mcr")
    it_html, en_html = sheet_html(sheet, lang="it"), sheet_html(sheet, lang="en")
    it_csv, en_csv = sheet_csv(sheet, "it"), sheet_csv(sheet, "en")
    # no "Round" header left in English on the Italian sheet
    assert not re.search(r"<th>Round", it_html) and "<th>Vento di giro</th>" in it_html
    assert ",round," not in it_csv.splitlines()[0] and ",vento di giro," in it_csv.splitlines()[0]
    # Cambio posti after hand 4 (seed 000 App. B: "E<-->S O<-->N"): O in Italian, W in English
    assert "E→S S→E O→N N→O" in it_html and "E→S S→E W→N N→W" in en_html
    # the cells: O for Ovest in Italian, W in English, never mixed
    cells_it = re.findall(r"<span class=el>([ESWNO])</span>", it_html)
    cells_en = re.findall(r"<span class=el>([ESWNO])</span>", en_html)
    assert "O" in cells_it and "W" not in cells_it and "W" in cells_en and "O" not in cells_en
    assert "inizia O" in it_html and "starts W" in en_html
    winds_it = {row.split(",")[-5] for row in it_csv.splitlines()[1:5]}  # Carla's wind column
    winds_en = {row.split(",")[-5] for row in en_csv.splitlines()[1:5]}
    assert "O" in winds_it and "W" not in winds_it and "W" in winds_en
