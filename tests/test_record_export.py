"""Every evening becomes a test: a table run with ``--record`` keeps its games' frames, `cardtable
history export GAME --bundle DIR` makes one a recording, and `cardtable replay DIR --check`
replays it through today's readers and finds the game the log holds. Also: what the recorder
keeps (the motion gate, segments, a crash, the disk budget and the free-space reserve) and the
bad recordings `replay --check` refuses with one line naming the file, exit 2."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from controller import recorder as recorder_module
from controller.export import ExportError, export_bundle
from controller.footage import load_bundle
from controller.log import GameLog
from controller.recorder import MotionGate, Recorder

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "controller" / "data"


def cardtable(*args: str | Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtable", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env={**os.environ})


# ------------------------------------------------------------------ the whole way, end to end
@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The simulated table run with --record through the bundled Bazar game, as fast as it goes:
    its cameras' frames pass the table's camera loops as a real camera's would."""
    home = tmp_path_factory.mktemp("recorded")
    run = subprocess.run(
        [sys.executable, "-m", "cardtable", "run", "--bundle", str(DATA / "bazar"), "--speed",
         "1000", "--once", "--no-web", "--record", "--db", str(home / "table.sqlite")],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "CARDTABLE_DATA_DIR": str(home)})
    assert run.returncode == 0, run.stderr[-3000:]
    assert f"recording the games in {home / 'recordings'}" in run.stdout
    return home


@pytest.mark.timeout(900)
def test_a_recorded_game_exported_replays_as_the_log_has_it(recorded: Path) -> None:
    out = recorded / "bundle"
    export = cardtable("history", "export", "1", "--bundle", out, "--db",
                       recorded / "table.sqlite")
    assert export.returncode == 0, export.stderr
    assert "MB per hour of play" in export.stdout
    bundle = load_bundle(out)
    # the truth is the log's: every event as the game finally had it
    with closing(GameLog(recorded / "table.sqlite", readonly=True)) as log:
        assert bundle.events == log.event_texts(1)
    original = load_bundle(DATA / "bazar")
    assert bundle.events == original.events and bundle.shoe_cards == original.shoe_cards
    # what people did is there, what the cameras said is not (the replay reads it again)
    kinds = {obj.get("kind") for _, obj in bundle.inputs}
    assert "button" in kinds and not kinds & {"shoe", "placed", "removed", "camera"}
    assert len(bundle.inputs) == len(original.inputs)
    for times in (bundle.times, bundle.table_times):
        assert times and all(b > a for a, b in itertools.pairwise(times))
    check = cardtable("replay", out, "--check", "--json", "--no-progress")
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-2000:]
    (report,) = json.loads(check.stdout)
    assert report["ok"] and report["shoe_read"] == report["shoe_cards"] == 32, report


def test_export_refuses_what_it_cannot_make(recorded: Path, tmp_path: Path) -> None:
    db = recorded / "table.sqlite"
    cases = [
        (("history", "export", "7", "--bundle", tmp_path / "a", "--db", db), "7"),
        (("history", "export", "1", "--bundle", tmp_path / "b", "--db", db, "--recordings",
          tmp_path / "none"), "was not recorded"),
    ]
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine\n", encoding="utf-8")
    cases.append((("history", "export", "1", "--bundle", full, "--db", db), "not an empty folder"))
    for args, needle in cases:
        run = cardtable(*args)
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 2 and len(lines) == 1, run.stderr
        assert lines[0].startswith("error: ") and needle in lines[0], lines
    assert (full / "notes.txt").read_text(encoding="utf-8") == "mine\n"  # nothing overwritten


# ------------------------------------------------------------------------- the motion gate
def _scene(noise: np.random.Generator, card_at: int | None = None) -> np.ndarray:
    """A grey table (camera noise of 3 levels), with a white card at column ``card_at``."""
    img = np.full((120, 160, 3), 90, np.uint8)
    if card_at is not None:
        img[40:80, card_at:card_at + 25] = 235
    return np.clip(img + noise.normal(0, 3, img.shape), 0, 255).astype(np.uint8)


def test_the_gate_keeps_the_start_the_movement_and_a_still_tail() -> None:
    """At 30 fps: 60 still frames, a card sliding in over 10 frames, 120 frames with it lying
    still. Kept, by hand: frames 0-30 (the first second, t <= 1.0 after the start), the 10
    moving frames (60-69), and the second after the last movement (frames 70-99): 71. Camera
    noise is no movement."""
    rng = np.random.default_rng(1)
    gate = MotionGate()
    kept = []
    for n in range(190):
        card = None if n < 60 else min(10 + 12 * (n - 60), 118)
        if gate.keep(n / 30, _scene(rng, card)):
            kept.append(n)
    assert kept == list(range(0, 31)) + list(range(60, 100))


def test_a_still_scene_keeps_a_frame_every_half_minute() -> None:
    rng = np.random.default_rng(2)
    gate = MotionGate()
    kept = [n for n in range(0, 30 * 95, 3) if gate.keep(n / 30, _scene(rng))]
    # the first second (t 0, 0.1, ... 1.0: 11 frames at 10 fps), then t = 31, 61, 91
    assert [n / 30 for n in kept[11:]] == [31.0, 61.0, 91.0]


# ----------------------------------------------------------------------------- the recorder
def _frames(recorder: Recorder, camera: str, game: int, count: int, t0: float = 0.0) -> None:
    rng = np.random.default_rng(game)
    for n in range(count):  # a card crossing the view: every frame moves
        recorder.frame(camera, game, _scene(rng, n % 130), t=t0 + n / 30)


