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
from typing import Any

from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, Translate, render, translator
from mahjong_camera_scorer.scoring.session.output import (
    closing_rows,
    elements_text,
    heading,
    leftover_line,
    penalty_text,
    total_label,
    wind_letter,
    zj_turns,
)
from mahjong_camera_scorer.scoring.session.sheet import Layout, Line, Sheet

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
tfoot td{font-weight:600;background:#f6f6f6}.sig td{height:34px}tr.turn td{font-weight:600;background:#f3f3fb}
@media print{body{margin:0}.noprint{display:none}}
"""


def _seat_change(line: Line, sheet: Sheet, done: set[int], tr: Translate) -> str:
    """MCR's CAMBIO POSTI beside the last hand of rounds 1-3 (seed 000 App. B), once each."""
    changes = sheet.layout.seat_changes
    if not changes or line.kind not in ("hand", "draw") or not line.label.isdigit():
        return ""
    n = int(line.label)
    if n % 4 == 0 and 0 < n // 4 <= len(changes) and n not in done and line.status != "void":
        done.add(n)
        change = changes[n // 4 - 1]
        return " ".join(f"{wind_letter(a, tr)}→{wind_letter(b, tr)}" for a, b in change.items())
    return ""


def _thumb(
    photo: str | None, sheet: Sheet, out_dir: Path, thumbs: Mapping[str, str] | None, tr: Translate
) -> str:
    if not photo:
        return ""
    alt = escape(tr("photo of the hand"))
    if thumbs is not None:  # the caller holds the pictures (the phone page: photos are not on disk)
        src = thumbs.get(photo)
        return f'<img class="th" src="{escape(src)}" alt="{alt}">' if src else ""
    path = Path(sheet.session.base_dir) / photo
    rel = os.path.relpath(path.resolve(), out_dir.resolve()) if path.exists() else photo
    return f'<img class="th" src="{escape(Path(rel).as_posix())}" alt="{alt}">'


def _result(line: Line, sheet: Sheet, out_dir: Path, thumbs: Mapping[str, str] | None, tr: Translate) -> str:
    notes = [render(n, tr) for n in line.notes]
    if line.kind == "penalty":
        return f"<b>{escape(tr('Penalty'))}</b> {escape(notes[0])}"
    if line.kind == "chombo":
        return f"<b>Chombo</b> {escape(notes[0])}"
    if line.kind == "draw":
        word = tr("Goulash, dead hand") if line.goulash else tr("Draw")
        return escape(word) + "".join(f" <span class=el>{escape(n)}</span>" for n in notes)
    if line.win_by == "self_draw":
        how = escape(tr("self-drawn"))
    elif line.discarder:
        how = escape(tr("on {player}'s discard").format(player=line.discarder))
    else:  # a table-scored hand may leave the discarder out (seed 003, 004)
        how = escape(tr("on a discard"))
    text = f"<b>{escape(line.winner or '')}</b> {how}" + (" (Goulash)" if line.goulash else "")
    if line.hand:
        text += f"<br><code>{escape(line.hand)}</code>"
    if line.elements:
        text += f"<div class=el>{escape(elements_text(line, sheet.rules, tr))}</div>"
    if line.table:
        text += "<pre class=el>" + escape("\n".join(render(t, tr) for t in line.table)) + "</pre>"
    if line.status in ("confirm", "error", "void"):
        text += "".join(f"<div class=flag>{escape(n)}</div>" for n in notes)
    else:
        text += "".join(f"<div class=el>{escape(n)}</div>" for n in notes)
    return text + _thumb(line.photo, sheet, out_dir, thumbs, tr)


def _columns(layout: Layout, tr: Translate) -> list[str]:
    """The columns before the players', as each seed's sheet has them (seed 000 App. B: the
    round and PUNTI MAHJONG; seed 001: the hand by round and dealer, the counters; seed 002's
    sheet: TURNO, MANO)."""
    return [
        *([tr("Turn")] if layout.turn else []),
        tr("Hand"),
        *([render(layout.round_column, tr)] if layout.round_column else []),
        *(["Honba", tr("Riichi sticks")] if layout.counters else []),
        render(layout.value, tr),
        tr("Result and elements"),
    ]


def _lead(line: Line, layout: Layout, tr: Translate) -> list[str]:
    value = "" if line.value is None else f"{line.value}<br><span class=el>{escape(tr(line.unit))}</span>"
    played = line.kind != "penalty"
    return [
        *([str((line.hand_no - 1) // layout.turn + 1) if played else ""] if layout.turn else []),
        escape(line.label),
        *([wind_letter(line.round_wind, tr) if played else ""] if layout.round_column else []),
        *(
            ["" if line.honba is None else str(line.honba), "" if line.sticks is None else str(line.sticks)]
            if layout.counters
            else []
        ),
        value,
    ]


def sheet_html(
    sheet: Sheet,
    out_dir: Path | str = ".",
    thumbs: Mapping[str, str] | None = None,
    lang: str = DEFAULT_LANG,
) -> str:
    """The whole page in ``lang``; photo thumbnails are linked relative to ``out_dir`` (where the
    page goes), or, when ``thumbs`` is given, taken from it alone (photo name → image URL, e.g.
    ``data:image/jpeg;base64,…``; a photo it lacks gets no picture)."""
    tr = translator(lang)
    out_dir = Path(out_dir)
    s = sheet.session
    players = s.players
    names = [p.name for p in players]
    mcr = bool(sheet.layout.seat_changes)
    columns = _columns(sheet.layout, tr)
    span = len(columns)
    extra = 1 if mcr else 0  # MCR's CAMBIO POSTI column
    tail = "<td></td>" * extra

    def summary(label: str, values: Mapping[str, Any], cls: str = "") -> str:
        cells = "".join(f"<td class=n>{escape(str(values.get(n, '')))}</td>" for n in names)
        attr = f" class={cls}" if cls else ""
        return f"<tr{attr}><td colspan={span}>{escape(label)}</td>{cells}{tail}</tr>"

    rows = []
    done: set[int] = set()
    for line, turn, sums in zj_turns(sheet):
        cls = {"penalty": "pen", "confirm": "confirm", "error": "confirm", "void": "confirm"}.get(
            line.status, ""
        )
        cells = []
        for n in names:
            d = line.deltas.get(n, 0)
            mark = " win" if n == line.winner and line.status == "scored" else ""
            wind = wind_letter(line.winds.get(n, ""), tr)
            cells.append(
                f'<td class="n{mark}"><span class="{"loss" if d < 0 else ""}">{d:+d}</span>'
                f"<span class=t>{line.totals.get(n, 0)}</span><span class=el>{wind}</span></td>"
            )
        lead = "".join(
            f"<td>{c}</td>" if i < span - 2 else f"<td class=n>{c}</td>"
            for i, c in enumerate(_lead(line, sheet.layout, tr))
        )
        change = f"<td class=el>{_seat_change(line, sheet, done, tr)}</td>" if mcr else ""
        rows.append(
            f'<tr class="{cls}">{lead}<td>{_result(line, sheet, out_dir, thumbs, tr)}</td>'
            f"{''.join(cells)}{change}</tr>"
        )
        if turn is not None:
            rows.append(summary(f"TOT TURNO {turn}", {n: f"{v:+d}" for n, v in sums.items()}, "turn"))
    foot = [summary(total_label(sheet, tr), sheet.totals)]
    left = leftover_line(sheet, tr)
    if left:
        foot.append(summary(left[0], {n: f"+{v}" if v else "" for n, v in left[1].items()}))
    foot += [summary(label, values) for label, values in closing_rows(sheet, tr)]
    foot.append(summary(tr("Signature (Firma)"), {}, "sig"))
    head = "".join(
        f"<th>N° {escape(p.number)}<br>{escape(p.name)}<br><span class=el>"
        f"{escape(tr('starts {seat}').format(seat=wind_letter(p.seat, tr)))}</span></th>"
        for p in players
    )
    change_head = f"<th>{escape(tr('Seat change (Cambio posti)'))}</th>" if mcr else ""
    pens = "".join(f"<li>{escape(penalty_text(p, tr))}</li>" for p in sheet.penalties)
    pending = (
        ""
        if sheet.complete
        else "<p class=flag>"
        + escape(
            tr("Not complete: {n} row(s) for the referee to confirm or correct.").format(n=len(sheet.pending))
        )
        + "</p>"
    )
    title = escape(heading(s, sheet.rules, tr))
    meta = " · ".join(
        [
            f"{escape(tr('Session'))} <b>{escape(s.session)}</b>",
            f"{escape(tr('Table'))} <b>{escape(s.table)}</b>",
            f"{escape(tr('rules'))} <b>{escape(sheet.rules)}</b>",
            f"{escape(tr('hands played'))} {sheet.hands_played}",
        ]
    )
    heads = "".join(f"<th>{escape(c)}</th>" for c in columns)
    return (
        f"<!doctype html><html lang={lang}><head><meta charset=utf-8><title>{title}</title>"
        f"<style>{_CSS}</style></head><body>"
        f"<h1>{escape(s.tournament or tr('Session sheet'))}</h1>"
        f"<div class=meta>{meta}</div>{pending}"
        f"<table><thead><tr>{heads}"
        f"{head}{change_head}</tr></thead><tbody>{''.join(rows)}</tbody>"
        f"<tfoot>{''.join(foot)}</tfoot></table>"
        + (f"<h2 style='font-size:14px'>{escape(tr('Penalties'))}</h2><ul>{pens}</ul>" if pens else "")
        + "</body></html>\n"
    )
