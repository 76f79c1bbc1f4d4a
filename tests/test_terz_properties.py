"""Hypothesis properties of Terz on random deals: card points, cards conserved, exact legal lists
(declarations included), replay, and the table's recorded mistakes under each policy."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.cards import SUITS, card
from engine.errors import EngineError
from engine.events import Event, card_event
from engine.playout import play_out
from engine.terz import PH_SCORE, Terz, declare_event

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.fixed_dictionaries({
    "hand_size": st.sampled_from([9, 6, 3]),
    "winner_draws_first": st.booleans(),
    "declare_after_last_draw": st.booleans(),
    "first_dealer": st.integers(0, 1),
})

# Card points written out again here, independently of the engine's tables.
PLAIN = {"A": 11, "T": 10, "K": 3, "Q": 2, "J": 1}
TRUMP = {"J": 20, "9": 13, "A": 11, "T": 10, "K": 3, "Q": 2}


def first_deal(game: Terz, rng: random.Random) -> Terz:
    return play_out(game, rng, stop=lambda g: g.deal_no > 1 or g.is_over)


@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
@settings(max_examples=40, **SETTINGS)
def test_a_full_deal_card_points_and_last_trick_sum_to_150(seed: int, options: dict) -> None:
    game = first_deal(Terz(**options), random.Random(seed))
    _number, points, items, _notes = game.history[0]
    played = [e.cards[0] for e in game.raw_log if e.kind == "play"]
    assert len(played) == 32 and len(set(played)) == 32            # every card played once
    trump = next(e.cards[0].suit for e in game.raw_log[2 * options["hand_size"]:] if e.kind == "shoe")
    by_hand = sum((TRUMP if c.suit == trump else PLAIN).get(c.rank, 0) for c in played)
    assert by_hand == 140
    card_items = [i for i in items if i[3] in ("card-points", "last-trick")]
    assert sum(i[2] for i in card_items) == 150
    assert [i[2] for i in card_items if i[3] == "last-trick"] == [10]
    assert list(points) == [sum(i[2] for i in items if i[0] == s) for s in (0, 1)]


@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
@settings(max_examples=25, **SETTINGS)
def test_cards_are_conserved_at_every_step(seed: int, options: dict) -> None:
    rng = random.Random(seed)
    game = Terz(**options)
    while game.deal_no == 1:
        d = game.describe()
        in_hands = len(game.hand(0)) + len(game.hand(1))
        played = sum(game.tricks) * 2 + len(d["table"])
        assert in_hands + played + (d["trump_card"] is not None) + len(game.unseen_cards()) == 32
        assert game.problems() == []
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])


def candidate_events(game: Terz) -> list[Event]:
    """Everything a seat might try now: each held card, every group in either hand (scored or
    not), the marriage, answers, the seven swap, claims."""
    out: list[Event] = []
    for seat in (0, 1):
        hand = game.hands[seat]
        for c in game.hand(seat):
            out.append(card_event("play", seat, c))
            out.append(card_event("swap", seat, c))
        for s in range(4):
            for lo in range(1, 9):
                for hi in range(lo + 2, 9):
                    run = ((1 << (hi - lo + 1)) - 1) << (9 * s + lo)
                    if hand & run == run or (hi - lo == 2 and lo == 1):   # a few not held, too
                        out.append(declare_event(seat, run))
        out += [Event(k, seat) for k in ("bella", "ask", "pass", "claim", "confirm")]
    return out


@given(seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(["penalize", "on_claim"]))
@settings(max_examples=15, **SETTINGS)
def test_legal_actions_are_exactly_the_legal_events(seed: int, policy: str) -> None:
    rng = random.Random(seed)
    game = Terz(policy=policy)            # on_claim adds the score step after the last trick
    steps = 0
    while game.deal_no == 1:
        actions = game.legal_actions()
        if not game.expects_shoe and (steps % 3 == 0 or game.phase == PH_SCORE):
            listed = set(actions)
            before = game.snapshot()
            for action in actions:                      # every listed action applies …
                game.apply(action)
                game.pop()
                assert game.snapshot() == before
            for event in candidate_events(game):        # … and nothing else is legal
                if event not in listed:
                    assert not game.is_legal(event), f"{event} legal but not listed"
        game.apply(actions[rng.randrange(len(actions))])
        steps += 1


def table_mistakes(rng: random.Random, rate: float):
    """A chooser that sometimes records what a careless player does: any held card, a group or a
    marriage not held, a claim."""
    def choose(game: Terz, actions: list[Event]) -> Event:
        if rng.random() < rate:
            seat = game.to_act()
            if seat is not None and game.hands[seat]:
                held = game.hand(seat)
                pick = rng.random()
                if pick < 0.6:
                    return card_event("play", seat, rng.choice(held))
                if pick < 0.8:
                    suit = rng.choice(SUITS)
                    return Event("declare", seat, tuple(card(r + suit) for r in "789"))
                if pick < 0.9:
                    return Event("bella", seat)
                return Event("claim", 1 - seat)
        return actions[rng.randrange(len(actions))]
    return choose


def play_recording(game: Terz, rng: random.Random, rate: float) -> Terz:
    choose = table_mistakes(rng, rate)
    for _ in range(20_000):
        if game.is_over:
            break
        actions = game.legal_actions()
        event = actions[rng.randrange(len(actions))] if game.expects_shoe else choose(game, actions)
        try:
            game.record(event)
        except EngineError:
            continue                        # refused: nothing happened
        assert game.problems() == []
    return game


@given(seed=st.integers(0, 2**32 - 1),
       policy=st.sampled_from(["penalize", "on_claim", "retract"]),
       foul_penalty=st.sampled_from(["all", "cards"]))
@settings(max_examples=20, **SETTINGS)
def test_recorded_mistakes_keep_the_state_valid_and_replayable(seed: int, policy: str,
                                                                foul_penalty: str) -> None:
    rng = random.Random(seed)
    game = play_recording(Terz(policy=policy, foul_penalty=foul_penalty, target=300), rng, 0.15)
    assert game.is_over and game.problems() == []
    again = Terz.replay(game.raw_log, game.settings)
    assert again.snapshot() == game.snapshot()
    back = record.loads(record.dumps(game)).game
    assert back.snapshot() == game.snapshot()
    sheet = game.score_sheet()
    for deal in sheet.deals:
        cards = sum(i.points for i in deal.items if i.rule in ("card-points", "last-trick"))
        assert cards == 150
        fouls = [i for i in deal.items if i.rule == "foul"]
        if foul_penalty == "all" and {i.side for i in fouls if "both seats" in i.what} == {0, 1}:
            assert deal.points == [0, 0]                # both seats caught: each scores 0 (§6)
        else:
            assert sum(i.points for i in fouls) == 0    # a penalty moves points, never makes them
    if policy == "retract":
        assert game.illegal_plays == []                 # every one was taken back


@given(seed=st.integers(0, 2**32 - 1), next_dealer=st.sampled_from(["last_trick", "alternate"]))
@settings(max_examples=10, **SETTINGS)
def test_next_dealer_and_the_end_of_the_game(seed: int, next_dealer: str) -> None:
    rng = random.Random(seed)
    game = Terz(next_dealer=next_dealer)
    dealers = [game.dealer]
    last_winners = []
    while not game.is_over:
        deal_no = game.deal_no
        game = play_out(game, rng, stop=lambda g, n=deal_no: g.deal_no > n or g.is_over)
        last_winners.append(game.history[-1][2][2][0])      # the last-trick item's side
        if not game.is_over:
            dealers.append(game.dealer)
    for k in range(1, len(dealers)):
        expected = last_winners[k - 1] if next_dealer == "last_trick" else 1 - dealers[k - 1]
        assert dealers[k] == expected
    a, b = game.totals
    assert max(a, b) >= 501 and a != b and game.winner == (0 if a > b else 1)
    for k in range(1, len(game.history)):               # it did not end earlier
        a, b = (sum(d[1][s] for d in game.history[:k]) for s in (0, 1))
        assert max(a, b) < 501 or a == b


# An independent model of one deal, written from RULES.md §5 without the engine's tables: who gets
# each shoe card (packets of three, the dealer's opponent first; card 2h+1 turned; refills winner
# first, the turned card to the last drawer), which cards a follower may play, who wins each trick,
# and what each side's tricks are worth.
PLAIN_LOW_TO_HIGH = "789JQKTA"     # A 10 K Q J 9 8 7
TRUMP_LOW_TO_HIGH = "78QKTA9J"     # J 9 A 10 K Q 8 7


def model_beats(lead: str, other: str, trump: str) -> bool:
    """Does ``other`` (second card) beat ``lead``?"""
    if other[1] == lead[1]:
        order = TRUMP_LOW_TO_HIGH if lead[1] == trump else PLAIN_LOW_TO_HIGH
        return order.index(other[0]) > order.index(lead[0])
    return other[1] == trump


def model_allowed(hand: set[str], lead: str, trump: str, talon_left: bool) -> set[str]:
    if talon_left:
        return set(hand)
    jack = "J" + trump
    same = {c for c in hand if c[1] == lead[1]}
    trumps = {c for c in hand if c[1] == trump}
    if lead[1] == trump:
        return same if same - {jack} else set(hand)
    if same:
        return same
    return trumps if trumps - {jack} else set(hand)


def model_points(cs: list[str], trump: str) -> int:
    return sum((TRUMP if c[1] == trump else PLAIN).get(c[0], 0) for c in cs)


@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
@settings(max_examples=40, **SETTINGS)
def test_an_independent_model_agrees_on_hands_duties_tricks_and_card_points(seed: int,
                                                                            options: dict) -> None:
    rng = random.Random(seed)
    game = Terz(**options)
    size, dealer = options["hand_size"], options["first_dealer"]
    hands: list[set[str]] = [set(), set()]
    won: list[list[str]] = [[], []]
    shoe_n, turned, trump, leader = 0, "", "", 1 - dealer
    table: list[str] = []
    drawers: list[int] = []
    last = -1
    while game.deal_no == 1:
        actions = game.legal_actions()
        seat = game.to_act()
        if seat is not None and table:             # a follower: compare the cards it may play
            plays = {e.cards[0].code for e in actions if e.kind == "play" and e.seat == seat}
            assert plays == model_allowed(hands[seat], table[0], trump, shoe_n < 32 or bool(turned))
        event = actions[rng.randrange(len(actions))]
        game.apply(event)
        if event.kind == "shoe":
            code = event.cards[0].code
            shoe_n += 1
            if shoe_n <= 2 * size:
                hands[1 - dealer if (shoe_n - 1) // 3 % 2 == 0 else dealer].add(code)
            elif shoe_n == 2 * size + 1:
                turned, trump = code, code[1]
            else:
                hands[drawers.pop(0)].add(code)
                if shoe_n == 32:                   # the last drawer takes the card beside the talon
                    hands[drawers.pop(0)].add(turned)
                    turned = ""
        elif event.kind == "swap":
            hands[event.seat].discard(event.cards[0].code)
            hands[event.seat].add(turned)
            turned = event.cards[0].code
        elif event.kind == "play":
            code = event.cards[0].code
            hands[event.seat].remove(code)
            table.append(code)
            if len(table) == 2:
                winner = 1 - leader if model_beats(table[0], table[1], trump) else leader
                won[winner] += table
                table, leader, last = [], winner, winner
                if shoe_n < 32:
                    first = winner if options["winner_draws_first"] else 1 - winner
                    drawers = [first, 1 - first]
        if game.deal_no == 1:
            assert [hands[s] == {c.code for c in game.hand(s)} for s in (0, 1)] == [True, True]
            assert game.leader == leader
    _number, _points, items, _notes = game.history[0]
    cards_items = {(i[0], i[3]): i[2] for i in items if i[3] in ("card-points", "last-trick")}
    assert cards_items == {(0, "card-points"): model_points(won[0], trump),
                           (1, "card-points"): model_points(won[1], trump),
                           (last, "last-trick"): 10}
