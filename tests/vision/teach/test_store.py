"""Taught sets on disk and in one exported file (vision.teach.profile, vision.teach.store)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.vision.teach import store as store_module
from mahjong_camera_scorer.vision.teach.profile import Example, SetError, TileSet, check_name
from mahjong_camera_scorer.vision.teach.store import MAX_CROP_BYTES, SetStore, read_export


def _crop(value: int) -> np.ndarray:
    rng = np.random.default_rng(value)
    return rng.integers(0, 255, (96, 96, 3), dtype=np.uint8)


def _set(name: str = "club", n: int = 3) -> TileSet:
    return TileSet(name, [Example(f"{k + 1}m", _crop(k), source=f"p{k}.jpg") for k in range(n)])


def test_save_load_round_trip(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    ts = _set()
    store.save(ts)
    back = store.load("club")
    assert [e.meta() for e in back.examples] == [e.meta() for e in ts.examples]
    assert all(np.array_equal(a.crop, b.crop) for a, b in zip(back.examples, ts.examples, strict=True))
    assert store.names() == ["club"] and back.codes() == {"1m": 1, "2m": 1, "3m": 1}


def test_set_json_never_names_a_missing_crop(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    ts = _set()
    store.save(ts)
    gone = ts.remove([ts.examples[0].id])
    ts.add([Example("9p", _crop(9))])
    store.save(ts)
    folder = tmp_path / "club"
    named = {e["id"] for e in json.loads((folder / "set.json").read_text())["examples"]}
    files = {p.stem for p in (folder / "crops").glob("*.png")}
    assert named == files and gone[0].id not in files


def test_a_failed_write_keeps_the_old_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SetStore(tmp_path)
    store.save(_set(n=2))
    ts = store.load("club")
    ts.add([Example("5z", _crop(5))])
    real = store_module._write_atomic

    def disk_full(path: Path, data: bytes) -> None:
        if path.name == "set.json":
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(store_module, "_write_atomic", disk_full)
    with pytest.raises(SetError, match="No space left"):
        store.save(ts)
    monkeypatch.undo()
    assert len(store.load("club")) == 2


def test_missing_set_names_the_sets_there_are(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    store.save(_set("home"))
    with pytest.raises(SetError, match=r"no taught set 'club'.*sets: home"):
        store.load("club")


@pytest.mark.parametrize("name", ["", "../x", "a/b", " lead", "x" * 65, ".hidden", "tab\tname"])
def test_bad_names(name: str) -> None:
    with pytest.raises(SetError, match="bad set name"):
        check_name(name)


def test_examples_refuse_unknown_codes_and_ids() -> None:
    with pytest.raises(SetError, match="not a tile code"):
        Example("8z", _crop(0))
    with pytest.raises(SetError, match="bad example id"):
        Example("1m", _crop(0), id="../../etc")
    ts = _set()
    with pytest.raises(SetError, match="no taught tile"):
        ts.remove(["abcdef", ts.examples[0].id])
    assert len(ts) == 3


def test_remove_set(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    store.save(_set())
    store.remove("club")
    assert store.names() == [] and not (tmp_path / "club").exists()
    with pytest.raises(SetError):
        store.remove("club")


def test_export_import_round_trip(tmp_path: Path) -> None:
    store = SetStore(tmp_path / "a")
    store.save(_set())
    path = store.export("club", tmp_path / "club.mjset")
    ts = read_export(path)
    assert ts.name == "club" and [e.code for e in ts.examples] == ["1m", "2m", "3m"]
    other = SetStore(tmp_path / "b")
    other.save(ts)
    assert np.array_equal(other.load("club").examples[2].crop, _crop(2))


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _doc(**over: object) -> bytes:
    doc = {"format": "mahjong-score tile set", "version": 1, "name": "club", "examples": []}
    doc.update(over)
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("members", "words"),
    [
        ({"x.txt": b"hi"}, "no set.json"),
        ({"set.json": b"{"}, "not valid JSON"),
        ({"set.json": b"[1]"}, "is not a mahjong-score tile set"),
        ({"set.json": _doc(version=2)}, "version 2"),
        ({"set.json": _doc(examples=[{"id": "abcd", "code": "1m"}])}, "is missing"),
        ({"set.json": _doc(examples=[{"id": "abcd", "code": "9z"}]), "crops/abcd.png": b"x"}, "not an image"),
        ({"set.json": _doc(name="../etc")}, "bad set name"),
        ({"set.json": _doc(examples="many")}, "must be a list"),
        ({"set.json": _doc(examples=[{"id": "abab", "code": "1m"}] * 2)}, "share an id"),
        (
            {
                "set.json": _doc(examples=[{"id": "abcd", "code": "1m"}]),
                "crops/abcd.png": b"\0" * (MAX_CROP_BYTES + 1),
            },
            "too large",
        ),
    ],
)
def test_import_checks_every_member(tmp_path: Path, members: dict[str, bytes], words: str) -> None:
    with pytest.raises(SetError, match=words):
        read_export(_zip(tmp_path / "s.mjset", members))


def test_import_refuses_non_zip_and_missing(tmp_path: Path) -> None:
    (tmp_path / "s.mjset").write_bytes(b"not a zip")
    with pytest.raises(SetError, match="not a zip"):
        read_export(tmp_path / "s.mjset")
    with pytest.raises(SetError, match="no such file"):
        read_export(tmp_path / "none.mjset")


def test_unknown_codes_in_an_import_are_refused(tmp_path: Path) -> None:
    import cv2

    png = cv2.imencode(".png", _crop(1))[1].tobytes()
    path = _zip(
        tmp_path / "s.mjset",
        {"set.json": _doc(examples=[{"id": "abcd", "code": "9z"}]), "crops/abcd.png": png},
    )
    with pytest.raises(SetError, match="not a tile code"):
        read_export(path)


def _patched_zip(path: Path, patch: str) -> Path:
    """An exported set whose crop member is broken one way (the probe's hostile zips)."""
    import cv2

    png = cv2.imencode(".png", _crop(1))[1].tobytes()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("set.json", _doc(examples=[{"id": "abcd", "code": "1m"}]))
        z.writestr("crops/abcd.png", png)
    data = bytearray(path.read_bytes())
    local = data.rfind(b"PK\x03\x04")  # the crop's local header (written last)
    central = data.rfind(b"PK\x01\x02")
    if patch == "corrupt":
        start = local + 30 + int.from_bytes(data[local + 26 : local + 28], "little")
        data[start : start + 64] = b"\xff" * 64
    elif patch == "encrypted":
        data[local + 6] |= 1
        data[central + 8] |= 1
    else:  # an unknown compression method
        data[local + 8 : local + 10] = (99).to_bytes(2, "little")
        data[central + 10 : central + 12] = (99).to_bytes(2, "little")
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("patch", "words"),
    [("corrupt", "corrupt"), ("encrypted", "encrypted"), ("method", "compression")],
)
def test_import_of_a_broken_zip_is_a_clear_error(tmp_path: Path, patch: str, words: str) -> None:
    with pytest.raises(SetError, match=words):
        read_export(_patched_zip(tmp_path / "s.mjset", patch))
