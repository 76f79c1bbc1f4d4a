"""One typed public view of a table, the same shape for every game.

The controller, the web display and (later) the club server read a game only through
:func:`table_view`, never through a game's own attributes or its ``describe()`` dict, whose keys
differ per game. The view carries no hidden information: hand sizes, never hands.

``Outcome`` is the typed result of a game: finished or not, the winning seat or side, totals and
the reason in words.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.cards import card, is_card_code
from engine.events import Event
from engine.game import Game, ShoeDue
from engine.outcome import Outcome

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


class TrickCard(BaseModel):
    seat: int
    card: str
    mode: str = ""  # a joker's mode in Joker ("want H", "high" …)
    covered_by: str | None = None  # Durak: the card that beat this one


class DeclarationView(BaseModel):
    """Something a player showed or announced, for the display to word: a Belot combination
    (``cards``), bella (or Bazar-Belot's бэла), a Bazar-Belot construction (``name``: терц,
    пятьдесят, квинта, рамки, with its ``cards``), Terz's declared points so far (``value``) or a
    group waiting for «от чего?» (``name``, ``value``)."""

    seat: int | None = None
    side: int | None = None  # who it counts for when no one seat is named (Bazar-Belot's бэла)
    kind: Literal["combination", "bella", "construction", "points", "asking"]
    cards: list[str] = Field(default_factory=list)
    name: str = ""
    value: int | None = None


class FoulView(BaseModel):
    """An illegal play the table made, as the game keeps it."""

    seat: int | None = None
    card: str | None = None
    rule: str = ""
    message: str = ""


class VerdictView(BaseModel):
    event: str
    legal: bool
    rule: str = ""
    message: str = ""


class DealLine(BaseModel):
    number: int
    points: list[int]
    rules: list[str] = Field(default_factory=list)  # the score items' rule ids, each once


class TableView(BaseModel):
    """What anyone at or around the table may see."""

    game: str
    title: str
    num_seats: int
    sides: list[str]
    settings: dict[str, Any]
    changed_settings: dict[str, Any]
    phase: str = ""
    deal: int | None = None
    dealer: int | None = None
    to_act: int | None = None
    expects_shoe: bool = False
    shoe_due: ShoeDue | None = None  # the card the shoe owes next: whose, how many in a row
    over: bool = False
    trump: str | None = None  # suit letter, "none" (no trump), "all" (all trumps) or None
    trump_card: str | None = None
    contract: str | None = None
    trick: list[TrickCard] = Field(default_factory=list)
    hand_sizes: list[int] = Field(default_factory=list)
    declarations: list[DeclarationView] = Field(default_factory=list)
    fouls: list[FoulView] = Field(default_factory=list)
    last_verdict: VerdictView | None = None
    deals: list[DealLine] = Field(default_factory=list)
    totals: list[int] = Field(default_factory=list)
    outcome: Outcome = Field(default_factory=Outcome)
    events: int = 0  # length of the game's raw log
    extra: dict[str, Any] = Field(default_factory=dict)  # game-specific public facts


def current_trick(game: Game) -> list[TrickCard]:
    """The cards on the table now, by seat (cheaper than a whole ``table_view``)."""
    return game.view_trick(game.describe())


_WORDS = {"pass": "пас", "play": "играю", "contra": "Контра", "recontra": "Реконтра"}
_KIND_WORDS = {"claim": "«Партия!»", "bella": "бэла", "take": "беру", "done": "бито",
               "confirm": "подтверждаю", "foul": "нарушение!", "ask": "от чего?", "pass": "пас",
               "undo": "отмена"}
_SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_MODE_WORDS = {"want": "хочу", "give": "забирай", "high": "старшая", "low": "младшая",
               "nominal": "как"}


def event_label(event: Event) -> str:
    """A short human label for an action a seat may choose («8 БК», «пас», ♥, «объявление …»),
    for panels and displays; the event's own notation where nothing better is known."""
    from engine.bazar.tables import parse_bid

    arg = event.arg
    cards = " ".join(c.pretty(russian=True) for c in event.cards)
    if event.kind == "bid":
        if arg in _WORDS:
            return _WORDS[arg]
        if arg in _SUITS:
            return _SUITS[arg]
        if arg.isdigit():
            return arg
        bid = parse_bid(arg)
        if bid is not None and not isinstance(bid, str):
            return bid.pretty()
    if event.kind == "trump" and arg in _SUITS:
        return f"козырь {_SUITS[arg]}"
    if event.kind == "declare":
        return f"объявление {cards}"
    if event.kind == "swap":
        return f"обмен {cards}"
    if event.kind in _KIND_WORDS and not arg:
        return _KIND_WORDS[event.kind]
    if event.cards:
        words = " ".join(card(w).pretty(russian=True) if is_card_code(w)
                         else _MODE_WORDS.get(w, _SUITS.get(w, w)) for w in arg.split())
        return f"{cards} {words}".strip()
    return str(Event(event.kind, None, event.cards, event.arg))


def _fouls(d: dict[str, Any]) -> list[FoulView]:
    out = []
    for f in d.get("fouls") or []:
        out.append(FoulView(seat=f.get("seat"), card=f.get("card"), rule=f.get("rule", ""),
                            message=f.get("message", "")))
    return out


_COMMON = {"game", "to_act", "expects_shoe", "over", "phase", "deal", "dealer", "trump",
           "trump_card", "contract", "table", "hand_sizes", "declared", "bella", "fouls", "totals",
           "scores", "winner", "result"}


def outcome(game: Game) -> Outcome:
    """The typed result of a game (so far): ``game.outcome``."""
    return game.outcome


def table_view(game: Game) -> TableView:
    """The public view of ``game`` now."""
    d = game.describe()
    sheet = game.score_sheet()
    last = game.verdicts[-1] if game.verdicts else None
    return TableView(
        game=game.name,
        title=game.title or game.name,
        num_seats=game.num_seats,
        sides=list(sheet.sides),
        settings=game.settings.as_dict(),
        changed_settings=game.settings.changed(),
        phase=str(d.get("phase") or ""),
        deal=game.view_deal(d),
        dealer=d.get("dealer"),
        to_act=game.to_act(),
        expects_shoe=bool(game.expects_shoe),
        shoe_due=game.shoe_due(),
        over=bool(game.is_over),
        trump=game.view_trump(d),
        trump_card=d.get("trump_card"),
        contract=d.get("contract"),
        trick=game.view_trick(d),
        hand_sizes=list(d.get("hand_sizes") or []),
        declarations=game.view_declarations(d),
        fouls=_fouls(d),
        last_verdict=None if last is None else VerdictView(
            event=str(last.event), legal=last.legal, rule=last.rule, message=last.message),
        deals=[DealLine(number=x.number, points=list(x.points),
                        rules=list(dict.fromkeys(it.rule for it in x.items if it.rule)))
               for x in sheet.deals],
        totals=list(sheet.totals),
        outcome=Outcome.of(bool(game.is_over), sheet),  # the sheet is at hand: not game.outcome
        events=len(game.raw_log),
        extra={k: v for k, v in d.items() if k not in _COMMON and k != "open_hand"},
    )
