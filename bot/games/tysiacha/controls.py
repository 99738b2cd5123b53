"""Tysiacha's own clicks on a seat's private message, read into decisions: bids,
passes, the prikup (raise, concede, the two gifts), the four-nines redeal and the plays.

:func:`read` is pure: the table service has decided the click is not stale, and the
engine checks every move. Picking the soloist's two gifts only redraws the panel, the
choice so far kept in the controls' IDs (``gv:<slot>.<a>-<b>``)."""

from __future__ import annotations

from bot.games.tysiacha.hand import gift_targets, hand_message, parse_gift_state
from bot.tables import Table, TableError, ids
from bot.tables.clicks import Decision, Look, Move
from engine.cards import ALL
from engine.tysiacha.actions import Action, Bid, Concede, Give, Pass, Play, Raise, Redeal


def _number(text: str | None) -> int:
    if text is None or not text.isdigit() or len(text) > 4:
        raise TableError("forged")
    return int(text)


def _one(click: ids.Click) -> str:
    value = click.one()
    if value is None:
        raise TableError("forged")
    return value


def read(table: Table, seat: int, click: ids.Click) -> Decision:
    """The decision of a click by ``seat`` now."""
    if click.action == "gv":
        return _gift_choice(table, seat, click)
    return Move(_action(table, seat, click))


def _gift_choice(table: Table, seat: int, click: ids.Click) -> Look:
    """A card picked for one of the two opponents: the panel again, the choice kept."""
    slot_text, _, state_text = (click.arg or "").partition(".")
    state = parse_gift_state(state_text)
    value = _one(click)
    if state is None or slot_text not in ("0", "1") or not value.isdigit() \
            or int(value) >= 52 or ALL[int(value)] not in table.game.hands[seat]:
        raise TableError("forged")
    card = ALL[int(value)]
    chosen = [None if c == card else c for c in state]
    chosen[int(slot_text)] = card
    gifts = (chosen[0], chosen[1])
    return Look(lambda locale: hand_message(table, seat, locale, gifts=gifts))


def _action(table: Table, seat: int, click: ids.Click) -> Action:
    """The action of a button or a final select."""
    action = click.action
    if action == "bid":
        return Bid(seat, _number(click.arg))
    if action == "bids":
        return Bid(seat, _number(_one(click)))
    if action == "raise":
        return Raise(seat, _number(_one(click)))
    if action == "pass":
        return Pass(seat)
    if action == "concede":
        return Concede(seat)
    if action == "redeal":
        return Redeal(seat)
    if action == "give":
        state = parse_gift_state(click.arg)
        if state is None or state[0] is None or state[1] is None:
            raise TableError("tysiacha_gifts_incomplete")
        view = table.game.view(seat)
        if len(view.opponents) != 2:
            raise TableError("forged")  # no soloist yet: no one to give to
        targets = gift_targets(view)
        return Give(seat, ((targets[0], state[0]), (targets[1], state[1])))
    if action == "play":
        value = _one(click)
        marriage = value.startswith("m")
        number = _number(value[1:] if marriage else value)
        if number >= 52:
            raise TableError("forged")
        return Play(seat, ALL[number], marriage)
    raise TableError("forged")
