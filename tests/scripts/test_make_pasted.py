"""The pasted-set script's drawn-face options (scripts/make_pasted.py): bad values are refused before
any real data is read."""

from __future__ import annotations

import pytest

from tests.mjsynth.mjsynth_testutil import needs_fonts
from tests.scripts.scriptutil import load_script


@pytest.mark.parametrize("fraction", ["-0.1", "1.5"])
def test_a_fraction_outside_zero_to_one_is_refused(fraction: str, capsys) -> None:
    assert load_script("make_pasted").main(["--proc-fraction", fraction]) == 2
    assert "--proc-fraction" in capsys.readouterr().err


@needs_fonts
def test_an_unknown_drawn_style_is_refused(capsys) -> None:
    assert load_script("make_pasted").main(["--proc-styles", "proc-riichi-ink,no-such-style"]) == 2
    assert "no-such-style" in capsys.readouterr().err