def test_segments_a_crash_and_what_export_says_of_it(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recorder_module, "SEGMENT_FRAMES", 20)
    rec = Recorder(tmp_path / "rec", deck=lambda f: shutil.copy(DATA / "deck.json", f))
    _frames(rec, "shoe", 1, 50)  # two closed segments of 20, one open of 10
    good, broken = rec.segments(1, "shoe")
    assert [len(s.times) for s in good] == [20, 20] and broken == []
    # the table is killed: the open segment never gets its times (its clip is unfinished)
    rec._cameras["shoe"].segment.writer.release()  # what the OS does with the file
    good, broken = Recorder(tmp_path / "rec").segments(1, "shoe")  # the table started again
    assert [p.name for p in broken] == ["shoe-0003.mp4"]
    with closing(GameLog(tmp_path / "table.sqlite")) as log:
        gid, _ = log.new_game("durak2", {}, ["А", "Б"], t=0.0)
        report = export_bundle(log, gid, tmp_path / "rec", tmp_path / "out", h264=False)
    assert report.frames == {"shoe": 40}
    assert any("shoe-0003.mp4" in why and "no frame times" in why for why in report.lost)
    assert load_bundle(tmp_path / "out").times[:2] == [0.0, pytest.approx(1 / 30, abs=1e-4)]


def test_the_budget_removes_the_oldest_games_never_the_one_recorded(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "rec", budget_bytes=1)  # any recording is over it
    _frames(rec, "shoe", 1, 30)
    rec.close()
    _frames(rec, "shoe", 2, 30)  # game 2 starts: game 1 goes
    assert rec.games() == [2]
    rec.close()
    assert rec.segments(2, "shoe")[0], "the game being recorded was kept"


def test_no_room_on_the_disk_records_nothing_and_says_so(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    rec = Recorder(tmp_path / "rec", free_reserve=1 << 62)  # more than any disk has free
    _frames(rec, "shoe", 1, 10)
    rec.close()
    assert rec.starved == 10 and rec.segments(1, "shoe") == ([], [])
    assert sum("less than" in r.getMessage() for r in caplog.records) == 1  # said once


def test_a_disk_error_costs_footage_not_the_table(tmp_path: Path) -> None:
    blocker = tmp_path / "rec"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    rec = Recorder(blocker)
    _frames(rec, "shoe", 1, 5)  # no exception
    assert rec.errors >= 1


def test_export_without_a_shoe_recording_or_a_deck(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "rec")
    _frames(rec, "table", 1, 5)
    rec.close()
    with closing(GameLog(tmp_path / "table.sqlite")) as log:
        gid, _ = log.new_game("durak2", {}, ["А", "Б"], t=0.0)
        with pytest.raises(ExportError, match="no recorded shoe footage"):
            export_bundle(log, gid, tmp_path / "rec", tmp_path / "out")
        _frames(rec, "shoe", 1, 5)
        rec.close()
        with pytest.raises(ExportError, match=r"no deck\.json"):
            export_bundle(log, gid, tmp_path / "rec", tmp_path / "out")


# ------------------------------------------------------- bad recordings: exit 2, named file
def _bazar(tmp_path: Path) -> Path:
    bundle = tmp_path / "bazar"
    shutil.copytree(DATA / "bazar", bundle)
    for shared in ("deck.json", "deck.table.npz"):
        shutil.copy(DATA / shared, bundle / shared)
    return bundle


def _truth_disagrees(bundle: Path) -> Path:
    meta = json.loads((bundle / "game.json").read_text(encoding="utf-8"))
    meta["shoe_cards"][3], meta["shoe_cards"][4] = meta["shoe_cards"][4], meta["shoe_cards"][3]
    (bundle / "game.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    return bundle / "game.json"


def _truncated(bundle: Path) -> Path:
    clip = bundle / "table.mp4"
    clip.write_bytes(clip.read_bytes()[: clip.stat().st_size // 3])
    return clip


def _backwards(bundle: Path) -> Path:
    stamps = bundle / "table.times.json"
    times = json.loads(stamps.read_text(encoding="utf-8"))
    times[10], times[11] = times[11], times[10]
    stamps.write_text(json.dumps(times), encoding="utf-8")
    return stamps


def _deck_not_taught(bundle: Path) -> Path:
    (bundle / "deck.json").unlink()
    return bundle / "deck.json"


@pytest.mark.parametrize("spoil", [_truth_disagrees, _truncated, _backwards, _deck_not_taught],
                         ids=["truth-disagrees-with-its-log", "truncated-clip",
                              "times-backwards", "deck-not-taught-here"])
def test_a_bad_recording_is_one_line_naming_the_file(tmp_path: Path,
                                                     spoil: Callable[[Path], Path]) -> None:
    bundle = _bazar(tmp_path / "one")
    named = spoil(bundle)
    run = cardtable("replay", bundle, "--check", "--no-progress")
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr[-2000:]
    assert lines[0].startswith("error: ") and str(named) in lines[0], lines
    assert run.stdout == ""
    # the same in a folder of recordings: the bad one is named, no summary claims a check
    folder = tmp_path / "evening"
    folder.mkdir()
    shutil.move(bundle, folder / "bazar")
    run = cardtable("replay", folder, "--check", "--no-progress")
    assert run.returncode == 2 and str(folder / "bazar") in run.stderr, run.stderr[-2000:]
