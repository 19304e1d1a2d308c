"""The scoring commands, run in-process: readable output, JSON shape, batch behaviour, errors."""

import io
import json
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring import cli, rules
from tests.spec_vectors import load_vectors


def run(argv, stdin=None, monkeypatch=None):
    out = io.StringIO()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    parser, _ = cli.build_parser()
    code = cli.run(parser, argv, out)
    return code, out.getvalue()


def test_hand_text_breakdown():
    code, out = run(["hand", "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m", "--rules", "riichi"])
    assert code == 0
    assert "Riichi" in out and "Itsu" in out and "mangan" in out.lower()
    assert "🀈" in out  # the tiles as glyphs


def test_hand_json_has_the_documented_keys():
    code, out = run(["hand", "678m99p12345678s ron 9s seat=S riichi dora=1z", "--rules", "riichi", "--json"])
    data = json.loads(out)
    assert code == 0
    assert {"valid", "error", "elements", "total", "unit", "han", "fu", "points"} <= data.keys()
    assert data["points"] == {"ron": 7700} and data["han"] == 4 and data["fu"] == 30


def test_structured_json_input():
    hand = {
        "hand": "55p123456789s",
        "melds": [{"type": "chow", "tiles": "234m", "open": True}],
        "winning_tile": "9s",
        "win_by": "discard",
        "seat_wind": "S",
        "round_wind": "E",
        "dora_indicators": ["6s"],
    }
    code, out = run(["hand", json.dumps(hand), "--rules", "riichi", "--json"])
    assert code == 0 and json.loads(out)["points"] == {"ron": 2000}


def test_not_a_win_exits_1_with_reason():
    code, out = run(["hand", "123m456p789s1234z ron 5z", "--rules", "riichi", "--json"])
    data = json.loads(out)
    assert code == 1 and data["valid"] is False and "not a winning hand" in data["error"]


def test_unreadable_hand_is_one_error_line(capsys):
    code, out = run(["hand", "123q", "--rules", "riichi"])
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.startswith("mahjong-score: error:") and "unexpected character" in err
    assert "Traceback" not in err


def test_bad_option_is_reported(capsys):
    # an unknown option is bad input (exit 2, as the README says), not a hand that failed to win
    code, out = run(["hand", "234m55p12345678s tsumo 9s", "--rules", "riichi", "--json", "-o", "nosuch=1"])
    assert code == 2 and "unknown option 'nosuch'" in json.loads(out)["error"]
    code, out = run(["hand", "234m55p12345678s tsumo 9s option:nosuch=1", "--rules", "riichi"])
    assert code == 2 and out == "" and "unknown option 'nosuch'" in capsys.readouterr().err
    code, _ = run(["hand", "234m55p12345678s tsumo 9s", "--rules", "riichi", "-o", "novalue"])
    assert code == 2 and "NAME=VALUE" in capsys.readouterr().err


@pytest.mark.parametrize("system", ["riichi", "mcr", "zung-jung"])
def test_an_unknown_flag_is_bad_input_where_the_rules_refuse_it(system, capsys):
    # a typo in a flag is bad input (exit 2), not a hand that failed to win (exit 1)
    code, out = run(["hand", "234m55p12345678s tsumo 9s seat=S ipatsu", "--rules", system])
    err = capsys.readouterr().err
    assert code == 2 and out == "" and "unknown flag(s) for" in err and "ipatsu" in err
    assert err.count("\n") == 1
    code, out = run(["hand", "234m55p12345678s tsumo 9s seat=S ipatsu", "--rules", system, "--json"])
    assert code == 2 and "ipatsu" in json.loads(out)["error"]


def test_systems_that_ignore_unknown_flags_still_score(capsys):
    # classical notes a flag it does not use, australian reads only its own: both still score
    for system in ("classical", "australian"):
        code, _ = run(["hand", "22277799p 66z [444p] ron 9p seat=S round=E bogus", "--rules", system])
        assert code in (0, 1) and "unknown flag" not in capsys.readouterr().err


