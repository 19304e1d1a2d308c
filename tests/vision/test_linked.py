"""Things linked in pairs, grouped (vision.linked): chains join, groups keep their members' order."""

from __future__ import annotations

from mahjong_camera_scorer.vision.linked import Linked, groups_of


def test_links_chain_into_groups_in_the_order_of_their_first_member() -> None:
    assert groups_of(6, [(4, 5), (0, 2), (2, 4)]) == [[0, 2, 4, 5], [1], [3]]
    assert groups_of(3, []) == [[0], [1], [2]]
    assert groups_of(0, []) == []


def test_a_link_within_a_group_changes_nothing() -> None:
    linked = Linked(4)
    linked.link(0, 1)
    linked.link(1, 2)
    assert linked.linked(0, 2) and not linked.linked(0, 3)
    before = linked.groups()
    linked.link(2, 0)
    assert linked.groups() == before == [[0, 1, 2], [3]]
    assert linked.find(0) == linked.find(2)
