"""Layout logic on constructed readings: rows, gaps, sideways, backs, winning tile, flowers."""

from __future__ import annotations

from dataclasses import dataclass, replace

from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.vision.layout import Layout, hand_turn, lay_out, orient, rows_of

W, H = 30.0, 40.0  # an upright tile's box


def melds(lay: Layout) -> list[dict]:
    """The laid-out sets in the structured form."""
    return lay.to_dict()["melds"]


def c(codes: str) -> list[str]:
    """'1m 2m' → ['1m', '2m']."""
    return codes.split()


@dataclass
class T:
    """A tile as the layout sees it (:class:`vision.placed.Placed`)."""

    box: tuple[float, float, float, float]
    code: str
    orientation: str = "upright"
    turn: int = 0
    turn_confidence: float = 1.0


class Row:
    """Builds a row of tiles left to right: ``tile``, ``side`` (sideways), ``gap``."""

    def __init__(self, y: float = 100.0) -> None:
        self.x, self.y, self.tiles = 10.0, y, []

    def tile(self, *codes: str) -> Row:
        for c in codes:
            self.tiles.append(T((self.x, self.y, self.x + W, self.y + H), c))
            self.x += W + 1
        return self

    def side(self, code: str) -> Row:
        # a sideways tile lies along the front edge: wide and short, bottom-aligned
        self.tiles.append(T((self.x, self.y + H - W, self.x + H, self.y + H), code, "sideways"))
        self.x += H + 1
        return self

    def gap(self, tiles: float = 0.8) -> Row:
        self.x += tiles * W
        return self


def test_concealed_hand_with_winning_tile_apart() -> None:
    r = Row().tile(*c("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z")).gap().tile("2z")
    lay = lay_out(r.tiles)
    assert lay.problems == []
    assert lay.winning_tile == "2z"
    assert lay.to_dict()["hand"] == "123m456p789s11122z"
    assert lay.melds == []
    hand_from_dict({**lay.to_dict(), "win_by": "discard"})  # a valid structured hand


def test_sideways_tile_marks_an_open_set_and_its_type() -> None:
    r = (
        Row()
        .tile(*c("2m 3m 4m 6p 7p 8p 5s 5s"))
        .gap()
        .tile("5s")
        .gap(1.5)
        .side("7z")
        .tile("7z", "7z")
        .gap(1.5)
        .tile("3s")
        .side("2s")
        .tile("4s")
    )
    lay = lay_out(r.tiles)
    assert lay.problems == []
    assert lay.winning_tile == "5s"
    assert melds(lay) == [
        {"type": "pung", "tiles": "777z", "open": True},
        {"type": "chow", "tiles": "234s", "open": True},
    ]
    assert lay.to_dict()["hand"] == "234m678p555s"


def test_two_backs_in_a_group_of_four_is_a_concealed_kong() -> None:
    r = (
        Row()
        .tile(*c("1p 2p 3p 4p 5p 6p 9s 9s 9s 3z"))
        .gap()
        .tile("3z")
        .gap(1.5)
        .tile("back", "8m", "8m", "back")
    )
    lay = lay_out(r.tiles)
    assert lay.problems == []
    assert melds(lay) == [{"type": "kong", "tiles": "8888m", "open": False}]
    assert lay.winning_tile == "3z"


def test_open_kong_with_sideways_tile_and_red_five() -> None:
    r = Row().tile(*c("1m 1m 1m 2p 3p 4p 7s 7s 8s 8s")).gap().tile("8s").gap(1.5).tile("5p", "0p").side("5p")
    r.tile("5p")
    lay = lay_out(r.tiles)
    assert melds(lay) == [{"type": "kong", "tiles": "5550p", "open": True}]


def test_flowers_are_bonus_tiles_wherever_they_lie() -> None:
    r = Row().tile("1f", "6f").gap(1.5).tile(*c("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 2p 2p")).gap().tile("2p")
    lay = lay_out(r.tiles)
    assert lay.bonus_tiles == ["1f", "6f"]
    assert lay.winning_tile == "2p"
    assert lay.problems == []
    front = Row(y=200).tile("3f")  # flowers in a row in front of the hand
    lay = lay_out(r.tiles[2:] + front.tiles)
    assert lay.bonus_tiles == ["3f"]
    assert lay.winning_tile == "2p"


