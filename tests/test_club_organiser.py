"""The organiser's records (club.organiser, club.standings, club.ratings) on a real SQLite club
database: the register, seats linked by name, the result ledger (the original always stays),
evenings that make results final, standings worked by hand, OpenSkill ratings checked against
the model's formulas, and bad input refused with nothing changed."""

from __future__ import annotations

import math
import random
import time
from itertools import count
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from club.models import ResultRow, SeatRow
from club.organiser import ClubError, Kind, ResultState
from club.protocol import GameHeader, LogMessage
from club.ratings import rate
from club.standings import standings
from club.store import Store, sqlite_url
from engine.playout import play_out
from engine.registry import game_class

_logs = count(1)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(sqlite_url(tmp_path / "club.sqlite"))
    yield s
    s.close()


def publish(store: Store, table: str, name: str, names: list[str], seed: int = 1,
            started: float | None = None) -> int:
    """A whole game played out by the engine, as a table publishes it (started now, unless
    said); its club game id."""
    started = time.time() if started is None else started
    game = play_out(game_class(name)({}), random.Random(seed))
    out = game.outcome
    head = GameHeader(id=1, name=name, names=names, started=started, status="finished",
                      ended=started + 600, outcome={"finished": out.finished, "winner": out.winner,
                                                    "totals": list(out.totals)})
    log = f"log-{next(_logs):04d}"
    events = [str(e) for e in game.raw_log]
    store.ingest_many([("club", table, LogMessage(log=log, seq=i, prev=i - 1, game=head,
                                                  t=started + i, kind="event",
                                                  body={"event": e}))
                       for i, e in enumerate(events, 1)])
    return max(g.id for g in store.games())


def ledger_size(store: Store) -> int:
    with store._session() as s:
        return int(s.scalar(select(func.count()).select_from(ResultRow)) or 0)


# -- the register and seats ------------------------------------------------------------------
def test_seats_are_linked_to_the_register_by_name_or_nickname(store: Store) -> None:
    org = store.organiser
    anya = org.add_player("Аня Петрова", "Аня")
    borya = org.add_player("Борис")
    gid = publish(store, "t1", "durak2", ["аня", "Гость Вася"])
    r = org.result(gid)
    assert r is not None
    assert [(s.name, s.player_id) for s in r.seats] == [("Аня Петрова", anya.id),
                                                        ("Гость Вася", None)]
    org.seat(gid, 1, player_id=borya.id, by="организатор", why="Вася — это Борис")
    r = org.result(gid)
    assert r is not None and [s.player_id for s in r.seats] == [anya.id, borya.id]
    assert [e.kind for e in r.ledger] == ["seat"]


def test_renaming_a_player_changes_no_past_result(store: Store) -> None:
    org = store.organiser
    p = org.add_player("Катя")
    gid = publish(store, "t1", "durak2", ["Катя", "Гость"])
    org.update_player(p.id, name="Екатерина")
    r = org.result(gid)
    assert r is not None and r.seats[0].player_id == p.id and r.seats[0].name == "Екатерина"


def test_register_refuses_doubles_and_bad_names(store: Store) -> None:
    org = store.organiser
    org.add_player("Аня", "Анюта")
    for name, nick in (("аня", None), ("Анюта", None), ("Оля", "АНЯ"), ("  ", None),
                       ("x" * 81, None), ("a\x07b", None)):
        with pytest.raises(ClubError):
            org.add_player(name, nick)
    assert [p.name for p in org.players()] == ["Аня"]


def test_a_player_picked_twice_at_one_table_is_refused_and_nothing_changes(store: Store) -> None:
    org = store.organiser
    anya = org.add_player("Аня")
    gid = publish(store, "t1", "durak2", ["Аня", "Гость"])
    before = ledger_size(store)
    with pytest.raises(ClubError) as err:
        org.seat(gid, 1, player_id=anya.id, by="организатор")
    assert err.value.code == "seat-twice"
    assert "Аня уже сидит на месте 1" in err.value.text("ru")
    assert ledger_size(store) == before
    with store._session() as s:
        assert s.scalar(select(SeatRow.guest).where(SeatRow.game_id == gid,
                                                    SeatRow.seat == 1)) == "Гость"


