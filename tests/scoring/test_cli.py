"""The scoring commands, run in-process: readable output, JSON shape, batch behaviour, errors."""

import io
import json
from pathlib import Path

import pytest

from scoring import cli, rules


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
    code, out = run(["hand", "234m55p12345678s tsumo 9s", "--rules", "riichi", "--json", "-o", "nosuch=1"])
    assert code == 1 and "unknown option 'nosuch'" in json.loads(out)["error"]
    code, _ = run(["hand", "234m55p12345678s tsumo 9s", "--rules", "riichi", "-o", "novalue"])
    assert code == 2 and "NAME=VALUE" in capsys.readouterr().err


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


def test_hands_missing_file(capsys, tmp_path):
    code, _ = run(["hands", str(tmp_path / "nope.jsonl"), "--rules", "riichi"])
    assert code == 2 and "no such file" in capsys.readouterr().err


def test_unknown_rules_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        run(["hand", "11m", "--rules", "klingon"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_rules_not_built_say_so(monkeypatch, capsys):
    monkeypatch.setitem(rules.RULE_SYSTEMS, "mcr", "scoring.not_written_yet")
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
