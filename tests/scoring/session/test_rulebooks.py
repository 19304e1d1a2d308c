"""The session rulebooks: one per rule system behind one interface, and an engine that only walks
the rows (issue 35 item 4)."""

from __future__ import annotations

import ast
from pathlib import Path

from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS
from mahjong_camera_scorer.scoring.session.engine import SEVERAL_WINNERS, TABLE_SYSTEMS
from mahjong_camera_scorer.scoring.session.rulebook import Rulebook
from mahjong_camera_scorer.scoring.session.rulebooks import RULEBOOKS, rulebook
from mahjong_camera_scorer.scoring.session.seats import ROTATIONS

ROOT = Path(__file__).resolve().parents[3]


def test_every_rule_system_has_its_rulebook_and_rotation() -> None:
    assert set(RULEBOOKS) == set(RULE_SYSTEMS) == set(ROTATIONS)
    for name in RULE_SYSTEMS:
        book = rulebook(name)
        assert issubclass(book, Rulebook) and book.name == name


def test_the_engine_names_no_rule_system() -> None:
    # what a system says is its rulebook's: the engine walks rows and asks the table's rulebook
    tree = ast.parse((ROOT / "scoring" / "session" / "engine.py").read_text(encoding="utf-8"))
    named = sorted(
        {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in RULE_SYSTEMS}
    )
    assert named == []


def test_what_the_page_is_told_comes_from_the_rulebooks() -> None:
    assert set(TABLE_SYSTEMS) == {"australian", "classical"}
    assert set(SEVERAL_WINNERS) == {"riichi", "classical"}
