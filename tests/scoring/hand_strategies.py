"""Hypothesis strategies for hands that obey the physical limits of a tile set."""

from __future__ import annotations

from hypothesis import strategies as st

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.hand import Hand, Meld
from mahjong_camera_scorer.scoring.tiles import BONUS_TILES, Tile

FLAGS = (
    "riichi",
    "ippatsu",
    "double_riichi",
    "last_tile",
    "last_discard",
    "kong_replacement",
    "robbing_kong",
    "heavenly",
    "earthly",
    "only_possible_tile",
)
WINDS = ("E", "S", "W", "N")


@st.composite
def physical_tiles(draw: st.DrawFn, n: int) -> list[Tile]:
    """``n`` tiles with at most 4 copies per kind and at most one red five per suit."""
    kinds = draw(
        st.lists(st.integers(0, 33), min_size=n, max_size=n).filter(
            lambda ks: all(ks.count(k) <= 4 for k in set(ks))
        )
    )
    tiles = [Tile(k) for k in kinds]
    for five in (4, 13, 22):  # make at most one five of each suit red
        if five in kinds and draw(st.booleans()):
            tiles[kinds.index(five)] = Tile(five, True)
    return tiles


@st.composite
def melds(draw: st.DrawFn) -> list[Meld]:
    out = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(("chow", "pung", "kong")))
        if kind == "chow":
            suit = draw(st.integers(0, 2))
            first = suit * 9 + draw(st.integers(0, 6))
            out.append(Meld("chow", (Tile(first), Tile(first + 1), Tile(first + 2)), True))
        else:
            k = draw(st.integers(0, 33))
            n = 3 if kind == "pung" else 4
            out.append(Meld(kind, (Tile(k),) * n, kind == "pung" or draw(st.booleans())))
    return out


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """A hand with random but well-formed fields (not necessarily a winning one)."""
    ms = draw(melds())
    concealed = draw(physical_tiles(14 - 3 * len(ms)))
    winning = draw(st.sampled_from(concealed)) if draw(st.booleans()) else None
    win_by = draw(st.sampled_from(("discard", "self_draw")))
    seat = draw(st.sampled_from(WINDS))
    # a discarder is another seat than the winner's, on a win by discard (as every front end reads it)
    others = [w for w in WINDS if w != seat] if win_by == "discard" else []
    discarder = draw(st.sampled_from([None, *others]))
    return Hand(
        concealed=tuple(concealed),
        melds=tuple(ms),
        bonus_tiles=tuple(draw(st.lists(st.sampled_from(BONUS_TILES), unique=True, max_size=4))),
        context=HandContext(
            winning_tile=winning,
            win_by=win_by,
            seat_wind=seat,
            discarder=discarder,
            round_wind=draw(st.sampled_from(WINDS)),
            flags=frozenset(draw(st.lists(st.sampled_from(FLAGS), unique=True, max_size=3))),
            dora_indicators=tuple(draw(physical_tiles(draw(st.integers(0, 3))))),
            ura_dora_indicators=tuple(draw(physical_tiles(draw(st.integers(0, 2))))),
            honba=draw(st.integers(0, 5)),
            riichi_sticks=draw(st.integers(0, 3)),
            **draw(st.fixed_dictionaries({}, optional={"role": st.sampled_from(("winner", "loser"))})),
            options=draw(
                st.dictionaries(
                    st.sampled_from(("red_fives", "kiriage")), st.sampled_from(("on", "off", "3")), max_size=2
                )
            ),
        ),
    )


def json_values(words: list[str], max_leaves: int = 12) -> st.SearchStrategy:
    """What a JSON or YAML document may hold anywhere (no NaN: the readers refuse it before):
    scalars, ``words`` worth trying (codes, seats, names), lists and objects of them, nested."""
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
        st.sampled_from(words),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )
