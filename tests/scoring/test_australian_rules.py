"""Australian rules the vectors do not pin down: roles, tile counts, bad input, tables, output."""

from __future__ import annotations

from typing import Any

import pytest

from mahjong_camera_scorer.scoring.australian import score, score_table
from mahjong_camera_scorer.scoring.hand import HandError, Jokers
from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict


def hand(**kw: Any) -> dict[str, Any]:
    return {"seat_wind": "S", "round_wind": "E", "win_by": "discard", "flags": [], **kw}


def pung(tiles: str) -> dict[str, Any]:
    return {"type": "pung", "tiles": tiles, "open": True}


def test_registered_under_its_name() -> None:
    h = hand_from_dict(hand(hand="123m555m777m999m11z", winning_tile="1z"))
    assert score_hand(h, "australian").total == 160


def test_fishing_is_read_off_the_tiles_not_the_role() -> None:
    # 'fishing' but two suits: one tile from 4 sets + pair, yet never a legal mah jong (L60)
    claimed = score(
        hand_from_dict(hand(role="fishing", hand="22255588m99p", melds=[{"type": "pung", "tiles": "777z"}])),
        {},
    )
    assert claimed.valid and not claimed.details["fishing"] and "Not fishing" in "\n".join(claimed.notes)
    # 'loser' whose tiles are one from a legal hand is scored as fishing (§3.9)
    fishing = score(
        hand_from_dict(hand(role="loser", hand="2225558899m", melds=[{"type": "pung", "tiles": "777z"}])), {}
    )
    assert fishing.details["fishing"] and fishing.details["waits"] == ["8m", "9m"]
    assert fishing.details["doubles"]["Clean call (fishing)"] == 1


def test_short_hand_scores_but_is_not_fishing() -> None:
    short = score(
        hand_from_dict(hand(role="loser", hand="222555889m", melds=[{"type": "pung", "tiles": "777z"}])), {}
    )
    assert short.valid and not short.details["fishing"] and short.total == 12 * 2**2


def test_invalid_input_is_reported_not_raised() -> None:
    with pytest.raises(HandError, match="role must be"):  # refused as it is read, by every front end
        hand_from_dict(hand(role="dealer", hand="1m"))
    five = score(
        hand_from_dict(
            hand(hand="11112345678999m", winning_tile="1m", melds=[{"type": "pung", "tiles": "111m"}])
        ),
        {},
    )
    assert not five.valid and "copies of 1m" in five.error
    missing = score(hand_from_dict(hand(hand="123m555m777m999m11z")), {})
    assert not missing.valid and "winning tile" in missing.error
    two_suits = score(
        hand_from_dict(
            hand(hand="222555888m99p", winning_tile="9p", melds=[{"type": "pung", "tiles": "777z"}])
        ),
        {},
    )
    assert "not cleared" in two_suits.error and two_suits.details["legal"] is False


def test_joker_melds_count_real_tiles() -> None:
    goulash = {"hand": "111m44z", "winning_tile": "4z", "flags": ["goulash", "jokers"]}
    melds = [pung("555m"), pung("5m2s2s"), pung("888m")]
    h = hand_from_dict(hand(**goulash, win_by="self_draw", melds=melds))
    assert h.jokers == (Jokers(meld=1, count=2, shown="5m"),)
    result = score(h, {})
    assert result.details["base_points"]["Exposed pung 5m+2 jokers (= 555m)"] == 2
    too_many = hand_from_dict(hand(**goulash, melds=[pung("2s2s2s"), pung("5m2s2s"), pung("888m")]))
    assert "copies of 2s" in score(too_many, {}).error


