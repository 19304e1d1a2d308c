"""Score one EMA riichi hand: validate, read every way, value each reading, keep the best.

Order of the seed's counting (§4.1): yakuman first (they replace everything, §4.2.5); otherwise
fan = yaku + red fives + dora + kan dora + ura dora (riichi only), fu by §4.1.1, then the limit
table and the payments. "La possibilità del punteggio più alto decide" (§4.1.1): the reading that
pays most wins, then the one with more fan, then more fu (riichi.md §4.9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.decompose import WAIT_WORDS, Decomposition, readings, shape_error
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.payments import (
    FOR_COUNTERS,
    FOR_HAND,
    FOR_PAO,
    FOR_STICKS,
    TABLE,
    Payment,
    paid_by,
)
from mahjong_camera_scorer.scoring.result import Score, deferred
from mahjong_camera_scorer.scoring.riichi.context import RiichiContext, context
from mahjong_camera_scorer.scoring.riichi.dora import dora_elements
from mahjong_camera_scorer.scoring.riichi.fu import FuItem, fu_of, item_words
from mahjong_camera_scorer.scoring.riichi.pao import Liability, liable_payments
from mahjong_camera_scorer.scoring.riichi.patterns import (
    SCREENS,
    TERMINAL_OR_HONOUR,
    PatternRow,
    Shape,
    apply,
    apply_flags,
    shape,
)
from mahjong_camera_scorer.scoring.riichi.payments import (
    RIICHI_STICK,
    base_points,
    hand_payments,
    points_of,
    up100,
)
from mahjong_camera_scorer.scoring.riichi.validate import flag_error, normalise_flags, tile_error
from mahjong_camera_scorer.scoring.riichi.yaku import YAKU, YAKU_TABLE
from mahjong_camera_scorer.scoring.riichi.yakuman import YAKUMAN, YAKUMAN_FAN, YAKUMAN_TABLE, yakuman_multiple
from mahjong_camera_scorer.scoring.tiles import N_KINDS

NAME = "riichi"
FIVE_COUNTERS = 5
NAGASHI = "Nagashi mangan"
#: element order in the output: the seed's order of the yaku, then yakuman, then the bonus fan
ORDER = {
    key: i
    for i, key in enumerate(
        [*(p.key for p in YAKU), *(p.key for p in YAKUMAN), NAGASHI, "Dora", "Ura dora", "Red five"]
    )
}


@dataclass(slots=True)
class Evaluation:
    """One reading valued: its elements, fan from yaku, total fan, fu and base points.

    From 5 fan the fu do not change the payment (§4.1): they are then worked out only when they
    break a tie between readings (:meth:`rank`), and ``fu`` stays None until then."""

    reading: Decomposition | None
    elements: dict[str, int]
    yaku_fan: int
    han: int
    fu: int | None
    fu_items: Sequence[FuItem] = ()
    yakuman: int = 0
    base: int = 0
    limit: str | None = None
    total_paid: int = 0
    #: the shape and context the fu come from while they are not worked out yet
    pending: tuple[Shape, RiichiContext] | None = None

    def rank(self) -> tuple[int, bool, int, int, int]:
        """Payment first (§4.1.1), then a true yakuman over a counted one paying the same (the
        seed names the hand by its yakuman: Esempio 4), then fan, then fu (riichi.md §4.9); last,
        the reading that names more elements (222333444s is Suu ankou and Ryuu iisou, not only
        the latter)."""
        if self.pending is not None:
            s, ctx = self.pending
            self.fu, self.fu_items = fu_of(s, ctx, "Pinfu" in self.elements)
            self.pending = None
        return (self.total_paid, self.yakuman > 0, self.han, self.fu or 0, len(self.elements))


def _better(ev: Evaluation, best: Evaluation) -> bool:
    """``ev.rank() > best.rank()``, without working out fu where payment, yakuman or fan decide."""
    if ev.total_paid != best.total_paid:
        return ev.total_paid > best.total_paid
    if (ev.yakuman > 0) != (best.yakuman > 0):
        return ev.yakuman > 0
    if ev.han != best.han:
        return ev.han > best.han
    return ev.rank() > best.rank()


def _total_paid(base: int, dealer: bool, self_drawn: bool) -> int:
    if not self_drawn:
        return up100((6 if dealer else 4) * base)
    return 3 * up100(2 * base) if dealer else up100(2 * base) + 2 * up100(base)


@dataclass(slots=True)
class HandPatterns:
    """The per-hand rows already decided for this hand, and the rows left for each reading."""

    yakuman: dict[str, int]
    yaku: dict[str, int]
    yakuman_rows: tuple[PatternRow, ...]
    yaku_rows: tuple[PatternRow, ...]
    dora: dict[str, int]
    dora_fan: int
    #: fan from yaku a win needs (§3.4.11: 2 with five counters or more)
    minimum: int


def hand_patterns(ctx: RiichiContext, dora: dict[str, int], minimum: int) -> HandPatterns:
    screens = tuple([screen(ctx) for screen in SCREENS])
    yt, mt = YAKU_TABLE[ctx.concealed], YAKUMAN_TABLE[ctx.concealed]
    yaku_hand, yaku_rows = yt.by_screens[screens]
    yakuman_hand, yakuman_rows = mt.by_screens[screens]
    yakuman: dict[str, int] = {}
    yaku: dict[str, int] = {}
    if ctx.flags:
        apply_flags(mt.flags, ctx.flags, yakuman)
        apply_flags(yt.flags, ctx.flags, yaku)
    return HandPatterns(
        apply(yakuman_hand, None, ctx, yakuman),
        apply(yaku_hand, None, ctx, yaku),
        yakuman_rows,
        yaku_rows,
        dora,
        sum(dora.values()) if dora else 0,
        minimum,
    )


def evaluate(r: Decomposition, ctx: RiichiContext, hp: HandPatterns) -> Evaluation:
    """Value one reading (yakuman replace yaku, dora and fu; §4.2.5, Esempio 4). A reading short
    of the yaku minimum cannot win: only its yaku fan are worked out (for the error message)."""
    s = shape(r)
    if hp.yakuman or hp.yakuman_rows:
        ykm = apply(hp.yakuman_rows, s, ctx, dict(hp.yakuman))
        if ykm:
            n = yakuman_multiple(ykm, ctx.options["double_yakuman"] == "dai_suushii")
            if n == 1:
                ykm = {k: min(v, YAKUMAN_FAN) for k, v in ykm.items()}
            base, limit = base_points(0, None, n)
            return Evaluation(
                r,
                ykm,
                YAKUMAN_FAN * n,
                YAKUMAN_FAN * n,
                None,
                (),
                n,
                base,
                limit,
                _total_paid(base, ctx.dealer, ctx.self_drawn),
            )
    elements = apply(hp.yaku_rows, s, ctx, dict(hp.yaku))
    yaku_fan = 0
    for fan in elements.values():
        yaku_fan += fan
    if yaku_fan < hp.minimum:
        return Evaluation(r, elements, yaku_fan, 0, None)
    if hp.dora_fan:
        elements.update(hp.dora)
    han = yaku_fan + hp.dora_fan
    if han >= 5:  # the limit table: fu only break ties (§4.9), worked out when one comes up
        base, limit = base_points(han, None, 0, ctx.options["counted_yakuman"] == "yes")
        return Evaluation(
            r,
            elements,
            yaku_fan,
            han,
            None,
            (),
            0,
            base,
            limit,
            _total_paid(base, ctx.dealer, ctx.self_drawn),
            (s, ctx),
        )
    fu, items = fu_of(s, ctx, "Pinfu" in elements)
    base, limit = base_points(han, fu)
    return Evaluation(
        r, elements, yaku_fan, han, fu, items, 0, base, limit, _total_paid(base, ctx.dealer, ctx.self_drawn)
    )


def _no_yaku_reason(hand: Hand, ctx: RiichiContext, best_yaku_fan: int, minimum: int) -> str:
    if best_yaku_fan and minimum > 1:
        return (
            f"{hand.context.honba} counters on the table: a win needs at least {minimum} fan from yaku "
            f"(§3.4.11; dora and red fives do not count), this hand has {best_yaku_fan}"
        )
    reason = "no yaku: a win needs at least one yaku; dora, ura dora and red fives are not yaku (§3.2)"
    if not ctx.concealed and ctx.kinds.isdisjoint(TERMINAL_OR_HONOUR):
        reason += "; All simples (Tanyao) counts only in a concealed hand in EMA (Introduzione, point 1)"
    return reason


def _discarder(hand: Hand) -> tuple[str | None, str | None]:
    """The discarder's seat (None when not given), or an error."""
    seat = hand.context.discarder
    if seat is None or hand.context.self_drawn:
        return None, None
    if seat == hand.context.seat_wind:
        return None, "the discarder cannot be the winner"
    return seat, None


_DIGITS = "".join(str(k % 9 + 1) for k in range(27)) + "1234567"
_SUIT = "m" * 9 + "p" * 9 + "s" * 9 + "z" * 7
_SIZE = {"pung": 3, "kong": 4, "pair": 2, "single": 1}
#: group kind → first kind → its tiles written out ("234m", "777z"), built once
_CODES = {
    kind: tuple(
        (_DIGITS[f : f + 3] if kind == "chow" else _DIGITS[f] * _SIZE[kind]) + _SUIT[f]
        for f in range(N_KINDS)
    )
    for kind in ("chow", *_SIZE)
}


def _sets(r: Decomposition) -> str:
    """'234m 123s [789p] (1111z) 55p': [open meld], (concealed kong)."""
    codes = []
    for g in r.groups:
        code = _CODES[g.kind][g.first]
        if g.declared:
            code = f"({code})" if g.concealed else f"[{code}]"
        codes.append(code)
    return " ".join(codes)


def _describe(r: Decomposition) -> str:
    """'234m 123s [789p] (1111z) 55p  wait: two_sided' (the JSON's ``reading``: the wait's kind)."""
    return _sets(r) + (f"  wait: {r.wait}" if r.wait else "")


def _reading_note(r: Decomposition) -> Msg:
    """The reading as the notes say it, the wait in words."""
    if r.wait:
        return msg("Reading: {sets}  wait: {wait}", sets=_sets(r), wait=msg(WAIT_WORDS[r.wait]))
    return msg("Reading: {sets}", sets=_sets(r))


