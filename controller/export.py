"""A game of the table log, with its recording, as a recorded session (bundle): the format
``cardtable replay`` and the simulated table read (docs/table.md), so a real evening becomes a
check (``cardtable replay DIR --check``).

What goes where:

* ``shoe.mp4``/``table.mp4`` and their ``.times.json`` — the recorded segments of each camera
  (``controller.recorder``) joined into one clip, H.264 when PyAV is installed, else MPEG-4;
  times on the session's clock (seconds from the game's start);
* ``inputs.jsonl`` — what people did, from the log: the players' buttons and the organiser's
  actions at the times the log took them. What the cameras told the controller is left out: the
  replay reads it again from the frames (a camera that was not recorded keeps its inputs);
* ``game.json`` — the game, its options and names, and the truth: the engine events as the game
  finally had them, after every confirmation and correction, and the shoe cards among them;
* ``deck.json``/``deck.table.npz`` — the deck the game was read with, kept by the recorder.

``export_bundle`` writes it and reads it back with ``controller.footage.load_bundle``; anything
missing is an :class:`ExportError` saying what and where.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.footage import BundleError, load_bundle
from controller.log import GameLog
from controller.recorder import CAMERAS, Recorder, Segment
from engine.errors import EngineError
from engine.registry import game_class
from vision.video import ClipWriter, VideoError, frames

CAMERA_INPUTS = {"shoe": ("shoe",), "table": ("placed", "removed")}
MIN_STEP = 1e-3  # s: frame times joined across segments never go backwards (a clock set back)


class ExportError(RuntimeError):
    """The game cannot be exported as a recording: why, naming the file or the game."""


@dataclass
class ExportReport:
    path: Path
    game_id: int
    frames: dict[str, int] = field(default_factory=dict)  # frames written per camera
    inputs: int = 0
    seconds: float = 0.0  # the game's length on the session's clock
    size: int = 0  # bytes of the bundle
    lost: list[str] = field(default_factory=list)  # segments that could not be used, and why

    @property
    def mb_per_hour(self) -> float:
        return self.size / 1024**2 / (self.seconds / 3600) if self.seconds > 0 else 0.0

    def lines(self) -> list[str]:
        cams = ", ".join(f"{c} {n} frames" for c, n in self.frames.items())
        out = [f"{self.path}: game {self.game_id}, {self.seconds / 60:.1f} min of play, {cams}, "
               f"{self.inputs} inputs, {self.size / 1024**2:.1f} MB "
               f"({self.mb_per_hour:.0f} MB per hour of play)"]
        out += [f"  not used: {why}" for why in self.lost]
        return out


def export_bundle(log: GameLog, game_id: int, recordings: Path, out: Path, *,
                  h264: bool = True) -> ExportReport:
    """Write game ``game_id`` of ``log`` with its recording under ``recordings`` as a bundle in
    ``out`` (a new or empty folder)."""
    row = log.game(game_id)
    if row is None:
        raise ExportError(f"no game {game_id} in {log.path}")
    events = log.event_texts(game_id)
    try:
        game = game_class(row.game).replay(events, row.options)
    except (EngineError, ValueError) as exc:
        raise ExportError(f"game {game_id} of {log.path} cannot be replayed: {exc}") from None
    rec = Recorder(recordings)
    folder = rec.folder(game_id)
    if not folder.is_dir():
        raise ExportError(f"game {game_id} was not recorded: no {folder} (record with "
                          "`cardtable run --record` or [record] in the table config)")
    report = ExportReport(out, game_id)
    segments: dict[str, list[Segment]] = {}
    for camera in CAMERAS:
        good, broken = rec.segments(game_id, camera)
        report.lost += [f"{p.name}: no frame times (the table stopped while it was written)"
                        for p in broken]
        if good:
            segments[camera] = good
    if "shoe" not in segments:
        raise ExportError(f"game {game_id} has no recorded shoe footage in {folder}")
    if not (folder / "deck.json").is_file():
        raise ExportError(f"{folder} has no deck.json: the deck the game was read with was not "
                          "kept, so the recording cannot be read again")
    if "table" in segments and not (folder / "deck.table.npz").is_file():
        raise ExportError(f"{folder} has table footage but no deck.table.npz (the deck's face "
                          "strips the overhead camera was read with)")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(f"{out} exists and is not an empty folder")
    t0 = min([row.started] + [s[0].times[0] for s in segments.values() if s[0].times])
    out.mkdir(parents=True, exist_ok=True)
    try:
        for camera, segs in segments.items():
            report.frames[camera] = _join(segs, out / f"{camera}.mp4", t0, h264, report.lost)
        for name in ("deck.json", "deck.table.npz"):
            if (folder / name).is_file():
                shutil.copyfile(folder / name, out / name)
        lines = _inputs(log, game_id, t0, set(segments))
        (out / "inputs.jsonl").write_text("".join(json.dumps(o, ensure_ascii=False) + "\n"
                                                  for o in lines), encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"cannot write {out}: {exc.strerror or exc}") from None
    report.inputs = len(lines)
    meta: dict[str, Any] = {"game": row.game, "options": row.options, "names": row.names,
                            "shoe_cards": [e.split()[1] for e in events if e.startswith("shoe ")],
                            "events": events}
    if "table" in segments:
        meta["table"] = {"seats": game.num_seats, "empty_frames": [0]}
    (out / "game.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1),
                                   encoding="utf-8")
    try:
        bundle = load_bundle(out)
    except BundleError as exc:
        raise ExportError(f"the exported recording does not read back: {exc}") from None
    report.seconds = bundle.duration
    report.size = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    return report


def _join(segments: list[Segment], path: Path, t0: float, h264: bool, lost: list[str]) -> int:
    """A camera's segments as one clip and its times; the frames written."""
    writer: ClipWriter | None = None
    times: list[float] = []
    try:
        for seg in segments:
            n = 0
            try:
                for frame in frames(seg.path):
                    if n >= len(seg.times):
                        break
                    if writer is None:
                        writer = ClipWriter(path, (frame.shape[1], frame.shape[0]), h264=h264)
                    writer.write(frame)
                    t = seg.times[n] - t0
                    times.append(max(t, times[-1] + MIN_STEP) if times else max(t, 0.0))
                    n += 1
            except VideoError as exc:
                lost.append(f"{seg.path.name}: {exc}")
            if 0 < n < len(seg.times):
                lost.append(f"{seg.path.name}: {len(seg.times) - n} of its frames are missing")
    finally:
        if writer is not None:
            writer.close()
    if writer is None:
        raise ExportError(f"none of the recorded {path.stem} footage can be read "
                          f"({segments[0].path.parent})")
    path.with_suffix(".times.json").write_text(json.dumps([round(t, 4) for t in times]),
                                               encoding="utf-8")
    return len(times)


def _inputs(log: GameLog, game_id: int, t0: float, recorded: set[str]) -> list[dict[str, Any]]:
    """The logged inputs a replay needs, on the session's clock: all but what a recorded camera
    told the controller (the replay reads that from its frames again)."""
    skip = {kind for camera in recorded for kind in CAMERA_INPUTS[camera]}
    skip.add("camera")  # a camera's notes change nothing in the game
    out = []
    for e in log.entries(game_id, kinds=("input",)):
        kind = e.body.get("kind")
        if kind in skip:
            continue
        obj = {k: v for k, v in e.body.items() if k not in ("t", "frame") and v is not None}
        out.append({"t": round(max(e.t - t0, 0.0), 4), **obj})
    return out
