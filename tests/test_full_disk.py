"""A full disk loses nothing and is loud, on a real filesystem of fixed size (a tmpfs mounted
by the test; skipped where it cannot be mounted). Footage never takes the space the log needs:
it stops at its reserve, oldest clips first. A log that cannot be written holds the inputs in
order, says so (stderr, the display's state and so the error LED), and applies them by itself
once there is room: nothing lost, nothing half written."""

from __future__ import annotations

import logging
import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from controller.archive import FootageArchive
from controller.core import Controller
from controller.inputs import ShoeCard
from controller.log import GameLog

MB = 1024**2


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path, leave: int = 0) -> Path:
    """A file that takes the filesystem's free space but ``leave`` bytes."""
    import shutil

    filler = folder / "filler.bin"
    free = shutil.disk_usage(folder).free
    with filler.open("wb") as f:
        left = free - leave
        while left > 0:
            chunk = min(left, MB)
            try:
                f.write(b"\0" * chunk)
                f.flush()
            except OSError:
                break
            left -= chunk
    return filler


def noise(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)  # compresses badly


def test_footage_stops_at_its_reserve_and_the_log_keeps_its_room(small_disk: Path) -> None:
    import shutil

    log = GameLog(small_disk / "table.sqlite")
    gid, _ = log.new_game("durak2", {}, ["A", "B"])
    archive = FootageArchive(small_disk / "footage", budget_bytes=1024 * MB, fps=10,
                             free_reserve=4 * MB)
    rng = np.random.default_rng(1)
    lowest = shutil.disk_usage(small_disk).free
    for deal in range(1, 15):
        for k in range(60):
            archive.add(gid, deal, deal * 100 + k, float(k), noise(rng))
            lowest = min(lowest, shutil.disk_usage(small_disk).free)
        log.append(gid, [])  # the log writes between deals, as a game does
    archive.close()
    # footage went as low as its reserve less at most one check's frames, never lower
    assert lowest > 2 * MB
    assert archive.errors == 0
    clips = archive.clips()
    assert clips and min(c.deal for c in clips) > 1  # the oldest deals made room
    # and the log still writes
    from controller.log import NewEntry

    seq = log.append(gid, [NewEntry("event", {"event": "x"})] * 50)
    assert seq > 0
    log.close()