def test_a_session_with_an_unknown_option_is_bad_input(capsys):
    code, _ = run(["session", str(EXAMPLES / "session-mcr.yaml"), "--rules", "mcr", "-o", "nosuch=1"])
    err = capsys.readouterr().err
    assert code == 2 and "unknown option 'nosuch'" in err and err.count("\n") == 1


def test_hands_batch_keeps_order_and_survives_bad_lines(monkeypatch):
    good = {
        "hand": "234m55p123456789s",
        "winning_tile": "9s",
        "win_by": "self_draw",
        "seat_wind": "S",
        "flags": ["riichi"],
    }
    lines = [
        json.dumps(good),
        "not json",
        "",
        json.dumps({"hand": "11q"}),
        json.dumps({**good, "seat_wind": "E"}),
    ]
    code, out = run(["hands", "-", "--rules", "riichi"], "\n".join(lines) + "\n", monkeypatch)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 5
    assert [r["valid"] for r in results] == [True, False, False, False, True]
    assert "not valid JSON" in results[1]["error"] and results[2]["error"] == "empty line"
    assert "unexpected character" in results[3]["error"]
    assert results[4]["points"] == {"tsumo_others_pay": 4000}


def test_hands_names_a_hand_of_the_wrong_size_or_a_fifth_copy(monkeypatch):
    """Not "no winning tile: say which": the count, or the copies (issue 38 item 3)."""
    lines = [
        json.dumps({"hand": "234m55p12345678s"}),  # 13 tiles
        json.dumps({"hand": "55555m123p456789s", "winning_tile": "9s"}),
    ]
    code, out = run(["hands", "-", "--rules", "riichi"], "\n".join(lines) + "\n", monkeypatch)
    short, five = (json.loads(line) for line in out.splitlines())
    assert code == 0 and not short["valid"] and not five["valid"]
    assert short["error"] == "13 concealed tiles with 0 declared sets: one tile short of a won hand"
    assert five["error"] == "5 copies of 5m: a set has only 4"


def test_hands_missing_file(capsys, tmp_path):
    code, _ = run(["hands", str(tmp_path / "nope.jsonl"), "--rules", "riichi"])
    assert code == 2 and "no such file" in capsys.readouterr().err


