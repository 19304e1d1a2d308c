"""Reading a session file: YAML (or JSON) with named sections, or CSV with one event a line.

YAML::

    tournament: Torneo di primavera
    session: 1
    table: 3
    players:
      - {name: Anna, seat: E, number: 101}
      ...
    hands:
      - {hand: "123m456p789s5556z ron 6z", winner: Anna, discarder: Bruno}
      - {photo: photos/h02.jpg, winner: S, win_by: self_draw}
      - {draw: exhaustive, tenpai: [Anna]}
      - {penalty: false_hu_invalid, player: Carla}
      - {hand: "...", winner: Dario, discarder: Bruno, same_discard: true}   # riichi: a second winner
      - {photo: "7-IMG_0412.jpg", reading: {hand: {...}, flagged: [...], warnings: [...]}, winner: E}

A ``reading`` is a photo already read elsewhere (the phone page sends its corrected reading): the
hand as laid out, and the flagged tiles and warnings that make the referee confirm it.

CSV: a ``kind`` column (tournament, session, table, rules, player, hand, draw, penalty, chombo) and
the fields as columns; lists (flags, dora, riichi, tenpai) are space- or comma-separated; the
losers' entries of Australian/Classical are ``others`` as ``Name=score`` or ``Name=<notation>``
separated by ``;``. Every error names the row (YAML ``hands[3]``, CSV ``line 7``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mahjong_camera_scorer.scoring.clean_text import control_character, same_name
from mahjong_camera_scorer.scoring.fields import MAX_ITEMS, check_keys, show
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.output_paths import what_is
from mahjong_camera_scorer.scoring.session.model import (
    Player,
    Session,
    SessionEntry,
    SessionError,
    SessionKeyError,
)
from mahjong_camera_scorer.scoring.session.numbers import session_label, strict_yaml_loader, whole_number
from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.scoring.situation_words import MAX_COUNTER, flag_names, option_values, win_by, wind
from mahjong_camera_scorer.scoring.structured import KNOWN_KEYS, hand_from_dict, one_line, parse_json

ROW_KINDS = ("hand", "draw", "penalty", "chombo")
#: far more rows than a session can hold (a hanchan is a few dozen hands)
MAX_ROWS = 1000
#: A session file is refused above this size before it is parsed (1,000 rows fit in well under it).
MAX_SESSION_BYTES = 2 << 20
_LIST_FIELDS = ("flags", "dora", "ura", "riichi", "tenpai")
_INT_FIELDS = ("honba", "sticks", "points", "minutes")
_STR_FIELDS = (
    "photo",
    "winner",
    "win_by",
    "discarder",
    "responsible",
    "pao",
    "player",
    "infraction",
    "note",
    "winning_tile",
)
#: the keys each kind of row may hold: anything else (``richi:`` for ``riichi:``) is refused, since
#: a key read by nobody would change the money in silence (CSV columns are checked the same way)
ROW_KEYS: dict[str, frozenset[str]] = {
    "hand": frozenset(
        [
            "kind",
            "hand",
            "photo",
            "reading",
            "winner",
            "win_by",
            "discarder",
            "responsible",
            "flags",
            "dora",
            "ura",
            "riichi",
            "honba",
            "sticks",
            "pao",
            "others",
            "confirmed",
            "same_discard",
            "options",
            "winning_tile",
            "note",
        ]
    ),
    "draw": frozenset(["kind", "draw", "riichi", "tenpai", "honba", "sticks", "note"]),
    "penalty": frozenset(
        [
            "kind",
            "penalty",
            "infraction",
            "player",
            "points",
            "minutes",
            "serious",
            "opponents_exposed",
            "note",
        ]
    ),
    "chombo": frozenset(["kind", "chombo", "player", "honba", "sticks", "note"]),
}
#: what a session file holds at its top level, and a player
SESSION_KEYS = frozenset(["tournament", "session", "table", "rules", "players", "hands", "carry", "settings"])
PLAYER_KEYS = frozenset(["name", "seat", "number", "substitute"])
#: the most minutes a lateness row may give (beyond the seeds' limits it is a substitute's session)
MAX_MINUTES = 24 * 60
#: the largest penalty a row may give (riichi's serious obstruction is 48,000)
MAX_PENALTY = 100_000
CSV_COLUMNS = (
    "kind",
    "value",
    "name",
    "seat",
    "number",
    "substitute",
    "hand",
    "photo",
    "winner",
    "win_by",
    "discarder",
    "responsible",
    "flags",
    "dora",
    "ura",
    "riichi",
    "tenpai",
    "draw",
    "honba",
    "sticks",
    "pao",
    "others",
    "player",
    "infraction",
    "points",
    "minutes",
    "serious",
    "opponents_exposed",
    "confirmed",
    "same_discard",
    "note",
)


def load_session(path: str | Path) -> Session:
    """The session in ``path`` (.yaml/.yml/.json or .csv); :class:`SessionError` says what is wrong."""
    p = Path(path)
    if not p.is_file():
        raise SessionError(f"{p} is {what_is(p)}, not a session file" if what_is(p) else f"no such file: {p}")
    if p.stat().st_size > MAX_SESSION_BYTES:  # refused before parsing: 20 MB of YAML took 85 s
        raise SessionError(f"{p} is too large for a session file ({p.stat().st_size >> 10} KB; limit 2 MB)")
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SessionError(f"cannot read {p}: {exc}") from None
    session = parse_csv(text) if p.suffix.lower() == ".csv" else parse_yaml(text)
    session.base_dir = str(p.parent)
    return session


# ------------------------------------------------------------------------------------------------
# YAML / JSON
# ------------------------------------------------------------------------------------------------
def parse_yaml(text: str) -> Session:
    import yaml  # the project's structured input already depends on PyYAML

    try:
        data = yaml.load(text, Loader=strict_yaml_loader())  # a SafeLoader, its numbers stricter
    except RecursionError:
        raise SessionError("not a session: the YAML is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise SessionError(f"not valid YAML: {one_line(str(exc))}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise SessionError(f"not valid YAML{where}: {getattr(exc, 'problem', exc)}") from None
    return session_from_dict(data)


def session_from_dict(data: Any) -> Session:
    """The session in its structured form (what a YAML or JSON file holds, or what the phone page
    sends); :class:`SessionError` names the field that is wrong."""
    if not isinstance(data, Mapping):
        raise SessionError("a session file is an object with tournament, session, table, players and hands")
    players = data.get("players")
    if isinstance(players, Mapping):  # {Anna: E, ...} shorthand
        players = [{"name": k, "seat": v} for k, v in players.items()]
    if not isinstance(players, list):
        raise SessionError("players: give a list of {name, seat} (four players)")
    rows = data.get("hands")
    if not isinstance(rows, list):
        raise SessionError("hands: give the list of hands, draws and penalties in the order they happened")
    if len(players) > 4 or len(rows) > MAX_ROWS:
        raise SessionError(
            f"{len(players)} players and {len(rows)} rows: a table's session has 4 players "
            f"and at most {MAX_ROWS} rows"
        )
    session = Session(
        tournament=_name(data.get("tournament"), "tournament"),
        session=session_label(_name(data.get("session"), "session"), "session"),
        table=session_label(_name(data.get("table"), "table"), "table"),
        players=[_player(p, f"players[{i}]") for i, p in enumerate(players)],
        rows=[_row(r, f"hands[{i}]") for i, r in enumerate(rows)],
        rules=_scalar(data.get("rules"), "rules") or None,
        carry=_carry(data.get("carry")),
        settings=_settings(data.get("settings")),
    )
    _known(data, SESSION_KEYS, "the session file")
    return session


def _known(data: Mapping[str, Any], keys: Iterable[str], where: str) -> None:
    """Refuse a key nobody reads (a misspelling): it would change the result in silence."""
    check_keys(data, keys, where, SessionKeyError)


def _carry(value: Any) -> dict[str, dict[str, int]]:
    """``carry: {Anna: {obstruction: 1}}``: MCR infraction counts from earlier sessions of the
    tournament that are not given with this one (seed 000 E 3.6: only these two carry over)."""
    from mahjong_camera_scorer.scoring.session.penalties import CARRIED

    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SessionError(f"carry: map each player to {{{', '.join(CARRIED)}: count}}, got {show(value)}")
    out: dict[str, dict[str, int]] = {}
    for name, counts in value.items():
        name = _name(name, "carry")
        where = f"carry.{name}"
        if not isinstance(counts, Mapping):
            raise SessionError(f"{where}: give {{{', '.join(CARRIED)}: count}}, got {show(counts)}")
        for kind, n in counts.items():
            if kind not in CARRIED:
                raise SessionError(
                    f"{where}: only {' and '.join(CARRIED)} carry over to the next session "
                    f"(seed 000 E 3.6), not {show(kind)}"
                )
            count = whole_number(n, f"{where}.{kind}", 0, MAX_ITEMS)
            if count is None:
                raise SessionError(f"{where}.{kind}: a count 0..{MAX_ITEMS}, got {show(n)}")
            out.setdefault(name, {})[str(kind)] = count
    return out


def _settings(value: Any) -> dict[str, str]:
    """``settings: {ties: share, oka: 0}``: the session's choices where tournaments differ."""
    from mahjong_camera_scorer.scoring.session.closing import check_settings

    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SessionError(f"settings: NAME: value pairs, got {show(value)}")
    out = {str(k): _scalar(v, f"settings.{k}").strip().lower() for k, v in value.items()}
    check_settings(out)
    return out


