"""The page's per-system flag lists stay in sync with the scorers.

Every flag the page offers is fed to its scorer and must not be rejected (or ignored) as
unknown; every flag a scorer declares must be offered; the way of winning a flag needs is the
one the scorer checks.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS, score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.vision.classes import TILE_CLASSES
from mahjong_camera_scorer.vision.web.meta import FLAGS, PALETTE, meta

#: A hand each scorer accepts as a win (the Australian one must be "cleared": one suit + honours).
HANDS = {
    "riichi": "123m456p789s23455s",
    "mcr": "123m456p789s23455s",
    "zung-jung": "123m456p789s23455s",
    "classical": "123m456p789s23455s",
    "australian": "123456789m11155z",
}


def _score(rules: str, flag: str, win_by: str):
    data = {
        "hand": HANDS[rules],
        "winning_tile": "5z" if rules == "australian" else "5s",
        "win_by": win_by,
        "flags": [flag],
    }
    return score_hand(hand_from_dict(data), rules)


def _built(rules: str) -> bool:
    try:
        importlib.import_module(RULE_SYSTEMS[rules])
    except ImportError:
        return False
    return True


def test_every_system_has_a_flag_list() -> None:
    assert set(FLAGS) == set(RULE_SYSTEMS)


@pytest.mark.parametrize("rules,flag", [(r, f) for r, fs in FLAGS.items() for f in fs])
def test_each_listed_flag_is_known_to_its_scorer(rules: str, flag) -> None:
    if not _built(rules):
        pytest.skip(f"the {rules} scorer cannot be imported right now")
    score = _score(rules, flag.name, flag.win_by or "discard")
    text = (score.error or "") + " " + " ".join(score.notes)
    assert "unknown flag" not in text, text
    assert "no meaning" not in text, text
    if not flag.win_by:
        return
    if rules == "australian":
        return  # the Australian scorer does not check a flag's way of winning
    other = "discard" if flag.win_by == "self_draw" else "self_draw"
    wrong = _score(rules, flag.name, other)
    assert not wrong.valid and flag.name in (wrong.error or ""), (rules, flag.name, wrong.error)


def test_australian_flags_are_read_by_the_scorer() -> None:
    """The Australian scorer ignores unknown flags silently: check each listed one is read."""
    package = Path(importlib.import_module("mahjong_camera_scorer.scoring.australian").__file__).parent
    source = "".join(p.read_text() for p in package.glob("*.py"))
    for f in FLAGS["australian"]:
        assert f'"{f.name}"' in source, f.name


def test_no_flag_a_scorer_declares_is_missing() -> None:
    names = {r: {f.name for f in fs} for r, fs in FLAGS.items()}
    if _built("riichi"):
        from mahjong_camera_scorer.scoring.riichi import validate

        assert names["riichi"] == set(validate.FLAGS)
    if _built("mcr"):
        import mahjong_camera_scorer.scoring.mcr as mcr

        assert names["mcr"] == set(mcr.FLAGS)
        assert {f.name: f.win_by for f in FLAGS["mcr"]} == dict(mcr.FLAGS)
    if _built("zung-jung"):
        from mahjong_camera_scorer.scoring.zung_jung import scorer as zj

        assert {f.name: f.win_by for f in FLAGS["zung-jung"]} == zj.FLAG_WIN_BY
    if _built("classical"):
        from mahjong_camera_scorer.scoring.classical import doubles, hands

        assert names["classical"] == set(doubles.FLAGS)
        need = {f.name: f.win_by for f in FLAGS["classical"] if f.win_by}
        assert need == hands.FLAG_WIN_BY


def test_meta_lists_systems_options_and_the_whole_palette() -> None:
    m = meta()
    assert [s["name"] for s in m["systems"]] == list(RULE_SYSTEMS)
    assert [t["code"] for t in PALETTE] == list(TILE_CLASSES)
    assert all(t["glyph"] and t["name"] for t in m["palette"])
    riichi = next(s for s in m["systems"] if s["name"] == "riichi")
    assert {f["name"] for f in riichi["fields"]} >= {"dora_indicators", "honba"}
    assert any(o["name"] == "red_fives" for o in riichi["options"]) or not _built("riichi")