def _build(
    hand: Hand, ctx: RiichiContext, best: Evaluation, discarder: str | None, liable: str | None = None
) -> Score:
    """The Score of the best evaluation, with its payments (pao re-divides them when ``liable``
    names the liable seat; :class:`HandError` when pao cannot apply)."""
    winner = hand.context.seat_wind
    pays = hand_payments(best.base, ctx.dealer, ctx.self_drawn, winner, hand.context.honba, discarder)
    points = points_of(pays, ctx.dealer, ctx.self_drawn)
    if hand.context.riichi_sticks:
        pays.append(Payment(TABLE, winner, RIICHI_STICK * hand.context.riichi_sticks, FOR_STICKS))
    liability = None
    if liable is not None:
        pays, liability = liable_payments(hand, best.base, best.elements, liable, pays)
    fu = best.fu if best.han < 5 and not best.yakuman else None
    reading = _describe(best.reading) if best.reading is not None else None
    elements = best.elements  # a dict of this evaluation's own, put in the output order
    if len(elements) > 1:
        elements = {key: elements[key] for key in sorted(elements, key=ORDER.__getitem__)}
    return Score(
        NAME,
        True,
        None,
        elements,
        best.han,
        "han",
        {
            "han": best.han,
            "fu": fu,
            "points": points,
            "fu_breakdown": [[name, v] for name, v in best.fu_items] if fu is not None else [],
            "limit": best.limit,
            "base_points": best.base,
            "reading": reading,
        },
        deferred(lambda: _notes(best, fu, winner, pays, liability)),
        pays,
    )


