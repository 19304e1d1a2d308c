"""Things linked in pairs, grouped: the union-find the rows of a photo, the groups of near-identical
pictures and the rows of small boxes to look at closer all chain their neighbours with.

One structure so that each of them says only which pairs it links (a row is a chain of tiles side
by side, a group of pictures a chain of near-copies), never how the chains are kept.
"""

from __future__ import annotations

from collections.abc import Iterable


class Linked:
    """``n`` things, each in its own group until :meth:`link` joins two groups (union-find with
    path halving: near-constant time a call)."""

    def __init__(self, n: int) -> None:
        self._parent = list(range(n))

    def find(self, i: int) -> int:
        """The group of thing ``i`` (the index of one of its members)."""
        parent = self._parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def link(self, i: int, j: int) -> None:
        """Things ``i`` and ``j`` are in one group from now on (with their groups)."""
        self._parent[self.find(i)] = self.find(j)

    def linked(self, i: int, j: int) -> bool:
        return self.find(i) == self.find(j)

    def groups(self) -> list[list[int]]:
        """Every group's members, in the order of their first member; each group in order."""
        out: dict[int, list[int]] = {}
        for i in range(len(self._parent)):
            out.setdefault(self.find(i), []).append(i)
        return list(out.values())


def groups_of(n: int, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The groups of ``n`` things that ``pairs`` link, chains included (:meth:`Linked.groups`)."""
    linked = Linked(n)
    for i, j in pairs:
        linked.link(i, j)
    return linked.groups()