def test_melds_in_a_second_row() -> None:
    hand = Row(y=100).tile(*c("1s 2s 3s 4s 5s 6s 2z")).gap().tile("2z")
    melds = Row(y=170).side("9p").tile("9p", "9p").gap(1.5).tile("4m").side("5m").tile("6m")
    lay = lay_out(hand.tiles + melds.tiles)
    assert lay.problems == []
    assert lay.winning_tile == "2z"
    assert len(lay.melds) == 2
    assert lay.to_dict()["hand"] == "123456s22z"
    assert len(rows_of(hand.tiles + melds.tiles)) == 2


def test_four_melds_leave_a_single_concealed_tile_and_the_winner() -> None:
    r = Row().tile("6z").gap().tile("6z").gap(1.5)
    for code in ("1z", "3z", "4z"):
        r.side(code).tile(code, code).gap(1.5)
    r.tile("7p", "8p").side("9p")
    lay = lay_out(r.tiles)
    assert lay.problems == []
    assert lay.winning_tile == "6z"
    assert lay.to_dict()["hand"] == "66z"
    assert len(lay.melds) == 4


def test_four_melds_in_a_second_row_leave_the_pair_wait_in_a_row_of_two() -> None:
    """After four calls the concealed hand is one tile plus the winning tile set apart: a row of
    two that is the hand, not a stray pair beside it (found on composed real-tile photos)."""
    hand = Row(y=100).tile("6z").gap(0.5).tile("6z")
    melds = Row(y=170)
    for code in ("1z", "3z"):
        melds.side(code).tile(code, code).gap(0.8)
    melds.tile("7p", "8p").side("9p").gap(0.8).tile("2s").side("3s").tile("4s")
    lay = lay_out(hand.tiles + melds.tiles)
    assert lay.problems == [] and lay.ignored == []
    assert lay.winning_tile == "6z" and lay.to_dict()["hand"] == "66z"
    assert len(lay.melds) == 4


def test_a_pair_of_touching_tiles_is_one_group_and_strays_beside_a_hand_are_left_out() -> None:
    from mahjong_camera_scorer.vision.layout import row_groups

    assert [len(g) for g in row_groups(Row().tile("6z", "6z").tiles)] == [2]
    hand = Row(y=100).tile(*c("1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 2z 2z")).gap().tile("2z")
    stray = Row(y=300).tile("5m", "5m")
    lay = lay_out(hand.tiles + stray.tiles)
    assert lay.winning_tile == "2z" and [t.code for t in lay.ignored] == ["5m", "5m"]


def test_missing_winning_tile_and_bad_sets_are_reported_not_guessed() -> None:
    r = Row().tile(*c("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 2p 2p 2p"))
    lay = lay_out(r.tiles)
    assert lay.winning_tile is None
    assert any("winning tile" in p for p in lay.problems)
    r = Row().tile(*c("1m 2m 3m")).gap().tile("4m").gap(1.5).tile("1s").side("5p").tile("2z")
    lay = lay_out(r.tiles)
    assert any("not a chow, pung or kong" in p for p in lay.problems)
    r = Row().tile(*c("1m 2m 3m")).gap().tile("4m").gap(1.5).tile("back", "2s", "back")
    assert any("face-down" in p for p in lay_out(r.tiles).problems)


def test_no_tiles() -> None:
    assert lay_out([]).problems == ["no tiles found"]