# -- the ledger and evenings ------------------------------------------------------------------
def test_a_correction_keeps_the_original_and_a_void_removes_the_game(store: Store) -> None:
    org = store.organiser
    org.open_evening("Пятница")
    gid = publish(store, "t1", "durak2", ["A", "B"])
    r = org.result(gid)
    assert r is not None and r.state == ResultState.PROVISIONAL
    table = (list(r.totals), r.winner)
    org.record(gid, Kind.CORRECT, totals=[7, 1], winner=0, by="организатор",
               why="счёт записан неверно")
    r = org.result(gid)
    assert r is not None and (r.totals, r.winner, r.corrected) == ([7, 1], 0, True)
    assert (r.table_totals, r.table_winner) == table  # the table's result stays on record
    assert [(e.kind, e.by, e.why) for e in r.ledger] == [
        ("correct", "организатор", "счёт записан неверно")]
    org.record(gid, Kind.VOID, by="организатор", why="партия сыграна не теми игроками")
    r = org.result(gid)
    assert r is not None and r.state == ResultState.VOID and not r.counted
    org.record(gid, Kind.REINSTATE, by="организатор")
    r = org.result(gid)
    assert r is not None and r.state == ResultState.PROVISIONAL and r.totals == [7, 1]


def test_a_dispute_blocks_counting_and_closing_until_settled(store: Store) -> None:
    org = store.organiser
    org.open_evening()
    gid = publish(store, "t1", "durak2", ["A", "B"])
    org.record(gid, Kind.CONFIRM, side=0, by="A")
    org.record(gid, Kind.DISPUTE, side=1, by="B", why="моя взятка не засчитана")
    r = org.result(gid)
    assert r is not None and r.state == ResultState.DISPUTED and r.confirmed == [0]
    with pytest.raises(ClubError) as err:
        org.close_evening()
    assert err.value.code == "settle-first" and str(gid) in str(err.value)
    assert org.open_evening_row() is not None  # still open
    org.record(gid, Kind.ADJUST, totals=[1, 1], winner=None, by="организатор",
               why="спорная раздача: ничья")
    closed = org.close_evening()
    assert closed.closed is not None
    r = org.result(gid)
    assert r is not None and r.state == ResultState.FINAL and r.adjusted
    with pytest.raises(ClubError) as err:
        org.record(gid, Kind.CONFIRM, side=1, by="B")
    assert err.value.code == "evening-closed"


def test_games_outside_an_evening_are_casual(store: Store) -> None:
    gid = publish(store, "t1", "durak2", ["A", "B"], started=5.0)
    store.organiser.open_evening()
    r = store.organiser.result(gid)
    assert r is not None and r.state == ResultState.CASUAL and not r.counted


@pytest.mark.parametrize(("call", "code"), [
    (lambda o: o.record(999, Kind.CORRECT, totals=[1, 0], winner=0, by="x", why="y"),
     "no-game"),
    (lambda o: o.record(1, Kind.CORRECT, totals=[1, 0, 3], winner=0, by="x", why="y"),
     "totals-count"),
    (lambda o: o.record(1, Kind.CORRECT, totals=[1, 0], winner=0, by="x", why=""),
     "why-missing"),
    (lambda o: o.record(1, Kind.CONFIRM, side=5, by="x"), "side-range"),
    (lambda o: o.record(1, "cheat", by="x"), "no-kind"),
    (lambda o: o.record(1, Kind.REINSTATE, by="x"), "not-void"),
    (lambda o: o.seat(1, 7, guest="Вася", by="x"), "seat-range"),
    (lambda o: o.seat(1, 0, by="x"), "seat-who"),
    (lambda o: o.open_evening(), "evening-open"),
])
def test_bad_requests_are_refused_with_a_reason_and_change_nothing(store: Store, call, code
                                                                    ) -> None:
    store.organiser.open_evening()
    publish(store, "t1", "durak2", ["A", "B"])
    before, changes = ledger_size(store), store.changes
    with pytest.raises(ClubError) as err:
        call(store.organiser)
    assert err.value.code == code
    assert err.value.text("ru") != err.value.text("en")  # said in both languages
    assert ledger_size(store) == before and store.changes == changes


def test_every_refusal_has_both_languages() -> None:
    from club.i18n import ERRORS

    assert all(ru and en and ru != en for ru, en in ERRORS.values())


