"""The reader soup (scripts/average_readers.py); needs torch (the training venv)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def ar():  # type: ignore[no-untyped-def]
    return load_script("average_readers")


def _ckpt(ar, path: Path, pool: tuple[int, int], seed: int) -> dict:  # type: ignore[no-untyped-def]
    torch.manual_seed(seed)
    state = ar.TileReader(pool=pool).state_dict()
    torch.save({"model": state}, path)
    return state


def test_the_soup_is_the_mean_of_the_weights_and_loads_as_a_start(ar, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a = _ckpt(ar, tmp_path / "a.pt", (3, 2), 1)
    b = _ckpt(ar, tmp_path / "b.pt", (3, 2), 2)
    out = tmp_path / "soup" / "last.pt"
    assert ar.main([str(tmp_path / "a.pt"), str(tmp_path / "b.pt"), "--out", str(out)]) == 0
    soup = torch.load(out, weights_only=False)
    assert soup["pool"] == [3, 2] and soup["averaged"] == [str(tmp_path / "a.pt"), str(tmp_path / "b.pt")]
    k = "tile.weight"
    assert torch.allclose(soup["model"][k], (a[k] + b[k]) / 2)
    ar.TileReader(pool=(3, 2)).load_state_dict(soup["model"])  # what train_reader.py --init loads


def test_other_architectures_and_a_single_checkpoint_are_refused(ar, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _ckpt(ar, tmp_path / "a.pt", (3, 2), 1)
    _ckpt(ar, tmp_path / "c.pt", (1, 1), 1)
    with pytest.raises(SystemExit, match="not the same architecture"):
        ar.main([str(tmp_path / "a.pt"), str(tmp_path / "c.pt"), "--out", str(tmp_path / "x.pt")])
    assert ar.main([str(tmp_path / "a.pt"), "--out", str(tmp_path / "x.pt")]) == 2
    assert ar.main([str(tmp_path / "a.pt"), str(tmp_path / "nope.pt"), "--out", str(tmp_path / "x.pt")]) == 2
    assert "no such checkpoint" in capsys.readouterr().err
