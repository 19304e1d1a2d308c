"""A bounded fuzzer for image files: small PNG, JPEG, TIFF, GIF, WebP and BMP files, their bytes
flipped, their header fields set to extreme values, cut short or padded, go through
:func:`vision.images.decode_image` (the web's decode) and :func:`vision.images.load_photo` (the
command line's and the pipeline's). Only the project's own :class:`PhotoError` may come out, an
image that comes out is within the pixel cap, and nothing tries a big allocation.

The fuzzing runs in a child process whose address space is capped a few hundred MB above what it
holds when it starts (``RLIMIT_AS``), with a pixel cap of 1 megapixel: a decode that believed a
lying header would need far more, and OpenCV's "Insufficient memory" (which the decoder would
otherwise report as a corrupt file) is counted as a failure. Seeded: the same inputs every run.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_images import (
    bmp_claiming,
    gif_claiming,
    jpeg_claiming,
    jpeg_with_comments,
    png_16bit_claiming,
    png_claiming,
    progressive_jpeg_claiming,
    tiff_claiming,
    tiff_listing_twice,
    tiff_one_big_tile,
)

ROOT = Path(__file__).resolve().parents[2]
#: inputs per run (about 2 s) and the child's pixel cap and address-space headroom
ROUNDS = 3000
MAX_PIXELS = 1_000_000
HEADROOM = 400 << 20
#: fields worth setting in a header: zero, one, the largest of each width, and a sign flip
EXTREMES = (0, 1, 0x7F, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, 0x10000)


def seeds() -> list[bytes]:
    """Small valid files of every format the decoder takes (and a few that only claim a size)."""
    rng = np.random.default_rng(7)
    img = rng.integers(0, 255, (16, 24, 3), dtype=np.uint8)
    gray = img[:, :, 0]
    out = []
    for ext, params in (
        (".png", []),
        (".png", [cv2.IMWRITE_PNG_COMPRESSION, 0]),
        (".jpg", []),
        (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
        (".tif", []),
        (".tif", [cv2.IMWRITE_TIFF_COMPRESSION, 8]),  # deflate
        (".webp", []),
        (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),  # lossless
        (".bmp", []),
        (".gif", []),
    ):
        out.append(cv2.imencode(ext, img, params)[1].tobytes())
    out += [cv2.imencode(ext, gray)[1].tobytes() for ext in (".png", ".bmp", ".tif")]
    out += [png_claiming(64, 64), tiff_claiming(64, 64), tiff_claiming(64, 64, True)]
    out += [gif_claiming(64, 64), bmp_claiming(64, 64), jpeg_claiming(64, 64)]
    # the second probe's: one tile far larger than its image, 16-bit samples, a progressive frame
    out += [tiff_one_big_tile(), tiff_one_big_tile(64, 64, 256, bits=16), png_16bit_claiming(64, 64)]
    out += [progressive_jpeg_claiming(64, 64)]
    # round 3: a frame header behind long comments, a TIFF listing its size twice
    prog = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes()
    out += [jpeg_with_comments(prog, 70_000), jpeg_with_comments(progressive_jpeg_claiming(64, 64), 70_000)]
    out += [tiff_listing_twice((24, 16), (100, 100), (24, 16)), tiff_listing_twice((64, 64), (8, 8), (8, 8))]
    return out


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One hostile variant of ``data``: header bytes flipped or set to extremes, cut, padded."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        how = rng.random()
        head = min(len(b), 96)
        if how < 0.35 and b:  # flip a few bytes, mostly in the header
            for _ in range(rng.randint(1, 6)):
                i = rng.randrange(head) if rng.random() < 0.8 else rng.randrange(len(b))
                b[i] = rng.randrange(256)
        elif how < 0.65 and len(b) > 8:  # an extreme value in a 2- or 4-byte field
            width = rng.choice((2, 4))
            i = rng.randrange(max(1, min(len(b), 96) - width))
            value = rng.choice(EXTREMES) & ((1 << (8 * width)) - 1)
            b[i : i + width] = value.to_bytes(width, rng.choice(("little", "big")))
        elif how < 0.8:  # cut short
            del b[rng.randrange(len(b) + 1) :]
        elif how < 0.9:  # a piece repeated (a chunk or an IFD entry twice)
            i, j = sorted(rng.randrange(len(b) + 1) for _ in range(2))
            b[j:j] = b[i:j][:512]
        else:  # garbage after the magic bytes
            keep = rng.randint(2, 12)
            b = b[:keep] + bytearray(rng.randbytes(rng.randint(0, 300)))
    return bytes(b)


def _vm_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


def fuzz(seed: int, rounds: int, folder: str) -> dict:
    """Run in the child: every input through both decodes; what came out, by reason."""
    import resource

    import mahjong_camera_scorer.vision.images as images

    problems: list[str] = []
    real = cv2.imdecode

    def watched(buf, flags):  # type: ignore[no-untyped-def]
        try:
            return real(buf, flags)
        except cv2.error as exc:
            if "Insufficient memory" in str(exc) or "allocate" in str(exc):
                problems.append(f"a big allocation: {str(exc).strip().splitlines()[-1][:160]}")
            raise

    images.cv2.imdecode = watched  # type: ignore[attr-defined]
    images.decode_image(seeds()[0], MAX_PIXELS)  # warm up: OpenCV's pools before the cap
    resource.setrlimit(resource.RLIMIT_AS, (_vm_bytes() + HEADROOM, resource.RLIM_INFINITY))
    rng = random.Random(seed)
    pool = seeds()
    reasons: Counter[str] = Counter()
    path = Path(folder) / "photo.bin"
    for i in range(rounds):
        data = mutate(rng.choice(pool), rng)
        on_disk = i % 10 == 0
        try:
            if on_disk:  # the command line's road: the file read, then decoded
                path.write_bytes(data)
                image, factor = images.load_photo(path, max_pixels=MAX_PIXELS)
            else:
                image, factor = images.decode_image(data, MAX_PIXELS)
        except images.PhotoError as exc:
            reasons[exc.reason] += 1
            if len(str(exc)) > 300:
                problems.append(f"a long message ({len(str(exc))} chars) for {data[:40]!r}")
            continue
        except Exception as exc:  # the bug this looks for
            problems.append(f"{type(exc).__name__}: {str(exc)[:160]} for {data[:40]!r}")
            continue
        reasons["decoded"] += 1
        h, w = image.shape[:2]
        if h * w > MAX_PIXELS or min(h, w) < images.MIN_SIDE or factor < 1:
            problems.append(f"decoded {w}x{h} (factor {factor}) for {data[:40]!r}")
    return {"reasons": dict(reasons), "problems": problems[:20], "count": len(problems)}


@pytest.mark.slow
def test_mutated_image_files_give_only_clear_errors_and_no_big_allocation(tmp_path: Path) -> None:
    code = (
        "import json, sys; from tests.vision.test_fuzz_images import fuzz; "
        f"print(json.dumps(fuzz(20251125, {ROUNDS}, {str(tmp_path)!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["count"] == 0, result["problems"]
    reasons = result["reasons"]
    assert sum(reasons.values()) == ROUNDS
    # the fuzzer reaches every outcome: images decoded, corrupt files, lying headers, cut files
    for reason in ("decoded", "corrupt", "too_large", "not_image"):
        assert reasons.get(reason, 0) > 20, reasons


def test_the_seeds_are_images_the_decoder_reads() -> None:
    from mahjong_camera_scorer.vision.images import decode_image

    pool = seeds()
    for data in [*pool[:13], pool[-4], pool[-2]]:  # the round 3 seeds that are whole images too
        image, _ = decode_image(data)
        assert image.shape[:2] == (16, 24)
    rng = random.Random(1)
    variants = {mutate(seeds()[0], rng) for _ in range(50)}
    assert len(variants) > 40 and all(isinstance(v, bytes) for v in variants)
