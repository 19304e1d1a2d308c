import random
from collections import Counter

from mjsynth.hands import SynthHand, SynthMeld, kind_of, new_pool, random_hand, to_mpsz, validate


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
