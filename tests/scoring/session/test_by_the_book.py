"""Sessions by the book (issue 24): each row a referee's check found wrong, as its seed says it.

Every test quotes the seed's sentence it holds the session to (Italian, as the seed has it)."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring import cli
from mahjong_camera_scorer.scoring.payments import SEATS
from mahjong_camera_scorer.scoring.session.closing import ranking
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.load import parse_csv, parse_yaml, session_from_dict
from mahjong_camera_scorer.scoring.session.model import Player, Session, SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.output import sheet_json, sheet_text

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
PLAYERS = "players: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"


def yaml_session(rows: str, head: str = "") -> Session:
    return parse_yaml(head + PLAYERS + "hands:\n" + rows)


def entries(rows: list[SessionEntry]) -> Session:
    return Session("T", "1", "1", [Player(n, w) for n, w in zip(NAMES, SEATS, strict=True)], rows)


def run_cli(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    parser, _ = cli.build_parser()
    return cli.run(parser, argv, out), out.getvalue()


# ------------------------------------------------------------------------------------------------
# 1-2. nothing that changes the money accepted in silence
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("row", "key"),
    [
        ("{hand: '234m55p12345678s tsumo 9s', winner: Bruno, richi: [Bruno]}", "richi"),
        ("{draw: exhaustive, tenpay: [Anna]}", "tenpay"),
        ("{penalty: late, player: Anna, minute: 3}", "minute"),
        ("{chombo: Anna, points: 8000}", "points"),
        ("{draw: exhaustive, winner: Anna}", "winner"),  # a key of another kind of row
    ],
)
def test_a_key_nobody_reads_is_refused_with_its_row(row: str, key: str) -> None:
    # richi: [Bruno] was ignored: the hand scored 4 han instead of 5 and no stick was paid
    with pytest.raises(SessionError, match=rf"hands\[0\].*unknown key '{key}'"):
        yaml_session(f"  - {row}\n")


def test_json_rows_and_the_session_keys_are_as_strict_as_csv_columns(tmp_path: Path) -> None:
    doc = {
        "players": {n: w for n, w in zip(NAMES, SEATS, strict=True)},
        "hands": [{"draw": True, "riichi ": []}],
    }
    with pytest.raises(SessionError, match=r"hands\[0\] \(draw\): unknown key 'riichi '"):
        session_from_dict(doc)
    doc = {"players": {n: w for n, w in zip(NAMES, SEATS, strict=True)}, "hands": [], "setings": {"oka": 0}}
    with pytest.raises(SessionError, match="unknown key 'setings'"):
        session_from_dict(doc)
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**doc, "setings": None, "hands": [{"hand": "x", "winer": "Anna"}]}))
    code, _ = run_cli(["session", str(path), "--rules", "mcr"])
    assert code == 2


def test_a_csv_row_with_a_cell_of_another_kind_is_refused() -> None:
    text = "kind,name,seat,winner,draw\n" + "".join(
        f"player,{n},{w},,\n" for n, w in zip(NAMES, SEATS, strict=True)
    )
    with pytest.raises(SessionError, match=r"line 6 \(draw\): unknown key 'winner'"):
        parse_csv(text + "draw,,,Anna,exhaustive\n")


def test_responsible_on_a_zung_jung_row_pays_the_rest() -> None:
    # seed 002: "Oltre i 25 punti, il responsabile dello scarto paga anche i rimanenti punti fino al
    # raggiungimento di tre volte il valore della mano"; with the same-round immunity the responsible
    # player may be another than the discarder
    row = "  - {hand: '11123m555p777s88s ron 1m', winner: Anna, discarder: Bruno%s}\n"
    plain = run_session(yaml_session(row % ""), "zung-jung")
    assert plain.lines[0].deltas == {"Anna": 105, "Bruno": -55, "Carla": -25, "Dario": -25}
    carla = run_session(yaml_session(row % ", responsible: Carla"), "zung-jung")
    assert carla.lines[0].deltas == {"Anna": 105, "Bruno": -25, "Carla": -55, "Dario": -25}
    nobody = run_session(yaml_session(row % ", responsible: none"), "zung-jung")
    assert nobody.lines[0].deltas == {"Anna": 105, "Bruno": -35, "Carla": -35, "Dario": -35}
    with pytest.raises(SessionError, match="responsible' is a Zung Jung payment rule"):
        run_session(yaml_session(row % ", responsible: Carla"), "mcr")


@pytest.mark.parametrize(
    "row",
    [
        "{hand: '123m456p789s5556z tsumo 6z', winner: Anna, discarder: Bruno}",
        "{hand: '123m456p789s5556z ron 6z', winner: Anna, discarder: Bruno, win_by: self_draw}",
        "{hand: '123m456p789s5556z tsumo 6z', winner: Anna, win_by: discard}",
    ],
)
def test_tsumo_and_a_discarder_contradict_each_other(row: str) -> None:
    # seed 001 §3.4.9: "Un giocatore che chiude pescandosi la pedina viene pagato da tutti e tre gli
    # avversari. Un giocatore che con il proprio scarto fa chiudere ... paga l'intero valore": one or
    # the other
    with pytest.raises(SessionError, match=r"hands\[0\]"):
        run_session(yaml_session(f"  - {row}\n"), "mcr")


@pytest.mark.parametrize("field", ["winner", "discarder"])
def test_an_unknown_player_is_exit_2_with_the_row_whatever_the_field(tmp_path: Path, field: str) -> None:
    row = {"hand": "123m456p789s5556z ron 6z", "winner": "Anna", "discarder": "Bruno", field: "Zoe"}
    path = tmp_path / "s.yaml"
    path.write_text(PLAYERS + "hands:\n  - " + json.dumps(row) + "\n")
    code, out = run_cli(["session", str(path), "--rules", "mcr"])
    assert code == 2 and out == ""
    with pytest.raises(SessionError, match=rf"hands\[0\]\.{field}: 'Zoe'"):
        run_session(parse_yaml(path.read_text()), "mcr")


@pytest.mark.parametrize("rules", ["mcr", "riichi"])
@pytest.mark.parametrize("minutes", [0, -5])
def test_lateness_is_at_least_a_minute(rules: str, minutes: int) -> None:
    # seed 000 E 2.3: "un giocatore che arriva tardi ad una sessione è penalizzato di 10 punti se il
    # ritardo è inferiore o uguale a 10 minuti"; seed 001 §5.6: "a un giocatore che è in ritardo di 1
    # minuto saranno detratti 1.000 punti": -5 minutes was a +5,000 bonus
    with pytest.raises(SessionError, match=r"hands\[0\]\.minutes: a lateness is at least 1 minute"):
        yaml_session(f"  - {{penalty: late, player: Anna, minutes: {minutes}}}\n")


@pytest.mark.parametrize(
    ("extra", "ok"),
    [
        ("points: 8000", True),
        ("points: 12000", True),
        ("points: 10000", False),
        ("points: 48000", False),
        ("points: 30000, serious: true", True),
        ("points: 12000, serious: true", True),
        ("points: 8000, serious: true", False),
        ("points: 60000, serious: true", False),
    ],
)
def test_riichi_obstruction_is_8000_or_12000_or_a_serious_case(extra: str, ok: bool) -> None:
    # seed 001 §5.5: "penalizzato a discrezione dell'arbitro con 8.000 o 12.000 punti di penalità (come
    # il chombo), o in casi gravi e ripetuti con punti di penalità tra 12.000 e 48.000"
    s = yaml_session(f"  - {{penalty: obstruction, player: Anna, {extra}}}\n")
    if ok:
        sheet = run_session(s, "riichi")
        assert sheet.totals["Anna"] == -int(extra.split()[1].rstrip(","))
        assert sheet.totals["Bruno"] == 0  # "non vengono aggiunti al punteggio degli altri giocatori"
    else:
        with pytest.raises(SessionError, match=r"hands\[0\].*obstruction"):
            run_session(s, "riichi")


def test_a_riichi_dead_hand_is_never_tenpai_and_never_wins() -> None:
    # seed 001 §3.4.7: "Un giocatore che ha una 'mano morta' non può dichiarare mahjong, kong, pung o
    # chow e non può mai essere considerato tenpai."
    rows = "  - {penalty: dead_hand, player: Carla}\n  - {draw: exhaustive, tenpai: [Anna, Carla]}\n"
    with pytest.raises(SessionError, match=r"hands\[1\]: Carla has a dead hand"):
        run_session(yaml_session(rows), "riichi")
    rows = (
        "  - {penalty: dead_hand, player: Carla}\n"
        "  - {hand: '234m456p678s234p5s ron 5s', winner: Carla, discarder: Anna}\n"
    )
    with pytest.raises(SessionError, match="dead hand"):
        run_session(yaml_session(rows), "riichi")
    # the next hand is a new one: the dead hand was for that hand only
    rows = (
        "  - {penalty: dead_hand, player: Carla}\n  - {draw: exhaustive, tenpai: [Anna]}\n"
        "  - {draw: exhaustive, tenpai: [Carla]}\n"
    )
    assert run_session(yaml_session(rows), "riichi").lines[-1].deltas["Carla"] == 3000


def test_an_invalid_win_is_a_chombo_and_the_hand_is_replayed() -> None:
    # seed 001 §3.4.6: "Le seguenti irregolarità sono soggette a una penalità chombo: dichiarare una
    # chiusura non valida" and "Dopo un chombo ... la mano viene ripetuta. Non vengono piazzati gettoni e
    # Est non gira."
    rows = (
        "  - {hand: '123m456p789s1234z ron 5z', winner: Bruno, discarder: Anna, riichi: [Bruno]}\n"
        "  - {chombo: Bruno}\n"
        "  - {hand: '234m456p678s234p5s ron 5s', winner: Dario, discarder: Anna, honba: 0, sticks: 0}\n"
    )
    sheet = run_session(yaml_session(rows), "riichi")
    invalid, chombo, won = sheet.lines
    assert invalid.status == "void" and invalid.deltas == dict.fromkeys(NAMES, 0)
    assert invalid.label == chombo.label == won.label == "E1"  # nothing moved: the hand is replayed
    assert chombo.deltas == {"Anna": 4000, "Bruno": -8000, "Carla": 2000, "Dario": 2000}
    assert sheet.complete and sheet.next["label"] == "E2"
    # without its chombo row the invalid win stays for the referee and still moves nothing
    sheet = run_session(yaml_session(rows.split("\n")[0] + "\n"), "riichi")
    assert not sheet.complete and sheet.next["label"] == "E1" and sheet.next["sticks"] == 0


def test_mcr_obstruction_and_time_wasting_carry_over_to_the_next_session(tmp_path: Path) -> None:
    # seed 000 E 3.6: "Il conteggio delle penalità (per ogni giocatore) viene azzerato all'inizio di ogni
    # sessione tranne che per l'ostruzione di gioco o la perdita di tempo."
    rows = (
        "  - {penalty: obstruction, player: Anna}\n  - {penalty: time_wasting, player: Anna}\n"
        "  - {penalty: wrong_call, player: Anna}\n"
    )
    for n in (1, 2):
        (tmp_path / f"s{n}.yaml").write_text(f"session: {n}\n" + PLAYERS + "hands:\n" + rows)
    _code, out = run_cli(
        ["session", str(tmp_path / "s2.yaml"), str(tmp_path / "s1.yaml"), "--rules", "mcr", "--json"]
    )
    first, second = json.loads(out)["sheets"][1], json.loads(out)["sheets"][0]  # files in the order given
    assert [p["points"] for p in first["penalties"]] == [0, 0, 0]  # warnings
    assert [p["points"] for p in second["penalties"]] == [5, 5, 0]  # carried: second step; wrong_call reset
    assert second["carry"] == {"Anna": {"obstruction": 2, "time_wasting": 2}}
    # one file at a time: the earlier sessions' counts as the file's own 'carry'
    s = parse_yaml("carry: {Anna: {obstruction: 3}}\n" + PLAYERS + "hands:\n" + rows)
    assert [p.points for p in run_session(s, "mcr").penalties] == [20, 0, 0]
    with pytest.raises(SessionError, match="only obstruction and time_wasting carry over"):
        parse_yaml("carry: {Anna: {wrong_call: 1}}\n" + PLAYERS + "hands: []\n")


def test_mcr_table_points_are_added_exactly_over_sessions() -> None:
    # seed 000 App. B "Punti Tavolo 1° 4 t.p. 2° 2 t.p. 3° 1 t.p. 4° 0 t.p."; three tied for first share
    # 4+2+1: 7/3 each, three times is 7 exactly, not 6.99
    def sheet(session: str, table: str, names: list[str], pens: dict[str, int]) -> dict:
        s = Session("T", session, table, [Player(n, w) for n, w in zip(names, SEATS, strict=True)], [])
        s.rows = [
            SessionEntry("penalty", "p", player=n, infraction="referee", points=v) for n, v in pens.items()
        ]
        return sheet_json(run_session(s, "mcr"))

    a = ["Anna", "Bruno", "Carla", "Dario"]
    e = ["Elio", "Fede", "Gino", "Ugo"]
    docs = [sheet(str(n), "1", a, {"Dario": 1}) for n in (1, 2, 3)]
    docs += [
        sheet("1", "2", e, {"Fede": 1, "Gino": 1, "Ugo": 1}),  # Elio 4, Mini Punti 0
        sheet("2", "2", e, {"Elio": 1, "Gino": 2, "Ugo": 3}),  # Elio 2, -1
        sheet("3", "2", e, {"Elio": 2, "Gino": 1, "Ugo": 3}),  # Elio 1, -2
    ]
    assert docs[0]["closing"]["table_points_exact"]["Anna"] == "7/3"
    rank = {r["player"]: r for r in ranking(docs)}
    assert rank["Anna"]["table_points"] == Fraction(7) == rank["Elio"]["table_points"]
    assert rank["Anna"]["rank"] < rank["Elio"]["rank"]  # same table points, more Mini Punti


def test_zung_jung_seats_rotate_east_to_south() -> None:
    # seed 002: "Ogni giocatore cambia in questo modo il proprio vento: Est diventa Sud; Sud diventa
    # Ovest; Ovest diventa Nord; Nord diventa Est."
    rows = "  - {draw: exhaustive}\n  - {hand: '123m456p789s5556z tsumo 6z', winner: E}\n"
    sheet = run_session(yaml_session(rows), "zung-jung")
    assert sheet.lines[1].winds == {"Anna": "S", "Bruno": "W", "Carla": "N", "Dario": "E"}
    assert sheet.lines[1].winner == "Dario"  # the seat letter names who holds East at that hand
    assert sheet.lines[1].deltas["Dario"] > 0
    assert sheet.next["winds"] == {"Anna": "W", "Bruno": "N", "Carla": "E", "Dario": "S"}


AUS_WIN = (
    '  - hand: {hand: "222777999p66z", melds: [{type: pung, tiles: "444p"}], winning_tile: "9p", '
    'win_by: discard}\n    winner: %s\n    discarder: %s\n    others: "%s"\n'
)


def test_australian_goulash_follows_a_dead_hand_on_its_seats() -> None:
    # seed 003: "Se il muro si esaurisce senza un vincitore (mano morta), ne viene rigiocata una con
    # regole particolari, detta Goulash." "Per il Goulash le posizioni dei giocatori non ruotano,
    # rimanendo le stesse che nella precedente mano morta, ma a prescindere da chi vince, per la mano
    # successiva ... le posizioni ruotano"
    rows = "  - {draw: exhaustive}\n" + AUS_WIN % ("Bruno", "Anna", "Anna=0; Carla=0; Dario=0")
    sheet = run_session(yaml_session(rows), "australian")
    dead, goulash = sheet.lines
    assert dead.winds == goulash.winds == {"Anna": "E", "Bruno": "S", "Carla": "W", "Dario": "N"}
    assert goulash.goulash and not dead.goulash and "goulash" in json.dumps(sheet_json(sheet)["lines"][1])
    # the Goulash pot: 4 x 100 to the winner on top of the hand (spec §4.7)
    plain = run_session(yaml_session(AUS_WIN % ("Bruno", "Anna", "Anna=0; Carla=0; Dario=0")), "australian")
    assert goulash.deltas["Bruno"] == plain.lines[0].deltas["Bruno"] + 300
    assert sheet.next["winds"] == {"Anna": "N", "Bruno": "E", "Carla": "S", "Dario": "W"}
    assert sheet.next["goulash"] is False
    with pytest.raises(SessionError, match="a Goulash follows a dead hand"):
        run_session(
            yaml_session(
                AUS_WIN.replace("win_by: discard}", "win_by: discard, flags: [goulash]}")
                % ("Bruno", "Anna", "Anna=0; Carla=0; Dario=0")
            ),
            "australian",
        )


def test_australian_false_mah_jong_pays_half_the_limit_to_each_opponent() -> None:
    # seed 003 (spec §4.6): the caller of a false mah jong pays half the agreed limit to each opponent,
    # as 'mahjong-score table' settles a false_mah_jong
    from mahjong_camera_scorer.scoring.australian.table import score_table
    from mahjong_camera_scorer.scoring.payments import net_by_seat

    rows = "  - {penalty: false_mah_jong, player: Carla, opponents_exposed: true}\n"
    sheet = run_session(yaml_session(rows), "australian")
    table = score_table(
        {
            "players": {s: {"role": "winner" if s == "E" else "loser", "score": 0} for s in SEATS},
            "false_mah_jong": {"caller": "W", "opponents_exposed": True},
        },
        {},
    )
    by_seat = net_by_seat(table.payments)
    assert sheet.lines[0].deltas == {n: by_seat[w] for n, w in zip(NAMES, SEATS, strict=True)}
    # East (Anna) receives double: seed 003 "Est riceve e paga sempre il doppio" (issue 36 item 2;
    # the spec's A-30 left it single: false_mahjong_east_double=false)
    assert sheet.lines[0].deltas == {"Anna": 1000, "Bruno": 500, "Carla": -2000, "Dario": 500}
    with pytest.raises(SessionError, match="opponents_exposed"):
        run_session(yaml_session("  - {penalty: false_mah_jong, player: Carla}\n"), "australian")


def test_classical_several_mah_jong_on_one_discard() -> None:
    # seed 004: "Se c'è più di un mah jong contemporaneamente i giocatori che hanno chiuso riscuotono da
    # quelli che non hanno chiuso e tra loro regolano la differenza di punteggio."
    from mahjong_camera_scorer.scoring.classical import score_table as classical_table

    bruno = {"hand": "222777999p66z", "melds": [{"type": "pung", "tiles": "444p"}], "winning_tile": "9p"}
    carla = {"hand": "123456789m11789p", "winning_tile": "9p"}
    rows = [
        {
            "hand": {**bruno, "win_by": "discard"},
            "winner": "Bruno",
            "discarder": "Anna",
            "others": {"Dario": 8},
        },
        {
            "hand": {**carla, "win_by": "discard"},
            "winner": "Carla",
            "discarder": "Anna",
            "same_discard": True,
            "others": {"Anna": 24},
        },
    ]
    doc = {"players": {n: w for n, w in zip(NAMES, SEATS, strict=True)}, "hands": rows}
    sheet = run_session(session_from_dict(doc), "classical")
    assert sheet.complete, [str(n) for ln in sheet.lines for n in ln.notes]
    table = classical_table(
        {
            "players": {
                "E": {"role": "loser", "score": 24},
                "S": {**bruno, "role": "winner", "win_by": "discard", "discarder": "E"},
                "W": {**carla, "role": "winner", "win_by": "discard", "discarder": "E"},
                "N": {"role": "loser", "score": 8},
            }
        },
        {},
    )
    assert table.valid, table.error
    net = table.details["net"]
    assert sheet.totals == {n: net[w] for n, w in zip(NAMES, SEATS, strict=True)}
    assert sheet.totals["Bruno"] > 0 and sheet.totals["Carla"] > 0
    assert sheet.next["winds"]["Bruno"] == "E"  # one hand played: the deal passes once


# ------------------------------------------------------------------------------------------------
# 3. sheets a referee can hand in
# ------------------------------------------------------------------------------------------------
def test_each_sheet_has_its_own_seeds_headings() -> None:
    from mahjong_camera_scorer.scoring.session.html import sheet_html

    riichi = run_session(yaml_session("  - {draw: exhaustive, riichi: [Anna], tenpai: [Anna]}\n"), "riichi")
    html = sheet_html(riichi)
    assert "Punti Mahjong" not in html and "Cambio posti" not in html and "Honba" in html
    # the stick left on the table, and who took it, where the money is (seed 001 §3.6)
    assert "Riichi sticks left on the table: 1 → Anna" in html
    assert "Riichi sticks left on the table: 1 → Anna" in sheet_text(riichi)
    rows = "".join("  - {draw: exhaustive}\n" for _ in range(16))
    zj = run_session(yaml_session(rows), "zung-jung")
    html, text = sheet_html(zj), sheet_text(zj)
    for turn in (1, 2, 3, 4):  # seed 002's sheet: "TOT TURNO 1" … and "TOTALE GENERALE"
        assert f"TOT TURNO {turn}" in html and f"TOT TURNO {turn}" in text
    assert "TOTALE GENERALE" in html and "Punti Mahjong" not in html and "Cambio posti" not in html
    mcr = run_session(yaml_session("  - {draw: exhaustive}\n"), "mcr")
    assert "Punti Mahjong" in sheet_html(mcr, lang="it") and "Cambio posti" in sheet_html(mcr, lang="it")


def test_the_text_sheet_cuts_no_result() -> None:
    note = "spoke about the other tables during the hand"
    rows = f"  - {{penalty: referee, player: Anna, points: 5, note: '{note}'}}\n"
    text = sheet_text(run_session(yaml_session(rows), "mcr"))
    row = next(line for line in text.splitlines() if line.lstrip().startswith("penalty:"))
    assert f"penalty: Anna: referee — {note}" in row and row.split()[-4:] == ["-5", "+0", "+0", "+0"]


def test_next_names_no_hand_after_the_end_of_a_riichi_game() -> None:
    # seed 001 §3.5: "Quando il giocatore che ha iniziato il gioco come Est torna ad essere di nuovo Est
    # ... il gioco termina."
    rows = "".join("  - {draw: exhaustive}\n" for _ in range(8))
    sheet = run_session(yaml_session(rows), "riichi")
    assert sheet.next["over"] and sheet.next["label"] is None


def test_results_file_for_the_federation(tmp_path: Path) -> None:
    text = "tournament: T\ntable: 1\nplayers:\n" + "".join(
        f"  - {{name: {n}, seat: {w}, number: {i}}}\n"
        for i, (n, w) in enumerate(zip(NAMES, SEATS, strict=True), 1)
    )
    (tmp_path / "s1.yaml").write_text(
        "session: 1\n" + text + "hands: [{penalty: referee, player: Dario, points: 1}]\n"
    )
    (tmp_path / "s2.yaml").write_text(
        "session: 2\n" + text + "hands: [{penalty: referee, player: Anna, points: 1}]\n"
    )
    out = tmp_path / "results.csv"
    code, _ = run_cli(
        [
            "session",
            str(tmp_path / "s1.yaml"),
            str(tmp_path / "s2.yaml"),
            "--rules",
            "mcr",
            "--results",
            str(out),
            "--lang",
            "it",
        ]
    )
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    assert code == 0
    # the EMA's layout, whatever the sheets' language (issue 36 item 3: scoring/session/results.py)
    assert lines[0] == (
        '"Place","First name","Last name","EMA number","Table points","Score","EMA member","Country"'
    )
    # Bruno and Carla: 7/3 then 7/3 = 14/3 (4.67); Anna 7/3 + 0, Mini Punti -1; Dario 0 + 7/3
    assert lines[1] == '"1","Bruno","","2","4.67","0","",""'
    assert lines[3] == '"3","Anna","","1","2.33","-1","",""'


# ------------------------------------------------------------------------------------------------
# 5. where the seeds are silent: the tournament's settings
# ------------------------------------------------------------------------------------------------
def test_ties_and_oka_are_settings() -> None:
    rows = "  - {penalty: referee, player: Dario, points: 1}\n"
    shared = run_session(yaml_session(rows), "mcr").closing["table_points"]
    assert shared["Anna"] == Fraction(7, 3)
    higher = run_session(yaml_session(rows, "settings: {ties: higher}\n"), "mcr").closing["table_points"]
    assert higher == {"Anna": 4, "Bruno": 4, "Carla": 4, "Dario": 0}
    oka = run_session(
        yaml_session("  - {draw: exhaustive, tenpai: [Anna]}\n", "settings: {oka: 20000}\n"), "riichi"
    )
    assert oka.closing["points"] == {
        "Anna": 3000 + 15000,
        "Bruno": -1000 - 5000,
        "Carla": -6000,
        "Dario": -6000,
    }
    with pytest.raises(SessionError, match=r"settings\.oka"):
        yaml_session("  - {draw: exhaustive}\n", "settings: {oka: -4}\n")
    with pytest.raises(SessionError, match="ties is a mcr setting"):
        run_session(yaml_session("  - {draw: exhaustive}\n", "settings: {ties: higher}\n"), "riichi")


def test_nagashi_mangan_is_a_hand_row_in_place_of_the_draw() -> None:
    # seed 001 §4.2.4: "Dopo che la mano è andata a monte per esaurimento delle pedine giocabili un
    # giocatore può chiamare questa mano ... Il giocatore riceve il pagamento equivalente a un mangan
    # pescato più il valore dei gettoni e delle puntate di riichi."
    rows = (
        "  - {draw: exhaustive, riichi: [Carla], tenpai: [Carla]}\n"
        "  - {hand: '19m19p19s1234567z', winner: Bruno, win_by: self_draw, flags: [nagashi_mangan]}\n"
    )
    sheet = run_session(yaml_session(rows), "riichi")
    nagashi = sheet.lines[1]
    # Bruno deals (Anna was noten): 4,000 from each, 300 for the counter, Carla's stick
    assert nagashi.deltas == {"Anna": -4100, "Bruno": 12300 + 1000, "Carla": -4100, "Dario": -4100}
    assert sheet.next["honba"] == 2 and sheet.next["sticks"] == 0 and sheet.next["winds"]["Bruno"] == "E"


def test_nagashi_mangan_adds_a_counter_as_the_draw_it_follows() -> None:
    # seed 001 §3.4.2: "Dopo una mano a monte per esaurimento delle pedine giocabili viene messo un
    # gettone sul tavolo"; §3.4.10: "Tutti i gettoni sono rimossi dopo che un giocatore diverso da
    # Est ha chiuso la mano": a nagashi mangan is claimed once the hand went "a monte per
    # esaurimento" and nobody "ha chiuso la mano", so a counter is added whoever claims it (issue 36
    # item 2; the spec's A8 clears them after a non-dealer's claim: nagashi_counters=win)
    rows = (
        "  - {draw: exhaustive, tenpai: [Anna]}\n"  # East tenpai: stays, honba 1
        "  - {hand: '19m19p19s1234567z', winner: Bruno, win_by: self_draw, flags: [nagashi_mangan]}\n"
    )
    sheet = run_session(yaml_session(rows), "riichi")
    nagashi = sheet.lines[1]
    # Bruno, not East: 4,000 from East, 2,000 from the others, 100 each for the counter
    assert nagashi.deltas == {"Anna": -4100, "Bruno": 8300, "Carla": -2100, "Dario": -2100}
    assert sheet.next["honba"] == 2 and sheet.next["winds"]["Bruno"] == "E"
    spec = run_session(yaml_session(rows), "riichi", {"nagashi_counters": "win"})
    assert spec.lines[1].deltas == nagashi.deltas and spec.next["honba"] == 0
