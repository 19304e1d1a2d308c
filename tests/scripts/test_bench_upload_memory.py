"""The upload-memory benchmark's options and files (the benchmark itself starts a server and is
not run here)."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.vision.images import PhotoError, decode_image
from tests.scripts.scriptutil import load_script


def test_help_and_options(capsys) -> None:  # type: ignore[no-untyped-def]
    bench = load_script("bench_upload_memory")
    with pytest.raises(SystemExit) as done:
        bench.parse_args(["--help"])
    assert done.value.code == 0
    assert "--sets" in capsys.readouterr().out
    args = bench.parse_args([])
    assert args.sets == ["hostile", "ordinary"] and args.rounds == 1 and args.pad_mb == 24
    assert bench.parse_args(["--sets", "under-budget, ordinary"]).sets == ["under-budget", "ordinary"]
    for bad in (["--sets", "hostile,huge"], ["--sets", ","], ["--rounds", "0"], ["--pad-mb", "-1"]):
        with pytest.raises(SystemExit) as refused:
            bench.parse_args(bad)
        assert refused.value.code == 2


def test_the_hostile_files_are_refused_for_their_decode_cost_and_the_png_maker_makes_pngs() -> None:
    bench = load_script("bench_upload_memory")
    files = bench.hostile_files(1)
    assert len(files) == 4 and {len(d) for d in files.values()} == {1 << 20}
    for data in files.values():
        with pytest.raises(PhotoError, match="MB to decode"):
            decode_image(data)
    image = decode_image(bench.png_8bit(60, 40))[0]
    assert image.shape == (40, 60, 3) and not image.any()
