"""Sessions under every system: settlement, winds, counters, penalties, closing (seeds' tournament
sections and the spec vectors)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.payments import SEATS
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.load import load_session, parse_yaml
from mahjong_camera_scorer.scoring.session.model import Player, Session, SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.scoring.session.seats import Seating
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from tests.spec_vectors import load_vectors, shared_available

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def session(rows: list[SessionEntry], subs: dict[str, str] | None = None) -> Session:
    subs = subs or {}
    return Session(
        "T",
        "1",
        "1",
        [Player(n, w, substitute=subs.get(n, "")) for n, w in zip(NAMES, SEATS, strict=True)],
        rows,
    )


def hand(text: str, winner: str, discarder: str | None = None, **kw: object) -> SessionEntry:
    return SessionEntry("hand", "test", hand=text, winner=winner, discarder=discarder, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- MCR
def test_mcr_seat_changes_follow_the_sheet() -> None:
    seats = Seating("mcr", dict(zip(NAMES, SEATS, strict=True)))
    east = []
    for _ in range(16):
        east.append(seats.at("E"))
        seats.after_hand()
    # every player deals four times; after hand 4 the E/S and W/N players of round 1 swap (App. B)
    assert sorted(east.count(n) for n in NAMES) == [4, 4, 4, 4]
    seats = Seating("mcr", dict(zip(NAMES, SEATS, strict=True)))
    for _ in range(4):
        seats.after_hand()
    assert seats.winds == {"Anna": "S", "Bruno": "E", "Carla": "N", "Dario": "W"} and seats.round_wind == "S"
    for _ in range(4):
        seats.after_hand()
    assert seats.winds == {"Anna": "N", "Bruno": "W", "Carla": "E", "Dario": "S"} and seats.round_wind == "W"


def test_mcr_seed_figures_5_and_6() -> None:
    # Figure 6: V=9 on a discard: discarder -17, others -8, winner +33 (spec mcr §5.1)
    from mahjong_camera_scorer.scoring.mcr.payments import settlement
    from mahjong_camera_scorer.scoring.notation import parse_hand
    from mahjong_camera_scorer.scoring.payments import net_by_seat
    from mahjong_camera_scorer.scoring.result import Score
    from mahjong_camera_scorer.scoring.session.settle import hand_payments

    # Figure 6 on a discard (V=9), Figure 5 self-drawn (V=8: each opponent pays 8+8 = 16)
    for text, value, net in (
        ("123m456p789s5556z ron 6z seat=S discarder=W", 9, {"E": -8, "S": 33, "W": -17, "N": -8}),
        ("123m456p789s5556z tsumo 6z seat=S", 8, {"E": -16, "S": 48, "W": -16, "N": -16}),
    ):
        payments = settlement(parse_hand(text), value)
        assert net_by_seat(hand_payments(Score("mcr", True, payments=payments))) == net
    # without the discarder's seat the payment cannot be booked
    h = parse_hand("123m456p789s5556z ron 6z seat=S")
    with pytest.raises(SessionError, match="discarder"):
        hand_payments(Score("mcr", True, payments=settlement(h, 9)))
    with pytest.raises(SessionError, match="responsible"):
        hand_payments(Score("zung-jung", True))


@pytest.mark.skipif(not shared_available(), reason="../shared (rule specs) not present")
def test_mcr_sixteen_hands_from_the_spec_vectors_sum_to_zero() -> None:
    vectors = [
        v
        for v in load_vectors("mcr")
        if v.get("expected", {}).get("total")
        and not any(f"{d}z" in v["hand"] + str(v.get("melds")) for d in "1234")
        and not v.get("flags")
        and not v.get("options")
    ][:16]
    assert len(vectors) == 16
    rows = []
    for i, v in enumerate(vectors):
        data = {k: v[k] for k in ("hand", "melds", "winning_tile", "win_by", "bonus_tiles") if k in v}
        winner = NAMES[i % 4]
        rows.append(
            SessionEntry(
                "hand",
                f"v{i}",
                hand=data,
                winner=winner,
                discarder=None if v["win_by"] == "self_draw" else NAMES[(i + 1) % 4],
            )
        )
    rows.insert(5, SessionEntry("penalty", "p", player="Carla", infraction="late", minutes=12))
    rows.insert(9, SessionEntry("penalty", "p", player="Dario", infraction="false_hu_invalid"))
    t0 = time.perf_counter()
    sheet = run_session(session(rows), "mcr")
    elapsed = time.perf_counter() - t0
    print(f"16-hand MCR session (typed hands): {elapsed * 1000:.1f} ms")
    assert sheet.complete and sheet.hands_played == 16
    for line, v in zip([ln for ln in sheet.lines if ln.kind == "hand"], vectors, strict=True):
        assert line.value == v["expected"]["total"], v["id"]
        assert sum(line.deltas.values()) == 0
        v_ = v["expected"]["total"]
        assert line.deltas[line.winner] == (3 * (v_ + 8) if v["win_by"] == "self_draw" else v_ + 24)
    assert sum(sheet.totals.values()) == -20  # only the late arrival's deduction
    false_hu = next(ln for ln in sheet.lines if ln.kind == "penalty" and "false Hu" in str(ln.notes[0]))
    assert false_hu.deltas == {"Anna": 20, "Bruno": 20, "Carla": 20, "Dario": -60}
    assert sorted(sheet.closing["table_points"].values()) == [0, 1, 2, 4]
    assert sheet.closing["mini_punti"] == sheet.totals
    with pytest.raises(SessionError, match="over"):
        run_session(session([*rows, rows[0]]), "mcr")


@pytest.mark.parametrize(("minutes", "points", "disq"), [(10, 10, False), (15, 20, False), (16, 0, True)])
def test_mcr_late_arrival(minutes: int, points: int, disq: bool) -> None:
    sheet = run_session(
        session([SessionEntry("penalty", "p", player="Bruno", infraction="late", minutes=minutes)]), "mcr"
    )
    assert sheet.totals["Bruno"] == -points
    assert sheet.penalties[0].disqualified is disq
    # last, or tied with everyone at 0 but disqualified (E 2.3): no table points either way
    assert sheet.closing["table_points"]["Bruno"] == 0

    if disq:
        assert sheet.closing["table_points"]["Anna"] == 1.75


def test_mcr_repeated_infractions_scale_and_forgotten_tile() -> None:
    rows = [SessionEntry("penalty", "p", player="Anna", infraction="wrong_call") for _ in range(6)]
    rows.append(SessionEntry("penalty", "p", player="Bruno", infraction="forgotten_winning_tile"))
    sheet = run_session(session(rows), "mcr")
    assert [p.points for p in sheet.penalties[:6]] == [0, 5, 10, 20, 30, 40]
    assert sheet.totals == {"Anna": -105, "Bruno": -10, "Carla": 0, "Dario": 0}
    assert [p.as_dict()["kind"] for p in sheet.penalties] == ["deduction"] * 7


def test_mcr_table_points_ties_are_shared() -> None:
    from mahjong_camera_scorer.scoring.session.closing import close_mcr

    assert close_mcr({"A": 10, "B": 10, "C": 0, "D": -20}, set())["table_points"] == {
        "A": 3,
        "B": 3,
        "C": 1,
        "D": 0,
    }
    assert close_mcr({"A": 0, "B": 0, "C": 0, "D": 0}, set())["table_points"] == dict.fromkeys("ABCD", 1.75)


# ---------------------------------------------------------------- EMA Riichi
def test_riichi_example_hanchan_counters_sticks_and_chombo() -> None:
    sheet = run_session(
        load_session(EXAMPLES / "session-riichi.yaml"),
        "riichi",
        read_photo=lambda p: PhotoHand(
            hand_from_dict(
                {
                    "hand": "345m55888p444s",
                    "melds": [{"type": "kong", "tiles": "1111p", "open": False}],
                    "winning_tile": "4s",
                }
            )
        ),
    )
    lines = sheet.lines
    assert lines[0].deltas == {"Anna": -4000, "Bruno": 8000, "Carla": -2000, "Dario": -2000}  # Esempio 1
    assert lines[1].deltas == {"Anna": 500, "Bruno": -1500, "Carla": 1500, "Dario": -1500}  # 2 tenpai, stick
    assert lines[2].deltas["Anna"] == 8000 + 300 + 1000 and lines[2].honba == 1 and lines[2].sticks == 1
    assert lines[3].deltas == {"Anna": 4000, "Bruno": 4000, "Carla": 4000, "Dario": -12000}  # dealer chombo
    assert lines[4].label == "E4"  # replayed
    assert sum(sheet.totals.values()) == -12000 + 12000 - 3000  # late only
    assert sheet.closing["uma"] == {"Bruno": 30000, "Anna": 10000, "Carla": -10000, "Dario": -30000}


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        (["Anna"], {"Anna": 3000, "Bruno": -1000, "Carla": -1000, "Dario": -1000}),
        (["Anna", "Bruno", "Carla"], {"Anna": 1000, "Bruno": 1000, "Carla": 1000, "Dario": -3000}),
        ([], dict.fromkeys(NAMES, 0)),
    ],
)
def test_riichi_noten_payments(tenpai: list[str], expected: dict[str, int]) -> None:
    sheet = run_session(session([SessionEntry("draw", "d", draw="exhaustive", tenpai=tenpai)]), "riichi")
    assert sheet.lines[0].deltas == expected
    assert sheet.lines[0].label == "E1" and (sheet.lines[0].winds["Anna"] == "E") and sheet.hands_played == 1


def test_riichi_dealer_keeps_the_deal_and_counters_reset() -> None:
    rows = [
        hand("234m456p678s234p5s ron 5s", "E", "S"),
        hand("234m456p678s234p5s ron 5s", "Anna", "S"),
        hand("234m456p678s234p5s ron 5s", "Bruno", "Anna"),
    ]
    sheet = run_session(session(rows), "riichi")
    assert [ln.label for ln in sheet.lines] == ["E1", "E1", "E1"]
    assert [ln.honba for ln in sheet.lines] == [0, 1, 2]
    assert sheet.lines[1].deltas["Anna"] - sheet.lines[0].deltas["Anna"] == 300


def test_riichi_game_ends_after_the_south_round() -> None:
    rows = [SessionEntry("draw", f"d{i}", draw="exhaustive") for i in range(8)]
    sheet = run_session(session(rows), "riichi")
    assert [ln.label for ln in sheet.lines] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    with pytest.raises(SessionError, match="South"):
        run_session(session([*rows, SessionEntry("draw", "x", draw="exhaustive")]), "riichi")


def test_riichi_noten_riichi_is_a_chombo() -> None:
    with pytest.raises(SessionError, match="chombo"):
        run_session(session([SessionEntry("draw", "d", draw="exhaustive", riichi=["Anna"])]), "riichi")


def test_riichi_uma_ties_and_substitutes() -> None:
    from mahjong_camera_scorer.scoring.session.closing import close_riichi

    tied = close_riichi({"A": 5000, "B": 5000, "C": 0, "D": -10000}, 0, {}, set())
    assert tied["uma"] == {"A": 20000, "B": 20000, "C": -10000, "D": -30000}
    # a substitute from the start tops the table: the others get +10,000, -10,000, -30,000 (§5.7)
    top = close_riichi({"S": 9000, "B": 1000, "C": 0, "D": -10000}, 0, {"S": "from_start"}, set())
    assert top["uma"] == {"S": -30000, "B": 10000, "C": -10000, "D": -30000} and top["points"]["S"] == 0
    joined = close_riichi({"S": 9000, "B": 1000, "C": 0, "D": -10000}, 0, {"S": "joined"}, set())
    assert joined["uma"] == {"S": -30000, "B": 30000, "C": 10000, "D": -10000}
    sticks = close_riichi({"A": 5000, "B": 0, "C": 0, "D": -7000}, 2, {}, set())
    assert sticks["points"]["A"] == 7000 and sticks["leftover_sticks_to"] == "A"


def test_riichi_late_and_obstruction() -> None:
    rows = [
        SessionEntry("penalty", "p", player="Carla", infraction="late", minutes=4),
        SessionEntry("penalty", "p", player="Dario", infraction="obstruction", points=8000),
    ]
    assert run_session(session(rows), "riichi").totals == {
        "Anna": 0,
        "Bruno": 0,
        "Carla": -4000,
        "Dario": -8000,
    }
    with pytest.raises(SessionError, match="substitute"):
        run_session(
            session([SessionEntry("penalty", "p", player="Carla", infraction="late", minutes=11)]), "riichi"
        )


def test_riichi_pao_in_a_session() -> None:
    dai_sangen = {
        "hand": "234m55p",
        "melds": [{"type": "pung", "tiles": t} for t in ("555z", "666z", "777z")],
        "winning_tile": "5p",
    }
    row = SessionEntry("hand", "h", hand=dai_sangen, winner="Bruno", discarder="Carla", pao="Dario")
    assert run_session(session([row]), "riichi").lines[0].deltas == {
        "Anna": 0,
        "Bruno": 32000,
        "Carla": -16000,
        "Dario": -16000,
    }


@pytest.mark.skipif(not shared_available(), reason="../shared (rule specs) not present")
def test_riichi_hanchan_from_the_spec_vectors() -> None:
    vectors = [
        v
        for v in load_vectors("riichi")
        if v.get("expected", {}).get("points")
        and not any(f"{d}z" in v["hand"] + str(v.get("melds")) for d in "1234")
        and not v.get("honba")
        and not v.get("riichi_sticks")
        and "discarder" not in v
    ]
    rows: list[SessionEntry] = []
    expected = []
    seats = Seating("riichi", dict(zip(NAMES, SEATS, strict=True)))
    for i, v in enumerate(vectors):
        if seats.over:
            break
        data = {
            k: v[k]
            for k in (
                "hand",
                "melds",
                "winning_tile",
                "win_by",
                "bonus_tiles",
                "flags",
                "dora_indicators",
                "ura_dora_indicators",
            )
            if k in v
        }
        seat = v.get("seat_wind", "E")
        other = SEATS[(SEATS.index(seat) + 1) % 4]
        riichi = [seat] if {"riichi", "double_riichi"} & set(v.get("flags") or []) else []
        rows.append(
            SessionEntry(
                "hand",
                v["id"],
                hand=data,
                winner=seat,
                discarder=None if v["win_by"] == "self_draw" else other,
                riichi=riichi,
            )
        )
        expected.append(v)
        seats.after_hand(dealer_keeps=seat == "E")
        if i % 3 == 2 and not seats.over:  # a drawn hand: North declared riichi, his stick stays
            rows.append(SessionEntry("draw", "d", draw="exhaustive", riichi=["N"], tenpai=["N"]))
            seats.after_hand()
    assert seats.over and len(expected) >= 8
    sheet = run_session(session(rows), "riichi")
    assert sheet.complete, sheet.pending
    hands = [ln for ln in sheet.lines if ln.kind == "hand"]
    for line, v in zip(hands, expected, strict=True):
        pts = v["expected"]["points"]
        if "ron" in pts:
            value = pts["ron"] + 300 * line.honba
        elif "tsumo_dealer_pays" in pts:
            value = pts["tsumo_dealer_pays"] + 2 * pts["tsumo_others_pay"] + 300 * line.honba
        else:
            value = 3 * pts["tsumo_others_pay"] + 300 * line.honba
        assert line.deltas[line.winner] == value + 1000 * line.sticks, v["id"]
        assert sum(line.deltas.values()) == 1000 * line.sticks  # the sticks come off the table
    # the whole hanchan is zero-sum once the sticks left on the table are counted
    assert sum(sheet.totals.values()) + 1000 * sheet.closing["leftover_sticks"] == 0


# ---------------------------------------------------------------- Zung Jung, Australian, Classical
def test_zung_jung_csv_example() -> None:
    sheet = run_session(load_session(EXAMPLES / "session-zung-jung.csv"), "zung-jung")
    assert sheet.lines[0].deltas == {"Anna": 105, "Bruno": -55, "Carla": -25, "Dario": -25}  # README example
    assert all(sum(ln.deltas.values()) == 0 for ln in sheet.lines if ln.kind != "penalty")
    assert sum(sheet.totals.values()) == -10


@pytest.mark.parametrize("rules", ["australian", "classical"])
def test_table_systems_settle_the_whole_table(rules: str) -> None:
    text = """
