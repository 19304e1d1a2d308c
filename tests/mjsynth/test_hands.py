import random
from collections import Counter

from mahjong_camera_scorer.mjsynth.hands import (
    SynthHand,
    SynthMeld,
    kind_of,
    new_pool,
    random_hand,
    to_mpsz,
    validate,
)


def test_many_random_hands_are_legal():
    shapes = Counter()
    for seed in range(600):
        rng = random.Random(seed)
        h = random_hand(rng, p_bonus=0.5)
        assert validate(h) == [], (seed, h)
        shapes[h.shape] += 1
        j = h.to_json()
        assert set(j) >= {"hand", "melds", "winning_tile", "win_by", "seat_wind", "round_wind", "bonus_tiles"}
        assert j["win_by"] in ("self_draw", "discard")
        assert j["seat_wind"] in "ESWN" and j["round_wind"] in "ESWN"
    assert shapes["standard"] > 400 and shapes["seven_pairs"] > 10


def test_table_of_four_shares_the_tile_pool():
    for seed in range(100):
        rng = random.Random(seed)
        pool = new_pool()
        hands = [random_hand(rng, pool) for _ in range(4)]
        tiles = [t for h in hands for t in h.concealed + [x for m in h.melds for x in m.tiles]]
        kinds = Counter(kind_of(t) for t in tiles)
        assert max(kinds.values()) <= 4
        reds = Counter(t[1] for t in tiles if t[0] == "0")
        assert all(n <= 1 for n in reds.values())


def test_mpsz_and_validation_catch_errors():
    assert to_mpsz(["5m", "0m", "1m", "2z", "1z"]) == "150m12z"
    bad = SynthHand(["1m"] * 5 + ["2m"] * 9, [], "1m", "discard", "E", "E")
    assert validate(bad)
    good = SynthHand(
        ["1m", "2m", "3m", "4p", "4p"],
        [
            SynthMeld("pung", ["5z"] * 3, True, 1),
            SynthMeld("chow", ["7s", "8s", "9s"], True, 0),
            SynthMeld("kong", ["9m"] * 4, False),
        ],
        "4p",
        "discard",
        "E",
        "S",
    )
    assert validate(good) == []
    assert good.to_json()["melds"][2] == {"type": "kong", "tiles": "9999m", "open": False}


def test_kong_share_and_meld_counts_are_chosen_and_the_hands_stay_legal():
    rng = random.Random(9)
    kongs = melds = 0
    for _ in range(200):
        h = random_hand(rng, p_kong=0.3, meld_counts=(4,), p_seven_pairs=0, p_orphans=0)
        assert validate(h) == []
        kongs += sum(m.type == "kong" for m in h.melds)
        melds += len(h.melds)
        assert len(h.melds) == 4
    assert 0.2 < kongs / melds < 0.4  # about the share asked for (7 % by default)


def test_the_defaults_draw_the_hands_they_always_drew():
    """Datasets are remade from their seeds: the new choices left at their defaults must not
    change a single draw."""
    a = [random_hand(random.Random(s)).to_json() for s in range(30)]
    b = [random_hand(random.Random(s), p_kong=None, meld_counts=None).to_json() for s in range(30)]
    assert a == b