# -- standings, worked by hand ----------------------------------------------------------------
def test_standings_over_an_evening_by_hand(store: Store) -> None:
    """Three two-player Durak games with results set by the organiser:
    Аня 3:1 Боря (Аня wins), Боря 2:2 Вера (a draw), Вера 0:4 Аня (Аня wins).
    By hand: Аня 2 played, 2 won, score 2, points 3 + 4 = 7; Боря 2 played, 1 lost, 1 drawn,
    score ½, points 1 + 2 = 3; Вера 2 played, 1 drawn, 1 lost, score ½, points 2 + 0 = 2."""
    org = store.organiser
    org.open_evening()
    for name in ("Аня", "Боря", "Вера"):
        org.add_player(name)
    games = [(["Аня", "Боря"], [3, 1], 0), (["Боря", "Вера"], [2, 2], None),
             (["Вера", "Аня"], [0, 4], 1)]
    for n, (names, totals, winner) in enumerate(games):
        gid = publish(store, f"t{n}", "durak2", names, seed=n)
        org.record(gid, Kind.CORRECT, totals=totals, winner=winner, by="орг", why="по протоколу")
    lines = standings(org.results(), "durak2")
    got = [(x.name, x.played, x.won, x.drawn, x.lost, x.score, x.points) for x in lines]
    assert got == [("Аня", 2, 2, 0, 0, 2.0, 7), ("Боря", 2, 0, 1, 1, 0.5, 3),
                   ("Вера", 2, 0, 1, 1, 0.5, 2)]
    assert all(x.provisional == 2 for x in lines)


def test_pair_games_count_for_both_partners(store: Store) -> None:
    org = store.organiser
    org.open_evening()
    gid = publish(store, "t1", "bazar", ["A", "B", "C", "D"])
    org.record(gid, Kind.CORRECT, totals=[101, 61], winner=0, by="орг", why="проверка")
    lines = {x.name: (x.won, x.points) for x in standings(org.results(), "bazar")}
    assert lines == {"A": (1, 101), "C": (1, 101), "B": (0, 61), "D": (0, 61)}


# -- ratings ----------------------------------------------------------------------------------
def pl_two_player(mu: float, sigma: float, beta: float, tau: float) -> tuple[float, float, float]:
    """OpenSkill's Plackett–Luce update (Weng & Lin 2011, Algorithm 4, as the library documents
    it) worked for two new players of equal rating, one winning: with σ² + τ² first, c² = Σ(σ² +
    β²), each side's win probability ½, so the winner gains σ²/c · ½, the loser loses as much,
    and both σ shrink by √(1 − γ·σ²/c² · ¼) with γ = σ/c."""
    s2 = sigma ** 2 + tau ** 2
    c = math.sqrt(2 * (s2 + beta ** 2))
    gain = s2 / c * 0.5
    gamma = math.sqrt(s2) / c
    new_sigma = math.sqrt(s2) * math.sqrt(1 - gamma * s2 / c ** 2 * 0.25)
    return mu + gain, mu - gain, new_sigma


def test_one_game_rates_as_the_model_says(store: Store) -> None:
    org = store.organiser
    org.open_evening()
    a, b = org.add_player("A"), org.add_player("B")
    gid = publish(store, "t1", "durak2", ["A", "B"])
    org.record(gid, Kind.CORRECT, totals=[1, 0], winner=0, by="орг", why="проверка")
    org.close_evening(now=3e9)
    ratings = {r.player_id: r for r in rate(org.results())["durak2"]}
    win, lose, sigma = pl_two_player(25.0, 25 / 3, 25 / 6, 25 / 300)
    assert ratings[a.id].mu == pytest.approx(win, abs=1e-6)
    assert ratings[b.id].mu == pytest.approx(lose, abs=1e-6)
    assert ratings[a.id].sigma == pytest.approx(sigma, abs=1e-6)
    assert ratings[a.id].ordinal > 0 > ratings[b.id].ordinal


def test_only_final_results_of_registered_players_are_rated(store: Store) -> None:
    org = store.organiser
    org.add_player("A")
    org.open_evening()
    publish(store, "t1", "durak2", ["A", "B"])  # B is a guest
    publish(store, "t2", "durak2", ["A", "A2"])
    assert rate(org.results()) == {}  # the evening is open: nothing final
    org.close_evening(now=3e9)
    assert rate(org.results()) == {}  # every game has a guest in it