players: {Anna: E, Bruno: S, Carla: W, Dario: N}
hands:
  - hand: {hand: "222777999p66z", melds: [{type: pung, tiles: "444p"}], winning_tile: "9p", win_by: discard}
    winner: Bruno
    others:
      Anna: {hand: "111z999m468p9s", melds: [{type: pung, tiles: "555z"}]}
      Carla: {hand: "13579m2568p1357s"}
      Dario: {hand: "22334m567s44z", melds: [{type: pung, tiles: "888s"}]}
"""
    sheet = run_session(parse_yaml(text), rules)
    assert sheet.complete, [ln.notes for ln in sheet.lines]
    assert sum(sheet.lines[0].deltas.values()) == 0 and sheet.lines[0].deltas["Bruno"] > 0
    if rules == "australian":  # the README's table: Net E +200, S +1200, W -700, N -700
        assert sheet.lines[0].deltas == {"Anna": 200, "Bruno": 1200, "Carla": -700, "Dario": -700}
    with pytest.raises(SessionError):
        run_session(parse_yaml(text.replace("winner: Bruno", "winner: Zoe")), rules)


def test_table_systems_need_every_loser() -> None:
    text = (
        "players: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"
        "hands:\n  - {hand: '123m456p789s5556z ron 6z', winner: Anna}\n"
    )
    with pytest.raises(SessionError, match=r"hands\[0\]\.others: give the hand or score of Bruno"):
        run_session(parse_yaml(text), "classical")


# ---------------------------------------------------------------- photos
def test_an_unsure_photo_is_marked_for_the_referee_never_scored(tmp_path: Path) -> None:
    (tmp_path / "h.jpg").write_bytes(b"x")
    read = {"hand": "123m456p789s55566z", "winning_tile": "6z"}
    unsure = PhotoHand(hand_from_dict(read), flagged=["6z at x=10 y=20 (confidence 0.40)"])
    rows = [SessionEntry("hand", "h", photo="h.jpg", winner="Anna", discarder="Bruno")]
    s = session(rows)
    s.base_dir = str(tmp_path)
    sheet = run_session(s, "mcr", read_photo=lambda p: unsure)
    assert sheet.lines[0].status == "confirm" and not sheet.complete
    assert sheet.totals == dict.fromkeys(NAMES, 0)
    rows[0].confirmed = True
    sheet = run_session(s, "mcr", read_photo=lambda p: unsure)
    assert sheet.complete and sheet.lines[0].deltas["Anna"] == 13 + 24


def test_mcr_third_seat_change() -> None:
    seats = Seating("mcr", dict(zip(NAMES, SEATS, strict=True)))
    for _ in range(12):
        seats.after_hand()
    # round 3 started with Anna N, Bruno W, Carla E, Dario S; E<->S, W<->N (App. B)
    assert seats.winds == {"Anna": "W", "Bruno": "N", "Carla": "S", "Dario": "E"} and seats.round_wind == "N"


def test_riichi_non_dealer_chombo_and_abortive_draw() -> None:
    rows = [
        SessionEntry("chombo", "c", player="Carla"),
        SessionEntry("draw", "a", draw="abortive", riichi=["Bruno"]),
    ]
    sheet = run_session(session(rows), "riichi")
    assert sheet.lines[0].deltas == {"Anna": 4000, "Bruno": 2000, "Carla": -8000, "Dario": 2000}
    assert sheet.lines[0].label == sheet.lines[1].label == "E1"  # no hand played, East stays
    assert sheet.lines[1].deltas == {"Anna": 0, "Bruno": -1000, "Carla": 0, "Dario": 0}
    assert sheet.lines[1].honba == 0 and sheet.hands_played == 1
    assert sheet.closing["leftover_sticks"] == 1


def test_riichi_four_tenpai_pay_nothing() -> None:
    sheet = run_session(session([SessionEntry("draw", "d", draw="exhaustive", tenpai=list(SEATS))]), "riichi")
    assert sheet.lines[0].deltas == dict.fromkeys(NAMES, 0)


def test_australian_losers_given_as_scores() -> None:
    text = """
