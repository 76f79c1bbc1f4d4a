"""The controller against every kind of input: corrections, policies and nonsense.

Each case runs a real Controller over a real SQLite log in tmp_path. Nonsense must be an alert
with a rule id that changes neither the game nor the game's events in the log; corrections are
new log entries, never rewrites.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller import buttons as vocabulary
from controller.core import Controller
from controller.inputs import Admin, Button, Placed, Removed, ShoeCard
from controller.log import GameLog
from synth.bundles import _illegal_card

NewTable = Callable[..., Controller]


@pytest.fixture
def controller(make_controller: NewTable) -> NewTable:
    """``controller(game, **options)``: a fresh game for four names on a log in tmp_path
    (``make_controller`` of tests/conftest.py)."""
    return lambda game="belot2", **options: make_controller(game, options,
                                                            ["Аня", "Борис", "Вера", "Глеб"])


def step(c: Controller, rng: random.Random) -> None:
    """One legal input, as the devices would send it."""
    g = c.game
    assert g is not None
    if g.expects_shoe:
        actions = g.legal_actions()
        reply = c.submit(ShoeCard(card=actions[rng.randrange(len(actions))].cards[0].code))
    else:
        actions = [a for a in g.legal_actions() if a.kind not in ("claim", "foul")] or g.legal_actions()
        e = actions[rng.randrange(len(actions))]
        if e.kind in vocabulary.PLAY_KINDS and len(vocabulary.plays_of(g, e.seat, e.cards[0].code)) == 1:
            reply = c.submit(Placed(seat=e.seat, card=e.cards[0].code))
        else:
            reply = c.submit(Admin(action="event", event=str(e)))
    assert reply.accepted, reply.alerts


def until(c: Controller, rng: random.Random, condition, limit: int = 2000) -> None:
    for _ in range(limit):
        if condition(c):
            return
        step(c, rng)
    raise AssertionError("condition never reached")


def logged_events(c: Controller) -> list[str]:
    return c.log.event_texts(c.game_id)


def refused_cleanly(c: Controller, inp, rule: str) -> None:
    """The input is refused with ``rule``: the game and its logged events are unchanged."""
    before, events, seq = c.game.snapshot(), logged_events(c), c.seq
    reply = c.submit(inp)
    assert not reply.accepted
    assert [a.rule for a in reply.alerts] == [rule]
    assert c.game.snapshot() == before
    assert logged_events(c) == events
    assert reply.seq > seq  # the input and its alert are logged all the same
    assert c.public_state()["alerts"][-1]["rule"] == rule


# ----------------------------------------------------------------------------- corrections
def test_unsure_shoe_card_waits_for_confirmation_and_holds_later_cards(controller: NewTable) -> None:
    c = controller()
    assert c.game.expects_shoe
    first, second = (c.game.legal_actions()[i].cards[0].code for i in (0, 1))
    reply = c.submit(ShoeCard(card="??", confidence=0.4, candidates=[first, second]))
    assert reply.accepted and reply.events == []
    shown = c.public_state()["pending"]
    assert shown["source"] == "shoe" and shown["candidates"] == []  # a dealt card is private
    assert c.admin_state()["pending"]["candidates"] == [first, second]
    # the dealer goes on dealing: the next card is held, not lost
    c.submit(ShoeCard(card=second))
    assert c.public_state()["pending"]["held"] == 1 and len(c.game.raw_log) == 0
    c.submit(Admin(action="confirm_card", card=first))
    assert [str(e) for e in c.game.raw_log] == [f"shoe {first}", f"shoe {second}"]
    assert c.public_state()["pending"] is None
    kinds = [e.kind for e in c.log.entries(c.game_id)]
    assert kinds.count("input") == 3 and kinds.count("event") == 2


def test_seen_twice_asks_for_the_real_card(controller: NewTable) -> None:
    c = controller()
    code = c.game.legal_actions()[0].cards[0].code
    c.submit(ShoeCard(card=code))
    c.submit(ShoeCard(card=code, seen_twice=True))
    assert c.public_state()["pending"]["reason"].startswith("seen twice")
    # a wrong confirmation (the same card again) is refused and the card still waits
    reply = c.submit(Admin(action="confirm_card", card=code))
    assert not reply.accepted and reply.alerts[0].rule == "bad-confirmation"
    assert c.public_state()["pending"] is not None
    other = c.game.legal_actions()[0].cards[0].code
    c.submit(Admin(action="confirm_card", card=other))
    assert [str(e) for e in c.game.raw_log] == [f"shoe {code}", f"shoe {other}"]


def test_a_dismissed_card_releases_the_held_ones(controller: NewTable) -> None:
    c = controller()
    code = c.game.legal_actions()[0].cards[0].code
    c.submit(ShoeCard(card="??", flag="not a known card face"))  # e.g. a card back seen twice
    c.submit(ShoeCard(card=code))
    c.submit(Button(seat=0, button="undo"))  # «Отмена» dismisses the waiting card
    assert [str(e) for e in c.game.raw_log] == [f"shoe {code}"]


def test_table_card_the_shoe_did_not_deal_there(controller: NewTable) -> None:
    c = controller()
    rng = random.Random(4)
    until(c, rng, lambda c: not c.game.expects_shoe and any(
        a.kind == "play" for a in c.game.legal_actions()))
    seat = c.game.to_act()
    mine = c.hand(seat)
    theirs = c.hand(1 - seat)[0]
    c.submit(Placed(seat=seat, card=theirs, candidates=[theirs, mine[0]]))
    pending = c.public_state()["pending"]
    assert pending["source"] == "placed" and pending["seat"] == seat
    assert pending["candidates"] == [mine[0]]  # the reader's guesses that seat really holds
    c.submit(Admin(action="confirm_card", card=mine[0]))
    assert str(c.game.raw_log[-1]).startswith(f"{seat} play {mine[0]}")


# ----------------------------------------------------------------------------- policies
def _to_illegal_chance(c: Controller, rng: random.Random):
    def ready(c: Controller) -> bool:
        g = c.game
        seat = g.to_act()
        if g.expects_shoe or seat is None:
            return False
        wrong = _illegal_card(g, seat, g.legal_actions(seat), rng)
        return wrong is not None and not g.judge(wrong).legal

    until(c, rng, ready)
    g = c.game
    seat = g.to_act()
    return seat, _illegal_card(g, seat, g.legal_actions(seat), rng)


@pytest.mark.parametrize("policy", ["penalize", "on_claim"])
def test_illegal_play_is_kept_and_named(controller: NewTable, policy: str) -> None:
    c = controller(policy=policy)
    rng = random.Random(7)
    seat, wrong = _to_illegal_chance(c, rng)
    reply = c.submit(Placed(seat=seat, card=wrong.cards[0].code))
    assert reply.accepted and reply.events == [str(wrong)]
    alert = reply.alerts[0]
    assert alert.level == "illegal" and alert.seat == seat and alert.rule
    view = c.public_state()["view"]
    assert view["last_verdict"]["legal"] is False
    assert view["fouls"] and view["fouls"][-1]["seat"] == seat
    step(c, rng)  # and the game goes on


def test_retract_takes_the_card_back_before_anything_else(controller: NewTable) -> None:
    c = controller(policy="retract")
    rng = random.Random(7)
    seat, wrong = _to_illegal_chance(c, rng)
    before = c.game.snapshot()
    c.submit(Placed(seat=seat, card=wrong.cards[0].code))
    other = 1 - seat
    refused_cleanly(c, Button(seat=other, button="pass"), "button-not-allowed")
    reply = c.submit(Button(seat=seat, button="undo"))
    assert reply.accepted and reply.events == ["undo"]
    assert c.game.snapshot() == before
    assert logged_events(c)[-2:] == [str(wrong), "undo"]  # nothing rewritten


# ----------------------------------------------------------------------------- nonsense
def test_shoe_card_when_the_deal_is_complete(controller: NewTable) -> None:
    c = controller()
    rng = random.Random(1)
    until(c, rng, lambda c: not c.game.expects_shoe)
    refused_cleanly(c, ShoeCard(card=c.game.unseen_cards()[0].code), "shoe-not-expected")


def test_button_from_a_seat_not_to_act(controller: NewTable) -> None:
    c = controller()
    rng = random.Random(1)
    until(c, rng, lambda c: c.game.to_act() is not None
          and vocabulary.button_action(c.game, c.game.to_act(), "pass") is not None)
    other = 1 - c.game.to_act()
    refused_cleanly(c, Button(seat=other, button="pass"), "button-not-allowed")
    assert "turn" in c.public_state()["alerts"][-1]["message"]


def test_card_placed_out_of_turn(controller: NewTable) -> None:
    c = controller()
    rng = random.Random(2)
    until(c, rng, lambda c: not c.game.expects_shoe and any(
        a.kind == "play" for a in c.game.legal_actions()))
    other = 1 - c.game.to_act()
    refused_cleanly(c, Placed(seat=other, card=c.hand(other)[0]), "out-of-turn")


def test_cards_gathered_mid_trick(controller: NewTable) -> None:
    c = controller("durak2")
    rng = random.Random(3)
    until(c, rng, lambda c: bool(c.view().trick))
    refused_cleanly(c, Removed(), "trick-not-complete")


def test_a_bad_engine_event_from_the_admin(controller: NewTable) -> None:
    c = controller()
    refused_cleanly(c, Admin(action="event", event="0 frobnicate"), "bad-event")
    refused_cleanly(c, Admin(action="event", event="0 play ZZ"), "unknown-card")


def test_undo_with_nothing_to_undo(controller: NewTable) -> None:
    c = controller()
    refused_cleanly(c, Button(seat=0, button="undo"), "nothing-to-undo")


# ----------------------------------------------------------------------------- panel flow
def test_rich_bid_through_the_cursor(controller: NewTable) -> None:
    """Bazar-Belot's bids have no button of their own: ▲ walks the legal ones, confirm bids."""
    c = controller("bazar")
    rng = random.Random(5)
    until(c, rng, lambda c: c.game.to_act() is not None and len(
        vocabulary.panel_options(c.game, c.game.to_act())) > 2)
    seat = c.game.to_act()
    options = [str(e) for e in vocabulary.panel_options(c.game, seat)]
    for _ in range(3):
        c.submit(Button(seat=seat, button="bid_up"))
    cursor = c.public_state()["cursor"]
    assert (cursor["seat"], cursor["showing"]) == (seat, options[2])
    # the panel and display show words («8 БК», «Капо ВК + 5», «пас»), not the notation
    assert "bid" not in cursor["label"] and ":" not in cursor["label"]
    c.submit(Button(seat=seat, button="bid_down"))
    c.submit(Button(seat=seat, button="confirm"))
    assert str(c.game.raw_log[-1]) == options[1]
    assert c.public_state()["cursor"] is None