def _notes(
    best: Evaluation, fu: int | None, winner: str, payments: list[Payment], liability: Liability | None
) -> list[str]:
    """The human lines, each a message for the reader's language: the reading, the fu items, the
    limit or base points, the payments (what each payer pays and for what)."""
    notes: list[str] = []
    if best.reading is not None:
        notes.append(_reading_note(best.reading))
    if fu is not None:
        raw = sum(v for _, v in best.fu_items)
        items = tuple(msg("{item} {fu}", item=item_words(name), fu=v) for name, v in best.fu_items)
        rounded = f" = {raw}" + (f" -> {fu}" if fu != raw else "")
        notes.append(msg("Fu: {items}{rounded}", items=items, rounded=rounded))
    if best.yakuman and len(best.elements) > 1:
        notes.append(
            msg("Yakuman are not cumulative (§4.2): the hand pays a double yakuman (Dai suushii)")
            if best.yakuman == 2
            else msg("Yakuman are not cumulative (§4.2): the hand pays one yakuman")
        )
    if best.limit:
        counted = msg(" (counted: 13+ fan)") if best.limit == "yakuman" and not best.yakuman else ""
        notes.append(
            msg("Limit: {limit}{counted}, base {base}", limit=best.limit, counted=counted, base=best.base)
        )
    else:
        notes.append(msg("Base points: {fu} fu x 2^({han}+2) = {base}", fu=fu, han=best.han, base=best.base))
    hand_and_counters = [p for p in payments if p.reason in (FOR_HAND, FOR_COUNTERS)]
    for payer, total in paid_by(hand_and_counters).items():
        counters = sum(p.amount for p in hand_and_counters if p.payer == payer and p.reason == FOR_COUNTERS)
        extra = msg(" (incl. {counters} for counters)", counters=counters) if counters else ""
        notes.append(
            msg(
                "{payer} pays {winner} {total}{extra} [hand and counters]",
                payer=msg(payer),
                winner=msg(winner),
                total=total,
                extra=extra,
            )
        )
    for p in payments:
        if p.reason == FOR_PAO and liability is not None:
            notes.append(
                msg(
                    "{payer} pays {winner} {amount} [pao: {yakuman}, seed {seed}]",
                    payer=msg(p.payer),
                    winner=msg(winner),
                    amount=p.amount,
                    yakuman=liability.yakuman,
                    seed=liability.seed,
                )
            )
        elif p.reason == FOR_STICKS:
            notes.append(
                msg(
                    "{payer} pays {winner} {amount} [riichi sticks]",
                    payer=msg(p.payer),
                    winner=msg(winner),
                    amount=p.amount,
                )
            )
    return notes


def _invalid(reason: str) -> Score:
    result = Score.invalid(NAME, reason, han=0, fu=None, points=None)
    result.unit = "han"
    return result


def score(hand: Hand, options: Mapping[str, str]) -> Score:
    """Score ``hand`` under EMA riichi; never raises for a bad hand (the reason is in ``error``)."""
    flags = normalise_flags(hand.context.flags)
    tiles = hand.all_tiles()
    counts = [0] * N_KINDS  # counts34(tiles), and the kinds of the red fives, in one pass
    reds = []
    for t in tiles:
        k = t.index
        if k < N_KINDS:
            counts[k] += 1
        if t.red:
            reds.append(k)
    reason = (flags and flag_error(hand, flags, options)) or tile_error(hand, options, tiles, counts, reds)
    discarder, bad_discarder = _discarder(hand)
    if reason or bad_discarder:
        return _invalid(reason or bad_discarder or "")
    ctx = context(hand, flags, options, counts)
    if "nagashi_mangan" in flags:
        return _nagashi(hand, ctx)
    if hand.context.winning_tile is None:
        return _invalid("no winning tile: say which tile completed the hand (winning_tile)")
    reads = readings(hand)
    if not reads:
        return _invalid(shape_error(hand))
    dora = dora_elements(hand, counts, reds, "riichi" in flags, options)
    minimum = 2 if hand.context.honba >= FIVE_COUNTERS and options["five_counters"] == "2_fan" else 1
    hp = hand_patterns(ctx, dora, minimum)
    best: Evaluation | None = None
    best_yaku_fan = 0
    for r in reads:
        ev = evaluate(r, ctx, hp)
        if ev.yaku_fan > best_yaku_fan:
            best_yaku_fan = ev.yaku_fan
        if ev.yaku_fan >= minimum and (best is None or _better(ev, best)):
            best = ev
    if best is None:
        return _invalid(_no_yaku_reason(hand, ctx, best_yaku_fan, minimum))
    liable = hand.context.pao
    if liable is None:
        return _build(hand, ctx, best, discarder)
    try:
        return _build(hand, ctx, best, discarder, liable)
    except HandError as exc:
        return _invalid(str(exc))


def _nagashi(hand: Hand, ctx: RiichiContext) -> Score:
    """§4.2.4: claimed after an exhaustive draw, paid as a self-drawn mangan plus counters and
    riichi sticks; it combines with nothing and dora are irrelevant (need not be tenpai)."""
    if not ctx.concealed:
        return _invalid("nagashi mangan needs a concealed hand: the player made no calls (§4.2.4)")
    if hand.context.winning_tile is not None:
        return _invalid("nagashi mangan is claimed after an exhaustive draw: there is no winning tile")
    base, limit = base_points(5, None)
    ev = Evaluation(None, {NAGASHI: 5}, 5, 5, None, base=base, limit=limit)
    return _build(
        hand, RiichiContext(**{**{s: getattr(ctx, s) for s in ctx.__slots__}, "self_drawn": True}), ev, None
    )
