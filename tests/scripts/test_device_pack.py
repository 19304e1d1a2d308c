"""The accelerator's pack (scripts/device_pack.py): its size limit, what it holds, the documented
command; and the run's unpacking of it (scripts/device_run.py), which needs no torch."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.scripts.scriptutil import load_script
from tests.scripts.tiny_pack import make_inputs

ROOT = Path(__file__).resolve().parents[2]
MIB = 1 << 20

pytestmark = pytest.mark.slow  # a pack is a few hundred WebP encodings


@pytest.fixture(scope="module")
def dp():  # type: ignore[no-untyped-def]
    return load_script("device_pack")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_inputs(tmp_path_factory.mktemp("inputs"), photos=6, crops_per_kind=30)


def test_the_pack_limit_is_what_the_tree_leaves_under_the_carry_limit(dp) -> None:  # type: ignore[no-untyped-def]
    assert dp.pack_limit(4 * MIB) == 56 * MIB  # a small tree: the ceiling
    assert dp.pack_limit(30 * MIB) == 64 * MIB - 30 * MIB - dp.MARGIN
    assert dp.pack_limit(30 * MIB, 5 * MIB) == 5 * MIB  # asked for less: less
    with pytest.raises(dp.PackError, match="more than a run can carry"):
        dp.pack_limit(30 * MIB, 40 * MIB)
    with pytest.raises(dp.PackError, match="leaves no room"):
        dp.pack_limit(64 * MIB)


def test_the_tree_is_counted_as_the_run_tool_sends_it(dp) -> None:  # type: ignore[no-untyped-def]
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True)
    names = [n for n in tracked.stdout.decode().split("\0") if n and (ROOT / n).is_file()]
    at_least = sum((ROOT / n).stat().st_size for n in names)
    assert at_least > 10 * MIB  # the shipped models alone are over 10 MiB
    # each file costs the carry more than its bytes (the run tool refused a carry whose bytes fit)
    assert dp.tree_bytes() >= at_least + len(names) * dp.FILE_COST


def test_a_pack_stays_under_its_limit_and_lists_what_it_left_out(dp, inputs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "pack"
    limit = 0.06
    assert dp.main(inputs.argv(out, "--limit-mib", str(limit))) == 0
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files) + len(files) * dp.FILE_COST
    manifest = json.loads((out / "manifest.json").read_text())
    assert size <= limit * MIB and manifest["bytes"] == size
    assert manifest["limit_bytes"] == int(limit * MIB)
    cut = {e["what"] for e in manifest["left_out"] if e.get("why") == "budget"}
    assert cut, "a limit this small must leave something out, and say so"
    packed = manifest["reader"]
    for kind in ("scene", "none", "synthetic"):
        assert (
            packed[kind]["packed"]
            + next(e["count"] for e in manifest["left_out"] if e["what"] == f"reader crops ({kind})")
            == packed[kind]["available"]
        )


def test_a_roomy_pack_holds_every_input_in_its_parts(dp, inputs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "pack"
    assert dp.main(inputs.argv(out, "--limit-mib", "5")) == 0
    m = json.loads((out / "manifest.json").read_text())
    assert m["detector"]["train"]["real photos"] == 6 and m["detector"]["val"]["real photos"] == 1
    assert sum(v for k, v in m["detector"]["train"].items() if k.startswith("generated")) == 3
    assert m["wheels"] == ["devrun_fake_pkg-0.1-py3-none-any.whl"]
    assert (out / "wheels" / m["wheels"][0]).is_file()
    assert [e for e in m["left_out"] if e.get("why") == "budget"] == []
    assert len(list((out / "det" / "images" / "train").glob("real_*.webp"))) == 6
    crops = np.load(out / "reader" / "crops.npz")
    assert len(crops["offsets"]) == len(crops["label"]) + 1 == 30 + 30 + 30 + 1
    assert tuple(crops["kinds"]) == ("scene", "none", "synthetic")
    first = crops["encoded"][crops["offsets"][0] : crops["offsets"][1]].tobytes()
    assert first[:4] == b"RIFF" and first[8:12] == b"WEBP"


def test_wheels_over_the_limit_leave_no_pack_and_one_line(dp, inputs, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from tests.scripts.tiny_pack import fake_wheel

    big = tmp_path / "big"
    fake_wheel(big, pad=300_000)  # filler compresses; still over 0.01 MiB
    out = tmp_path / "pack"
    argv = inputs.argv(out, "--limit-mib", "0.01")
    argv[argv.index("--wheels") + 1] = str(big)
    assert dp.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: the wheels alone") and "\n" not in err
    assert not out.exists()


def test_a_folder_that_is_not_a_pack_is_never_cleared(dp, inputs, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert dp.main(inputs.argv(out, "--limit-mib", "1")) == 2
    assert "not a pack" in capsys.readouterr().err
    assert (out / "notes.txt").read_text() == "keep me"


def test_the_run_unpacks_what_the_trainers_read(dp, inputs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """No torch here: the unpacking is plain files, read back with the trainer's own listers."""
    ri = load_script("reader_items")
    dr = load_script("device_run")
    pack, work = tmp_path / "pack", tmp_path / "work"
    assert dp.main(inputs.argv(pack, "--limit-mib", "5")) == 0
    counts = dr.unpack_reader(pack, work)
    assert counts == {"scene": 30, "none": 30, "synthetic": 30}
    synth = ri.folder_items(work / "reader" / "synth" / "train")
    source = ri.folder_items(inputs.synth_crops / "train")
    assert sorted((c, u) for _, c, u in synth) == sorted((c, u) for _, c, u in source)
    scene = ri.real_scene_items(work / "reader" / "real" / "cls")
    assert sorted((c, u) for _, c, u in scene) == sorted(
        (c, u) for _, c, u in ri.real_scene_items(inputs.real_crops)
    )
    assert len(ri.none_items(work / "reader" / "real" / "cls")) == 30

    made = dr.unpack_detector(
        pack, work, {"rows": 1, "far": 1.0, "seat": 1.0, "turn": 1.0}, workers=2, seed=0
    )
    assert made["from the pack"] == 6 + 3 and made["val images"] == 1
    reframed = made["re-framed from real photos"]
    assert (reframed["crop"], reframed["far"], reframed["seat"]) == (6, 6, 6)
    assert reframed.get("turn90", 0) + reframed.get("turn180", 0) == 6
    assert made["real photos not re-framed (loose labels)"] == 0
    listed = (work / "det" / "train.txt").read_text().split()
    assert len(listed) == made["train images"] == 9 + 24
    for image in listed:  # each picture has its labels where ultralytics looks for them
        label = Path(image.replace("/images/", "/labels/")).with_suffix(".txt")
        assert label.is_file() and label.read_text().strip(), image