def test_a_row_running_downhill_stays_one_row() -> None:
    """A photo taken at an angle: each tile a little lower than its left neighbour."""
    r = Row()
    for i, code in enumerate(c("3m 4m 5m 5p 5p 8p 8p 8p 4s 4s")):
        r.tiles.append(T((10 + i * 31, 100 + i * 9, 40 + i * 31, 140 + i * 9), code))
    x = 10 + 10 * 31 + 20
    r.tiles.append(T((x, 100 + 10 * 9 + 8, x + 30, 140 + 10 * 9 + 8), "4s"))
    x += 30 + 40
    for k, code in enumerate(["back", "1p", "1p", "back"]):
        y = 100 + 12 * 9 + k * 9
        r.tiles.append(T((x + k * 31, y, x + k * 31 + 30, y + 40), code))
    lay = lay_out(r.tiles)
    assert lay.problems == []
    assert lay.winning_tile == "4s"
    assert melds(lay) == [{"type": "kong", "tiles": "1111p", "open": False}]
    assert lay.to_dict()["hand"] == "345m55888p444s"


def test_standing_tiles_with_overlapping_boxes_still_show_the_winner_apart() -> None:
    r = Row()
    codes = c("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z")
    for i, code in enumerate(codes):  # boxes overlap by 8 px: the tiles' sides in perspective
        r.tiles.append(T((10 + i * 22, 100, 40 + i * 22, 140), code))
    x = 10 + 12 * 22 + 30 + 6  # 6 px of table, 14 px more than the usual -8
    r.tiles.append(T((x, 100, x + 30, 140), "2z"))
    lay = lay_out(r.tiles)
    assert lay.winning_tile == "2z" and lay.problems == []


def _turned(tiles: list[T], turn: int, size: float = 1000.0) -> list[T]:
    """The same tiles photographed with the camera turned: boxes rotated by ``turn`` degrees
    clockwise in a ``size`` square photo, each tile's ``turn`` set (as the reader reports it)."""

    def pt(x: float, y: float) -> tuple[float, float]:
        if turn == 90:
            return size - y, x
        if turn == 180:
            return size - x, size - y
        if turn == 270:
            return y, size - x
        return x, y

    out = []
    for t in tiles:
        (ax, ay), (bx, by) = pt(t.box[0], t.box[1]), pt(t.box[2], t.box[3])
        own = (turn + (90 if t.orientation == "sideways" else 0)) % 360
        out.append(TT((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)), t.code, "upright", own))
    return out


@dataclass
class TT(T):
    turn: int = 0


def _open_hand() -> Row:
    return (
        Row()
        .tile(*c("2m 3m 4m 6p 7p"))
        .gap()
        .tile("8p")
        .gap(1.2)
        .side("5s")
        .tile("5s", "5s")
        .gap(1.2)
        .tile("7z")
        .side("7z")
        .tile("7z")
    )


def test_a_hand_photographed_turned_reads_the_same_every_way() -> None:
    want = lay_out(_open_hand().tiles).to_dict()
    assert want["melds"] and want["winning_tile"] == "8p"
    for turn in (90, 180, 270):
        tiles = orient(_turned(_open_hand().tiles, turn))
        lay = lay_out(tiles)
        assert lay.turn == turn
        assert lay.to_dict() == want, turn
        assert [t.code for t in tiles if t.orientation == "sideways"] == ["5s", "7z"]


def test_orient_finds_the_claimed_tile_of_flat_sets_beside_standing_tiles() -> None:
    # standing concealed tiles: tall boxes; the declared set lies flat: short boxes, and its
    # claimed tile shorter still and longer along the row
    r = Row().tile(*c("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p")).gap().tile("1p")
    r.gap(1.5)
    y = r.y + H - 22
    for code, w, h in (("3s", W, 22), ("4s", 40, 16), ("5s", W, 22)):
        r.tiles.append(T((r.x, y + 22 - h, r.x + w, y + 22), code))
        r.x += w + 1
    tiles = orient(r.tiles)
    assert [t.code for t in tiles if t.orientation == "sideways"] == ["4s"]
    lay = lay_out(tiles)
    assert melds(lay) == [{"type": "chow", "tiles": "345s", "open": True}]
    assert lay.winning_tile == "1p" and lay.problems == []


