"""The printable sheet, laid out like the paper one (seed 000 App. B, *Tabella segnapunti*).

One column per player (number, name, the wind held), one row per hand with the hand's value, each
player's result over his running total, the hand's elements and the photo's thumbnail; the seat
changes beside the rounds; at the bottom the totals, the closing (Mini Punti and table points, or
points, uma and final) and a line for the signatures. Plain HTML with print CSS, no scripts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from html import escape
from pathlib import Path

from scoring.session.engine import Line, Sheet
from scoring.session.seats import MCR_SEAT_CHANGES

_CSS = """
body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:18px;color:#111}
h1{font-size:18px;margin:0 0 2px}.meta{font-size:13px;margin-bottom:10px;color:#333}
table{border-collapse:collapse;width:100%;font-size:12px}
th,td{border:1px solid #666;padding:3px 5px;vertical-align:top}
th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.n .t{display:block;font-weight:600;border-top:1px dotted #999;margin-top:2px}
.win{background:#eef7ee}.loss{color:#a00}.round{writing-mode:vertical-rl;transform:rotate(180deg);
text-align:center;font-weight:600;background:#f6f6f6}
.el{font-size:11px;color:#333}.pen td{background:#fff6e6}.confirm td{background:#ffe9e9}
.flag{color:#b00;font-weight:600}img.th{max-width:90px;max-height:60px;display:block;margin-top:3px}
tfoot td{font-weight:600;background:#f6f6f6}.sig td{height:34px}
@media print{body{margin:0}.noprint{display:none}}
"""


def _seat_change(line: Line, sheet: Sheet) -> str:
    if sheet.rules != "mcr" or line.kind not in ("hand", "draw") or not line.label.isdigit():
        return ""
    n = int(line.label)
    if n in (4, 8, 12):
        change = MCR_SEAT_CHANGES[n // 4 - 1]
        return " ".join(f"{a}→{b}" for a, b in change.items()).replace("W", "O")
    return ""


def _thumb(photo: str | None, sheet: Sheet, out_dir: Path, thumbs: Mapping[str, str] | None) -> str:
    if not photo:
        return ""
    if thumbs is not None:  # the caller holds the pictures (the phone page: photos are not on disk)
        src = thumbs.get(photo)
        return f'<img class="th" src="{escape(src)}" alt="photo of the hand">' if src else ""
    path = Path(sheet.session.base_dir) / photo
    rel = os.path.relpath(path.resolve(), out_dir.resolve()) if path.exists() else photo
    return f'<img class="th" src="{escape(Path(rel).as_posix())}" alt="photo of the hand">'


def _result(line: Line, sheet: Sheet, out_dir: Path, thumbs: Mapping[str, str] | None) -> str:
    if line.kind == "penalty":
        return f"<b>Penalty</b> {escape(line.notes[0])}"
    if line.kind == "chombo":
        return f"<b>Chombo</b> {escape(line.notes[0])}"
    if line.kind == "draw":
        return "Draw" + (f" <span class=el>{escape(line.notes[0])}</span>" if line.notes else "")
    how = "self-drawn" if line.win_by == "self_draw" else f"on {escape(line.discarder or '?')}'s discard"
    text = f"<b>{escape(line.winner or '')}</b> {how}"
    if line.hand:
        text += f"<br><code>{escape(line.hand)}</code>"
    if line.elements:
        text += "<div class=el>" + ", ".join(f"{escape(k)} {v}" for k, v in line.elements.items()) + "</div>"
    if line.status in ("confirm", "error"):
        text += "".join(f"<div class=flag>{escape(n)}</div>" for n in line.notes)
    return text + _thumb(line.photo, sheet, out_dir, thumbs)


def sheet_html(sheet: Sheet, out_dir: Path | str = ".", thumbs: Mapping[str, str] | None = None) -> str:
    """The whole page; photo thumbnails are linked relative to ``out_dir`` (where the page goes),
    or, when ``thumbs`` is given, taken from it alone (photo name → image URL, e.g.
    ``data:image/jpeg;base64,…``; a photo it lacks gets no picture)."""
    out_dir = Path(out_dir)
    s = sheet.session
    players = s.players
    names = [p.name for p in players]
    riichi = sheet.rules == "riichi"
    rows = []
    for line in sheet.lines:
        cls = {"penalty": "pen", "confirm": "confirm", "error": "confirm"}.get(line.status, "")
        value = "" if line.value is None else f"{line.value}<br><span class=el>{escape(line.unit)}</span>"
        if riichi and line.honba is not None:
            value += f"<div class=el>honba {line.honba}, sticks {line.sticks}</div>"
        cells = []
        for n in names:
            d = line.deltas.get(n, 0)
            mark = " win" if n == line.winner and line.status == "scored" else ""
            wind = line.winds.get(n, "")
            cells.append(
                f'<td class="n{mark}"><span class="{"loss" if d < 0 else ""}">{d:+d}</span>'
                f"<span class=t>{line.totals.get(n, 0)}</span><span class=el>{wind}</span></td>"
            )
        rows.append(
            f'<tr class="{cls}"><td>{escape(line.label)}</td><td>{line.round_wind}</td>'
            f"<td class=n>{value}</td><td>{_result(line, sheet, out_dir, thumbs)}</td>{''.join(cells)}"
            f"<td class=el>{_seat_change(line, sheet)}</td></tr>"
        )
    foot = [
        "<tr><td colspan=4>Total</td>"
        + "".join(f"<td class=n>{sheet.totals[n]}</td>" for n in names)
        + "<td></td></tr>"
    ]
    labels = {
        "mini_punti": "Mini Punti",
        "table_points": "Punti Tavolo (4/2/1/0)",
        "points": "Points",
        "uma": "Uma",
        "final": "Final (points + uma)",
    }
    for key, label in labels.items():
        values = sheet.closing.get(key)
        if isinstance(values, dict):
            foot.append(
                f"<tr><td colspan=4>{label}</td>"
                f"{''.join(f'<td class=n>{values[n]}</td>' for n in names)}<td></td></tr>"
            )
    foot.append(f"<tr class=sig><td colspan=4>Firma (signature)</td>{'<td></td>' * len(names)}<td></td></tr>")
    head = "".join(
        f"<th>N° {escape(p.number)}<br>{escape(p.name)}<br><span class=el>starts {p.seat}</span></th>"
        for p in players
    )
    pens = "".join(
        f"<li>hand {p.hand}: {escape(p.player)} — {escape(p.infraction)}, {p.points} ({escape(p.note)})</li>"
        for p in sheet.penalties
    )
    pending = (
        ""
        if sheet.complete
        else f"<p class=flag>Not complete: {len(sheet.pending)} row(s) for the referee to confirm "
        "or correct.</p>"
    )
    title = escape(f"{s.tournament} — session {s.session}, table {s.table}")
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{title}</title>"
        f"<style>{_CSS}</style></head><body>"
        f"<h1>{escape(s.tournament or 'Session sheet')}</h1>"
        f"<div class=meta>Turno (session) <b>{escape(s.session)}</b>"
        f" · Tavolo (table) <b>{escape(s.table)}</b>"
        f" · rules <b>{escape(sheet.rules)}</b> · hands played {sheet.hands_played}</div>{pending}"
        f"<table><thead><tr><th>Hand</th><th>Round</th><th>Punti Mahjong</th><th>Result and elements</th>"
        f"{head}<th>Cambio posti</th></tr></thead><tbody>{''.join(rows)}</tbody>"
        f"<tfoot>{''.join(foot)}</tfoot></table>"
        + (f"<h2 style='font-size:14px'>Penalties</h2><ul>{pens}</ul>" if pens else "")
        + "</body></html>\n"
    )
