"""The score of a hand, the same shape for every rule system.

``elements`` maps each scoring element (named exactly as in the spec tables) to its value;
``total`` and ``unit`` say what they add up to (han, points, fan…). ``payments`` says who pays
whom, in one typed list for every system (:class:`scoring.payments.Payment`): the CLI, the web
page and the session read only that. ``details`` carries the facts particular to a system
(riichi's ``han``, ``fu``, ``fu_breakdown`` and ``points``; a table's ``net``), and goes into the
JSON output beside the common keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, element_name, render, translator
from mahjong_camera_scorer.scoring.payments import Payment


@dataclass(slots=True)
class Score:
    rules: str
    valid: bool
    error: str | None = None
    elements: dict[str, int] = field(default_factory=dict)
    total: int | str = 0  # Australian: "all_chips" for a hand that takes every chip
    unit: str = "points"
    details: dict[str, Any] = field(default_factory=dict)
    #: Human lines explaining the breakdown (fu items, limit names, payments): each the English
    #: line, a :class:`scoring.i18n.Msg` where the scorer words it for every language
    #: (:meth:`note_lines` renders it in the reader's).
    notes: list[str] = field(default_factory=list)
    #: Who pays whom for this hand (empty when the input does not say enough to settle it).
    payments: list[Payment] = field(default_factory=list)

    @classmethod
    def invalid(cls, rules: str, reason: str, **details: Any) -> Score:
        """A hand that cannot win (or cannot be read): the precise reason, nothing thrown."""
        return cls(rules=rules, valid=False, error=reason, details=dict(details))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "valid": self.valid,
            "error": self.error,
            "elements": dict(self.elements),
            "total": self.total,
            "unit": self.unit,
        }
        out.update(self.details)
        out["payments"] = [p.as_dict() for p in self.payments]
        return out

    def render(self, lang: str = DEFAULT_LANG) -> str:
        """A readable breakdown in ``lang``: each element with its value (named in the seed's own
        terms in Italian), then the system's own lines. Every text front end prints this."""
        tr = translator(lang)
        lines = [tr("Rules: {rules}").format(rules=self.rules)]
        if not self.valid:
            lines.append(tr("Not a valid win: {reason}").format(reason=self.error))
        named = self.labelled_elements(lang)
        width = max((len(name) for name, _ in named), default=0)
        for name, value in named:
            lines.append(f"  {name:<{width}}  {value:>4}")
        if self.elements:
            lines.append(f"  {tr('Total'):<{width}}  {self.total:>4} {tr(self.unit)}")
        lines.extend(self.note_lines(lang))
        return "\n".join(lines)

    def labelled_elements(self, lang: str = DEFAULT_LANG) -> list[tuple[str, int]]:
        """Each element as a reader sees it in ``lang`` (:func:`scoring.i18n.element_name`), with
        its value; the keys of :attr:`elements` stay the spec's English names (the JSON's)."""
        return [(element_name(lang, self.rules, name), value) for name, value in self.elements.items()]

    def note_lines(self, lang: str = DEFAULT_LANG) -> list[str]:
        """The system's own lines (fu, limits, payments…) in ``lang``."""
        tr = translator(lang)
        return [render(note, tr) for note in self.notes]


class Deferred:
    """``Score(notes=Deferred(build))`` or ``Score(payments=Deferred(build))``: the field is built
    by ``build()`` on its first read and kept. Scorers use it so that callers who only want the
    hand's value (batch scoring, benchmarks) do not pay for formatting lines nobody prints or for
    payment rows nobody settles; reading the field, ``render()``, ``to_json()``, ``repr`` and
    ``==`` see the built value as before."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[], Any]) -> None:
        self.build = build


_T = TypeVar("_T")


def deferred(build: Callable[[], _T]) -> _T:
    """``Deferred(build)`` typed as the value it becomes on its first read (what callers see)."""
    return cast(_T, Deferred(build))


def _built_on_read(name: str) -> property:
    """The dataclass field ``name`` behind a property that builds a :class:`Deferred` value once.

    The field stays a dataclass field (constructor, fields(), repr, ==, pickling unchanged); only
    its reads go through the property."""
    slot = Score.__dict__[name]  # the slot the dataclass made for the field

    def read(self: Score) -> Any:
        value = slot.__get__(self, Score)
        if type(value) is Deferred:
            value = value.build()
            slot.__set__(self, value)
        return value

    return property(read, slot.__set__, doc=slot.__doc__)


setattr(Score, "notes", _built_on_read("notes"))  # noqa: B010 (a slot replaced by a property: no static type)
setattr(Score, "payments", _built_on_read("payments"))  # noqa: B010
