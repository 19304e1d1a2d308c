"""Decomposition: every reading, every place of the winning tile, wait kinds, waits."""

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_camera_scorer.scoring.decompose import (
    CHOW,
    PAIR,
    PUNG,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    is_complete,
    readings,
    shape_error,
    standard_partitions,
    winning_kinds,
)
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.tiles import counts34, parse_tiles


def kinds(text: str) -> list[int]:
    return [t.index for t in parse_tiles(text)]


def waits_of(text: str) -> set[str]:
    return {r.wait for r in readings(parse_hand(text))}


@pytest.mark.parametrize(
    ("hand", "waits"),
    [
        ("123m456p789s11z23s ron 1s", {"two_sided"}),
        ("123m456p789s11z12s ron 3s", {"edge"}),
        ("123m456p789s11z89s ron 7s", {"edge"}),
        ("123m456p789s11z13s ron 2s", {"closed"}),
        ("123m456p789s11z55s ron 5s", {"dual_pung"}),
        ("123m456p789s555s1z ron 1z", {"pair"}),
        ("123m456p789s11z 22z ron 2z", {"dual_pung"}),
        ("123m456p999s 3455s ron 5s", {"two_sided", "pair"}),  # 345s + 55s: either place
    ],
)
def test_wait_kinds(hand, waits):
    assert waits_of(hand) == waits


def test_every_reading_of_three_identical_chows():
    rs = readings(parse_hand("111222333m 456p 5p ron 5p"))
    shapes = {tuple(sorted((g.kind, g.first) for g in r.groups)) for r in rs}
    assert shapes == {
        tuple(sorted([(CHOW, 0), (CHOW, 0), (CHOW, 0), (CHOW, 12), (PAIR, 13)])),
        tuple(sorted([(PUNG, 0), (PUNG, 1), (PUNG, 2), (CHOW, 12), (PAIR, 13)])),
    }
    # the third 5p is the winning tile: in the pair, or in the middle of 456p
    assert sorted(r.wait for r in rs) == ["closed", "closed", "pair", "pair"]


def test_winning_tile_marks_group_and_discard_opens_the_pung():
    r = readings(parse_hand("123m456p789s11z 55s ron 5s"))[0]
    g = r.groups[r.win_group]
    assert (g.kind, g.winning, g.concealed) == (PUNG, True, False)
    r = readings(parse_hand("123m456p789s11z 55s tsumo 5s"))[0]
    assert r.groups[r.win_group].concealed is True


def test_melds_come_first_and_stay_declared():
    r = readings(parse_hand("456p789s11z 23s [123m] ron 1s"))[0]
    assert r.groups[0].declared and not r.groups[0].concealed and r.groups[0].first == 0
    assert r.groups[-1].kind == PAIR and r.form == STANDARD
    r = readings(parse_hand("456p789s11z 23s (1111m) ron 1s"))[0]
    assert r.groups[0].declared and r.groups[0].concealed and r.groups[0].kind == "kong"


def test_seven_pairs_and_its_standard_readings():
    forms = Counter(r.form for r in readings(parse_hand("1122334455667m ron 7m")))
    assert forms[SEVEN_PAIRS] == 1 and forms[STANDARD] >= 1
    quads = parse_hand("1111m223344p55s6s ron 6s")
    assert not any(r.form == SEVEN_PAIRS for r in readings(quads))
    assert any(r.form == SEVEN_PAIRS for r in readings(quads, seven_pairs_quads=True))


def test_thirteen_orphans_waits():
    r = readings(parse_hand("19m19p19s1234567z ron 1z"))
    assert [(x.form, x.wait) for x in r] == [(THIRTEEN_ORPHANS, "pair")]
    r = readings(parse_hand("119m19p19s123456z ron 7z"))
    assert [(x.form, x.wait) for x in r] == [(THIRTEEN_ORPHANS, "thirteen_orphans")]
    assert len(winning_kinds(counts34(parse_tiles("19m19p19s1234567z")))) == 13


def test_nine_gates_waits_on_all_nine():
    assert winning_kinds(counts34(parse_tiles("1112345678999m"))) == list(range(9))


def test_waits_exclude_a_kind_whose_four_copies_are_held():
    counts = counts34(parse_tiles("1111m234p567s888s"))
    assert 0 not in winning_kinds(counts, held=counts)


def test_no_reading_gives_a_precise_reason():
    h = parse_hand("123m456p789s1234z ron 5z")
    assert readings(h) == []
    assert "not a winning hand" in shape_error(h)
    assert "13 concealed tiles" in shape_error(parse_hand("123m456p789s113z ron 3z"))


def brute_partitions(tiles: list[int], n_sets: int) -> set[tuple]:
    """Reference: try every multiset of candidate groups (slow, for small cases only)."""
    counts = Counter(tiles)
    groups = [(PAIR, k) for k in counts if counts[k] >= 2]
    groups += [(PUNG, k) for k in counts if counts[k] >= 3]
    groups += [(CHOW, k) for k in counts if k < 27 and k % 9 <= 6 and counts[k + 1] and counts[k + 2]]
    out = set()
    pairs = [g for g in groups if g[0] == PAIR]
    sets = [g for g in groups if g[0] != PAIR]
    for pair in pairs:
        for combo in combinations_with_replacement(sets, n_sets):
            used = Counter([pair[1]] * 2)
            for kind, k in combo:
                used.update([k, k + 1, k + 2] if kind == CHOW else [k] * 3)
            if used == counts:
                out.add(tuple(sorted((pair, *combo))))
    return out


SETS = [(CHOW, k) for k in range(27) if k % 9 <= 6] + [(PUNG, k) for k in range(34)]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(SETS), min_size=1, max_size=4), st.integers(0, 33))
def test_partitions_match_brute_force(sets, pair):
    tiles = [pair, pair]
    for kind, k in sets:
        tiles += [k, k + 1, k + 2] if kind == CHOW else [k] * 3
    if max(Counter(tiles).values()) > 4:
        return
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    ours = {tuple(sorted(p)) for p in standard_partitions(counts, len(sets))}
    assert len(ours) == len(standard_partitions(counts, len(sets))), "a partition was produced twice"
    assert ours == brute_partitions(tiles, len(sets))
    assert is_complete(counts, len(sets))