def test_a_set_cut_by_its_own_sideways_tile_is_mended() -> None:
    # the claimed tile's extra length makes the pitch on both sides look like small gaps
    r = Row().tile(*c("1m 1m 2p 3p 4p 6s 7s 8s 9s 9s")).gap().tile("9s").gap(1.5)
    r.tile("5p").gap(0.2).side("6p").gap(0.2).tile("7p")
    lay = lay_out(orient(r.tiles))
    assert melds(lay) == [{"type": "chow", "tiles": "567p", "open": True}]
    assert lay.winning_tile == "9s" and lay.problems == []


def test_sets_beyond_the_winner_are_declared_even_without_a_visible_claimed_tile() -> None:
    # four sets laid flat with no tile read as sideways: the tile count (14, three per set)
    # decides which single is the winning tile and that the groups after it are declared
    r = Row().tile("4m").gap().tile("4m").gap(1.2)
    for codes in ("2s 3s 4s", "1z 1z 1z", "7p 8p 9p", "2m 3m 4m"):
        r.tile(*c(codes)).gap(1.2)
    lay = lay_out(r.tiles)
    assert lay.winning_tile == "4m" and lay.to_dict()["hand"] == "44m"
    assert [m["tiles"] for m in melds(lay)] == ["234s", "111z", "789p", "234m"]


def test_tiles_that_look_the_same_turned_do_not_outvote_the_hand() -> None:
    """5-circles and blank white dragons read the same both ways: their unsure votes (found on a
    real-tile photo where 7 such tiles said 'upside down' against 6 characters) count for little."""
    from mahjong_camera_scorer.vision.layout import hand_turn

    @dataclass
    class V:
        code: str
        turn: int
        turn_confidence: float = 1.0
        box: tuple[float, float, float, float] = (0.0, 0.0, 30.0, 40.0)  # all in one place: no rows
        orientation: str = "upright"

    sure = [V(c, 0, 0.9) for c in ("7m", "8m", "9m", "2p", "3p", "4p")]
    unsure = [V(c, 180, 0.1) for c in ("5p", "5p", "5z", "5z", "5z", "4s", "4s")]
    assert hand_turn(sure + unsure) == 0
    # unweighted, a clear majority of them would turn the hand
    assert hand_turn([V(c.code, c.turn) for c in sure + unsure + unsure]) == 180
    assert hand_turn([V("5z", 180, 0.0), V("5p", 90, 0.0)]) == 0  # nobody sure: upright


@dataclass
class R(T):
    """A reading with the reader's turn and how sure its upside-down head is."""

    turn: int = 0
    turn_confidence: float = 0.9


def _reads(codes: str, x: float = 10.0, y: float = 100.0, turn: int = 0, sure: float = 0.9) -> list[R]:
    out = []
    for code in codes.split():
        out.append(R((x, y, x + W, y + H), code, turn=turn, turn_confidence=sure))
        x += W + 1
    return out


def test_a_claimed_tile_the_reader_read_turned_is_sideways_though_its_box_is_only_a_little_wide() -> None:
    """Real photos: claimed tiles found but reported upright. The box of a claimed tile lying in
    front of standing tiles is often only a little wider than its set-mates (here 1.15 times their
    aspect, under the geometry's 1.25); the reader turned it (its crop read better turned)."""
    hand = _reads("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p")
    hand.append(R((hand[-1].box[2] + 25, 100, hand[-1].box[2] + 55, 140), "1p", turn=0))
    x = hand[-1].box[2] + 45
    claimed_w = 1.15 * (W / H) * 38  # 38 px tall, 1.15 times the others' aspect
    pung = [R((x, 100, x + W, 140), "7z"), R((x + W + 1, 102, x + W + 1 + claimed_w, 140), "7z", turn=90)]
    pung.append(R((pung[1].box[2] + 1, 100, pung[1].box[2] + 1 + W, 140), "7z"))
    tiles = orient(hand + pung)
    assert [t.orientation for t in tiles[-3:]] == ["upright", "sideways", "upright"]
    lay = lay_out(tiles)
    assert melds(lay) == [{"type": "pung", "tiles": "777z", "open": True}] and lay.winning_tile == "1p"
    # the same box not read turned: the geometry alone does not call it sideways
    plain = orient([*hand, pung[0], replace(pung[1], turn=0), pung[2]])
    assert plain[-2].orientation == "upright"