def test_unknown_rules_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        run(["hand", "11m", "--rules", "klingon"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_rules_not_built_say_so(monkeypatch, capsys):
    monkeypatch.setitem(rules.RULE_SYSTEMS, "mcr", "mahjong_camera_scorer.scoring.not_written_yet")
    code, _ = run(["hand", "11m", "--rules", "mcr"])
    assert code == 2 and "not built yet" in capsys.readouterr().err


def test_table_needs_a_system_with_losers_scores(capsys, tmp_path):
    f = tmp_path / "t.json"
    f.write_text('{"players": {}}')
    code, _ = run(["table", str(f), "--rules", "riichi"])
    assert code == 2 and "'table' is for australian and classical" in capsys.readouterr().err


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("rules", "net"),
    [
        ("australian", {"E": 200, "S": 1200, "W": -700, "N": -700}),
        ("classical", {"E": -180, "S": -90, "W": 390, "N": -120}),
    ],
)
def test_table_examples_in_the_readme(rules, net):
    code, out = run(["table", str(EXAMPLES / f"table-{rules}.yaml"), "--rules", rules, "--json"])
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["net"] == net
    assert sum(data["net"].values()) == 0


# -- the one parser, joker melds included ----------------------------------------------------------
GOULASH_ID = "aus-goulash-joker-second-pung-of-same-tile"
#: the same hand as the vector, typed: the 2s of bamboo in a meld are jokers when flag 'jokers' is on
GOULASH_TYPED = "111m4z [555m] [5m2s2s] [888m] tsumo 4z seat=S goulash jokers"


def _goulash_vector() -> dict:
    found = [v for v in load_vectors("australian") if v["id"] == GOULASH_ID]
    if not found:
        pytest.skip("../shared/rules/australian.md not available")
    not_hand = ("id", "source", "notes", "expected", "constructed")
    return {k: v for k, v in found[0].items() if k not in not_hand}


def test_goulash_joker_vector_through_hand_and_hands(monkeypatch):
    data = _goulash_vector()
    assert data["melds"][1]["tiles"] == "5m2s2s"
    code, out = run(["hand", json.dumps(data), "--rules", "australian", "--json"])
    assert code == 0 and json.loads(out)["total"] == 288, out
    code, out = run(["hands", "-", "--rules", "australian"], json.dumps(data) + "\n", monkeypatch)
    assert code == 0 and json.loads(out)["total"] == 288, out


def test_joker_melds_typed_and_at_a_table(tmp_path):
    code, out = run(["hand", GOULASH_TYPED, "--rules", "australian"])
    assert code == 0 and "Exposed pung 5m+2 jokers (= 555m)" in out and "288 points" in out
    assert "[5m22s]" in out  # printed back as shown at the table
    table = {
        "round_wind": "E",
        "flags": ["goulash"],
        "players": {
            "E": {"role": "loser", "score": 0},
            "S": {
                "role": "winner",
                "hand": "111m44z",
                "melds": [
                    {"type": "pung", "tiles": "555m"},
                    {"type": "pung", "tiles": "5m2s2s"},
                    {"type": "pung", "tiles": "888m"},
                ],
                "winning_tile": "4z",
                "win_by": "self_draw",
                "flags": ["jokers"],
            },
            "W": {"role": "loser", "score": 0},
            "N": {"role": "loser", "score": 0},
        },
    }
    f = tmp_path / "table.json"
    f.write_text(json.dumps(table))
    code, out = run(["table", str(f), "--rules", "australian", "--json"])
    data = json.loads(out)
    assert code == 0 and data["hands"]["S"]["total"] == 288
    assert data["net"]["S"] == 600 + 300 + 300 + 300  # and the Goulash pot, 4 x 100


def test_joker_melds_in_a_session(tmp_path):
    f = tmp_path / "session.yaml"
    f.write_text(
        "players: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"
        "hands:\n"
        "  - {draw: exhaustive}\n"  # a Goulash follows a dead hand (seed 003), on its seats
        f"  - {{hand: '{GOULASH_TYPED.replace(' seat=S', '')}', winner: Bruno,"
        " others: {Anna: 0, Carla: 0, Dario: 0}}\n"
    )
    code, out = run(["session", str(f), "--rules", "australian", "--json"])
    line = json.loads(out)["lines"][1]
    assert code == 0 and line["value"] == 288, line


# -- hostile input: one error line, the documented exit status, never a traceback ---------------
HOSTILE_HANDS = [
    ("123m456p789s²z", "'²' (SUPERSCRIPT TWO: only the digits 0-9 number a tile)"),
    ("١٢٣m456p789s1122z ron 2z", "ARABIC-INDIC DIGIT ONE"),
    ('{"melds": 5}', "melds: expected a list, got int 5"),
    ('{"hand": 7}', "hand: expected a tile string"),
    ('{"hand": "11m", "flags": [{}]}', "flags[0]: expected text"),
    ('{"hand": "11m", "honba": true}', "honba must be a whole number"),
    ('{"hand": "11m", "honba": 100000000000000000000000000000}', "from 0 to 100"),
    ('{"hand": "11m", "options": {"limit": [1]}}', "is not NAME: value"),
    ('{"hand": "11m", "discarder": ["E"]}', "discarder: expected text"),
    ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested too deeply"),
    ('{"hand": ' + "[" * 100_000, "nested too deeply"),
    ("M", "cannot read 'M'"),
    ("123m456p789s1122z ron 2z honba=²", "honba must be a whole number"),
    ("1m" * 1000, "too long for one hand"),
]


@pytest.mark.parametrize(("text", "message"), HOSTILE_HANDS, ids=range(len(HOSTILE_HANDS)))
def test_hostile_hand_is_one_error_line(text, message, capsys):
    code, out = run(["hand", text, "--rules", "riichi"])
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mahjong-score: error:") and message in err, err[:300]
    code, out = run(["hand", text, "--rules", "riichi", "--json"])
    data = json.loads(out)
    assert code == 2 and data["valid"] is False and message in data["error"]


@pytest.mark.parametrize("key", ["flag", "dora_indicator"])
def test_a_misspelled_key_is_one_error_line_naming_the_known_keys(key, capsys, monkeypatch, tmp_path):
    """``flag: [riichi]`` or ``dora_indicator:`` were dropped in silence: 4 han instead of 5
    (issue 36 item 4). ``hand`` and ``table`` refuse the file (exit 2); ``hands`` gives that line
    an invalid result with the same message and goes on, as for any bad line of a batch."""
    hand = {"hand": "234m55p123456789s", "winning_tile": "9s", "win_by": "self_draw", key: ["1z"]}
    code, out = run(["hand", json.dumps(hand), "--rules", "riichi"])
    err = capsys.readouterr().err
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"the hand: unknown key '{key}' (known keys: bonus_tiles, " in err and "flags" in err
    good = {k: v for k, v in hand.items() if k != key}
    lines = f"{json.dumps(hand)}\n{json.dumps(good)}\n"
    code, out = run(["hands", "-", "--rules", "riichi"], lines, monkeypatch)
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 0 and not first["valid"] and f"unknown key '{key}'" in first["error"] and second["valid"]
    table = {"players": {s: {"role": "loser", "score": 0} for s in "ESWN"}, "round_winds": "E"}
    (tmp_path / "t.json").write_text(json.dumps(table))
    for rules_ in ("australian", "classical"):
        code, out = run(["table", str(tmp_path / "t.json"), "--rules", rules_])
        err = capsys.readouterr().err
        assert code == 2 and out == "" and "the table: unknown key 'round_winds' (known keys: " in err


def test_unreadable_files_are_one_error_line(tmp_path, capsys):
    (tmp_path / "folder.json").mkdir()
    binary = tmp_path / "hand.json"
    binary.write_bytes(b'{"hand": "\xff11m"}')
    # YAML alias bombs: a few hundred bytes that expand to 9^8 items when walked or printed
    rows = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    rows += [f"{b}: &{b} [{', '.join(['*' + a] * 9)}]" for a, b in zip("abcdefg", "bcdefgh", strict=True)]
    # the hand and the table refuse keys they do not know: their anchors sit in a field read later
    anchors = "[" + ", ".join(r.split(": ", 1)[1] for r in rows) + "]"
    bombs = {
        "hand": f"hand: 11m\ndora_indicators: {anchors}\nflags: *h\n",
        "table": f"players: {{E: {{role: loser, hand: 11m, dora_indicators: {anchors}, flags: *h}},"
        " S: {role: winner, score: 10}, W: {role: loser, score: 0}, N: {role: loser, score: 0}}\n",
        "session": "\n".join(rows) + "\ntournament: *h\nplayers: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"
        "hands: []\n",
    }
    for name, body in bombs.items():
        (tmp_path / f"{name}-bomb.yaml").write_text(body)
    cases = [
        (["hand", str(tmp_path / "folder.json")], 2, "no such file"),
        (["hand", str(binary)], 2, "not UTF-8"),
        (["hand", str(tmp_path / "hand-bomb.yaml")], 2, "flags[0]: expected text, got list [[...], [...]"),
        (["table", str(binary)], 2, "not UTF-8"),
        (["hands", str(tmp_path / "folder.json")], 2, "no such file"),
        (["session", str(tmp_path / "session-bomb.yaml")], 2, "tournament: expected a name or a number"),
    ]
    for argv, status, message in cases:
        code, out = run([*argv, "--rules", "classical"])
        err = capsys.readouterr().err
        assert code == status and err.count("\n") == 1 and message in err, (argv, err[:300])
    for rules_ in ("australian", "classical"):
        code, out = run(["table", str(tmp_path / "table-bomb.yaml"), "--rules", rules_])
        assert code == 1 and "flags[0]: expected text" in out and len(out) < 300, out[:300]


def test_hands_batch_goes_on_after_every_kind_of_bad_line(monkeypatch):
    good = json.dumps({"hand": "234m55p123456789s", "winning_tile": "9s", "win_by": "self_draw"})
    bad = [
        b'{"melds": 5}',
        ('{"a":' * 50_000 + "1" + "}" * 50_000).encode(),
        ("[" * 50_000).encode(),
        '{"hand": "123m456p789s²z"}'.encode(),
        '{"hand": "١٢٣m456p789s1122z", "winning_tile": "2z"}'.encode(),
        b'{"hand": "\xff\xfe"}',
        b"5",
        b"null",
        b'{"hand": "11m", "options": {"a": {"b": 1}}}',
        b"1" * 5000,
        b'{"hand": "11m", "honba": 1e29}',
    ]
    lines = [good.encode()]
    for line in bad:
        lines += [line, good.encode()]
    stdin = io.TextIOWrapper(io.BytesIO(b"\n".join(lines) + b"\n"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    code, out = run(["hands", "-", "--rules", "riichi"])
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 2 * len(bad) + 1
    assert all(r["valid"] and r == results[0] for r in results[::2])
    for line, r in zip(bad, results[1::2], strict=True):
        assert r["valid"] is False and r["error"] and len(r["error"]) < 300, (line[:40], r)
        assert not r["error"].startswith("internal error"), r["error"]


def test_a_hand_typed_without_its_winning_tile_is_scored_with_every_candidate():
    code, out = run(["hand", "234m55p123456789s riichi", "--rules", "riichi"])
    assert code == 0 and "scored as if 2m won, the best of 13 candidate(s)" in out
    assert "ron TILE" in out and out.count("  * ") == 1 and "Total      4 han" in out
    code, out = run(["hand", "234m55p123456789s riichi", "--rules", "riichi", "--json"])
    record = json.loads(out)
    assert code == 0 and record["valid"] and record["scored_winning_tile"] == "2m"
    assert len(record["candidates"]) == 13 and record["candidates"][0]["tile"] == "2m"
    # a hand short of a tile has no candidate: its count and its waits, never "no winning tile"
    code, out = run(["hand", "234m55p12345678s riichi", "--rules", "riichi"])
    assert code == 1 and "13 concealed tiles with 0 declared sets: one tile short of a won hand" in out
    assert "no winning tile" not in out and "candidate" not in out


def test_the_language_is_chosen_on_the_command_line_only(monkeypatch):
    # --lang it: the score's lines in Italian, the seed's own terms; without it, English, whatever
    # the machine's LANG says (a script reading the text gets the same bytes everywhere)
    hand = "123m456p789s5556z ron 6z seat=S discarder=E"
    code, italian = run(["hand", hand, "--rules", "mcr", "--lang", "it"])
    assert code == 0 and "Regole: mcr" in italian and "Serpente nei Tre Semi" in italian
    assert "Pagamenti: E -21, S +37, O -8, N -8" in italian and "Mixed Straight" not in italian
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")
    code, english = run(["hand", hand, "--rules", "mcr"])
    assert "Rules: mcr" in english and "Mixed Straight" in english and "Settlement: E -21" in english
    # the JSON has no language: the same with either
    as_json = ["hand", hand, "--rules", "mcr", "--json"]
    assert run([*as_json, "--lang", "it"]) == run(as_json)


def test_an_unknown_language_is_bad_input(capsys):
    with pytest.raises(SystemExit) as exc:
        run(["hand", "123m456p789s5556z ron 6z", "--rules", "mcr", "--lang", "fr"])
    assert exc.value.code == 2 and "invalid choice: 'fr'" in capsys.readouterr().err


def test_python_m_scoring_scores_a_hand_with_the_pure_python_package_alone():
    """``python -m scoring hand`` stays a command of its own: it imports neither the photo
    pipeline nor its libraries, and the hand is scored as by ``mahjong-score``."""
    import subprocess
    import sys

    probe = (
        "import runpy, sys\n"
        "sys.argv = ['scoring', 'hand', '234m55p12345678s tsumo 9s seat=S riichi', '--rules', 'riichi']\n"
        "try:\n    runpy.run_module('scoring', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exc:\n"
        "    heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('vision', 'numpy', 'cv2'))\n"
        "    print('exit', exc.code, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert "Riichi" in done.stdout and done.stdout.splitlines()[-1] == "exit 0 []", done.stdout + done.stderr