players: {Anna: E, Bruno: S, Carla: W, Dario: N}
hands:
  - hand: {hand: "222777999p66z", melds: [{type: pung, tiles: "444p"}], winning_tile: "9p", win_by: discard}
    winner: Bruno
    others: "Anna=160; Carla=0; Dario=4"
"""
    sheet = run_session(parse_yaml(text), "australian")
    assert sheet.lines[0].deltas == {"Anna": 200, "Bruno": 1200, "Carla": -700, "Dario": -700}


def test_riichi_several_winners_on_one_discard() -> None:
    # spec §5.5: the discarder pays each winner with the full counters; each winner's own stick goes
    # back to him, the others' (and the leftover ones) to the first winner after the discarder; East stays
    rows = [
        SessionEntry(
            "draw", "d", draw="exhaustive", riichi=["Dario"], tenpai=["Anna", "Dario"]
        ),  # East stays, honba 1
        hand("234m456p678s234p5s ron 5s", "Anna", "Bruno", riichi=["Anna", "Dario"], honba=1, sticks=1),
        hand("234m456p678s234p5s ron 5s", "Carla", "Bruno", same_discard=True),
    ]
    sheet = run_session(session(rows), "riichi")
    anna, carla = sheet.lines[1], sheet.lines[2]
    assert anna.deltas == {"Anna": -1000 + 4200 + 1000, "Bruno": -4200, "Carla": 0, "Dario": -1000}
    assert carla.deltas == {"Anna": 0, "Bruno": -1600, "Carla": 1600 + 2000, "Dario": 0}
    assert anna.label == carla.label == "E1" and sheet.closing["leftover_sticks"] == 0
    assert sum(sheet.totals.values()) == 0
    more = [*rows, hand("234m456p678s234p5s ron 5s", "Anna", "Carla", honba=2)]
    after = run_session(session(more), "riichi").lines[3]  # honba=2 checked: East kept the deal
    assert after.label == "E1" and after.deltas["Anna"] == 2000 + 600  # dealer 1 han 40 fu, 2 counters


def test_several_winners_only_under_riichi() -> None:
    rows = [
        hand("123m456p789s5556z ron 6z", "Anna", "Bruno"),
        hand("123m456p789s5556z ron 6z", "Carla", "Bruno", same_discard=True),
    ]
    with pytest.raises(SessionError, match="only riichi"):
        run_session(session(rows), "mcr")


def test_a_photo_read_elsewhere_is_confirmed_like_any_photo() -> None:
    """The phone page sends its corrected reading: flagged tiles or warnings keep it off the
    totals until confirmed, and then it scores exactly as the same hand typed."""
    read = {"hand": "123m456p789s55566z", "winning_tile": "6z"}
    unsure = PhotoHand(hand_from_dict(read), flagged=["6z at x=10 y=20 (confidence 0.40)"])
    row = SessionEntry("hand", "h", photo="1-h.jpg", reading=unsure, winner="Anna", discarder="Bruno")
    sheet = run_session(session([row]), "mcr")
    assert sheet.lines[0].status == "confirm" and sheet.totals == dict.fromkeys(NAMES, 0)
    assert any("6z at x=10" in str(n) for n in sheet.lines[0].notes)
    row.confirmed = True
    confirmed = run_session(session([row]), "mcr")
    typed = run_session(
        session([SessionEntry("hand", "h", hand=read, winner="Anna", discarder="Bruno")]), "mcr"
    )
    assert confirmed.complete and confirmed.totals == typed.totals and confirmed.totals["Anna"] > 0
    sure = SessionEntry(
        "hand",
        "h",
        photo="1-h.jpg",
        reading=PhotoHand(hand_from_dict(read)),
        winner="Anna",
        discarder="Bruno",
    )
    assert run_session(session([sure]), "mcr").totals == typed.totals  # nothing to check: scored
    blank = SessionEntry(
        "hand", "h", photo="1-h.jpg", reading=PhotoHand(None, error="no tiles"), winner="Anna"
    )
    line = run_session(session([blank]), "mcr").lines[0]
    assert line.status == "error" and "no tiles" in str(line.notes[0])


def test_the_sheet_says_where_the_next_hand_stands() -> None:
    rows = [
        hand("234m55p12345678s tsumo 9s", "Bruno", riichi=["Bruno"]),
        SessionEntry("draw", "d", riichi=["Anna"], tenpai=["Anna"]),
    ]
    sheet = run_session(session(rows), "riichi")
    # Bruno (S) won: the deal passed to him; at the draw East (Bruno) was noten: on to Carla
    assert sheet.next == {
        "label": "E3",
        "winds": {"Anna": "W", "Bruno": "N", "Carla": "E", "Dario": "S"},
        "round_wind": "E",
        "over": False,
        "honba": 1,
        "sticks": 1,
    }
    assert run_session(load_session(EXAMPLES / "session-mcr.yaml"), "mcr").next["over"] is True


@pytest.mark.parametrize("rules", ["mcr", "riichi", "zung-jung", "australian", "classical"])
def test_every_listed_infraction_is_one_the_engine_takes(rules: str) -> None:
    from mahjong_camera_scorer.scoring.session.penalties import INFRACTIONS

    for name in INFRACTIONS[rules]:
        row = SessionEntry(
            "penalty", "p", player="Carla", infraction=name, minutes=5, points=8000, opponents_exposed=True
        )
        sheet = run_session(session([row]), rules)
        assert sheet.penalties[0].infraction == name