def _call(text: str) -> dict[str, str]:
    """The ``command:``/``carry:``/``timeout_s:`` lines of a documented call."""
    return {k: v.strip() for k, v in re.findall(r"^\s*(command|carry|timeout_s):\s*(.+)$", text, re.M)}


def test_the_documented_call_fits_the_run_tool() -> None:
    readme = _call((ROOT / "models" / "README.md").read_text(encoding="utf-8"))
    doc = _call(load_script("device_run").__doc__)
    assert readme == doc and set(readme) == {"command", "carry", "timeout_s"}
    assert len(readme["command"]) <= 2000
    carry = json.loads(readme["carry"])
    assert 1 <= len(carry) <= 8 and all(len(c) <= 200 for c in carry)
    for path in carry:  # carried folders are ignored: they travel once, and are never committed
        ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", path])
        assert ignored.returncode == 0, f"{path} is not ignored by git"
    dr = load_script("device_run")
    budget = dr.parse([]).budget
    assert budget + 30 <= int(readme["timeout_s"]) <= 600  # the run stops itself before the tool does


def test_the_run_refuses_bad_input_in_one_line_and_keeps_the_users_files(dp, inputs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_py = [sys.executable, str(ROOT / "scripts" / "device_run.py")]

    def run(*argv: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
        return subprocess.run([*run_py, *argv], capture_output=True, text=True, timeout=60)

    out = tmp_path / "OUT"
    missing = run("--pack", str(tmp_path / "nothing"), "--out", str(out))
    assert missing.returncode == 2 and missing.stderr.startswith("error: no pack at")
    pack = tmp_path / "pack"
    assert dp.main(inputs.argv(pack, "--limit-mib", "1")) == 0
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("keep me")
    refused = run("--pack", str(pack), "--out", str(out), "--work", str(mine))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert (mine / "thesis.tex").read_text() == "keep me"


def test_what_comes_back_fits_the_run_tool_in_parts_if_need_be(tmp_path: Path) -> None:
    """A larger detector (YOLO11s: 38 MB ONNX, 18 MiB checkpoint, measured on the CPU smoke run)
    comes back as its checkpoint in parts; its ONNX stays behind (export it here)."""
    dr = load_script("device_run")
    made = tmp_path / "made"
    made.mkdir()
    sizes = {"detector.onnx": 3800, "detector.pt": 1800, "detector-results.csv": 10, "reader.onnx": 130}
    sizes["reader.pt"] = 400
    rng = np.random.default_rng(0)
    for name, n in sizes.items():
        (made / name).write_bytes(rng.integers(0, 256, n, dtype=np.uint8).tobytes())
    out = tmp_path / "OUT"
    out.mkdir()
    log = dr.Log(tmp_path / "log" / "run.log")
    files = {name: made / name for name in [*sizes, "missing.onnx"]}
    kept = dr.collect(files, out, log, max_file=1000, max_files=8)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        ["detector.pt.part0", "detector.pt.part1", "detector-results.csv", "reader.onnx", "reader.pt"]
    )
    assert len(names) + 2 <= 8 and all(p.stat().st_size <= 1000 for p in out.iterdir())
    joined = b"".join((out / f"detector.pt.part{k}").read_bytes() for k in range(2))
    assert joined == (made / "detector.pt").read_bytes() and kept["detector.pt"] == 1800
    assert "detector.onnx" not in kept
    said = (tmp_path / "log" / "run.log").read_text()
    assert "not made: missing.onnx" in said and "left behind: detector.onnx" in said
    roomy = tmp_path / "roomy"
    roomy.mkdir()
    assert set(dr.collect(files, roomy, log)) == set(sizes)  # the 16 MiB default: all whole
    assert sorted(p.name for p in roomy.iterdir()) == sorted(sizes)
