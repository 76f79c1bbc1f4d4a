"""The dealer's card: one printable page per game (``/dealer-card/{game}``, Russian; English with
``?lang=en``) with the deal order and the buttons.

The deal order is not written down here: it is read from the engine by dealing a fresh game from
an ordered deck and asking ``Game.shoe_due()`` before each packet (the same answer the display's
prompt shows during a deal), so the card cannot drift from the rules the table keeps. Where the
deal stops for the bidding, the card says so. The buttons listed are the seat-panel buttons that
mean something in that game (``controller.buttons``) and the dealer's own.
"""

from __future__ import annotations

import functools
import html
import itertools
import random
from dataclasses import dataclass
from typing import Any

from controller.buttons import (
    LABELS,
    MEANINGS,
    PLAY_KINDS,
    button_action,
    illegal_cards,
    illegal_play,
)
from engine.events import Event
from engine.game import Game
from engine.registry import game_class

MAX_STEPS = 400  # events a walk through one deal may take at most
WALK_GAMES = 6  # seeded random games (per setting variant) the buttons are looked for in
WALK_EVENTS = 3000  # events of each at most
SUITS = {"clubs", "diamonds", "hearts", "spades"}


@dataclass(frozen=True)
class Step:
    """One line of the deal order: ``count`` cards to the seat ``offset`` places clockwise
    from the dealer (0: the dealer), a card laid face up (``face_up``), or a pause
    (``pause``: the bidding)."""

    count: int = 0
    offset: int | None = None
    face_up: str | None = None
    pause: bool = False


def deal_plan(name: str, options: dict[str, Any] | None = None) -> list[Step]:
    """The first deal of ``name`` as the dealer deals it, from the engine."""
    cls = game_class(name)
    opts = dict(options or {})
    if "first_dealer" in cls.settings_model.model_fields:
        opts.setdefault("first_dealer", 0)  # Joker's тузование and Bazar's lot come before
    game = cls(opts)
    steps: list[Step] = []
    deal = _deal_no(game)
    for _ in range(MAX_STEPS):
        due = game.shoe_due()
        if due is not None:
            if due.draw:
                break
            dealer = due.dealer or 0
            offset = None if due.seat is None else (due.seat - dealer) % game.num_seats
            steps.append(Step(due.count, offset, due.face_up))
            for _ in range(due.count):
                game.apply(next(a for a in game.legal_actions() if a.kind == "shoe"))
            continue
        actions = game.legal_actions()
        if game.is_over or not actions or any(a.kind in PLAY_KINDS for a in actions) \
                or _deal_no(game) != deal:
            break
        if steps and not steps[-1].pause:
            steps.append(Step(pause=True))
        # a bid that is not a pass, so the deal goes on to its second half (Belot)
        game.apply(next((a for a in actions if "pass" not in str(a)), actions[0]))
    while steps and steps[-1].pause:
        steps.pop()
    return steps


def _deal_no(game: Game) -> Any:
    return game.view_deal(game.describe())


@functools.cache
def buttons(name: str) -> tuple[str, ...]:
    """The seat-panel buttons that mean something in ``name`` (in the panel's order): those that
    stood for a legal action at some point of a few seeded random games, and the cursor and
    «Отмена», which every game has."""
    used = {"bid_up", "bid_down", "undo"}
    cls = game_class(name)
    variants: list[dict[str, Any]] = [{}]
    if "policy" in cls.settings_model.model_fields:
        variants.append({"policy": "on_claim"})  # the claims a player makes with «Партия!»
    for seed, options in itertools.product(range(WALK_GAMES), variants):
        rng = random.Random(seed)
        game = cls(options)
        for _ in range(WALK_EVENTS):
            if game.is_over:
                break
            for seat in range(game.num_seats):
                used.update(b for b in MEANINGS if b not in used
                            and button_action(game, seat, b) is not None)
            actions = game.legal_actions()
            if rng.random() < 0.1 and (wrong := wrong_card(game, actions)) is not None:
                game.record(wrong)  # a player's mistake: what the claim buttons are for
            else:
                game.apply(actions[rng.randrange(len(actions))])
    if used & SUITS:
        used |= SUITS  # a suit button that named one suit names the others in another deal
    return tuple(b for b in LABELS if b in used)


def wrong_card(game: Game, legal: list[Event]) -> Event | None:
    """A card the seat to act holds but may not play now, as the table would record it."""
    seat = game.to_act()
    wrong = [] if seat is None else illegal_cards(game, seat, legal)
    return illegal_play(game, seat, wrong[0].code, None) if seat is not None and wrong else None


