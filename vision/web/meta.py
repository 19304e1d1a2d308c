"""What the page needs to ask for what a photo cannot show: per rule system, its situation flags,
its extra context fields and its options; and the palette of tiles a player can correct to.

The flag lists mirror the scorers' own validation (riichi ``validate.FLAGS``, MCR ``FLAGS``,
Zung Jung ``FLAG_WIN_BY``, classical ``doubles.FLAGS``, the flags the Australian scorer reads);
``tests/vision/web/test_meta.py`` feeds every listed flag to its scorer and checks that none is
rejected or ignored as unknown, and that no flag a scorer declares is missing here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS, RulesNotBuilt, options_of
from mahjong_camera_scorer.vision.classes import TILE_CLASSES
from mahjong_camera_scorer.vision.render.page import tile_info


@dataclass(frozen=True)
class Flag:
    """One situation flag: its name in the structured form, a label, and the win it needs."""

    name: str
    label: str
    win_by: str = ""  # "", "discard" or "self_draw"
    help: str = ""


_LAST_TILE = Flag(
    "last_tile", "Last tile of the wall", "self_draw", "won on the last tile drawn from the wall"
)
_LAST_DISCARD = Flag("last_discard", "Last discard", "discard", "won on the very last discard")
_KONG_REPL = Flag("kong_replacement", "Kong replacement", "self_draw", "won on the tile drawn after a kong")
_ROB_KONG = Flag("robbing_kong", "Robbing a kong", "discard", "won on a tile another player added to a pung")
_FLOWER_REPL = Flag(
    "flower_replacement", "Flower replacement", "self_draw", "won on the tile drawn after a flower"
)
_LAST_OF_KIND = Flag(
    "last_of_kind", "Last of its kind", "", "the other three of the winning tile were visible"
)
_HEAVENLY = Flag("heavenly", "Heavenly hand", "self_draw", "East won on the dealt tiles")
_EARTHLY = Flag("earthly", "Earthly hand", "", "won on East's first discard (or own first draw)")

#: The flags each rule system understands, in the order the page shows them.
FLAGS: dict[str, tuple[Flag, ...]] = {
    "riichi": (
        Flag("riichi", "Riichi", "", "the winner declared riichi"),
        Flag("double_riichi", "Double riichi", "", "riichi declared on the first turn"),
        Flag("ippatsu", "Ippatsu", "", "won within one go-around after riichi"),
        Flag("last_tile", "Haitei (last tile)", "self_draw", "won on the last tile of the wall"),
        Flag("last_discard", "Houtei (last discard)", "discard", "won on the last discard"),
        Flag("kong_replacement", "Rinshan (kong replacement)", "self_draw", "won on the replacement tile"),
        Flag("robbing_kong", "Chankan (robbing a kong)", "discard", "won on a tile added to a kong"),
        Flag("heavenly", "Tenhou (heavenly)", "self_draw", "dealer won on the dealt tiles"),
        Flag("earthly", "Chiihou (earthly)", "self_draw", "non-dealer won on the first draw"),
        Flag("human", "Renhou (human)", "discard", "won on a discard before one's first draw"),
        Flag("nagashi_mangan", "Nagashi mangan", "", "all discards terminals/honours, none claimed"),
    ),
    "mcr": (_LAST_TILE, _LAST_DISCARD, _KONG_REPL, _ROB_KONG, _FLOWER_REPL, _LAST_OF_KIND),
    "zung-jung": (
        _LAST_TILE,
        _LAST_DISCARD,
        _KONG_REPL,
        _ROB_KONG,
        _HEAVENLY,
        Flag("earthly", "Earthly hand", "discard", "won on East's very first discard"),
    ),
    "australian": (
        _KONG_REPL,
        Flag(
            "bonus_replacement", "Bonus tile replacement", "self_draw", "won on the tile drawn after a bonus"
        ),
        _ROB_KONG,
        _LAST_TILE,
        _HEAVENLY,
        Flag("earthly", "Earthly hand", "discard", "won on East's first discard"),
        Flag("first_discard_of_east_claimed", "Claimed East's first discard", "", ""),
        Flag("goulash", "Goulash hand", "", "a hand of the goulash round"),
    ),
    "classical": (
        _KONG_REPL,
        _FLOWER_REPL,
        _ROB_KONG,
        _LAST_DISCARD,
        _LAST_TILE,
        _LAST_OF_KIND,
        Flag("within_15", "Within 15 discards", "", "won before the 15th discard (when not computed)"),
        Flag("bottled", "Bottled (imbottigliato)", "", "four sets on the table, one tile in hand"),
        Flag("riichi", "Riichi (richi)", "", "declared ready"),
    ),
}

#: Context fields besides winds / win-by / flags, per system (the page shows an input for each).
EXTRA_FIELDS: dict[str, tuple[dict[str, str], ...]] = {
    "riichi": (
        {"name": "dora_indicators", "label": "Dora indicators", "kind": "tiles"},
        {"name": "ura_dora_indicators", "label": "Ura-dora indicators", "kind": "tiles"},
        {"name": "honba", "label": "Honba", "kind": "int"},
        {"name": "riichi_sticks", "label": "Riichi sticks", "kind": "int"},
    ),
}

SYSTEM_LABELS: dict[str, str] = {
    "riichi": "Riichi (EMA)",
    "mcr": "Chinese Official (MCR)",
    "zung-jung": "Zung Jung",
    "australian": "Australian",
    "classical": "Classical Italian",
}


PALETTE: tuple[dict[str, Any], ...] = tuple(tile_info(c) for c in TILE_CLASSES)


def _options(rules: str) -> list[dict[str, Any]]:
    try:
        table = options_of(rules)
    except (RulesNotBuilt, ImportError):  # a scorer missing or broken must not take the page down
        return []
    return [
        {
            "name": o.name,
            "default": o.default,
            "choices": list(o.choices) if o.choices else None,
            "words": list(o.words),
            "help": o.help,
        }
        for o in table.values()
    ]


def meta() -> dict[str, Any]:
    """Everything ``GET /api/meta`` returns."""
    return {
        "systems": [
            {
                "name": name,
                "label": SYSTEM_LABELS.get(name, name),
                "flags": [asdict(f) for f in FLAGS.get(name, ())],
                "fields": list(EXTRA_FIELDS.get(name, ())),
                "options": _options(name),
            }
            for name in RULE_SYSTEMS
        ],
        "winds": ["E", "S", "W", "N"],
        "win_by": ["discard", "self_draw"],
        "palette": list(PALETTE),
    }
