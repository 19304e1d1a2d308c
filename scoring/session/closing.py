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

Shares stay exact (:class:`fractions.Fraction`) through the closing and the ranking over sessions;
only what is shown is written as a number (whole numbers whole). Where tournaments differ the
session's ``settings`` choose (:data:`SETTINGS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from mahjong_camera_scorer.scoring.fields import show
from mahjong_camera_scorer.scoring.session.model import SessionError
from mahjong_camera_scorer.scoring.session.numbers import whole_number

MCR_TABLE_POINTS = (4, 2, 1, 0)
#: the session's settings, where the seeds are silent or tournaments differ: name → (rules, default,
#: what it says). ``ties``: tied MCR players share the points of the places they hold (spec [rec]
#: A27) or each takes the higher place's points; ``oka``: a riichi bonus to the first placed, paid a
#: quarter by each player (seed 001 is silent: 0)
SETTINGS: dict[str, tuple[str, str, str]] = {
    "ties": ("mcr", "share", "share | higher"),
    "oka": ("riichi", "0", "a whole multiple of 4, 0 to 1,000,000"),
}
#: the largest oka: tournaments give 20,000 (4 x 30,000 returned - 4 x 25,000 dealt); far above it
#: is a typing error, and a bonus of 4e26 is no setting
MAX_OKA = 1_000_000


def check_settings(settings: Mapping[str, str], rules: str | None = None) -> None:
    """Each setting known, for these rules, with a value it can take; :class:`SessionError` if not."""
    for name, value in settings.items():
        if name not in SETTINGS:
            raise SessionError(f"settings: unknown setting {show(name)} (settings: {', '.join(SETTINGS)})")
        system, _, allowed = SETTINGS[name]
        if rules is not None and rules != system:
            raise SessionError(f"settings.{name} is a {system} setting, not {rules}'s")
        if name == "ties" and value not in ("share", "higher"):
            raise SessionError(f"settings.ties: {allowed}, not {show(value)}")
        if name == "oka":
            oka = whole_number(value, "settings.oka", 0, MAX_OKA)
            if oka is None or oka % 4:
                raise SessionError(f"settings.oka: {allowed}, not {show(value)}")


def setting(settings: Mapping[str, str], name: str) -> str:
    return settings.get(name, SETTINGS[name][1])


RIICHI_UMA = (30000, 10000, -10000, -30000)
SUBSTITUTE_UMA = -30000


def shared_by_rank(
    scores: Mapping[str, int], prizes: Sequence[int], ties: str = "share"
) -> dict[str, Fraction]:
    """Each player's prize for his place; tied players share the prizes of the places they hold
    (``ties="higher"``: each takes the best of them)."""
    order = sorted(scores, key=lambda p: -scores[p])
    out: dict[str, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = Fraction(prizes[i]) if ties == "higher" else Fraction(sum(prizes[i : j + 1]), j - i + 1)
        for p in order[i : j + 1]:
            out[p] = share
        i = j + 1
    return out


def number(x: Fraction | int | float) -> int | float:
    """An exact share as the sheet writes it: 3, or 2.5 (1/3 points are shown to 0.01; the sums
    over sessions are made on the exact values)."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else round(float(x), 2)
    return x


def shown(values: Mapping[str, Any]) -> dict[str, Any]:
    """A closing's values as written (whole numbers whole)."""
    return {k: number(v) for k, v in values.items()}


def exact(value: Any) -> Fraction:
    """A value from a sheet's JSON back to its exact form ("7/3", 3, 2.5)."""
    return Fraction(str(value))


def close_mcr(
    totals: Mapping[str, int], disqualified: set[str], settings: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Seed 000 App. B; a disqualified player gets no table points (E 2.3: "non riceverà punti
    tavolo") and the others keep the points of the places they hold among all four."""
    points = shared_by_rank(totals, MCR_TABLE_POINTS, setting(settings or {}, "ties"))
    return {
        "mini_punti": dict(totals),
        "table_points": {p: Fraction(0) if p in disqualified else points[p] for p in totals},
    }


def close_riichi(
    totals: Mapping[str, int],
    sticks: int,
    substitutes: Mapping[str, str],
    disqualified: set[str],
    settings: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    points: dict[str, int] = dict(totals)
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
    oka = int(setting(settings or {}, "oka"))
    # oka: the first placed takes it, each player paying a quarter; tied firsts share it
    firsts = [p for p in points if points[p] == points[order[0]]]
    exact_points = {
        p: Fraction(v) + (Fraction(oka, len(firsts)) * (p in firsts) - Fraction(oka, 4) if oka else 0)
        for p, v in points.items()
    }
    recorded_points = {p: Fraction(0) if p in substitutes else v for p, v in exact_points.items()}
    recorded_uma = {p: Fraction(SUBSTITUTE_UMA) if p in substitutes else uma[p] for p in points}
    return {
        "points": recorded_points,
        "uma": recorded_uma,
        "final": {p: recorded_points[p] + recorded_uma[p] for p in points},
        "leftover_sticks": sticks,
        "leftover_sticks_to": leftover_to,
        "oka": oka,
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
            number_ = _number_of(sheet, name)
            # players are told apart by their number (two Annas, 101 and 999, are two players)
            row = acc.setdefault(
                player_key(name, number_),
                {"player": name, "sessions": 0, "disqualified": False, "number": number_},
            )
            row["sessions"] += 1
            if system == "mcr":
                exact_points = closing.get("table_points_exact", closing["table_points"])
                row["table_points"] = row.get("table_points", 0) + exact(exact_points[name])
                row["mini_punti"] = row.get("mini_punti", 0) + closing["mini_punti"][name]
            elif system == "riichi":
                for field in ("points", "uma", "final"):
                    values = closing.get(f"{field}_exact", closing[field])
                    row[field] = row.get(field, 0) + exact(values[name])
                row["disqualified"] |= name in closing.get("disqualified", [])
            else:
                row["total"] = row.get("total", 0) + sheet["totals"][name]

    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        if system == "mcr":
            return (-r["table_points"], -r["mini_punti"])
        if system == "riichi":
            return (r["disqualified"], -r["final"])
        return (-r["total"],)

    rows = sorted(acc.values(), key=lambda r: (key(r), r["player"], r["number"]))
    for i, r in enumerate(rows):
        r["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(r) else i + 1
    return rows


def player_key(name: str, number: str) -> str:
    """Who a player is across sessions: his number when the sheets give one, else his name."""
    return f"#{number}" if number else name


def _number_of(sheet: Mapping[str, Any], name: str) -> str:
    return next((str(p.get("number") or "") for p in sheet.get("players", []) if p.get("name") == name), "")


def ranking_json(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ranking as JSON: values as shown, and the exact one beside each that is not whole."""
    out = []
    for r in rows:
        doc: dict[str, Any] = {k: number(v) for k, v in r.items()}
        doc.update(
            {f"{k}_exact": str(v) for k, v in r.items() if isinstance(v, Fraction) and v.denominator != 1}
        )
        out.append(doc)
    return out