TEXT: dict[str, dict[str, Any]] = {
    "ru": {
        "title": "Карточка сдающего — {game}",
        "order": "Порядок сдачи",
        "note": "Карты берут из шуза по одной; камера шуза читает каждую. Табло показывает, "
                "кому идёт следующая карта.",
        "to": {0: "себе", "2:1": "сопернику", "4:1": "игроку слева", "4:2": "партнёру напротив",
               "4:3": "игроку справа"},
        "cards": ["карта", "карты", "карт"],
        "face": {"trump": "открыть на стол: козырь", "open": "открыть на стол: вторая открытая "
                 "карта (в игре не участвует)"},
        "pause": "торговля: сдача ждёт, пока назначат козырь",
        "round": "по одной карте по кругу, начиная с игрока слева",
        "notes": {
            "joker": "В раздаче столько кругов, сколько карт у каждого: пулька 1 — 1…8, "
                     "пулька 2 — по 9, пулька 3 — 8…1, пулька 4 — по 9. В раздачах по 9 козырь "
                     "не открывают: игрок слева от сдающего называет его, увидев три карты.",
            "durak2": "После отбоя добирают из шуза до шести: сначала атаковавший, потом "
                      "защитник. Козырь под колодой достаётся последним.",
            "terz": "После каждой взятки оба добирают по одной карте, первым — взявший взятку.",
            "bazar": "Первого сдающего выбирают жребием; дальше сдача переходит по кругу.",
        },
        "buttons": "Кнопки",
        "panel": "Пульт игрока",
        "dealer": "Кнопки сдающего",
        "new_deal": "«Новая сдача» — начать следующую сдачу",
        "cancel": "«Отмена» — отменить последнее действие",
        "cursor": "▲ ▼ — выбрать заказ, которого нет на кнопках; «Подтвердить» — сделать его",
    },
    "en": {
        "title": "Dealer's card — {game}",
        "order": "Deal order",
        "note": "Cards come out of the shoe one by one; the shoe camera reads each. The display "
                "shows where the next card goes.",
        "to": {0: "to yourself", "2:1": "to your opponent", "4:1": "to the player on your left",
               "4:2": "to your partner opposite", "4:3": "to the player on your right"},
        "cards": ["card", "cards", "cards"],
        "face": {"trump": "face up on the table: the trump card",
                 "open": "face up on the table: the second open card (not played)"},
        "pause": "bidding: the deal waits until trump is chosen",
        "round": "one card at a time clockwise, starting on your left",
        "notes": {
            "joker": "A deal has as many rounds as cards each: pulka 1 — 1…8, pulka 2 — 9 each, "
                     "pulka 3 — 8…1, pulka 4 — 9 each. In the 9-card deals no trump is turned: "
                     "the player on the dealer's left names it after seeing three cards.",
            "durak2": "After a bout both draw from the shoe up to six: the attacker first, then "
                      "the defender. The trump under the talon is drawn last.",
            "terz": "After each trick both draw one card, the trick's winner first.",
            "bazar": "The first dealer is chosen by lot; then the deal passes clockwise.",
        },
        "buttons": "Buttons",
        "panel": "Seat panel",
        "dealer": "Dealer's buttons",
        "new_deal": "«Новая сдача» — start the next deal",
        "cancel": "«Отмена» — take back the last action",
        "cursor": "▲ ▼ — choose a bid no button has; «Подтвердить» makes it",
    },
}


def _count(n: int, forms: list[str], lang: str) -> str:
    if lang != "ru":
        return f"{n} {forms[0] if n == 1 else forms[1]}"
    m10, m100 = n % 10, n % 100
    i = 0 if m10 == 1 and m100 != 11 else 1 if 2 <= m10 <= 4 and not 12 <= m100 <= 14 else 2
    return f"{n} {forms[i]}"


def lines(steps: list[Step], seats: int, lang: str) -> list[str]:
    """The deal order in words; a round of single cards to every seat is one line."""
    t = TEXT[lang]
    out: list[str] = []
    i = 0
    while i < len(steps):
        s = steps[i]
        rounds = 0
        while (i + seats * (rounds + 1) <= len(steps)
               and [(x.count, x.offset) for x in steps[i + seats * rounds:i + seats * (rounds + 1)]]
               == [(1, (k + 1) % seats) for k in range(seats)]):
            rounds += 1
        if seats > 2 and rounds:
            out.append(t["round"] + (f" × {rounds}" if rounds > 1 else ""))
            i += seats * rounds
            continue
        if s.pause:
            out.append(t["pause"])
        elif s.face_up is not None:
            out.append(f"{_count(1, t['cards'], lang)}: {t['face'].get(s.face_up, s.face_up)}")
        else:
            to = t["to"][0] if s.offset == 0 else t["to"].get(f"{seats}:{s.offset}", str(s.offset))
            out.append(f"{_count(s.count, t['cards'], lang)} {to}")
        i += 1
    return out


def page(name: str, lang: str, title: str) -> str:
    """The printable page."""
    t = TEXT[lang]
    cls = game_class(name)
    seats = cls({}).num_seats
    order = "".join(f"<li>{html.escape(line)}</li>"
                    for line in lines(deal_plan(name), seats, lang))
    panel = "".join(f"<li>{html.escape(LABELS[b])}</li>" for b in buttons(name)
                    if b not in ("bid_up", "bid_down"))
    heading = html.escape(t["title"].format(game=title))
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{heading}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
 @page {{ size: A4; margin: 15mm; }}
 body {{ font-family: "DejaVu Sans", sans-serif; max-width: 180mm; margin: 0 auto; padding: 8mm;
        color: #111; font-size: 14pt; }}
 h1 {{ font-size: 20pt; margin: 0 0 4mm; }} h2 {{ font-size: 15pt; margin: 6mm 0 2mm; }}
 ol li, ul li {{ margin: 1.5mm 0; }} .note {{ color: #444; font-size: 11pt; }}
 .columns {{ display: flex; gap: 10mm; flex-wrap: wrap; }} .columns > div {{ flex: 1 1 60mm; }}
</style></head><body>
<h1 id="title">{heading}</h1>
<h2>{html.escape(t["order"])}</h2>
<ol id="order">{order}</ol>
<p class="note" id="game-note">{html.escape(t["notes"].get(name, ""))}</p>
<p class="note">{html.escape(t["note"])}</p>
<h2>{html.escape(t["buttons"])}</h2>
<div class="columns">
<div><h3>{html.escape(t["panel"])}</h3><ul id="panel">{panel}</ul>
<p class="note">{html.escape(t["cursor"])}</p></div>
<div><h3>{html.escape(t["dealer"])}</h3><ul id="dealer">
<li>{html.escape(t["new_deal"])}</li><li>{html.escape(t["cancel"])}</li></ul></div>
</div>
</body></html>"""
