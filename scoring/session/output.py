"""The sheet as JSON, as CSV (one line per row of the paper sheet) and as text for the terminal.

Each system's sheet has its own seed's rows: MCR the Mini Punti and Punti Tavolo (seed 000 App. B),
riichi the honba and sticks columns, the sticks left at the end and who took them, points, uma and
final (seed 001 §3.6), Zung Jung the TOT TURNO after each turn of four hands and the TOTALE
GENERALE (seed 002's sheet). Text and CSV come in Italian or English (``lang``); the JSON is data.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from mahjong_camera_scorer.scoring.csv_cells import safe_writer
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, Translate, element_words, msg, render, translator
from mahjong_camera_scorer.scoring.render import win_by_words
from mahjong_camera_scorer.scoring.session.closing import number
from mahjong_camera_scorer.scoring.session.model import Session
from mahjong_camera_scorer.scoring.session.penalties import infraction_words
from mahjong_camera_scorer.scoring.session.sheet import Line, Sheet

#: the closing's rows, in the order of the sheet, with their labels (the seeds' own terms)
CLOSING_LABELS = {
    "mini_punti": "Mini Punti",
    "table_points": "Punti Tavolo (4/2/1/0)",
    "points": "Points",
    "uma": "Uma",
    "final": "Final (points + uma)",
}


def closing_json(closing: dict[str, Any]) -> dict[str, Any]:
    """The closing as written (whole numbers whole), with the exact value of each share that is not
    whole beside it (``table_points_exact: {Anna: "7/3"}``) so rankings add exact values."""
    out: dict[str, Any] = {}
    for key, values in closing.items():
        if isinstance(values, dict):
            out[key] = {k: number(v) for k, v in values.items()}
            if any(isinstance(v, Fraction) and v.denominator != 1 for v in values.values()):
                out[f"{key}_exact"] = {k: str(v) for k, v in values.items()}
        else:
            out[key] = values
    return out


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
        "closing": closing_json(sheet.closing),
        "carry": sheet.carry,
        "complete": sheet.complete,
        "pending": [f"{line.source} ({line.label or line.kind}): {line.status}" for line in sheet.pending],
    }


def _line_json(line: Line) -> dict[str, Any]:
    out = {k: getattr(line, k) for k in Line.__slots__}
    out["notes"] = [str(n) for n in line.notes]
    return out


# ------------------------------------------------------------------------------------------------
# what every sheet shows, in the reader's language
# ------------------------------------------------------------------------------------------------
def result_text(line: Line, tr: Translate) -> str:
    """The line's result in words: who won how, a draw, a penalty with its note."""
    if line.kind == "penalty":
        return tr("penalty: {what}").format(what=render(line.notes[0], tr))
    if line.kind == "chombo":
        return "chombo"
    if line.kind == "draw":
        return tr("Goulash, dead hand") if line.goulash else tr("draw")
    if line.status == "void" and line.settled_by == "penalty":
        return tr("{winner}: invalid win, settled by a penalty").format(winner=line.winner)
    if line.status == "void":
        return tr("{winner}: invalid win, chombo").format(winner=line.winner)
    if line.status in ("confirm", "error"):
        return f"{line.winner}: {tr(line.status).upper()}"
    # a table-scored hand may leave the discarder out: every loser pays the winner (seed 003, 004)
    how = "tsumo" if line.win_by == "self_draw" else f"ron {line.discarder or ''}".strip()
    unit = tr(line.unit) if line.unit else ""
    goulash = " (Goulash)" if line.goulash else ""
    return f"{line.winner} {'' if line.value is None else line.value} {unit} {how}{goulash}".replace(
        "  ", " "
    )


#: the wind letters in the reader's language: E S W N, or E S O N (Ovest) in Italian
WIND_LETTERS = {"E": msg("E"), "S": msg("S"), "W": msg("W"), "N": msg("N")}


def wind_letter(wind: str, tr: Translate) -> str:
    """A seat or round wind as a cell of the sheet writes it, one letter per language."""
    return WIND_LETTERS[wind].render(tr) if wind in WIND_LETTERS else wind


def elements_text(line: Line, rules: str, tr: Translate) -> str:
    """The hand's elements as the printable sheet lists them, each as its seed names it in the
    reader's language: ``Mah jong 20, All pungs 1`` (``Tutti tris (nessuna serie) 1``)."""
    return ", ".join(f"{render(element_words(rules, k), tr)} {v}" for k, v in line.elements.items())


