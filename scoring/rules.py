"""Which rule systems exist and where their scorers live.

Each scorer module exposes ``NAME``, ``OPTIONS`` (a table of :class:`scoring.options.Option`) and
``score(hand, options) -> Score``; a system that refuses situation flags it does not know lists
its own as ``FLAGS``. Modules are imported on first use, so scoring one system never
loads the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from types import ModuleType

from scoring.hand import Hand, HandError
from scoring.options import Option, resolve
from scoring.result import Score

RULE_SYSTEMS: dict[str, str] = {
    "mcr": "scoring.mcr",
    "riichi": "scoring.riichi",
    "zung-jung": "scoring.zung_jung",
    "australian": "scoring.australian",
    "classical": "scoring.classical",
}


class RulesNotBuilt(LookupError):
    """The rule system is known but its scorer is not in this version."""


def scorer(rules: str) -> ModuleType:
    if rules not in RULE_SYSTEMS:
        raise HandError(f"unknown rules {rules!r}: choose one of {', '.join(RULE_SYSTEMS)}")
    try:
        return importlib.import_module(RULE_SYSTEMS[rules])
    except ModuleNotFoundError as exc:
        if exc.name == RULE_SYSTEMS[rules]:
            raise RulesNotBuilt(f"the {rules} scorer is not built yet in this version") from None
        raise


def options_of(rules: str) -> Mapping[str, Option]:
    options: Mapping[str, Option] = scorer(rules).OPTIONS
    return options


def check_context(rules: str, flags: Iterable[str] = (), *options: Mapping[str, str]) -> None:
    """What a front end checks before it scores anything: rule option names and values, and the
    flags ``rules`` refuses (those not in its ``FLAGS``; the systems without ``FLAGS`` ignore a
    flag they do not use). :class:`HandError` is bad input (exit 2), not a hand that is no win."""
    module = scorer(rules)
    resolve(module.OPTIONS, *options)
    known = getattr(module, "FLAGS", None)
    unknown = sorted(set(flags) - set(known)) if known is not None else []
    if unknown:
        raise HandError(
            f"unknown flag(s) for {rules}: {', '.join(unknown)} (flags: {', '.join(sorted(known or ()))})"
        )


def score_hand(hand: Hand, rules: str, options: Mapping[str, str] | None = None) -> Score:
    """Score ``hand`` under ``rules``; options from the hand, then ``options``, override defaults.

    Never raises for a bad hand: the reason is in ``Score.error``.
    """
    try:
        module = scorer(rules)
        chosen = resolve(module.OPTIONS, hand.options, options or {})
    except (HandError, RulesNotBuilt) as exc:
        return Score.invalid(rules, str(exc))
    result: Score = module.score(hand, chosen)
    return result