@settings(max_examples=10, deadline=None)
@given(order=st.permutations(range(5)))
def test_ratings_are_the_same_whatever_order_results_are_read_in(order: list[int]) -> None:
    """Ratings fold results in the order the games ended, not the order they are listed."""
    from club.organiser import Result, Seat

    results = [Result(game_id=i, game="durak2", table="t", started=i, ended=10.0 + i,
                      seats=[Seat(0, "A", 1), Seat(1, "B", 2)] if i % 2 else
                      [Seat(0, "B", 2), Seat(1, "C", 3)],
                      totals=[1, 0] if i % 3 else [0, 1], winner=0 if i % 3 else 1,
                      finished=True, state=ResultState.FINAL, check="ok") for i in range(5)]
    base = [(r.player_id, r.mu, r.sigma) for r in rate(results)["durak2"]]
    again = [(r.player_id, r.mu, r.sigma) for r in rate([results[k] for k in order])["durak2"]]
    assert again == base


def test_a_players_confirm_at_the_table_is_recorded_for_their_side(store: Store) -> None:
    """The table logs a seat's confirm button after the game as the alert result-confirmed;
    the club records it in the ledger as that seat's side confirming, by the seat's name."""
    store.organiser.open_evening()
    gid = publish(store, "t1", "durak2", ["Аня", "Боря"])
    (game,) = store.games()
    (stream_last,) = [st.last_seq for _t, st in store.streams()]
    head = GameHeader(id=1, name="durak2", names=["Аня", "Боря"], started=game.started,
                      status="finished", ended=game.ended, outcome=game.stated)
    log = store.streams()[0][1].log
    store.ingest("club", "t1", LogMessage(
        log=log, seq=stream_last + 1, prev=stream_last, game=head, t=time.time(), kind="alert",
        body={"rule": "result-confirmed", "message": "seat 1 confirms the result", "seat": 1,
              "level": "info"}))
    r = store.organiser.result(gid)
    assert r is not None and r.confirmed == [1]
    assert [(e.kind, e.side, e.by) for e in r.ledger] == [("confirm", 1, "Боря")]


def test_a_pair_game_without_totals_is_corrected_as_two_sides(store: Store) -> None:
    """A Bazar-Belot game the rules refused has no totals; the organiser's correction still
    takes one total per pair, and both partners of the winning pair win."""
    org = store.organiser
    org.open_evening()
    gid = publish(store, "t1", "bazar", ["A", "B", "C", "D"])
    with store._session.begin() as s:  # as if the rules had refused it
        from club.models import GameRow

        row = s.get(GameRow, gid)
        row.check, row.totals, row.winner, row.finished = "refused", [], None, False
    r = org.record(gid, Kind.ADJUST, totals=[1, 0], winner=0, by="орг", why="по решению")
    assert r.counted and [len(side) for side in r.sides] == [2, 2]
    assert {x.name: x.won for x in standings(org.results(), "bazar")} == {
        "A": 1, "C": 1, "B": 0, "D": 0}


def test_no_winner_is_a_draw_whatever_the_totals(store: Store) -> None:
    org = store.organiser
    org.open_evening()
    gid = publish(store, "t1", "durak2", ["A", "B"])
    org.record(gid, Kind.CORRECT, totals=[5, 2], winner=None, by="орг", why="ничья по решению")
    assert {(x.name, x.drawn, x.won) for x in standings(org.results(), "durak2")} == {
        ("A", 1, 0), ("B", 1, 0)}


def test_an_empty_name_finds_nobody(store: Store) -> None:
    store.organiser.add_player("Аня")
    assert store.organiser.find_player("  ") is None


def test_a_refusal_names_the_state_in_russian(store: Store) -> None:
    org = store.organiser
    org.open_evening()
    gid = publish(store, "t1", "durak2", ["A", "B"])
    org.record(gid, Kind.VOID, by="орг", why="не те игроки")
    with pytest.raises(ClubError) as err:
        org.record(gid, Kind.CONFIRM, side=0, by="A")
    assert "(аннулирован)" in err.value.text("ru") and "(void)" in err.value.text("en")


def test_a_players_late_confirm_does_not_lift_the_organisers_dispute(store: Store) -> None:
    org = store.organiser
    org.open_evening()
    gid = publish(store, "t1", "durak2", ["A", "B"])
    org.record(gid, Kind.DISPUTE, side=0, by="organiser", why="жалоба")
    org.record(gid, Kind.CONFIRM, side=0, by="A")  # the table's button, arriving late
    r = org.result(gid)
    assert r is not None and r.state == ResultState.DISPUTED
    org.record(gid, Kind.CONFIRM, side=0, by="organiser")
    r = org.result(gid)
    assert r is not None and r.state == ResultState.PROVISIONAL
