"""Which rule systems exist and where their scorers live.

Each scorer module exposes ``NAME``, ``OPTIONS`` (a table of :class:`scoring.options.Option`) and
``score(hand, options) -> Score``; a system that refuses situation flags it does not know lists
its own as ``FLAGS``. Modules are imported on first use, so scoring one system never
loads the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType

from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.options import Option, resolve
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.tile_counts import count_problem

RULE_SYSTEMS: dict[str, str] = {
    "mcr": "mahjong_camera_scorer.scoring.mcr",
    "riichi": "mahjong_camera_scorer.scoring.riichi",
    "zung-jung": "mahjong_camera_scorer.scoring.zung_jung",
    "australian": "mahjong_camera_scorer.scoring.australian",
    "classical": "mahjong_camera_scorer.scoring.classical",
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
        chosen = resolve(module.OPTIONS, hand.context.options, options or {})
    except (HandError, RulesNotBuilt) as exc:
        return Score.invalid(rules, str(exc))
    result: Score = module.score(hand, chosen)
    return result


def score_or_invalid(
    hand: Hand | None,
    rules: str,
    options: Mapping[str, str] | None = None,
    *,
    hand_error: str | None = None,
    problems: Sequence[str] = (),
    on_bug: Callable[[Exception], None] | None = None,
) -> Score:
    """``hand``'s score under ``rules``, never an exception: a hand that could not be built
    (None, ``hand_error`` says why), a scorer's refusal or a scorer's bug is an invalid score with
    the reason; the layout's ``problems`` are added to an invalid score's reason, so the player
    sees why the tiles did not make a hand. ``on_bug``: told of a scorer's bug (the web app logs
    it with its traceback)."""
    if hand is None:
        score = Score.invalid(rules, hand_error or "no hand")
    else:
        try:
            score = score_hand(hand, rules, dict(options or {}))
        except HandError as exc:
            score = Score.invalid(rules, str(exc))
        except Exception as exc:  # a scorer bug must not stop a batch, the page or the camera
            if on_bug is not None:
                on_bug(exc)
            score = Score.invalid(rules, f"internal error while scoring: {type(exc).__name__}: {exc}")
        # tiles no winning tile completes (12 of them, a fifth 5m) are told so, not "say which
        # tile completed the hand"
        problem = count_problem(hand) if not score.valid and hand.context.winning_tile is None else None
        if problem:
            score = Score.invalid(rules, problem)
    return with_problems(score, problems)


def with_problems(score: Score, problems: Sequence[str]) -> Score:
    """An invalid score with the layout's problems added to its reason (a valid one as it is)."""
    if problems and not score.valid:
        return Score.invalid(score.rules, f"{score.error or 'not a win'}; layout: {'; '.join(problems)}")
    return score