def test_table_scores_full_hands_and_prints() -> None:
    table = {
        "round_wind": "E",
        "players": {
            "E": {
                "role": "loser",
                "hand": "25m18p47s2367z",
                "melds": [{"type": "pung", "tiles": "999m"}],
                "bonus_tiles": ["1f", "5f"],
            },
            "S": {
                "role": "winner",
                "hand": "222777999p66z",
                "melds": [{"type": "pung", "tiles": "444p"}],
                "winning_tile": "9p",
            },
            "W": {"role": "loser", "score": 260},
            "N": {"role": "fishing", "hand": "2225558899m", "melds": [{"type": "pung", "tiles": "777z"}]},
        },
    }
    result = score_table(table, {})
    assert result.valid and result.total == 288
    assert result.details["rounded"] == {"E": 0, "S": 300, "W": 300, "N": 200}
    assert result.details["hands"]["N"]["fishing"] is True
    assert [(p.payer, p.amount, p.reason) for p in result.payments if p.payee == "S"] == [
        ("E", 600, "hand"),
        ("W", 300, "hand"),
        ("N", 300, "hand"),
    ]
    assert result.details["net"] == net_by_seat(result.payments) and sum(result.details["net"].values()) == 0
    text = result.render()
    assert "payer" in text and "Net:" in text


def test_table_errors() -> None:
    assert not score_table({"players": {"E": {"role": "winner", "score": 1}}}, {}).valid
    two = {s: {"role": "winner", "score": 100} for s in "ESWN"}
    assert "only one" in score_table({"players": two}, {}).error
    bad = {s: {"role": "loser", "score": 0} for s in "ESWN"}
    bad["S"] = {
        "role": "winner",
        "hand": "222555888m99p",
        "winning_tile": "9p",
        "melds": [{"type": "pung", "tiles": "777z"}],
    }
    assert "players.S" in score_table({"players": bad}, {}).error


def test_heavenly_paradise_needs_chips() -> None:
    players = {s: {"role": "loser", "score": 0} for s in "ESWN"}
    players["S"] = {"role": "winner", "chips": 100}
    assert "chips" in score_table({"players": players}, {}).error


def test_concealed_jokers_make_two_pungs_of_one_tile() -> None:
    # L69: jokers allow "due tris dello stesso pezzo, ad esempio due tris di Draghi Rossi": 77z 2s + 77z 2s
    h = hand_from_dict(hand(hand="77z2s77z2s111m555m99m", winning_tile="9m", flags=["goulash", "jokers"]))
    result = score(h, {})
    assert result.details["jokers_stand_for"] == ["7z", "7z"]
    assert result.details["doubles"]["Pung of dragons 777z #2"] == 1 and result.total == 1000
    without = score(h.with_context(flags=frozenset({"goulash"})), {})  # no jokers agreed: 2s are 2s
    assert not without.valid


@pytest.mark.slow
def test_random_hands_never_raise() -> None:
    """score() returns a Score for any hand of any role (seeded, 100 hands, about a second)."""
    import random

    from mahjong_camera_scorer.scoring.context import HandContext
    from mahjong_camera_scorer.scoring.hand import Hand, Meld
    from mahjong_camera_scorer.scoring.tiles import Tile

    rng = random.Random(6)
    flag_names = ["goulash", "jokers", "last_tile", "kong_replacement", "robbing_kong", "earthly"]
    for _ in range(100):
        suit = rng.randrange(3)
        wall = [
            Tile(k) for k in range(34) for _ in range(4) if k >= 27 or k // 9 == suit or rng.random() < 0.2
        ]
        rng.shuffle(wall)
        role = rng.choice(["winner", "fishing", "loser"])
        n_melds = rng.randrange(3)
        concealed = wall[: (14 if role == "winner" else 13) - 3 * n_melds]
        melds = []
        for _ in range(n_melds):
            kind, k = rng.choice(["pung", "kong"]), rng.randrange(34)
            is_open = kind == "pung" or rng.random() < 0.5
            melds.append(Meld(kind, (Tile(k),) * (3 if kind == "pung" else 4), is_open))
        flags = rng.sample(flag_names, k=2)
        h = Hand(
            concealed=tuple(concealed),
            melds=tuple(melds),
            bonus_tiles=tuple(Tile(34 + b) for b in rng.sample(range(8), 3)),
            context=HandContext(
                winning_tile=concealed[0] if role == "winner" else None,
                win_by=rng.choice(["discard", "self_draw"]),
                seat_wind=rng.choice("ESWN"),
                flags=frozenset(flags),
                role=role,
            ),
        )
        result = score(h, {})
        assert result.valid or result.error
        if result.valid and isinstance(result.total, int):
            assert 0 <= result.total <= 2000