def table_lines(line: Line, rules: str, tr: Translate) -> list[str]:
    """A hand settled as a whole table (Australian, Classical): the winner's elements, then the
    table as the ``table`` command prints it (each player's score, the payments, the net), in the
    reader's language."""
    if not line.table:
        return []
    elements = [elements_text(line, rules, tr)] if line.elements else []
    return [*elements, *(render(t, tr) for t in line.table)]


def zj_turns(sheet: Sheet) -> Iterator[tuple[Line, int | None, dict[str, int]]]:
    """Each line, and after the last line of a Zung Jung turn its number and the turn's sums
    (seed 002's TOT TURNO); other systems get no turns."""
    names = [p.name for p in sheet.session.players]
    sums = dict.fromkeys(names, 0)
    lines = sheet.lines
    size = sheet.layout.turn
    for i, line in enumerate(lines):
        turn = (line.hand_no - 1) // size + 1 if size else 0
        for n in names:
            sums[n] += line.deltas.get(n, 0)
        ends = bool(size) and (i + 1 == len(lines) or (lines[i + 1].hand_no - 1) // size + 1 > turn)
        # a turn ends with its fourth hand; the last turn of an unfinished session ends anyway
        yield line, (turn if ends else None), dict(sums)
        if ends:
            sums = dict.fromkeys(names, 0)


def leftover_line(sheet: Sheet, tr: Translate) -> tuple[str, dict[str, int]] | None:
    """Riichi: the sticks left on the table at the end, and who took them (seed 001 §3.6: "Le
    puntate di riichi rimaste sul tavolo sono prese dal vincitore"; a tie for first: nobody)."""
    sticks = sheet.closing.get("leftover_sticks")
    if not sticks:
        return None
    to = sheet.closing.get("leftover_sticks_to")
    names = [p.name for p in sheet.session.players]
    if to is None:
        label = tr("Riichi sticks left on the table: {n}, unassigned (tie for first, seed fn 14)")
        return label.format(n=sticks), dict.fromkeys(names, 0)
    label = tr("Riichi sticks left on the table: {n} → {player}").format(n=sticks, player=to)
    return label, {n: 1000 * sticks if n == to else 0 for n in names}


def heading(s: Session, rules: str, tr: Translate | None = None) -> str:
    """``Tournament — session 1, table 3 — rules: mcr``, leaving out what the file does not say."""
    tr = tr or translator(DEFAULT_LANG)
    parts = (
        s.session and tr("session {n}").format(n=s.session),
        s.table and tr("table {n}").format(n=s.table),
    )
    where = ", ".join(p for p in parts if p)
    return " — ".join(p for p in (s.tournament, where, tr("rules: {rules}").format(rules=rules)) if p)


def closing_rows(sheet: Sheet, tr: Translate) -> list[tuple[str, dict[str, Any]]]:
    names = [p.name for p in sheet.session.players]
    out = []
    for key, label in CLOSING_LABELS.items():
        values = sheet.closing.get(key)
        if isinstance(values, dict) and set(values) == set(names):
            out.append((tr(label), {n: number(values[n]) for n in names}))
    return out


def total_label(sheet: Sheet, tr: Translate) -> str:
    return render(sheet.layout.total, tr)


def penalty_text(p: Any, tr: Translate) -> str:
    return tr("hand {hand}: {player}, {infraction}, {points} ({note})").format(
        hand=p.hand,
        player=p.player,
        infraction=render(infraction_words(p.infraction), tr),
        points=p.points,
        note=render(p.note, tr),
    )


# ------------------------------------------------------------------------------------------------
# CSV
# ------------------------------------------------------------------------------------------------
def sheet_csv(sheet: Sheet, lang: str = DEFAULT_LANG) -> str:
    """One line per row: what happened, each player's result and running total, then the closing.
    Riichi sheets have the honba and sticks columns and the sticks left at the end; Zung Jung
    sheets the TOT TURNO lines and TOTALE GENERALE; MCR sheets the Mini Punti and Punti Tavolo."""
    tr = translator(lang)
    names = [p.name for p in sheet.session.players]
    riichi = sheet.layout.counters
    buf = io.StringIO()
    w = safe_writer(buf, lineterminator="\n")  # no cell a spreadsheet would run
    head = [
        tr("hand"),
        tr("kind"),
        tr("status"),
        *([tr("round")] if sheet.layout.round_wind else []),
        tr("winner"),
        tr("won by"),
        tr("discarder"),
        tr("hand notation"),
        tr("photo"),
        tr("value"),
        tr("unit"),
        *names,
        *(tr("total {name}").format(name=n) for n in names),
        *(tr("wind {name}").format(name=n) for n in names),
        *(["honba", tr("riichi sticks")] if riichi else []),
        tr("result"),
        tr("notes"),
    ]
    w.writerow(head)
    lead = len(head) - 3 * len(names) - (4 if riichi else 2)  # the cells before the players'

    def summary(label: str, values: dict[str, Any]) -> None:
        w.writerow([label, *([""] * (lead - 1)), *(values.get(n, "") for n in names)])

    for line, turn, sums in zj_turns(sheet):
        w.writerow(
            [
                line.label,
                tr(line.kind),
                tr(line.status),
                *([wind_letter(line.round_wind, tr)] if sheet.layout.round_wind else []),
                line.winner or "",
                render(win_by_words(line.win_by), tr) if line.win_by else "",
                line.discarder or "",
                line.hand,
                line.photo or "",
                "" if line.value is None else line.value,
                tr(line.unit) if line.unit else "",
                *(line.deltas.get(n, 0) for n in names),
                *(line.totals.get(n, 0) for n in names),
                *(wind_letter(line.winds.get(n, ""), tr) for n in names),
                *(
                    ["" if line.honba is None else line.honba, "" if line.sticks is None else line.sticks]
                    if riichi
                    else []
                ),
                result_text(line, tr),
                " | ".join(
                    [
                        *(render(n, tr) for n in line.notes),
                        *(t.strip() for t in table_lines(line, sheet.rules, tr)),
                    ]
                ),
            ]
        )
        if turn is not None:
            summary(f"TOT TURNO {turn}", sums)
    summary(total_label(sheet, tr), sheet.totals)
    left = leftover_line(sheet, tr)
    if left:
        summary(*left)
    for label, values in closing_rows(sheet, tr):
        summary(label, values)
    return buf.getvalue()


# ------------------------------------------------------------------------------------------------
# text
# ------------------------------------------------------------------------------------------------
def sheet_text(sheet: Sheet, lang: str = DEFAULT_LANG) -> str:
    """The sheet for the terminal: each row with each player's result, then the closing. The result
    column is as wide as its longest entry: nothing is cut."""
    tr = translator(lang)
    names = [p.name for p in sheet.session.players]
    s = sheet.session
    width = max(8, *(len(n) for n in names))
    rows: list[tuple[str, str, dict[str, Any], list[str]]] = []
    for line, turn, sums in zj_turns(sheet):
        notes = [render(n, tr) for n in line.notes] if line.status in ("confirm", "error") else []
        notes += table_lines(line, sheet.rules, tr)
        rows.append((line.label, result_text(line, tr), {n: f"{line.deltas[n]:+d}" for n in names}, notes))
        if turn is not None:
            rows.append(("", f"TOT TURNO {turn}", {n: f"{sums[n]:+d}" for n in names}, []))
    rows.append(("", total_label(sheet, tr), dict(sheet.totals), []))
    left = leftover_line(sheet, tr)
    if left:
        rows.append(("", left[0], {n: f"{v:+d}" if v else "" for n, v in left[1].items()}, []))
    rows += [("", label, values, []) for label, values in closing_rows(sheet, tr)]
    col = max(len(tr("result")), *(len(r[1]) for r in rows))
    head = " ".join(f"{n:>{width}}" for n in names)
    out = [heading(s, sheet.rules, tr), f"{tr('hand'):<5} {tr('result'):<{col}} {head}"]
    for label, what, cells, notes in rows:
        out.append(f"{label:<5} {what:<{col}} " + " ".join(f"{cells[n]!s:>{width}}" for n in names))
        out += [f"      {note}" for note in notes]
    for p in sheet.penalties:
        out.append(tr("Penalty") + ": " + penalty_text(p, tr))
    if sheet.carry:
        carried = "; ".join(
            f"{n}: " + ", ".join(f"{render(infraction_words(k), tr)} {v}" for k, v in c.items() if v)
            for n, c in sheet.carry.items()
        )
        out.append(tr("Carried to the next session (E 3.6): {counts}").format(counts=carried))
    if not sheet.complete:
        out.append(
            tr("NOT COMPLETE: {n} row(s) for the referee").format(n=len(sheet.pending))
            + ": "
            + "; ".join(f"{line.source} {tr(line.status)}" for line in sheet.pending)
        )
    return "\n".join(out)


def next_text(sheet: Sheet, lang: str = DEFAULT_LANG) -> str:
    """What the table plays next, or that the session is over (no hand is named then)."""
    tr = translator(lang)
    if sheet.next.get("over") or sheet.next.get("label") is None:
        return tr("The session is over.")
    return str(msg("Next hand: {label}", label=sheet.next["label"]).render(tr))