def test_misread_corrected_from_a_simulated_panel(controller: NewTable) -> None:
    """A `??` card confirmed from a seat panel on a real pty: ▲ ▲ picks the second candidate."""
    from controller.table import PanelLink
    from firmware_bridge.sim import SimTable

    c = controller()
    first, second = (c.game.legal_actions()[i].cards[0].code for i in (0, 1))
    with SimTable({"sim-seat-0": 0, "sim-seat-1": 1}) as panels:  # panels[n] sits at seat n
        assert panels.bridge.wait_connected(2, timeout=5)
        link = PanelLink(c, panels.bridge).start()
        try:
            c.submit(ShoeCard(card="??", candidates=[first, second]))
            for button in ("bid_up", "bid_up", "confirm"):
                panels[1].tap(button)
            deadline = time.monotonic() + 5
            while not c.game.raw_log and time.monotonic() < deadline:
                time.sleep(0.02)
            assert [str(e) for e in c.game.raw_log] == [f"shoe {second}"]
            # the LEDs follow: nobody is to act while the shoe deals, no error light
            # (it pulsed while the card waited; the LED commands cross the pty in their order)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and getattr(
                    panels[0].leds.get("error"), "mode", None) not in (0, "off"):
                time.sleep(0.02)
            assert panels[0].leds["error"].mode in (0, "off")
        finally:
            link.stop()