def _scalar(value: Any, where: str) -> str:
    """A one-word field (a name, a seat, a number) as text; a list or an object is an error, never
    turned into text (an alias bomb's text is hundreds of megabytes), and so is a control character
    (an escape code in a name would reach the terminal and the sheet)."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float | str):
        text = str(value)
        if len(text) > 256:
            raise SessionError(f"{where}: {len(text)} characters is too long for this field")
        bad = control_character(text)
        if bad:
            raise SessionError(f"{where}: holds a control character ({bad}): write it without")
        return text
    raise SessionError(f"{where}: expected a name or a number, got {type(value).__name__} {show(value)}")


def _name(value: Any, where: str) -> str:
    """A name as the session compares it (:func:`scoring.clean_text.same_name`): "Bruno" with a
    zero-width space or in fullwidth letters is Bruno."""
    return same_name(_scalar(value, where))


def _player(data: Any, where: str) -> Player:
    if not isinstance(data, Mapping) or not data.get("name") or not _name(data["name"], f"{where}.name"):
        raise SessionError(f"{where}: a player is {{name, seat}}, got {show(data)}")
    _known(data, PLAYER_KEYS, where)
    seat = _words(wind, _scalar(data.get("seat"), f"{where}.seat"), f"{where}.seat")
    sub = _scalar(data.get("substitute"), f"{where}.substitute").strip()
    if sub not in ("", "from_start", "joined"):
        raise SessionError(f"{where}: substitute is from_start or joined, not {show(sub)}")
    return Player(
        _name(data["name"], f"{where}.name"),
        seat,
        _name(data.get("number"), f"{where}.number"),
        sub,
    )


def _as_list(value: Any, where: str) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [same_name(v) for v in _scalar(value, where).replace(",", " ").split() if v]
    if isinstance(value, list) and len(value) <= MAX_ITEMS and all(isinstance(v, str | int) for v in value):
        return [_name(v, where) for v in value]
    raise SessionError(f"{where}: expected a list of names or codes, got {show(value)}")


def _in_range(row: SessionEntry) -> None:
    """Numbers a referee writes, each in the range the rules give it (a wrong sign changes money)."""
    for name in ("honba", "sticks"):
        n = getattr(row, name)
        if n is not None and not 0 <= n <= MAX_COUNTER:
            raise SessionError(f"{row.line}.{name}: a count 0..{MAX_COUNTER}, got {n}")
    if row.minutes is not None and not 1 <= row.minutes <= MAX_MINUTES:
        raise SessionError(
            f"{row.line}.minutes: a lateness is at least 1 minute (seed 000 E 2.3, 001 §5.6), "
            f"got {row.minutes}"
        )
    if row.points is not None and not 0 <= row.points <= MAX_PENALTY:
        raise SessionError(
            f"{row.line}.points: penalty points are written as a deduction 0..{MAX_PENALTY}, got {row.points}"
        )


def _kind_of(data: Mapping[str, Any], where: str) -> str:
    if "kind" in data:
        kind = _scalar(data["kind"], f"{where}.kind").strip().lower()
    elif "chombo" in data:
        kind = "chombo"
    elif "penalty" in data:
        kind = "penalty"
    elif "draw" in data and "hand" not in data and "photo" not in data:
        kind = "draw"
    else:
        kind = "hand"
    if kind not in ROW_KINDS:
        raise SessionError(f"{where}: kind must be one of {', '.join(ROW_KINDS)}, not {show(kind)}")
    return kind


def _row(data: Any, where: str) -> SessionEntry:
    if not isinstance(data, Mapping):
        raise SessionError(f"{where}: a row is an object (a hand, a draw or a penalty), got {show(data)}")
    kind = _kind_of(data, where)
    _known(data, ROW_KEYS[kind], f"{where} ({kind})")
    row = SessionEntry(kind=kind, line=where)
    hand = data.get("hand")
    if hand is not None and not isinstance(hand, str | Mapping):
        raise SessionError(f"{where}.hand: give the notation or the structured form, got {show(hand)}")
    if isinstance(hand, Mapping):  # a typed hand's keys are the structured form's: a typo is the file's
        _known(hand, KNOWN_KEYS, f"{where}.hand")
    row.hand = dict(hand) if isinstance(hand, Mapping) else hand
    for name in _STR_FIELDS:
        value = data.get(name)
        if value is not None and value != "":
            clean = _scalar if name == "photo" else _name  # a path as written; a name as compared
            setattr(row, name, clean(value, f"{where}.{name}").strip())
    if kind == "penalty" and not row.infraction:
        row.infraction = _scalar(data.get("penalty"), f"{where}.penalty").strip()
    if kind == "chombo":
        row.player = row.player or (
            _name(data["chombo"], f"{where}.chombo") if isinstance(data.get("chombo"), str) else None
        )
        row.infraction = row.infraction or "chombo"
    for name in _LIST_FIELDS:
        setattr(row, name, _as_list(data.get(name), f"{where}.{name}"))
    row.flags = sorted(_words(flag_names, row.flags, f"{where}.flags"))  # as every front end reads them
    for name in _INT_FIELDS:
        setattr(row, name, whole_number(data.get(name), f"{where}.{name}"))
    draw = data.get("draw")
    row.draw = (
        ""
        if draw in (None, False)
        else ("exhaustive" if draw is True else _scalar(draw, f"{where}.draw").strip().lower())
    )
    if row.draw not in ("", "exhaustive", "abortive"):
        raise SessionError(f"{where}.draw: exhaustive or abortive, not {show(draw)}")
    if kind == "draw" and not row.draw:
        row.draw = "exhaustive"
    others = data.get("others") or {}
    if isinstance(others, str):
        others = _others_from_text(others, f"{where}.others")
    if not isinstance(others, Mapping):
        raise SessionError(f"{where}.others: map each other player to a hand or a score")
    for name, entry in others.items():
        if isinstance(entry, Mapping):
            _known(entry, KNOWN_KEYS, f"{where}.others.{_scalar(name, f'{where}.others')}")
    row.others = {_name(k, f"{where}.others") if isinstance(k, str) else k: v for k, v in others.items()}
    row.confirmed = _as_bool(data.get("confirmed", False), f"{where}.confirmed")
    row.same_discard = _as_bool(data.get("same_discard", False), f"{where}.same_discard")
    row.serious = _as_bool(data.get("serious", False), f"{where}.serious")
    row.opponents_exposed = _as_bool(data.get("opponents_exposed", False), f"{where}.opponents_exposed")
    _in_range(row)
    if row.win_by is not None:
        row.win_by = _words(win_by, row.win_by, f"{where}.win_by")
        if row.win_by == "self_draw" and row.discarder:
            raise SessionError(f"{where}: a self-drawn win (tsumo) has no discarder: remove one of them")
        if row.win_by == "self_draw" and row.same_discard:
            raise SessionError(f"{where}: same_discard is a win on a discard, not a self-drawn one")
    row.options = _words(option_values, data.get("options") or {}, f"{where}.options")
    if data.get("reading") is not None:
        row.reading = _reading(data["reading"], f"{where}.reading")
        if not row.photo:
            raise SessionError(f"{where}: a photo's reading names its photo ('photo')")
    if kind == "hand" and row.hand is None and row.photo is None:
        raise SessionError(f"{where}: a hand row needs 'hand' (typed) or 'photo' (a path)")
    if kind == "penalty" and (not row.player or not row.infraction):
        raise SessionError(f"{where}: a penalty needs 'player' and the infraction ('penalty: NAME')")
    if kind == "chombo" and not row.player:
        raise SessionError(f"{where}: a chombo row names the offender ('chombo: NAME')")
    return row


def _words(read: Any, value: Any, where: str) -> Any:
    """A situation's word read as every front end reads it (:mod:`scoring.situation_words`), its
    refusal a :class:`SessionError` naming the row."""
    try:
        return read(value, where)
    except HandError as exc:
        raise SessionError(str(exc)) from None


def _reading(data: Any, where: str) -> PhotoHand:
    """A photo already read (by the phone page): the hand as laid out and what is left to check."""
    if not isinstance(data, Mapping):
        raise SessionError(f"{where}: a reading is {{hand, tiles, flagged, warnings}}, got {show(data)}")
    hand = data.get("hand")
    if hand is not None and not isinstance(hand, Mapping):
        raise SessionError(f"{where}.hand: give the structured form of the hand as read, got {show(hand)}")
    tiles = data.get("tiles") or ""
    if not isinstance(tiles, str):
        raise SessionError(f"{where}.tiles: the tiles as read, as one string, got {show(tiles)}")
    error = data.get("error")
    read: Hand | None = None
    if hand is not None:
        try:
            read = hand_from_dict(hand)
        except HandError as exc:  # a reading that is no hand: its line is not scored, and says why
            error = error or str(exc)
    return PhotoHand(
        read,
        tiles=tiles,
        flagged=_texts(data.get("flagged"), f"{where}.flagged"),
        warnings=_texts(data.get("warnings"), f"{where}.warnings"),
        error=_scalar(error, f"{where}.error") if error else None,
    )


def _texts(value: Any, where: str) -> list[str]:
    """A list of sentences (a single string is one sentence: never split)."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and len(value) <= MAX_ITEMS and all(isinstance(v, str) for v in value):
        return list(value)
    raise SessionError(f"{where}: expected a list of texts, got {show(value)}")


