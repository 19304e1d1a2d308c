"""Who holds which wind at each hand, and when the session is over, as each system's rules say.

* MCR (seed 000 §3.5-3.7, App. B; spec mcr §2.4): the winds rotate after **every** hand (E→N, S→E,
  W→S, N→W: the dealer never repeats); the round wind is E, S, W, N for hands 1-4, 5-8, 9-12, 13-16;
  after hands 4, 8 and 12 the players change seats (E↔S W↔N, then E→W S→N W→S N→E, then E↔S W↔N),
  relative to the seats at the start of that round. 16 hands.
* EMA Riichi (seed 001 §3.4, §3.6; spec §2.9, §5.8): East keeps the deal after a win of his, a
  tenpai exhaustive draw, an abortive draw or a chombo; otherwise the winds pass. An East round and
  a South round: the game ends when the first East would become East again in the South round.
* Zung Jung (seed 002, twice; spec §2.7): after every hand, won or drawn, "Est diventa Sud; Sud
  diventa Ovest; Ovest diventa Nord; Nord diventa Est" (the player who was North deals next: the
  other way from MCR); no round wind; 16 hands.
* Classical (seed 004: the round wind "cambia ogni quattro mani") and Australian (seed 003 says
  that East passes to the player on his right, South, after a Goulash; we take the same rotation
  after every hand): the winds rotate after every hand and the round wind changes every four
  rotations. Australian: after a dead hand the seats stay for the Goulash ("le posizioni dei
  giocatori non ruotano, rimanendo le stesse che nella precedente mano morta").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mahjong_camera_scorer.scoring.payments import SEATS

#: the wind each player takes when the deal passes: South becomes East, and so on
PASS = {"E": "N", "S": "E", "W": "S", "N": "W"}
#: Zung Jung (seed 002): "Est diventa Sud; Sud diventa Ovest; Ovest diventa Nord; Nord diventa Est"
ZJ_PASS = {"E": "S", "S": "W", "W": "N", "N": "E"}
#: MCR seat changes after the 1st, 2nd and 3rd round, from the winds held at that round's start
MCR_SEAT_CHANGES = (
    {"E": "S", "S": "E", "W": "N", "N": "W"},
    {"E": "W", "S": "N", "W": "S", "N": "E"},
    {"E": "S", "S": "E", "W": "N", "N": "W"},
)


@dataclass(frozen=True, slots=True)
class Rotation:
    """How a system moves the winds: the pass, the seat changes, when the session ends."""

    #: the wind each player takes when the deal passes
    move: Mapping[str, str]
    #: a session of a fixed number of hands (MCR, Zung Jung: 16); None: not fixed
    hands: int | None = None
    #: the seats each round starts from, after the 1st, 2nd, … round (MCR)
    seat_changes: tuple[Mapping[str, str], ...] = ()
    #: riichi: a game of this many wind rounds, each hand named by its round and dealer ("E1"),
    #: over when the deal has passed four times a round
    rounds: int | None = None


#: each system's rotation (the rulebooks decide when the dealer keeps the deal)
ROTATIONS: dict[str, Rotation] = {
    "mcr": Rotation(PASS, hands=16, seat_changes=MCR_SEAT_CHANGES),
    "riichi": Rotation(PASS, rounds=2),
    "zung-jung": Rotation(ZJ_PASS, hands=16),
    "australian": Rotation(PASS),
    "classical": Rotation(PASS),
}


@dataclass(slots=True)
class Seating:
    """The winds now, and the counts the rules need to move them."""

    rules: str
    winds: dict[str, str]  # player → seat wind
    round_wind: str = "E"
    hands_played: int = 0  # hands that count (riichi: chombo replays do not)
    passes: int = 0  # how often the deal has passed
    round_start: dict[str, str] = field(default_factory=dict)
    rotation: Rotation = field(init=False)

    def __post_init__(self) -> None:
        self.round_start = dict(self.winds)
        self.rotation = ROTATIONS[self.rules]

    def at(self, wind: str) -> str:
        """The player holding ``wind`` now."""
        return next(p for p, w in self.winds.items() if w == wind)

    @property
    def over(self) -> bool:
        rounds, hands = self.rotation.rounds, self.rotation.hands
        if rounds is not None:
            return self.passes >= 4 * rounds
        return hands is not None and self.hands_played >= hands

    def label(self) -> str | None:
        """The hand as a referee names it: 'E1' (round wind and dealer number) for riichi, the hand's
        number for the others; None once the session is over (there is no next hand)."""
        if self.over:
            return None
        if self.rotation.rounds is not None:
            return f"{self.round_wind}{self.passes % 4 + 1}"
        return str(self.hands_played + 1)

    def after_hand(self, dealer_keeps: bool = False) -> None:
        """Move the winds after a hand that counts (won or drawn); ``dealer_keeps``: the winds stay
        (riichi: East won or was tenpai; Australian: the Goulash after a dead hand)."""
        self.hands_played += 1
        if dealer_keeps:
            return
        self.winds = {p: self.rotation.move[w] for p, w in self.winds.items()}
        self.passes += 1
        if self.passes % 4 == 0:
            rnd = self.passes // 4
            changes = self.rotation.seat_changes
            if rnd <= len(changes):
                self.winds = {p: changes[rnd - 1][w] for p, w in self.round_start.items()}
            self.round_start = dict(self.winds)
            if self.rotation.rounds is None or rnd < self.rotation.rounds:
                self.round_wind = SEATS[rnd % 4]
