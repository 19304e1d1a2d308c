"""The tournament's results as a federation imports them, and the tables a federation would refuse.

The layout is the EMA's results file as tournament software writes it for MCR and riichi: one row
per player, best first, with the columns :data:`EMA_COLUMNS`, UTF-8 with a byte-order mark and
every field quoted (so that a spreadsheet opens the accents and the leading zeros of an EMA number
as they are). The headers are the federation's own, in English whatever the sheets' language.

* **Place**: the ranking's place (tied players share it).
* **First name**, **Last name**: the player's name split at its last space ("Maria Grazia Rossi":
  "Maria Grazia", "Rossi"); a name of one word has no last name.
* **EMA number**: the player's ``number`` in the session files (write the EMA number there).
* **Table points**: MCR, the Punti Tavolo summed over the sessions (seed 000 App. B); riichi, the
  final results (points with uma) the ranking orders by; the other systems have none.
* **Score**: MCR, the Mini Punti summed; riichi, the points; the other systems, the totals.
* **EMA member**, **Country**: not in a session file: left empty for the federation's registry,
  which knows them by the EMA number.

Before writing, every table is checked as the federation would check it, and refused with the
table and its players named: four distinct players once each (told apart by number), no player
at two tables of one session (a table given twice is one), a finished sheet, MCR table points summing to 7
(4-2-1-0, tied players sharing), and the table's scores summing to zero once the penalties'
deductions are set aside (they leave the zero sum, seed 000 E 2.1; riichi sticks left unassigned
by a tie for first do not).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from mahjong_camera_scorer.scoring.csv_cells import safe_writer
from mahjong_camera_scorer.scoring.session.closing import MCR_TABLE_POINTS, exact, number, player_key
from mahjong_camera_scorer.scoring.session.model import SessionError

EMA_COLUMNS = (
    "Place",
    "First name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "EMA member",
    "Country",
)
#: riichi sticks are worth 1,000 points each (seed 001 §3.4.4)
STICK = 1000


def table_name(doc: Mapping[str, Any]) -> str:
    """``session 1, table 3 (Anna #101, Bruno #102, …)``: how a refusal names a table."""
    where = ", ".join(
        part
        for part in (
            doc.get("session") and f"session {doc['session']}",
            doc.get("table") and f"table {doc['table']}",
        )
        if part
    )
    players = ", ".join(
        f"{p['name']} #{p['number']}" if p.get("number") else str(p["name"]) for p in doc.get("players", [])
    )
    return f"{where or 'a table'} ({players})"


def check_tables(docs: Sequence[Mapping[str, Any]]) -> None:
    """Refuse (:class:`SessionError`) what a federation would refuse of these sheets' JSON."""
    seated: dict[tuple[str, str], Mapping[str, Any]] = {}
    names: dict[str, str] = {}
    for doc in docs:
        where = table_name(doc)
        players = doc.get("players", [])
        keys = [player_key(str(p["name"]), str(p.get("number") or "")) for p in players]
        if len(players) != 4 or len(set(keys)) != 4:
            raise SessionError(f"--results: {where}: a table is four distinct players once each")
        session = str(doc.get("session") or "")
        for p, key in zip(players, keys, strict=True):
            if names.setdefault(key, str(p["name"])) != p["name"]:
                raise SessionError(
                    f"--results: {where}: number {p['number']} is {names[key]} at another table, "
                    f"{p['name']} here"
                )
            if session and (session, key) in seated:
                other = table_name(seated[(session, key)])
                raise SessionError(f"--results: {where}: {p['name']} also plays at {other} in that session")
            seated[(session, key)] = doc
        if not doc.get("complete", True):
            raise SessionError(
                f"--results: {where} is not complete: {len(doc.get('pending', []))} row(s) for the referee"
            )
        if doc["rules"] == "mcr":
            _check_table_points(doc, where)
        _check_zero_sum(doc, where)


def _check_table_points(doc: Mapping[str, Any], where: str) -> None:
    closing = doc["closing"]
    points = closing.get("table_points_exact", closing["table_points"])
    total = sum((exact(v) for v in points.values()), Fraction(0))
    if total != sum(MCR_TABLE_POINTS):
        shown = ", ".join(f"{n} {number(exact(v))}" for n, v in points.items())
        raise SessionError(
            f"--results: {where}: the table points sum to {number(total)}, not 7 "
            f"(4-2-1-0, tied players sharing; here {shown})"
        )


def _check_zero_sum(doc: Mapping[str, Any], where: str) -> None:
    """The table's results, the penalties' own lines set aside, sum to zero (riichi: with the
    sticks left on the table given to the first placed)."""
    penalties = sum(sum(line["deltas"].values()) for line in doc["lines"] if line["kind"] == "penalty")
    closing = doc["closing"]
    sticks = closing.get("leftover_sticks") or 0
    taken = sticks if closing.get("leftover_sticks_to") else 0
    total = sum(doc["totals"].values()) - penalties + STICK * taken
    if total:
        why = f" ({sticks} riichi stick(s) left unassigned: a tie for first)" if sticks and not taken else ""
        raise SessionError(f"--results: {where}: the scores sum to {total:+d}, not zero{why}")


def _split(name: str) -> tuple[str, str]:
    first, _, last = name.strip().rpartition(" ")
    return (first, last) if first else (last, "")


def ema_results(docs: Sequence[Mapping[str, Any]], rank: Sequence[Mapping[str, Any]]) -> str:
    """The results file (:data:`EMA_COLUMNS`) of these sheets' JSON and their ranking
    (:func:`scoring.session.closing.ranking`), after :func:`check_tables`."""
    check_tables(docs)
    rules = docs[0]["rules"] if docs else ""
    points, score = {"mcr": ("table_points", "mini_punti"), "riichi": ("final", "points")}.get(
        rules, ("", "total")
    )
    buf = io.StringIO()
    buf.write("\ufeff")
    w = safe_writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\r\n")  # no cell a spreadsheet would run
    w.writerow(EMA_COLUMNS)
    for r in rank:
        first, last = _split(str(r["player"]))
        w.writerow(
            [
                r["rank"],
                first,
                last,
                r.get("number", ""),
                number(r[points]) if points else "",
                number(r[score]),
                "",
                "",
            ]
        )
    return buf.getvalue()