def test_a_full_log_holds_inputs_loudly_and_applies_them_by_itself(small_disk: Path,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    log = GameLog(small_disk / "table.sqlite")
    ctl = Controller(log)
    ctl.new_game("durak2", {}, ["A", "B"])
    first = ctl.submit(ShoeCard(card="6S"))
    assert first.accepted
    filler = fill(small_disk)
    refused = []
    with caplog.at_level(logging.ERROR, logger="cardtable.controller"):
        for card in ("7S", "8S", "9S"):
            reply = ctl.submit(ShoeCard(card=card))
            refused.append(reply)
    assert all(not r.accepted and r.held for r in refused)
    assert all(any(a.rule == "log-not-writable" for a in r.alerts) for r in refused)
    state = ctl.public_state()  # what the display and the error LED show
    assert state["log_error"] and state["held"] == 3
    assert "cannot be written" in caplog.text
    filler.unlink()  # room again: the held cards are applied by themselves, in order
    deadline = time.monotonic() + 10
    while ctl.public_state()["held"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ctl.log_error is None
    assert ctl.submit(ShoeCard(card="TS")).accepted
    events = log.event_texts(ctl.game_id)
    # nothing lost, nothing half written, nothing twice
    assert events == ["shoe 6S", "shoe 7S", "shoe 8S", "shoe 9S", "shoe TS"]
    log.close()


@pytest.mark.timeout(180)
def test_while_inputs_wait_for_the_log_the_table_is_read_against_the_whole_deck(
        small_disk: Path) -> None:
    """The game is behind the table while the log cannot be written (the shoe may be dealing
    the next deal), so the overhead reader must not pick among the game's stale hands."""
    from controller.footage import BUNDLES, load_bundle
    from controller.table import TableLoop
    from vision.table.reader import TableReader

    log = GameLog(small_disk / "table.sqlite")
    ctl = Controller(log)
    ctl.new_game("durak2", {}, ["A", "B"])
    game = ctl.game
    assert game is not None
    while game.expects_shoe:  # deal: the hands are known, the reader picks among them
        assert ctl.submit(ShoeCard(card=game.unseen_cards()[0].code)).accepted
    bundle = load_bundle(BUNDLES / "durak2")
    reader = TableReader(bundle.profile(), None, 2, faces=bundle.faces())
    loop = TableLoop(ctl, reader)
    from vision.video import frames

    assert bundle.table is not None
    blank = next(iter(frames(bundle.table)))  # the bundle's empty table, its markers in view
    loop.frame(0.0, 0, blank)
    assert reader.candidates is not None and sum(map(len, reader.candidates.values())) == 12
    filler = fill(small_disk)
    seat = game.to_act()
    play = next(e for e in game.legal_actions() if e.kind == "play")
    from controller.inputs import Placed

    reply = ctl.submit(Placed(seat=seat, card=play.cards[0].code, frame=1, t=0.1))
    assert reply.held and ctl.held == 1
    loop.frame(0.2, 2, blank)
    assert reader.candidates is None  # the whole deck while the game is behind
    filler.unlink()
    deadline = time.monotonic() + 10
    while ctl.held and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ctl.held == 0
    loop.frame(0.3, 3, blank)
    assert reader.candidates is not None  # the hands again, one card fewer
    assert sum(map(len, reader.candidates.values())) == 11
    log.close()


def test_a_table_started_again_on_a_full_disk_says_so_and_goes_on(small_disk: Path) -> None:
    """`cardtable run` plays, is stopped, and is started again on a disk with almost no room:
    it says on stderr that the log cannot be written, and once room returns it goes on by
    itself and finishes the game, the log whole."""
    import sys

    root = Path(__file__).resolve().parents[1]
    db = small_disk / "table.sqlite"
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(small_disk)}
    cmd = [sys.executable, "-m", "cardtable", "run", "--no-web", "--no-panels", "--speed", "4",
           "--bundle", str(root / "controller" / "data" / "durak2"), "--db", str(db)]
    running: list[subprocess.Popen] = []  # killed whatever happens: none outlives the test
    try:
        played = _play_stop_and_refill(cmd, env, db, small_disk, running)
    finally:
        for proc in running:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
    after = GameLog(db, readonly=True)
    (game,) = after.games()
    assert game.status == "finished" and after.last_seq() > played
    after.close()


def _play_stop_and_refill(cmd: list[str], env: dict[str, str], db: Path, small_disk: Path,
                          running: list[subprocess.Popen]) -> int:
    """The first run stopped with Ctrl-C, the second on a full disk until room returns; the
    log's last sequence number after the first."""
    import selectors
    import signal

    first = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    running.append(first)
    time.sleep(4)
    first.send_signal(signal.SIGINT)
    first.communicate(timeout=90)  # a loaded machine is slow to stop, not wrong
    before = GameLog(db, readonly=True)
    played = before.last_seq()
    before.close()
    assert played > 0
    filler = fill(small_disk, leave=48 * 1024)
    second = subprocess.Popen([*cmd, "--once"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    running.append(second)
    said = ""
    sel = selectors.DefaultSelector()
    assert second.stderr is not None
    sel.register(second.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + 90
    while "cannot be written" not in said and time.monotonic() < deadline:
        if sel.select(timeout=1):
            line = second.stderr.readline()
            if not line:
                break
            said += line
    assert "cannot be written" in said, said[-2000:]
    assert second.poll() is None  # it did not stop
    filler.unlink()  # room again
    out_err = second.communicate(timeout=120)[1]
    said += out_err
    assert second.returncode == 0, said[-2000:]
    assert "Traceback" not in said
    assert "written again" in said
    return played
