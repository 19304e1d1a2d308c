"""Choosing the verdict's thresholds (``scripts/calibrate_verdict.py``): the sweep judges tiles as
:func:`vision.verdict.judge` does, and the choice keeps the wrong reads called sure under its
limit."""

from __future__ import annotations

import numpy as np
import pytest

from tests.scripts.scriptutil import load_script

mod = load_script("calibrate_verdict")
SHIPPED = (0.6, 0.6, 0.7, 0.65, 0.8)


def photo(
    exact: bool, *tiles: tuple[float, float, float, bool], checked: bool = False, wrong: int = -1
) -> object:
    """A read photo of tiles (face, margin, box score, in a row at its size); tile ``wrong`` is
    read wrong (every tile of an exact photo is right)."""
    columns = list(zip(*tiles, strict=True)) if tiles else [(), (), (), ()]
    read, margin, box, in_row = (np.asarray(c, float) for c in columns)
    right = np.array([k != wrong for k in range(len(tiles))], bool)
    return mod.Seen(exact, checked, read, margin, box, in_row.astype(bool), right)


def test_a_faint_box_is_vouched_for_only_in_a_row_read_surely_above_the_floor() -> None:
    sure_tile = (0.99, 0.98, 0.9, True)
    vouched = photo(True, sure_tile, (0.95, 0.9, 0.66, True))
    off_row = photo(True, sure_tile, (0.95, 0.9, 0.66, False))
    below_floor = photo(True, sure_tile, (0.95, 0.9, 0.6, True))
    close = photo(True, sure_tile, (0.8, 0.7, 0.66, True))
    assert vouched.sure(SHIPPED)
    assert not off_row.sure(SHIPPED) and not below_floor.sure(SHIPPED) and not close.sure(SHIPPED)
    # a floor over 1 vouches for nothing: the box threshold alone
    assert not vouched.sure((0.6, 0.6, 0.7, mod.NEVER, 0.8))


def test_a_photo_with_no_tile_or_a_check_naming_one_is_never_sure() -> None:
    assert not photo(True).sure(SHIPPED)
    assert not photo(True, (0.99, 0.99, 0.99, True), checked=True).sure(SHIPPED)


def test_the_pooled_sweep_counts_as_each_photo_judged_alone() -> None:
    rng = np.random.default_rng(0)

    def tile() -> tuple[float, float, float, bool]:
        return (
            float(rng.uniform(0.3, 1)),
            float(rng.uniform(0, 1)),
            float(rng.uniform(0.3, 1)),
            rng.random() < 0.7,
        )

    photos = [photo(rng.random() < 0.6, *[tile() for _ in range(int(rng.integers(0, 6)))]) for _ in range(60)]
    pool = mod.Pool(photos)
    for at in [SHIPPED, (0.5, 0.2, 0.5, 0.55, 0.7), (0.9, 0.8, 0.7, 1.01, 0.95)]:
        right = [p for p in photos if p.exact]
        wrong = [p for p in photos if not p.exact]
        alone = (sum(p.sure(at) for p in right), len(right), sum(p.sure(at) for p in wrong), len(wrong))
        assert pool.rates(at) == alone


def test_the_choice_calls_the_most_right_photos_sure_within_the_wrong_limit() -> None:
    right = [photo(True, (0.9, 0.85, 0.9, True)) for _ in range(20)]
    wrong = [photo(False, (0.75, 0.7, 0.9, True), wrong=0) for _ in range(3)]
    at, (r, nr, w, nw) = mod.choose(right + wrong, 0.0)
    assert (r, nr, w, nw) == (20, 20, 0, 3) and (at[0] > 0.75 or at[1] > 0.7)
    loose, (r, _, w, _) = mod.choose(right + wrong, 1.0)
    assert (r, w) == (20, 0) and loose == at  # ties go to the strictest thresholds
    with pytest.raises(SystemExit):
        mod.choose([photo(False, (0.99, 0.99, 0.99, True), wrong=0)], 0.0)


def test_a_faint_box_is_vouched_for_where_such_boxes_are_read_no_worse_than_the_sure_ones() -> None:
    sure = (0.99, 0.98, 0.9, True)
    # boxed 0.66, read 0.97 ahead: all right; boxed 0.56, read 0.85 ahead: one in four wrong
    high = [photo(True, sure, (0.99, 0.97, 0.66, True)) for _ in range(8)]
    low = [photo(k > 0, sure, (0.9, 0.85, 0.56, True), wrong=-1 if k else 1) for k in range(4)]
    # boxes on no tile off the rows, read surely: the box threshold must stay above them
    clutter = [photo(False, sure, (0.99, 0.98, 0.68, False), wrong=1) for _ in range(4)]
    at, _ = mod.choose(high + low + clutter, 0.0)
    assert at[2] == 0.7
    assert at[3] > 0.56 and at[4] <= 0.97  # the 0.66 boxes vouched for, the 0.56 ones not
    assert all(p.sure(at) for p in high) and not any(p.sure(at) for p in low)
    # where every faint box is read as often wrong as right, none is vouched for
    doubtful = [
        photo(k % 2 == 0, sure, (0.99, 0.97, 0.66, True), wrong=-1 if k % 2 == 0 else 1) for k in range(8)
    ]
    assert mod.choose(doubtful, 1.0)[0][3] == mod.NEVER


def test_seeds_after_the_first_draw_only_the_kinds_a_seed_changes() -> None:
    kinds = ["original", "crop", "far", "seat", "turn90", "turn180"]
    assert mod.seeded_kinds(kinds, (0, 1)) == [(0, kinds), (1, ["crop", "far", "seat"])]


def test_the_sweep_doubts_the_tiles_the_runtime_verdict_doubts() -> None:
    from dataclasses import replace

    from mahjong_camera_scorer.vision import verdict
    from mahjong_camera_scorer.vision.layout import lay_out
    from tests.vision.test_verdict import WHOLE, hand

    rng = np.random.default_rng(3)
    vouched = 0
    at = (verdict.READ_SURE, verdict.MARGIN_SURE, verdict.BOX_SURE, verdict.FAINT_FLOOR, verdict.FAINT_MARGIN)
    for _ in range(40):
        tiles = hand(WHOLE)
        for k, t in enumerate(tiles):
            conf = float(rng.uniform(0.5, 1.0))
            second = float(rng.uniform(0.0, 1.0 - conf))
            tiles[k] = replace(t, confidence=conf, detector_score=float(rng.uniform(0.5, 0.9)),
                               alternatives=((t.code, conf), ("9s", second)))  # fmt: skip
        layout = lay_out(tiles)
        judged = {d.index for d in verdict.judge(tiles, layout, []).doubts}
        steady = verdict.in_row_at_size(layout)
        seen = mod.Seen(
            True,
            False,
            np.array([t.confidence for t in tiles]),
            np.array([verdict.margin(t) for t in tiles]),
            np.array([t.detector_score for t in tiles]),
            np.array([t.index in steady for t in tiles]),
            np.ones(len(tiles), bool),
        )
        swept = {tiles[k].index for k in np.flatnonzero(seen.doubted(at))}
        # the runtime's faint-box check (vision.checks) is not among the checks given here
        assert swept == judged
        vouched += int(seen.vouched(at).sum())
    assert vouched > 0  # the draw reaches the vouching rule
