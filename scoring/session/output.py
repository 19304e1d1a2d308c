"""The sheet as JSON, as CSV (one line per row of the paper sheet) and as text for the terminal."""

from __future__ import annotations

import io
from typing import Any

from scoring.csv_cells import safe_writer
from scoring.session.engine import Line, Sheet
from scoring.session.model import Session


def sheet_json(sheet: Sheet) -> dict[str, Any]:
    s = sheet.session
    return {
        "tournament": s.tournament,
        "session": s.session,
        "table": s.table,
        "rules": sheet.rules,
        "players": [
            {"name": p.name, "number": p.number, "seat": p.seat, "substitute": p.substitute}
            for p in s.players
        ],
        "lines": [_line_json(line) for line in sheet.lines],
        "penalties": [p.as_dict() for p in sheet.penalties],
        "totals": dict(sheet.totals),
        "hands_played": sheet.hands_played,
        "next": sheet.next,
        "closing": sheet.closing,
        "complete": sheet.complete,
        "pending": [f"{line.source} ({line.label or line.kind}): {line.status}" for line in sheet.pending],
    }


def _line_json(line: Line) -> dict[str, Any]:
    out = {k: getattr(line, k) for k in Line.__slots__}
    return out


def sheet_csv(sheet: Sheet) -> str:
    """One line per row: what happened, each player's result and running total, then the closing."""
    names = [p.name for p in sheet.session.players]
    buf = io.StringIO()
    w = safe_writer(buf, lineterminator="\n")  # no cell a spreadsheet would run
    w.writerow(
        [
            "hand",
            "kind",
            "status",
            "round",
            "winner",
            "win_by",
            "discarder",
            "hand_notation",
            "photo",
            "value",
            "unit",
            *(f"{n}" for n in names),
            *(f"total {n}" for n in names),
            *(f"wind {n}" for n in names),
            "honba",
            "sticks",
            "notes",
        ]
    )
    for line in sheet.lines:
        w.writerow(
            [
                line.label,
                line.kind,
                line.status,
                line.round_wind,
                line.winner or "",
                line.win_by or "",
                line.discarder or "",
                line.hand,
                line.photo or "",
                "" if line.value is None else line.value,
                line.unit,
                *(line.deltas.get(n, 0) for n in names),
                *(line.totals.get(n, 0) for n in names),
                *(line.winds.get(n, "") for n in names),
                "" if line.honba is None else line.honba,
                "" if line.sticks is None else line.sticks,
                " | ".join(line.notes),
            ]
        )
    for key, values in sheet.closing.items():
        if isinstance(values, dict) and set(values) == set(names):
            w.writerow([key, "closing", "", "", "", "", "", "", "", "", "", *(values[n] for n in names)])
    return buf.getvalue()


def heading(s: Session, rules: str) -> str:
    """``Tournament — session 1, table 3 — rules: mcr``, leaving out what the file does not say."""
    where = ", ".join(p for p in (s.session and f"session {s.session}", s.table and f"table {s.table}") if p)
    return " — ".join(p for p in (s.tournament, where, f"rules: {rules}") if p)


def sheet_text(sheet: Sheet) -> str:
    """The sheet for the terminal: each row with each player's result, then the closing."""
    names = [p.name for p in sheet.session.players]
    s = sheet.session
    width = max(8, *(len(n) for n in names))
    head = " ".join(f"{n:>{width}}" for n in names)
    out = [
        heading(s, sheet.rules),
        f"{'hand':<5} {'result':<34} {head}",
    ]
    for line in sheet.lines:
        if line.kind == "penalty":
            what = f"penalty: {line.notes[0]}"
        elif line.kind == "chombo":
            what = "chombo"
        elif line.kind == "draw":
            what = "draw"
        elif line.status in ("confirm", "error"):
            what = f"{line.winner}: {line.status.upper()}"
        else:
            how = "tsumo" if line.win_by == "self_draw" else f"ron {line.discarder}"
            what = f"{line.winner} {line.value} {line.unit} {how}"
        cells = " ".join(f"{line.deltas[n]:>+{width}d}" for n in names)
        out.append(f"{line.label:<5} {what[:34]:<34} {cells}")
        if line.status in ("confirm", "error"):
            out += [f"      {note}" for note in line.notes]
    out.append(f"{'':<5} {'Total':<34} " + " ".join(f"{sheet.totals[n]:>{width}d}" for n in names))
    for key, values in sheet.closing.items():
        if key != "totals" and isinstance(values, dict) and set(values) == set(names):
            label = key.replace("_", " ").capitalize()
            out.append(f"{'':<5} {label:<34} " + " ".join(f"{values[n]:>{width}}" for n in names))
    if sheet.closing.get("leftover_sticks"):
        to = sheet.closing.get("leftover_sticks_to") or "nobody (tie for first, seed fn 14)"
        out.append(f"Riichi sticks left on the table: {sheet.closing['leftover_sticks']} → {to}")
    for p in sheet.penalties:
        out.append(f"Penalty: hand {p.hand}, {p.player}, {p.infraction}, {p.points} ({p.note})")
    if not sheet.complete:
        out.append(
            f"NOT COMPLETE: {len(sheet.pending)} row(s) for the referee: "
            + "; ".join(f"{line.source} {line.status}" for line in sheet.pending)
        )
    return "\n".join(out)
