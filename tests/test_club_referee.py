"""The club re-checks every game by the rules (club.referee, club.store): a whole game folded in
pieces as it arrives gives the engine's result; a stated result that is not the engine's is
flagged; an event the engine refuses flags the game, never counts it, and never breaks the
store."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.protocol import GameHeader, LogMessage
from club.referee import Referee
from club.store import Store, sqlite_url
from engine.playout import play_out
from engine.registry import game_class


def played(name: str, seed: int) -> tuple[list[str], dict]:
    game = play_out(game_class(name)({}), random.Random(seed))
    out = game.outcome
    assert out.finished
    return [str(e) for e in game.raw_log], {"finished": True, "winner": out.winner,
                                            "totals": list(out.totals)}


@pytest.mark.parametrize("name", ["durak2", "belot2", "joker"])
def test_a_whole_game_folded_in_pieces_gives_the_engines_result(name: str) -> None:
    events, result = played(name, 5)
    ref = Referee()
    seqs = list(enumerate(events, start=1))
    cut = len(seqs) // 3
    first = ref.fold("g", name, {}, seqs[:cut])
    assert first.check == "ok" and not first.finished
    done = ref.fold("g", name, {}, seqs, stated=result)
    assert (done.check, done.finished, done.winner, done.totals) == (
        "ok", True, result["winner"], result["totals"])


def test_a_stated_result_that_is_not_the_engines_is_flagged() -> None:
    events, result = played("durak2", 3)
    forged = {**result, "totals": [t + 10 for t in result["totals"]]}
    judged = Referee().fold("g", "durak2", {}, list(enumerate(events, 1)), stated=forged)
    assert judged.check == "differs"
    assert "the table states" in (judged.problem or "")


def test_an_event_the_engine_refuses_flags_the_game_and_stops_folding_it() -> None:
    events, _ = played("durak2", 4)
    assert events[0].startswith("shoe ")
    bad = [events[0], *events]  # the first card out of the shoe twice
    ref = Referee()
    judged = ref.fold("g", "durak2", {}, list(enumerate(bad, 1)))
    assert judged.check == "refused"
    assert judged.problem and "entry" in judged.problem
    again = ref.fold("g", "durak2", {}, list(enumerate(bad, 1)))
    assert again.check == "refused"  # stays refused


def test_an_unknown_game_is_refused_not_raised() -> None:
    judged = Referee().fold("g", "poker", {}, [(1, "shoe AS")])
    assert judged.check == "refused" and "poker" in (judged.problem or "")


def arrivals(events: list[str], result: dict, order: random.Random, doubles: int
             ) -> list[LogMessage]:
    """A finished game's entries as they might arrive: shuffled, ``doubles`` of them twice."""
    head = GameHeader(id=1, name="durak2", started=0.0, status="finished", ended=1.0,
                      outcome=result)
    msgs = [LogMessage(log="log-0001", seq=i, prev=i - 1, game=head, t=float(i), kind="event",
                       body={"event": e}) for i, e in enumerate(events, 1)]
    out = msgs + order.sample(msgs, k=min(doubles, len(msgs)))
    order.shuffle(out)
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.randoms(use_true_random=False))
def test_entries_in_any_order_and_doubled_store_the_game_once_and_judge_it_ok(seed, order,
                                                                              tmp_path_factory):
    events, result = played("durak2", seed)
    store = Store(sqlite_url(tmp_path_factory.mktemp("club") / "club.sqlite"))
    try:
        for m in arrivals(events, result, order, doubles=5):
            store.ingest("spb", "t1", m)
        (game,) = store.games()
        stored = [e.body["event"] for e in store.entries("spb", "t1")]
    finally:
        store.close()
    assert stored == events
    assert (game.check, game.finished, game.totals, game.winner) == (
        "ok", True, result["totals"], result["winner"])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.randoms(use_true_random=False),
       size=st.integers(1, 60))
def test_batches_of_any_size_order_and_doubles_store_the_same(seed, order, size,
                                                             tmp_path_factory):
    """The server stores what queued up in one transaction (Store.ingest_many)."""
    events, result = played("durak2", seed)
    store = Store(sqlite_url(tmp_path_factory.mktemp("club") / "club.sqlite"))
    try:
        queued = [("spb", "t1", m) for m in arrivals(events, result, order, doubles=8)]
        results = []
        for k in range(0, len(queued), size):
            results += store.ingest_many(queued[k:k + size])
        (game,) = store.games()
        stored = [e.body["event"] for e in store.entries("spb", "t1")]
    finally:
        store.close()
    assert sum(r.stored for r in results) == len(events)
    assert stored == events
    assert (game.check, game.totals) == ("ok", result["totals"])
