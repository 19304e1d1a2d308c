"""How each system closes a session and ranks players across tables and sessions.

* MCR (seed 000 App. B; spec mcr §5.3, §6.3): *Mini Punti* are the final totals (penalties
  included); *Punti Tavolo* 4/2/1/0 by Mini Punti, tied players sharing the points of the places
  they hold ((4+2)/2 = 3 each, the spec's [rec] for A27); a disqualified player gets none.
  Ranking: table points, then Mini Punti.
* EMA Riichi (seed 001 §3.6.1, §5.7; spec §5.8, §7.6, A9): points are net deltas from 0; sticks left
  on the table go to the first-placed player (a tie for first is unresolved, fn 14: they stay
  unassigned and the sheet says so); uma +30,000 / +10,000 / −10,000 / −30,000, ties sharing;
  a substitute is recorded with 0 points and −30,000 uma, his points count for the others' uma when
  he played from the start, and he counts as 4th when he joined later. Ranking: points with uma;
  disqualified players last.
* Zung Jung, Australian, Classical: the totals, and the ranking by total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

MCR_TABLE_POINTS = (4, 2, 1, 0)
RIICHI_UMA = (30000, 10000, -10000, -30000)
SUBSTITUTE_UMA = -30000


def shared_by_rank(scores: Mapping[str, int], prizes: Sequence[int]) -> dict[str, Fraction]:
    """Each player's prize for his place; tied players share the prizes of the places they hold."""
    order = sorted(scores, key=lambda p: -scores[p])
    out: dict[str, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = Fraction(sum(prizes[i : j + 1]), j - i + 1)
        for p in order[i : j + 1]:
            out[p] = share
        i = j + 1
    return out


def number(x: Fraction) -> int | float:
    """An exact share as the sheet writes it: 3, or 2.5 (1/3 points are rounded to 0.01)."""
    return int(x) if x.denominator == 1 else round(float(x), 2)


def close_mcr(totals: Mapping[str, int], disqualified: set[str]) -> dict[str, Any]:
    points = shared_by_rank(totals, MCR_TABLE_POINTS)
    return {
        "mini_punti": dict(totals),
        "table_points": {p: 0 if p in disqualified else number(points[p]) for p in totals},
    }


def close_riichi(
    totals: Mapping[str, int], sticks: int, substitutes: Mapping[str, str], disqualified: set[str]
) -> dict[str, Any]:
    points = dict(totals)
    leftover_to = None
    order = sorted(points, key=lambda p: -points[p])
    if sticks and points[order[0]] != points[order[1]]:
        leftover_to = order[0]
        points[leftover_to] += 1000 * sticks
    joined = [p for p, how in substitutes.items() if how == "joined"]
    if joined:  # a substitute who joined mid-session is 4th whatever his score (§5.7)
        rest = {p: v for p, v in points.items() if p not in joined}
        uma = shared_by_rank(rest, RIICHI_UMA[: len(rest)])
    else:
        uma = shared_by_rank(points, RIICHI_UMA)
    recorded_points = {p: 0 if p in substitutes else v for p, v in points.items()}
    recorded_uma = {p: SUBSTITUTE_UMA if p in substitutes else number(uma[p]) for p in points}
    return {
        "points": recorded_points,
        "uma": recorded_uma,
        "final": {p: recorded_points[p] + recorded_uma[p] for p in points},
        "leftover_sticks": sticks,
        "leftover_sticks_to": leftover_to,
        "substitutes": dict(substitutes),
        "disqualified": sorted(disqualified),
    }


def ranking(sheets: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Players across tables and sessions, best first, from sheets' JSON (:func:`.output.sheet_json`)."""
    if not sheets:
        return []
    rules = {s["rules"] for s in sheets}
    if len(rules) != 1:
        raise ValueError(f"a ranking is for one rule system, these sheets mix {sorted(rules)}")
    system = rules.pop()
    acc: dict[str, dict[str, Any]] = {}
    for sheet in sheets:
        closing = sheet["closing"]
        for name in sheet["totals"]:
            row = acc.setdefault(name, {"player": name, "sessions": 0, "disqualified": False})
            row["sessions"] += 1
            if system == "mcr":
                row["table_points"] = row.get("table_points", 0) + closing["table_points"][name]
                row["mini_punti"] = row.get("mini_punti", 0) + closing["mini_punti"][name]
            elif system == "riichi":
                for field in ("points", "uma", "final"):
                    row[field] = row.get(field, 0) + closing[field][name]
                row["disqualified"] |= name in closing.get("disqualified", [])
            else:
                row["total"] = row.get("total", 0) + sheet["totals"][name]

    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        if system == "mcr":
            return (-r["table_points"], -r["mini_punti"])
        if system == "riichi":
            return (r["disqualified"], -r["final"])
        return (-r["total"],)

    rows = sorted(acc.values(), key=lambda r: (key(r), r["player"]))
    for i, r in enumerate(rows):
        r["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(r) else i + 1
    return rows
