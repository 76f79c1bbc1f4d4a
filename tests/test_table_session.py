"""The overhead camera in the table: real overhead footage → TableReader → TableLoop → Controller.

A short Durak bout is filmed with the session camera (``synth.session``), the same drawing
code as the table footage generator, on the session's clock; the frames go through the real table
reader inside the controller's ``TableLoop``, which tells the reader each hand's cards and asks the
game whether cards may leave the table. The deal itself comes in as shoe cards. Also: a loose
table clip through ``cardtable replay --table``, and camera trouble reaching the organiser.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from controller.footage import BUNDLES, load_bundle
from controller.inputs import Button, ShoeCard, parse_input
from controller.table import TableLoop
from engine.playout import deal_hands
from engine.registry import game_class
from synth.session import SessionCamera
from table_ui.i18n import CATALOGUE
from vision.table.reader import TableReader
from vision.video import frames

ROOT = Path(__file__).resolve().parents[1]
# Seat 0 holds the lowest trump (6H; KH is turned) and attacks first (RULES.md §2).
HANDS = {0: "6H 7C 8C 9D TD JS", 1: "7H 8S 9S QC KC AD"}
TURNED = "KH"


def _shoe_order() -> list[str]:
    game = game_class("durak2")({})
    return [e.cards[0].code for e in deal_hands(game, HANDS, TURNED)]


@pytest.fixture(scope="module")
def bout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[float], object]:
    """7C attacked, beaten by QC; 9D thrown in (no nine on the table), taken back; bout gathered."""
    folder = tmp_path_factory.mktemp("bout")
    cam = SessionCamera(folder / "table.mp4", "Атласные", 2, seed=5, layout="durak")
    t = cam.place(1.0, 0, "7C") + 0.4
    t = cam.place(t + 0.5, 1, "QC", covers="7C") + 0.4
    t = cam.place(t + 0.5, 0, "9D") + 0.4
    t = cam.take_back(t + 1.5, 0, "9D")
    t = cam.gather(t + 1.5, 0)
    log = cam.close()
    return folder / "table.mp4", log.times, log


def _deal(ctl) -> None:
    for code in _shoe_order():
        ctl.submit(ShoeCard(card=code))


def test_a_filmed_bout_reaches_the_log_through_the_table_reader(make_controller, bout) -> None:
    clip, times, filmed = bout
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    _deal(ctl)
    bundle = load_bundle(BUNDLES / "durak2")  # the bundled deck's profile and face strips
    loop = TableLoop(ctl, TableReader(bundle.profile(), None, 2, faces=bundle.faces()))
    presses = {}  # the buttons people press, at the frame after the card they answer lies still
    rest = {p["card"]: p["t"] for p in filmed.placed}
    presses[rest["9D"] + 0.6] = Button(seat=0, button="undo")
    presses[filmed.removed[0]["t"] + 0.6] = Button(seat=0, button="beaten")
    for n, frame in enumerate(frames(clip)):
        for due in sorted(k for k in presses if k <= times[n]):
            ctl.submit(presses.pop(due))
        loop.frame(times[n], n, frame)
    game = ctl.game
    # the dealt cards, then what the camera saw and the two presses, in order
    assert [str(e) for e in game.raw_log][13:] == [
        "0 play 7C", "1 beat QC 7C", "0 play 9D", "undo", "0 done"]
    entries = list(ctl.log.entries(ctl.game_id, kinds=("input",)))
    placed = [e.body for e in entries if e.body["kind"] == "placed"]
    assert [(p["seat"], p["card"], p["covers"]) for p in placed] == [
        (0, "7C", None), (1, "QC", "7C"), (0, "9D", None)]
    assert all(p["frame"] is not None and p["t"] >= rest[p["card"]] for p in placed)
    removed = [e.body for e in entries if e.body["kind"] == "removed"]
    assert [sorted(r["cards"]) for r in removed] == [["9D"], ["7C", "QC"]]
    rules = [e.body["rule"] for e in ctl.log.entries(ctl.game_id, kinds=("alert",))]
    # the illegal throw-in is alerted; taking it back and gathering after «Бито» are not
    assert "trick-not-complete" not in rules
    assert any(r.startswith("throw-in") for r in rules)


def test_a_card_put_down_mid_deal_is_read_against_the_whole_deck(make_controller, bout) -> None:
    """Two cameras on their own clocks: the table sees 7C while the shoe has dealt only part of
    the hands (7C not yet among them). The play is refused, but the logged input names 7C,
    not ``??`` for a card outside the partial hands."""
    clip, times, _filmed = bout
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    order = _shoe_order()
    assert "7C" in order[1:]
    ctl.submit(ShoeCard(card=order[0]))  # one card dealt (6H to seat 0): 7C is not yet in a hand
    assert ctl.game.expects_shoe
    bundle = load_bundle(BUNDLES / "durak2")
    loop = TableLoop(ctl, TableReader(bundle.profile(), None, 2, faces=bundle.faces()))
    for n, frame in enumerate(frames(clip)):
        loop.frame(times[n], n, frame)
        if n > 0 and times[n] > 2.5:  # 7C lies still by 1.4 s (placed at 1.0 s)
            break
    placed = [e.body for e in ctl.log.entries(ctl.game_id, kinds=("input",))
              if e.body["kind"] == "placed"]
    assert [(p["seat"], p["card"]) for p in placed] == [(0, "7C")]
    assert len(ctl.game.raw_log) == 1  # refused: the shoe is still dealing


def test_cards_gathered_before_the_bout_is_over_are_alerted(make_controller, bout) -> None:
    """Nobody presses «Отмена» or «Бито»: cards leave that the game still has on the table."""
    clip, times, _filmed = bout
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    _deal(ctl)
    bundle = load_bundle(BUNDLES / "durak2")
    loop = TableLoop(ctl, TableReader(bundle.profile(), None, 2, faces=bundle.faces()))
    for n, frame in enumerate(frames(clip)):
        loop.frame(times[n], n, frame)
    alerts = [e.body for e in ctl.log.entries(ctl.game_id, kinds=("alert",))]
    early = [a["message"] for a in alerts if a["rule"] == "trick-not-complete"]
    # 9D taken back without «Отмена» is still the game's card; so are 7C and QC without «Бито»
    assert len(early) == 2
    assert "9D" in early[0] and "7C" not in early[0]
    assert "7C" in early[1] and "QC" in early[1] and "9D" not in early[1]


def test_a_black_frame_is_shown_to_the_organiser_and_loses_nothing(make_controller, bout) -> None:
    clip, _times, _filmed = bout
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    _deal(ctl)
    events_before = list(ctl.game.raw_log)
    bundle = load_bundle(BUNDLES / "durak2")
    loop = TableLoop(ctl, TableReader(bundle.profile(), None, 2, faces=bundle.faces()))
    first = next(iter(frames(clip)))
    loop.frame(0.0, 0, first)
    loop.frame(0.04, 1, np.zeros_like(first))
    alerts = [e.body for e in ctl.log.entries(ctl.game_id, kinds=("alert",))]
    assert [a["rule"] for a in alerts] == ["camera-table"]
    assert "black frame" in alerts[0]["message"]
    assert ctl.devices["camera table"]["state"] == "warning"
    assert list(ctl.game.raw_log) == events_before


def test_replay_reads_a_loose_table_clip(tmp_path: Path, bout) -> None:
    """`cardtable replay --shoe … --table … --buttons …`: the cards played come from the clip."""
    clip, times, filmed = bout
    from synth.shoe import make_clip

    shoe = tmp_path / "deal.mp4"
    make_clip(shoe, "Атласные", _shoe_order(), "easy", seed=3)
    (tmp_path / "deal.times.json").write_text(json.dumps([n / 30 for n in range(_frames(shoe))]))
    table = tmp_path / "bout.mp4"
    table.symlink_to(clip)
    # the table clip's clock starts after the deal
    offset = _frames(shoe) / 30 + 1.0
    (tmp_path / "bout.times.json").write_text(json.dumps([t + offset for t in times]))
    rest9d = next(p["t"] for p in filmed.placed if p["card"] == "9D") + offset
    buttons = tmp_path / "buttons.jsonl"
    buttons.write_text(json.dumps({"t": rest9d + 0.6, "seat": 0, "button": "undo"}) + "\n")
    deck = tmp_path / "deck.json"
    deck.symlink_to(BUNDLES / "deck.json")
    (tmp_path / "deck.table.npz").symlink_to(BUNDLES / "deck.table.npz")
    db = tmp_path / "replay.sqlite"
    out = subprocess.run([sys.executable, "-m", "cardtable", "replay", "--shoe", str(shoe),
                          "--table", str(table), "--buttons", str(buttons), "--deck", str(deck),
                          "--game", "durak2", "--json", "--no-progress", "--db", str(db)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    from controller.log import GameLog

    log = GameLog(db, readonly=True)
    (game,) = log.games()
    assert log.event_texts(game.id)[13:] == ["0 play 7C", "1 beat QC 7C", "0 play 9D", "undo"]
    log.close()


def test_replay_names_an_unreadable_table_clip(tmp_path: Path) -> None:
    broken = tmp_path / "overhead.mp4"
    broken.write_bytes(b"\x00" * 2048)
    out = subprocess.run([sys.executable, "-m", "cardtable", "replay", "--shoe",
                          str(BUNDLES / "durak2" / "shoe.mp4"), "--table", str(broken),
                          "--deck", str(BUNDLES / "deck.json"), "--game", "durak2", "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert str(broken) in out.stderr and "Traceback" not in out.stderr


def _frames(clip: Path) -> int:
    from vision.video import frame_count

    return frame_count(clip)


def first_frame(clip):
    return next(iter(frames(clip)))


def _alerts(ctl) -> list[dict]:
    return [e.body for e in ctl.log.entries(ctl.game_id, kinds=("alert",))]


def test_a_camera_that_reads_nothing_says_why(make_controller, bout) -> None:
    """Markers given as twice their printed size: every card looks twice what a card should be
    here, settles and is never read. Arms are busy and the game awaits a card, so after
    ``silent_after`` the organiser is told once, with the sizes, instead of waiting forever."""
    clip, times, _filmed = bout
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    _deal(ctl)
    bundle = load_bundle(BUNDLES / "durak2")
    reader = TableReader(bundle.profile(), None, 2, faces=bundle.faces(), marker_mm=88.0)
    loop = TableLoop(ctl, reader, silent_after=4.0)
    for n, frame in enumerate(frames(clip)):
        loop.frame(times[n], n, frame)
    placed = [e for e in ctl.log.entries(ctl.game_id, kinds=("input",))
              if e.body["kind"] == "placed"]
    assert placed == []  # nothing read: the set-up is wrong
    silent = [a["message"] for a in _alerts(ctl) if "no card read" in a["message"]]
    assert len(silent) == 1, silent
    # a 6 cm card measured on a plane twice too large looks 3 cm wide to the reader
    assert "white" in silent[0] and "marker size" in silent[0]
    # the display words it from a stable id and its figures: Russian, the sizes in it
    said = next(a for a in _alerts(ctl) if "no card read" in a["message"])
    assert said["rule"] == "camera-table" and said["params"]["flag"] == "silent-size"
    seen, size = said["params"]["seen"], said["params"]["size"]
    assert re.fullmatch(r"\d+×\d+", seen) and re.fullmatch(r"\d+×\d+", size)
    words = CATALOGUE["ru"]["flags"]["silent-size"].format(**said["params"])
    assert f"{seen} см" in words and "размер меток" in words
    assert ctl.devices["camera table"]["state"] == "warning"
    # the game moves on (the organiser enters the card by hand): the warning clears
    ctl.submit(parse_input({"kind": "placed", "seat": 0, "card": "6H"}))
    assert len(ctl.game.raw_log) == 14
    loop.frame(times[-1] + 0.04, len(times), first_frame(clip))
    assert ctl.devices["camera table"]["state"] == "connected"


def test_no_alert_while_nobody_reaches_over_the_table(make_controller, bout) -> None:
    """Players thinking for a minute over an empty table: silence, but no arm, so no alert."""
    clip, _times, _filmed = bout
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    _deal(ctl)
    bundle = load_bundle(BUNDLES / "durak2")
    loop = TableLoop(ctl, TableReader(bundle.profile(), None, 2, faces=bundle.faces()),
                     silent_after=4.0)
    first = next(iter(frames(clip)))
    for n in range(60 * 5):  # a minute at 5 frames a second
        loop.frame(n / 5, n, first)
    assert _alerts(ctl) == []