def test_resume_restores_the_pending_card(controller: NewTable, tmp_path: Path) -> None:
    c = controller()
    rng = random.Random(9)
    for _ in range(5):
        step(c, rng)
    c.submit(ShoeCard(card="??", candidates=["AS"]))
    again = Controller(GameLog(tmp_path / "table.sqlite"))
    assert again.game.snapshot() == c.game.snapshot()
    assert again.admin_state()["pending"] == c.admin_state()["pending"]
    assert again.seq == c.seq


def test_dealer_buttons_on_gpio(controller: NewTable) -> None:
    """«новая сдача» and «отмена» on gpiozero's mock pins; the attention LED follows the table."""
    from gpiozero.pins.mock import MockFactory

    from controller.table import DealerLink

    c = controller()
    link = DealerLink(c, MockFactory())
    try:
        assert link.panel.leds["ready"].is_lit and not link.panel.leds["attention"].is_lit
        seq = c.seq
        link.panel.press("new_deal")
        assert c.seq == seq + 1 and c.public_state()["alerts"] == []  # logged, nothing to show
        c.submit(ShoeCard(card="??", candidates=["AS"]))
        assert link.panel.leds["attention"].is_active  # blinking while a card waits
        link.panel.press("cancel")  # «отмена»: the waiting card is dismissed
        assert c.public_state()["pending"] is None
        assert not link.panel.leds["attention"].is_lit
        sources = [e.body.get("source") for e in c.log.entries(c.game_id, kinds=("input",))]
        assert sources.count("gpio") == 2
    finally:
        link.close()


