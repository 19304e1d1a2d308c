"""Named rule options: the seeds' ambiguities and house choices, each with a documented default.

Every rule system declares its options as a table of :class:`Option`; a user picks values with
``--option NAME=VALUE`` on the command line or ``options: {NAME: VALUE}`` in the structured input.
Unknown names and values are errors with the list of what is allowed, never silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.errors import HandError
from mahjong_camera_scorer.scoring.fields import field_mapping, show
from mahjong_camera_scorer.scoring.situation_words import option_values


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its name, default, allowed values (None = any integer) and why it exists.

    ``words`` are extra values an integer option also takes (e.g. ``none`` for "no limit").
    """

    name: str
    default: str
    choices: tuple[str, ...] | None
    help: str
    words: tuple[str, ...] = ()


def option_table(options: Iterable[Option]) -> dict[str, Option]:
    return {o.name: o for o in options}


def resolve(declared: Mapping[str, Option], *given: Mapping[str, str]) -> dict[str, str]:
    """Defaults overridden by each mapping in turn (structured input, then the command line)."""
    values = {name: o.default for name, o in declared.items()}
    for mapping in given:
        for name, value in option_values(field_mapping(mapping, "options"), "options").items():
            if name not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise HandError(f"unknown option {name!r} for these rules (options: {known})")
            o = declared[name]
            v = str(value).strip().lower()
            if o.choices is None and v not in o.words:
                try:
                    int(v)
                except ValueError:
                    also = "".join(f" or {w}" for w in o.words)
                    raise HandError(f"option {name} takes a whole number{also}, not {show(value)}") from None
            elif o.choices is not None and v not in o.choices:
                raise HandError(f"option {name} takes one of {', '.join(o.choices)}, not {show(value)}")
            values[name] = v
    return values