def _as_bool(value: Any, where: str = "") -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, str | int) else None
    if text in ("true", "yes", "1", "y"):
        return True
    if text in ("false", "no", "0", "n", ""):
        return False
    raise SessionError(f"{where}: yes or no, not {show(value)}")


def _others_from_text(text: str, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep:
            raise SessionError(f"{where}: entries are Name=score or Name=<hand>, got {show(part)}")
        name, value = _name(name, where), value.strip()
        # a score is a number by the one rule (``1_000`` and ``١٢`` are refused), else a hand
        number = re.fullmatch(r"[+-]?[\d_]+", value) is not None
        out[name] = whole_number(value, f"{where}.{name}") if number else value
    return out


# ------------------------------------------------------------------------------------------------
# CSV
# ------------------------------------------------------------------------------------------------
def parse_csv(text: str) -> Session:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "kind" not in [f.strip() for f in reader.fieldnames]:
        raise SessionError("a session CSV needs a header line with a 'kind' column")
    unknown = [f for f in reader.fieldnames if f and f.strip() not in CSV_COLUMNS]
    if unknown:
        raise SessionError(f"unknown CSV column {show(unknown[0])} (columns: {', '.join(CSV_COLUMNS)})")
    meta: dict[str, str] = {}
    players: list[Player] = []
    rows: list[SessionEntry] = []
    for record in reader:
        where = f"line {reader.line_num}"
        rec = {k.strip(): (v or "").strip() for k, v in record.items() if k}
        kind = rec.get("kind", "").lower()
        if not kind or kind.startswith("#"):
            continue
        if len(rows) >= MAX_ROWS or len(players) > 4:  # as a YAML file's: before the rest is read
            raise SessionError(
                f"{where}: a table's session has 4 players and at most {MAX_ROWS} rows; this file has more"
            )
        if kind in ("tournament", "session", "table", "rules"):
            value = rec.get("value", "")
            meta[kind] = session_label(value, f"{where} ({kind})") if kind in ("session", "table") else value
        elif kind == "player":
            players.append(_player({k: rec.get(k) for k in ("name", "seat", "number", "substitute")}, where))
        elif kind in ROW_KINDS:
            data: dict[str, Any] = {k: v for k, v in rec.items() if v != ""}
            if kind == "hand" and isinstance(data.get("hand"), str) and data["hand"].startswith("{"):
                try:
                    data["hand"] = parse_json(data["hand"])
                except HandError as exc:
                    raise SessionError(f"{where}: the hand's JSON: {exc}") from None
            if kind == "chombo" and "player" in data:
                data["chombo"] = data["player"]
            rows.append(_row(data, where))
        else:
            raise SessionError(
                f"{where}: kind {show(kind)} is not one of tournament, session, table, rules, "
                f"player, {', '.join(ROW_KINDS)}"
            )
    return Session(
        meta.get("tournament", ""),
        meta.get("session", ""),
        meta.get("table", ""),
        players,
        rows,
        rules=meta.get("rules") or None,
    )