@pytest.mark.parametrize("name", ["belot2", "durak2", "joker", "bazar", "terz"])
def test_every_game_plays_to_the_end_through_the_devices(controller: NewTable, tmp_path: Path, name: str) -> None:
    """Shoe cards, table cards, panel buttons (direct or by the cursor) and nothing else: each
    game reaches its end, nothing is refused, and a fresh controller resumes the same state."""
    from synth.bundles import _button_presses

    c = controller(name)
    rng = random.Random(11)
    for _ in range(6000):
        g = c.game
        if g.is_over:
            break
        if g.expects_shoe:
            actions = g.legal_actions()
            replies = [c.submit(ShoeCard(card=actions[rng.randrange(len(actions))].cards[0].code))]
        else:
            actions = [a for a in g.legal_actions() if a.kind not in ("claim", "foul")] or \
                g.legal_actions()
            e = actions[rng.randrange(len(actions))]
            if e.kind == "shoe":  # Joker: the deal may go on while trump could be named
                replies = [c.submit(ShoeCard(card=e.cards[0].code))]
            elif e.kind in vocabulary.PLAY_KINDS:
                ways = vocabulary.plays_of(g, e.seat, e.cards[0].code)
                covers = e.cards[1].code if e.kind == "beat" else None
                replies = [c.submit(Placed(seat=e.seat, card=e.cards[0].code, covers=covers))]
                if len(ways) > 1 and covers is None:  # a joker's mode: ▲ … ▲ confirm
                    for _ in range(ways.index(e) + 1):
                        replies.append(c.submit(Button(seat=e.seat, button="bid_up")))
                    replies.append(c.submit(Button(seat=e.seat, button="confirm")))
            else:
                replies = [c.submit(Admin(action="event", event=str(p["event"])) if "event" in p
                                    else Button(seat=p["seat"], button=p["button"]))
                           for p in _button_presses(g, e)]
            assert str(c.game.raw_log[-1]) == str(e)
        for r in replies:
            assert r.accepted, r.alerts
    assert c.game.is_over and c.game.problems() == []
    assert c.game_status == "finished"
    again = Controller(GameLog(tmp_path / "table.sqlite"))
    assert again.game.snapshot() == c.game.snapshot()


def test_a_joker_waits_for_its_mode_before_the_next_card(controller: NewTable) -> None:
    c = controller("joker")
    rng = random.Random(2)

    def joker_to_play(c: Controller) -> bool:
        g = c.game
        seat = g.to_act()
        return (not g.expects_shoe and seat is not None and any(
            len(vocabulary.plays_of(g, seat, j)) > 1 for j in ("BJ", "RJ")))

    until(c, rng, joker_to_play, limit=6000)
    g = c.game
    seat = g.to_act()
    joker = next(j for j in ("BJ", "RJ") if len(vocabulary.plays_of(g, seat, j)) > 1)
    ways = [str(e) for e in vocabulary.plays_of(g, seat, joker)]
    c.submit(Placed(seat=seat, card=joker))
    assert c.public_state()["cursor"] is None  # nothing chosen yet, nothing recorded
    other = (seat + 1) % 4
    refused_cleanly(c, Placed(seat=other, card=c.hand(other)[0]), "choose-first")
    c.submit(Button(seat=seat, button="bid_down"))  # the first ▼ shows the last way
    assert c.public_state()["cursor"]["showing"] == ways[-1]
    c.submit(Button(seat=seat, button="confirm"))
    assert str(c.game.raw_log[-1]) == ways[-1]


def test_durak_illegal_throw_in_must_be_taken_back_under_penalize_by_rules_md_section_6(tmp_path: Path) -> None:
    """RULES.md §6: in Durak an illegal throw-in can never stand, whatever the policy: the alert
    says to take the card back, nothing else is accepted, and «Отмена» restores the table."""
    c = Controller(GameLog(tmp_path / "t.sqlite"))
    c.new_game("durak2", {"policy": "penalize"}, ["A", "B"])
    for code in ["6C", "6D", "6H", "8C", "8D", "8H", "6S", "7C", "7D", "7S", "9C", "9D", "8S"]:  # seat 0 attacks (lowest trump 6S)
        assert c.submit(ShoeCard(card=code)).accepted
    c.submit(Placed(seat=0, card="6C"))
    c.submit(Placed(seat=1, card="8C", covers="6C"))
    before = c.game.snapshot()
    reply = c.submit(Placed(seat=0, card="7C"))  # no seven on the table: throw-in-rank
    (alert,) = reply.alerts
    assert alert.rule == "throw-in-rank" and alert.level == "illegal"
    assert "take the card back" in alert.message
    refused_cleanly(c, Button(seat=1, button="take"), "button-not-allowed")
    assert c.submit(Button(seat=0, button="undo")).accepted
    assert c.game.snapshot() == before


def test_a_seats_confirm_after_the_game_is_its_word_on_the_result(controller) -> None:
    """After the last deal a seat's confirm button confirms the result (an info alert the club
    records in its result ledger); before it, confirm means what it always did."""
    c = controller("durak2")
    rng = random.Random(3)
    until(c, rng, lambda c: c.game.is_over)
    reply = c.submit(Button(seat=1, button="confirm"))
    assert [(a.rule, a.seat, a.level) for a in reply.alerts] == [("result-confirmed", 1, "info")]
    assert c.game.is_over and not reply.events  # nothing else happened
