"""From the patterns an arrangement meets to its value: family rule, chicken hand, the 320 limit.

Seed REGOLE DI BASE:

* 4 *Regola additiva*: "Si possono conteggiare tutte le combinazioni contenute nella mano, anche
  se una implica un'altra, purché appartengano a serie differenti. Non si possono conteggiare più
  combinazioni della stessa serie" — with 3.1 counted per set. The summary table marks with ``↑``
  the patterns that supersede the lower ones of their series; series without an ``↑`` (9.1, 9.4,
  11.1, 11.2) hold patterns that never meet or that the seed counts per tile, so all of theirs add.
* 5: "A una mano che non contiene nessuna combinazione … viene assegnato 1 simbolico punto."
* 6: a sum ≥ 320 scores 320 (compound limit); a pattern listed at ≥ 320 scores alone, the single
  highest one (listed limit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mahjong_camera_scorer.scoring.i18n import msg, term_msg
from mahjong_camera_scorer.scoring.zung_jung.arrangement import Arrangement
from mahjong_camera_scorer.scoring.zung_jung.options import NAME
from mahjong_camera_scorer.scoring.zung_jung.patterns import LIMIT, PATTERNS, Pattern

CHICKEN_HAND = "Chicken Hand"
CHICKEN_POINTS = 1
BONUS_CATEGORY = 11


@dataclass(frozen=True)
class Valuation:
    """The value of one arrangement: counted elements (name → points), total and how it was reached."""

    total: int
    elements: dict[str, int]
    raw: int
    limit: str | None  # "listed", "compound" or None
    notes: tuple[str, ...] = field(default=())


def points(p: Pattern, options: Mapping[str, str]) -> int:
    """Listed points; category 11 halved on request ("dimezzare tutti i valori sopra elencati")."""
    if p.category == BONUS_CATEGORY and options["bonus_values"] == "half":
        return p.value // 2
    return p.value


def family_rule(met: list[tuple[Pattern, int]], options: Mapping[str, str]) -> list[tuple[Pattern, int]]:
    """Drop every pattern superseded by an ``↑`` pattern of its series (the table is in order)."""
    exclusive = {"11.2"} if options["four_flowers_and_seasons"] == "one" else set()
    kept: list[tuple[Pattern, int]] = []
    for p, n in met:
        if p.up or p.series in exclusive:
            kept = [(q, m) for q, m in kept if q.series != p.series]
        kept.append((p, n))
    return kept


def value_arrangement(arr: Arrangement, options: Mapping[str, str]) -> Valuation:
    met = family_rule([(p, n) for p in PATTERNS if (n := p.count(arr))], options)
    extra_bonus = options["bonus_points"] == "extra"
    bonus = [(p, n) for p, n in met if p.category == BONUS_CATEGORY] if extra_bonus else []
    if extra_bonus:
        met = [(p, n) for p, n in met if p.category != BONUS_CATEGORY]
    notes: list[str] = []
    for p, n in met:
        if p.name == "Value Honor":
            notes.append(msg("{name} x{n}", name=term_msg(NAME, p.name), n=n))
    listed = [p for p, _ in met if p.listed_limit]
    elements: dict[str, int]
    if not met:
        elements, raw, limit = {CHICKEN_HAND: CHICKEN_POINTS}, CHICKEN_POINTS, None
        notes.append(msg("No pattern: chicken hand, 1 symbolic point (seed REGOLE DI BASE 5)"))
        total = raw
    elif listed:
        top = max(listed, key=lambda p: p.value)
        raw = sum(points(p, options) * n for p, n in met)
        elements, total, limit = {top.name: top.value}, top.value, "listed"
        notes.append(
            msg(
                "Listed limit: only {name} ({value}) counts (seed REGOLE DI BASE 6)",
                name=term_msg(NAME, top.name),
                value=top.value,
            )
        )
    else:
        elements = _elements(met, options)
        raw = sum(elements.values())
        total, limit = min(raw, LIMIT), ("compound" if raw >= LIMIT else None)
        if limit:
            notes.append(
                msg("Compound limit: raw sum {raw} -> {limit} (seed REGOLE DI BASE 6)", raw=raw, limit=LIMIT)
            )
    if bonus:
        extra = _elements(bonus, options)
        elements.update(extra)
        total += sum(extra.values())
        notes.append(msg("Bonus tiles added after the limit (option {option})", option="bonus_points=extra"))
    return Valuation(total, elements, raw, limit, tuple(notes))


def _elements(met: list[tuple[Pattern, int]], options: Mapping[str, str]) -> dict[str, int]:
    return {p.name: points(p, options) * n for p, n in met}
