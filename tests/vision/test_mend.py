"""Mending a misread tile with the rules: only when the hand as read is not complete, only with the
reader's own candidates, never a sure tile, and never silently."""

from __future__ import annotations

from dataclasses import replace

from mahjong_camera_scorer.vision.mend import lay_out_mended, mend
from mahjong_camera_scorer.vision.read import TileRead

W, H, Y = 30.0, 40.0, 100.0


def _row(spec: list[tuple[str, float, tuple[tuple[str, float], ...]]], gap_before_last: bool = True) -> list:
    """Readings left to right; the last one set apart (the winning tile)."""
    out, x = [], 10.0
    for i, (code, conf, alts) in enumerate(spec):
        if gap_before_last and i == len(spec) - 1:
            x += 0.8 * W
        out.append(
            TileRead((x, Y, x + W, Y + H), code, conf, "upright", 0.9, alts or ((code, conf),), index=i)
        )
        x += W + 1
    return out


def _sure(codes: str) -> list[tuple[str, float, tuple]]:
    return [(c, 0.99, ()) for c in codes.split()]


def test_a_complete_hand_is_left_alone() -> None:
    readings = _row(
        [*_sure("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z"), ("2z", 0.5, (("2z", 0.5), ("3z", 0.4)))]
    )
    mended, layout = lay_out_mended(readings)
    assert mended is readings and layout.winning_tile == "2z"


def test_one_misread_tile_is_mended_with_its_second_candidate_and_remembered() -> None:
    spec = _sure("1m 2m 3m 4p 5p 6p 7s 8s 1z 1z 1z 2z 2z")
    spec.insert(8, ("4s", 0.5, (("4s", 0.5), ("9s", 0.3), ("3s", 0.1))))  # 7s 8s 9s read as 7s 8s 4s
    readings = _row(spec)
    mended, layout = lay_out_mended(readings)
    changed = [r for r in mended if r.corrected_from]
    assert [(r.corrected_from, r.code) for r in changed] == [("4s", "9s")]
    assert changed[0].to_json()["corrected_from"] == "4s"
    assert layout.to_dict()["hand"] == "123m456p789s11122z" and layout.problems == []


def test_sure_tiles_are_never_changed() -> None:
    spec = _sure("1m 2m 3m 4p 5p 6p 7s 8s 1z 1z 1z 2z 2z")
    spec.insert(8, ("4s", 0.95, (("4s", 0.95), ("9s", 0.04))))
    layout = lay_out_mended(_row(spec))[1]
    assert mend(layout) == {}
    assert "4s" in [t.code for g in layout.groups for t in g.tiles]


def test_no_change_when_no_candidate_completes_the_hand() -> None:
    spec = _sure("1m 2m 3m 4p 5p 6p 7s 8s 1z 1z 1z 2z 2z")
    spec.insert(8, ("4s", 0.5, (("4s", 0.5), ("3m", 0.3), ("4m", 0.1))))  # no candidate helps
    readings = _row(spec)
    mended, _ = lay_out_mended(readings)
    assert mended is readings


def _with_score(readings: list, i: int, score: float) -> list:
    from dataclasses import replace

    out = list(readings)
    out[i] = replace(out[i], detector_score=score)
    return out


def test_a_weak_extra_box_that_breaks_the_hand_is_left_out_and_reported() -> None:
    # a 15th box (score 0.4, above the keep threshold 0.35) in the middle of the concealed tiles
    spec = _sure("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z")
    spec.insert(3, ("7z", 0.99, ()))
    readings = _with_score(_row(spec), 3, 0.4)
    used, layout = lay_out_mended(readings, keep=0.35)
    assert layout.to_dict()["hand"] == "123m456p789s11122z" and layout.winning_tile == "2z"
    assert [r.code for r in layout.dropped] == ["7z"] and layout.added == []
    assert len(used) == 14


def test_a_faint_box_that_completes_the_hand_is_taken_in_and_reported() -> None:
    readings = _with_score(_row(_sure("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z")), 8, 0.25)
    used, layout = lay_out_mended(readings, keep=0.35)
    assert layout.to_dict()["hand"] == "123m456p789s11122z"
    assert [r.code for r in layout.added] == ["9s"] and layout.dropped == []
    assert len(used) == 14


def test_sure_boxes_stay_and_without_keep_no_box_is_changed() -> None:
    spec = _sure("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z")
    spec.insert(3, ("7z", 0.99, ()))
    sure_extra = _with_score(_row(spec), 3, 0.9)  # a sure box is never left out
    _, layout = lay_out_mended(sure_extra, keep=0.35)
    assert "7z" in [t.code for g in layout.groups for t in g.tiles] and layout.dropped == []
    weak_extra = _with_score(_row(spec), 3, 0.4)  # the camera's frames: every box counts
    _, layout = lay_out_mended(weak_extra)
    assert "7z" in [t.code for g in layout.groups for t in g.tiles] and layout.dropped == []


def _cluttered(n: int, seed: int = 0) -> list[TileRead]:
    """A hand laid out at the bottom of a busy photo (a whole table, a desk): the hand's row, one
    of its tiles boxed faintly (it must be taken in), and ``n`` boxes of every score and size all
    over the photo above it."""
    import random

    rng = random.Random(seed)
    codes = [f"{k}{s}" for s in "mps" for k in range(1, 10)] + [f"{k}z" for k in range(1, 8)]
    hand = _with_score(_row(_sure("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z")), 8, 0.25)
    out = [replace(r, box=(r.box[0], r.box[1] + 2000, r.box[2], r.box[3] + 2000)) for r in hand]
    while len(out) < n:
        x, y, w = rng.uniform(0, 3000), rng.uniform(0, 1850), rng.uniform(25, 40)
        code, conf = rng.choice(codes), rng.uniform(0.3, 1.0)
        alts = ((code, conf), (rng.choice(codes), 0.2))
        out.append(
            TileRead(
                (x, y, x + w, y + 1.3 * w),
                code,
                conf,
                "upright",
                rng.uniform(0.2, 0.95),
                alts,
                index=len(out),
            )
        )
    return out


def test_hundreds_of_boxes_are_pruned_before_the_hand_is_mended(monkeypatch) -> None:
    """A photo with hundreds of boxes spent ~1 s in the layout (113 boxes: 968 ms; 300: 14 s):
    the mending now lays out again only the boxes in the hand's region, and only the changes
    that can give a finished hand's tile count."""
    import time

    import mahjong_camera_scorer.vision.mend

    readings = _cluttered(300)
    sizes: list[int] = []
    real = mahjong_camera_scorer.vision.mend.lay_out

    def counting(tiles):  # type: ignore[no-untyped-def]
        sizes.append(len(tiles))
        return real(tiles)

    monkeypatch.setattr(mahjong_camera_scorer.vision.mend, "lay_out", counting)
    used, layout = lay_out_mended(readings, keep=0.35)
    monkeypatch.undo()
    assert layout.to_dict()["hand"] == "123m456p789s11122z" and [r.code for r in layout.added] == ["9s"]
    assert len(used) == sum(r.detector_score >= 0.35 for r in readings) + 1  # the far boxes are kept
    assert len(layout.ignored) == len(used) - 14
    # the whole photo is laid out twice (first, and with the mended hand); the tries only the region
    assert sorted(sizes)[-2:] == [len(used) - 1, len(used)] and max(sorted(sizes)[:-2]) <= 20
    best = 1e9
    for _ in range(5):
        t0 = time.perf_counter()
        lay_out_mended(readings, keep=0.35)
        best = min(best, time.perf_counter() - t0)
    assert best < 0.1, f"{best * 1000:.0f} ms"