def test_a_row_of_landscape_boxes_read_turned_is_not_a_row_of_claimed_tiles() -> None:
    """Flat tiles photographed from a low angle have landscape boxes: the reader turns them all."""
    row = [R((10 + i * 41, 100, 50 + i * 41, 126), c, turn=90) for i, c in enumerate(c("1m 2m 3m 4m 5m"))]
    assert all(t.orientation != "sideways" for t in orient(row))


def test_tiles_the_head_is_unsure_of_do_not_turn_the_hand_nor_read_upside_down() -> None:
    """A hand of standing tiles read as turned 180 (real photo): symmetric faces (5p, 8p, white
    dragons) come out of the upside-down head near 0 sure, either way up. They neither decide
    the hand's direction nor are reported upside down; a tile the head is sure of is."""
    sure = _reads("2m 3m 4m 7s", sure=0.8)
    unsure = _reads("5p 5p 8p 8p 5z 5z 5z 9p 9p", x=200, turn=180, sure=0.05)
    flipped = _reads("1z", x=500, turn=180, sure=0.9)
    tiles = orient(sure + unsure + flipped)
    assert hand_turn(tiles) == 0
    assert [t.orientation for t in tiles] == ["upright"] * 13 + ["upside_down"]


def test_only_faces_that_show_their_up_are_marked_upside_down() -> None:
    """A red 5-circle read sure as turned (a real riichi photo) is not upside down: it looks the
    same both ways. A character, a wind, the 7 of circles, the 3 of bamboo are."""
    from mahjong_camera_scorer.vision.layout import HALF_TURN_SYMMETRIC, shows_its_up

    upright = _reads("2m 3m 4m 6m 7m 8m 1s 2s 3s 4s 5s 6s", sure=0.9)
    turned = ["0p", "5p", "1p", "2p", "4p", "8p", "9p", "4s", "6s", "5z", "1z", "3m", "7p", "3s", "7z", "6p"]
    flipped = _reads(" ".join(turned), x=600, turn=180, sure=0.3)  # sure enough to count
    tiles = orient(upright + flipped)
    marked = {t.code for t in tiles if t.orientation == "upside_down"}
    assert marked == {"1z", "3m", "7p", "3s", "7z", "6p"}
    assert {c for c in turned if not shows_its_up(c)} == set(turned) - marked
    assert not any(c.endswith(("m", "f")) for c in HALF_TURN_SYMMETRIC)  # writing has an up
    assert not shows_its_up("back")


def test_sets_lying_against_each_other_and_the_winner_are_read_one_by_one() -> None:
    """Four declared sets and the winning tile with no gap wider than a few millimetres between
    them: the marked groups that are no set are cut into the sets side by side in them, the
    unmarked tile at the left end going back to the concealed tiles (the winning tile)."""
    r = Row().tile("5z").gap().tile("5z")  # the pair wait: the winner set apart ...
    r.side("5s").tile("6s", "7s")  # ... touching the first set
    r.tile("back", "7z", "7z", "back").tile("8p").side("8p").tile("8p")
    r.side("2m").tile("3m", "4m")
    lay = lay_out(r.tiles)
    assert lay.problems == [], lay.problems
    assert lay.to_dict()["hand"] == "55z" and lay.winning_tile == "5z"
    assert sorted((m["type"], m["tiles"], m["open"]) for m in melds(lay)) == [
        ("chow", "234m", True),
        ("chow", "567s", True),
        ("kong", "7777z", False),
        ("pung", "888p", True),
    ]


def test_a_marked_group_that_cannot_be_cut_into_sets_is_reported() -> None:
    r = Row().tile(*c("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z")).gap().tile("1z").gap()
    r.tile("2p").side("5s").tile("9m", "1z")
    lay = lay_out(r.tiles)
    assert any("not a chow, pung or kong" in p for p in lay.problems)
