"""The button vocabulary: what each seat-panel button means in each game, in one place.

A button never builds an event by itself: it picks among the seat's *legal* actions (so a panel
can only ask for what the rules allow now), by event kind and argument. Anything a panel has no
button for — Bazar-Belot's «8 БК», Joker's bid of 5, a Контра out of turn — is reachable with
``bid_up`` / ``bid_down`` (walk the seat's legal non-card actions) and ``confirm``.

``PANEL`` below is the one table of panel buttons. Their names are the panel's (what the firmware
announces and what every logged input holds), not the engine's event kinds — «Партия!» claims in
Belot but calls a foul in Durak — so the kinds they stand for are listed here and nowhere else.
Tests keep the firmware's layout (``firmware/board.py``), the simulated panel's, the input model
and the tables in ``docs/buttons.md`` and ``docs/panel-protocol.md`` equal to it.
"""

from __future__ import annotations

from engine.cards import Card, card
from engine.events import Event
from engine.game import Game

PLAY_KINDS = frozenset({"play", "beat"})
SUIT_BUTTONS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

Meaning = tuple[tuple[str, str], ...]  # (event kind, argument) pairs tried in order; "" = any

# name -> (label on the panel, what it may mean), in the panel's button order (ids 1, 2, ...).
# undo, bid_up and bid_down mean no event by themselves: the controller handles them.
PANEL: dict[str, tuple[str, Meaning]] = {
    "pass": ("«Пас»", (("bid", "pass"), ("pass", ""))),
    "play": ("«Играю»", (("bid", "play"),)),
    **{b: (sym, (("bid", s), ("trump", s)))
       for (b, s), sym in zip(SUIT_BUTTONS.items(), "♣♦♥♠", strict=True)},
    "bid_up": ("▲", ()),
    "bid_down": ("▼", ()),
    "bela": ("«Бэла»", (("bella", ""),)),
    "party": ("«Партия!»", (("claim", ""), ("foul", ""))),
    "take": ("«Беру»", (("take", ""),)),
    "beaten": ("«Бито»", (("done", ""),)),
    "confirm": ("«Подтвердить»", (("confirm", ""),)),
    "undo": ("«Отмена»", ()),
}
PANEL_BUTTONS: tuple[str, ...] = tuple(PANEL)
MEANINGS: dict[str, Meaning] = {b: meaning for b, (_label, meaning) in PANEL.items() if meaning}
LABELS: dict[str, str] = {b: label for b, (label, _meaning) in PANEL.items()}


def _mine(game: Game, seat: int) -> list[Event]:
    return [a for a in game.legal_actions(seat) if a.seat == seat]


def button_action(game: Game, seat: int, button: str) -> Event | None:
    """The legal action ``button`` stands for at ``seat`` now, or None."""
    actions = _mine(game, seat)
    for kind, arg in MEANINGS.get(button, ()):
        for a in actions:
            if a.kind == kind and (not arg or a.arg == arg):
                return a
    return None


def panel_options(game: Game, seat: int) -> list[Event]:
    """What ``bid_up``/``bid_down`` walk through: the seat's legal actions that are not cards
    put on the table (those come from the table camera)."""
    return [a for a in _mine(game, seat) if a.kind not in PLAY_KINDS and a.kind != "undo"]


def plays_of(game: Game, seat: int, code: str, covers: str | None = None) -> list[Event]:
    """The seat's legal plays of one card (a joker has several modes; in Durak a card may
    beat several attacking cards unless ``covers`` says which)."""
    out = []
    for a in _mine(game, seat):
        if a.kind in PLAY_KINDS and a.cards and a.cards[0].code == code:
            if covers and a.kind == "beat" and (len(a.cards) < 2 or a.cards[1].code != covers):
                continue
            out.append(a)
    return out


def illegal_cards(game: Game, seat: int, legal: list[Event]) -> list[Card]:
    """The cards of ``seat``'s hand it may not play now, given the ``legal`` actions (a
    player's possible mistakes); none while no card may be played at all."""
    allowed = {a.cards[0] for a in legal if a.kind in PLAY_KINDS and a.cards}
    if not allowed:
        return []
    return [c for c in game.hand(seat) if c not in allowed]


def illegal_play(game: Game, seat: int, code: str, covers: str | None) -> Event:
    """The event for a card put down that no legal action matches, for ``record`` to judge."""
    if game.name == "durak2":
        d = game.describe()
        if seat == d.get("defender"):
            open_attacks = [a for a, c in d.get("table") or [] if c is None]
            target = covers or (open_attacks[0] if open_attacks else None)
            if target:
                return Event("beat", seat, (card(code), card(target)))
    if game.name == "joker" and code in ("BJ", "RJ"):
        return Event("play", seat, (card(code),), "high")
    return Event("play", seat, (card(code),))
