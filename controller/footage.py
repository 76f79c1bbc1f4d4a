"""Recorded table sessions ("bundles"): a shoe clip with its frame clock and what people did.

A bundle is what a real table records and what the simulated table replays:

* ``shoe.mp4`` — the shoe camera's frames. Like a real shoe camera it records only while cards
  move, so ``shoe.times.json`` gives each frame's timestamp (seconds, the session's clock from 0);
* ``inputs.jsonl`` — everything else, one JSON object per line with ``t`` on the same clock:
  panel buttons ``{"t", "seat", "button"}`` (the documented BUTTONS.jsonl shape), and, until the
  table camera lands, its events ``{"t", "kind": "placed", "seat", "card", "covers"?}`` and
  ``{"t", "kind": "removed"}``, plus the organiser's corrections ``{"t", "kind": "admin", ...}``;
* ``deck.json`` — the deck profile taught from one teaching pass of the same deck;
* ``game.json`` — game, options, player names, and the truth: every shoe card in order and the
  engine log the session produced (tests compare a replay against it).

``record_session`` makes one from a seeded game played by simulated players, with a settable rate
of mistakes (illegal plays, a card dealt face down that the dealer must confirm) so corrections and
policies are exercised. The clip is encoded with H.264 (PyAV) when available, else MPEG-4.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from controller import buttons as vocabulary
from controller.inputs import parse_input
from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class
from engine.view import table_view
from hardware.camera import FrameTimesError
from hardware.camera import read_frame_times as hardware_frame_times
from vision.footage import FACE_DOWN, FPS, make_clip
from vision.profile import DeckProfile, read_profile
from vision.table.faces import Faces, FacesError, build_faces, read_faces, save_faces
from vision.table.footage import FRAME_H as TABLE_FRAME_H
from vision.table.footage import FRAME_W as TABLE_FRAME_W
from vision.table.timeline import CameraLog, SessionCamera
from vision.teach import teach_from_video
from vision.video import VideoError, frame_count
from vision.video import frames as video_frames

BUNDLES = Path(__file__).parent / "data"
DEFAULT_BUNDLE = BUNDLES / "belot2"

# How long simulated players take (seconds).
PACE = {"play": 1.4, "beat": 1.4, "button": 1.2, "press_gap": 0.35, "gather": 0.9, "confirm": 2.5,
        # filmed plays: the arm starts this long before the card would have been "placed", and
        # the next input comes this long after the card lies uncovered (the reader's decision)
        "reach": 0.8, "seen": 0.3}


class BundleError(RuntimeError):
    """A bundle is missing, incomplete or malformed."""


@dataclass
class Bundle:
    path: Path
    game: str
    options: dict[str, Any]
    names: list[str]
    shoe_cards: list[str]
    events: list[str]
    inputs: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    table_times: list[float] = field(default_factory=list)
    table_meta: dict[str, Any] = field(default_factory=dict)

    @property
    def shoe(self) -> Path:
        return self.path / "shoe.mp4"

    @property
    def table(self) -> Path | None:
        """The overhead camera's clip, when the session was filmed from above."""
        return self.path / "table.mp4" if self.table_times else None

    def faces(self) -> Faces:
        """The table reader's face strips of the bundle's deck (``deck.table.npz`` beside the
        profile it uses)."""
        path = self.path / "deck.table.npz"
        if not path.is_file():
            path = self.path.parent / "deck.table.npz"
        try:
            return read_faces(path, self.profile())
        except FacesError as exc:
            raise BundleError(f"the table reader's faces of bundle {self.path} are unusable: "
                              f"{exc}") from None

    def profile(self) -> DeckProfile:
        """The bundle's own ``deck.json``, else the one its folder's parent shares."""
        path = self.path / "deck.json"
        if not path.is_file():
            path = self.path.parent / "deck.json"
        return read_profile(path)

    def new_game(self) -> Game:
        return game_class(self.game)(self.options)

    @property
    def duration(self) -> float:
        last_input = self.inputs[-1][0] if self.inputs else 0.0
        return max(last_input, self.times[-1] if self.times else 0.0,
                   self.table_times[-1] if self.table_times else 0.0)


def _one_line(exc: Exception) -> str:
    """A validation error as one line: the first problem, where it is."""
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        return f"{where}: {err['msg']}{more}" if where else f"{err['msg']}{more}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BundleError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BundleError(f"{path} is not UTF-8 text") from None


def load_inputs(path: Path) -> list[tuple[float, dict[str, Any]]]:
    """Read an inputs/BUTTONS JSONL file; every line is checked, errors name the line."""
    out: list[tuple[float, dict[str, Any]]] = []
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            if "t" not in obj:
                raise ValueError("no time 't'")
            t = float(obj.pop("t"))
            if not math.isfinite(t) or t < 0:
                raise ValueError(f"time {t} is not a time on the clips' clock")
            if "kind" not in obj and "button" in obj:
                obj["kind"] = "button"
            parse_input(obj)  # validate now, not halfway through a game
        except (ValueError, TypeError) as exc:
            raise BundleError(f"{path}:{number}: bad input line ({_one_line(exc)})") from None
        out.append((t, obj))
    out.sort(key=lambda item: item[0])
    return out


class _Meta(BaseModel):
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    names: list[str] = Field(default_factory=list)
    shoe_cards: list[str] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list)
    table: dict[str, Any] = Field(default_factory=dict)  # the overhead footage's seats and truth


def load_bundle(path: str | Path) -> Bundle:
    """Load and check a recorded session; anything wrong is a BundleError naming the file."""
    path = Path(path)
    if not path.is_dir():
        raise BundleError(f"{path} is not a recorded session folder")
    for name in ("game.json", "shoe.times.json", "inputs.jsonl", "shoe.mp4"):
        if not (path / name).is_file():
            raise BundleError(f"{path} is not a complete recorded session: {name} is missing")
    try:
        meta = _Meta.model_validate_json(_read_text(path / "game.json"))
    except ValidationError as exc:
        raise BundleError(f"{path / 'game.json'}: {_one_line(exc)}") from None
    try:
        game_class(meta.game)(meta.options)
    except EngineError as exc:
        raise BundleError(f"{path / 'game.json'}: {exc}") from None
    inputs = load_inputs(path / "inputs.jsonl")  # a bad line is named before any video is read
    times = _clip_times(path, "shoe")
    table_times: list[float] = []
    table_meta: dict[str, Any] = {}
    if (path / "table.mp4").is_file() or (path / "table.times.json").is_file():
        for name in ("table.mp4", "table.times.json"):
            if not (path / name).is_file():
                raise BundleError(f"{path} has table footage but {name} is missing")
        table_times = _clip_times(path, "table")
        table_meta = meta.table
        if table_meta.get("seats") not in (2, 4):
            raise BundleError(f"{path / 'game.json'}: the table footage needs 'table': "
                              f"{{'seats': 2 or 4, ...}}")
    return Bundle(path=path, game=meta.game, options=meta.options, names=meta.names,
                  shoe_cards=meta.shoe_cards, events=meta.events,
                  inputs=inputs, times=times, table_times=table_times, table_meta=table_meta)


def read_frame_times(stamps: Path) -> list[float]:
    """A ``CLIP.times.json``: each frame's time (``hardware.camera.read_frame_times``, the one
    loader and its checks), a BundleError naming the file otherwise."""
    try:
        return hardware_frame_times(stamps)
    except FrameTimesError as exc:
        raise BundleError(str(exc)) from None


def _clip_times(path: Path, camera: str) -> list[float]:
    """A camera's frame times (``CAMERA.times.json``), checked against its clip's frames."""
    stamps, clip = path / f"{camera}.times.json", path / f"{camera}.mp4"
    times = read_frame_times(stamps)
    try:
        frames = frame_count(clip)
    except VideoError as exc:
        raise BundleError(str(exc)) from None
    if frames and len(times) != frames:
        raise BundleError(f"{stamps} has {len(times)} frame times but {clip} has {frames} frames")
    return times


TRUNCATED_SLACK = 2  # frames a clip may lack against its timestamps (an encoder's last ones)


def timed_frames(video: Path, times: list[float] | None = None,
                 fps: float = FPS) -> Iterator[tuple[float, np.ndarray]]:
    """(timestamp, frame) pairs of a clip: from its timestamps file, else frame / fps. A clip
    that ends well before its timestamps do (a truncated file) is a VideoError, not a short
    game: more than ``TRUNCATED_SLACK`` frames missing."""
    n = -1
    for n, frame in enumerate(video_frames(video)):
        yield (times[n] if times is not None and n < len(times) else n / fps), frame
    if times is not None and len(times) - (n + 1) > TRUNCATED_SLACK:
        from vision.video import VideoError

        raise VideoError(f"video {video} ends after {n + 1} of the {len(times)} frames its "
                         "timestamps list: the file is cut short")


# ------------------------------------------------------------------------------- recording
class _Encoder:
    """H.264 through PyAV when installed (5-10x smaller than OpenCV's MPEG-4), else MPEG-4."""

    def __init__(self, path: Path, size: tuple[int, int], crf: int = 28) -> None:
        self.path = path
        av: Any
        try:
            import av
        except ImportError:
            av = None
        self._av = av
        if av is not None:
            self._out = av.open(str(path), "w")
            self._stream = self._out.add_stream("libx264", rate=int(FPS))
            self._stream.width, self._stream.height = size
            self._stream.pix_fmt = "yuv420p"
            self._stream.options = {"crf": str(crf), "preset": "medium"}
        else:
            import cv2

            self._writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), FPS, size)

    def write(self, frame: np.ndarray) -> None:
        if self._av is not None:
            vf = self._av.VideoFrame.from_ndarray(frame, format="bgr24")
            for packet in self._stream.encode(vf):
                self._out.mux(packet)
        else:
            self._writer.write(frame)

    def close(self) -> None:
        if self._av is not None:
            for packet in self._stream.encode():
                self._out.mux(packet)
            self._out.close()
        else:
            self._writer.release()


def _button_presses(game: Game, event: Event) -> list[dict[str, Any]]:
    """The panel presses that make ``event`` (a direct button, else ▲ … ▲ + confirm)."""
    if event.kind == "undo":  # the offender takes the illegal card back
        return [{"seat": game.verdicts[-1].event.seat, "button": "undo"}]
    seat = event.seat
    assert seat is not None
    for b in vocabulary.MEANINGS:
        if vocabulary.button_action(game, seat, b) == event:
            return [{"seat": seat, "button": b}]
    options = vocabulary.panel_options(game, seat)
    if event in options:
        k = options.index(event)
        return [{"seat": seat, "button": "bid_up"}] * (k + 1) + [{"seat": seat, "button": "confirm"}]
    return [{"kind": "admin", "action": "event", "event": str(event)}]


def _illegal_card(game: Game, seat: int, legal: list[Event], rng: random.Random) -> Event | None:
    """A card of the hand that may not be played now (a player's mistake), if any."""
    legal_cards = {a.cards[0] for a in legal if a.kind in vocabulary.PLAY_KINDS}
    if not legal_cards:
        return None
    wrong = [c for c in game.hand(seat) if c not in legal_cards]
    if not wrong:
        return None
    return vocabulary.illegal_play(game, seat, rng.choice(wrong).code, None)


def teach_profile(deck_art: str, composition: str = "36", seed: int = 0) -> DeckProfile:
    """A deck profile taught, as a user would, from one synthetic teaching pass."""
    return teach_deck(deck_art, composition, seed)[0]


def teach_deck(deck_art: str, composition: str = "36", seed: int = 0) -> tuple[DeckProfile, Faces]:
    """A deck taught from one synthetic teaching pass: the shoe reader's profile and, from the
    same pass, the table reader's face strips (``vision.table.faces``)."""
    from vision.cards import composition as vision_composition

    with tempfile.TemporaryDirectory() as teach_dir:
        clip = Path(teach_dir) / "teach.mp4"
        codes = vision_composition(composition)
        make_clip(clip, deck_art, codes, "easy", seed=seed)
        profile = verify_deck(teach_from_video(deck_art, clip, codes), deck_art, composition,
                              seed)
        return profile, build_faces(profile, clip)


def verify_deck(profile: DeckProfile, deck_art: str, composition: str = "36", seed: int = 0
                ) -> DeckProfile:
    """``profile`` with its self-check, as `cardtable deck teach --verify` gives it: its teaching
    pass (made again from ``seed``) and a second pass of the deck shuffled, read with it."""
    from vision.cards import composition as vision_composition
    from vision.verify import verify

    with tempfile.TemporaryDirectory() as folder:
        teach, again = Path(folder) / "teach.mp4", Path(folder) / "verify.mp4"
        codes = vision_composition(composition)
        make_clip(teach, deck_art, codes, "easy", seed=seed)
        shuffled = codes[:]
        random.Random(seed + 1).shuffle(shuffled)
        make_clip(again, deck_art, shuffled, "normal", seed=seed + 1)
        checked = verify(profile, teach, codes, [again])
    for check in checked.passes:  # the clips were temporary: say what they were instead
        check.what = f"{check.what.split(' /')[0]} (synthetic, {deck_art}, seed {seed})"
    return profile.model_copy(update={"verification": checked})


def save_table_faces(path: Path, faces: Faces) -> None:
    """A bundle's face strips, in the sidecar format of ``vision.table.faces``."""
    save_faces("", faces, path=path)


def record_session(out: Path, game_name: str, options: dict[str, Any] | None = None, *,
                   seed: int = 0, deck_art: str = "Атласные", names: list[str] | None = None,
                   mistakes: float = 0.02, face_down: float = 0.01, difficulty: str = "easy",
                   teach_composition: str = "36", profile: DeckProfile | None = None,
                   table_camera: bool = True, progress: bool = False) -> Bundle:
    """Play a seeded game with simulated players and record it as a bundle in ``out``.

    Without ``profile`` the deck is taught from a teaching pass of ``deck_art`` and saved as the
    bundle's ``deck.json`` and ``deck.table.npz``; with one, the bundle uses those beside its
    folder. With ``table_camera`` (and two or four seats) the overhead camera films every card put
    down, taken back and gathered (``table.mp4``, ``table.times.json``) and those moves are left
    out of ``inputs.jsonl``: the table reader finds them in the footage, as at a real table."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    game = game_class(game_name)(options or {})
    names = names or [f"Игрок {i + 1}" for i in range(game.num_seats)]
    t = 0.0
    times: list[float] = []
    inputs: list[dict[str, Any]] = []
    shoe_cards: list[str] = []
    readable: list[int] = []  # frame at which each shoe card's index is first fully in view
    encoder: _Encoder | None = None
    tmp = Path(tempfile.mkdtemp(prefix="cardtable-rec-"))
    segment_no = 0

    def emit(delay: float, obj: dict[str, Any]) -> None:
        nonlocal t
        t += delay
        inputs.append({"t": round(t, 3), **obj})

    if profile is None:
        taught, faces = teach_deck(deck_art, teach_composition, seed + 999)
        (out / "deck.json").write_text(taught.model_dump_json(), encoding="utf-8")
        save_table_faces(out / "deck.table.npz", faces)
    for stale in ("table.mp4", "table.times.json"):
        (out / stale).unlink(missing_ok=True)
    camera: SessionCamera | None = None
    if table_camera and game.num_seats in (2, 4):
        camera = SessionCamera(_Encoder(out / "table.mp4", (TABLE_FRAME_W, TABLE_FRAME_H)),
                               deck_art,
                               game.num_seats, seed=seed + 7, difficulty=difficulty,
                               layout="durak" if game_name.startswith("durak") else "tricks")

    while not game.is_over:
        if game.expects_shoe:
            batch: list[str] = []
            shown: list[str] = []
            while game.expects_shoe:
                actions = game.legal_actions()
                e = actions[rng.randrange(len(actions))]
                game.record(e)
                batch.append(e.cards[0].code)
                shown.append(FACE_DOWN if rng.random() < face_down else e.cards[0].code)
            segment = tmp / f"seg{segment_no}.mp4"
            segment_no += 1
            truth = make_clip(segment, deck_art, shown, difficulty, seed=seed * 1000 + segment_no)
            readable += [len(times) + item.visible_frame for item in truth.items]
            for frame in video_frames(segment):
                if encoder is None:
                    encoder = _Encoder(out / "shoe.mp4", (frame.shape[1], frame.shape[0]))
                encoder.write(frame)
                times.append(round(t, 4))
                t += 1 / FPS
            segment.unlink()
            for code, seen in zip(batch, shown, strict=True):
                if seen == FACE_DOWN:  # the dealer types the card in on the phone
                    emit(PACE["confirm"], {"kind": "admin", "action": "confirm_card", "card": code})
            shoe_cards += batch
            if progress:
                print(f"  dealt {len(shoe_cards)} cards, t={t:.0f}s", flush=True)
            continue
        seat = game.to_act()
        legal = game.legal_actions(seat) if seat is not None else game.legal_actions()
        sensible = [a for a in legal if a.kind not in ("claim", "foul")] or legal
        event = sensible[rng.randrange(len(sensible))]
        if seat is not None and rng.random() < mistakes:
            wrong = _illegal_card(game, seat, legal, rng)
            try:
                if wrong is not None and not game.judge(wrong).legal:
                    event = wrong
            except EngineError:
                pass  # the engine refuses that card outright: the player plays properly
        trick_before = table_view(game).trick
        undone = game.verdicts[-1].event if event.kind == "undo" else None
        if event.kind in vocabulary.PLAY_KINDS:
            assert event.seat is not None
            obj: dict[str, Any] = {"kind": "placed", "seat": event.seat, "card": event.cards[0].code}
            ways = vocabulary.plays_of(game, event.seat, event.cards[0].code)
            if event.kind == "beat":
                obj["covers"] = event.cards[1].code
            if camera is not None:  # filmed: the reader decides a moment after the card rests
                t = camera.place(t + PACE["play"] - PACE["reach"], event.seat, obj["card"],
                                 obj.get("covers")) + PACE["seen"]
                obj = {}
            if len(ways) > 1:
                # a joker's mode is chosen on the panel after the card is down
                if obj:
                    emit(PACE["play"], obj)
                k = ways.index(event)
                for _ in range(k + 1):
                    emit(PACE["press_gap"], {"seat": event.seat, "button": "bid_up"})
                emit(PACE["press_gap"], {"seat": event.seat, "button": "confirm"})
                obj = {}
            if obj:
                emit(PACE["play"], obj)
        else:
            for i, press in enumerate(_button_presses(game, event)):
                emit(PACE["button"] if i == 0 else PACE["press_gap"], press)
        try:
            game.record(event)
        except EngineError as exc:  # a simulated player must never do the impossible
            raise RuntimeError(f"simulated player made an impossible move {event}: {exc}") from exc
        if camera is not None:
            if undone is not None and undone.seat is not None and undone.cards:
                t = camera.take_back(t + PACE["gather"], undone.seat, undone.cards[0].code)
            elif trick_before and not table_view(game).trick:
                taker = game.to_act()
                t = camera.gather(t + PACE["gather"], taker if taker is not None else event.seat or 0)
        elif trick_before and not table_view(game).trick and event.kind in vocabulary.PLAY_KINDS:
            emit(PACE["gather"], {"kind": "removed"})
    if encoder is not None:
        encoder.close()
    filmed: CameraLog | None = camera.close() if camera is not None else None
    if filmed is not None:
        (out / "table.times.json").write_text(json.dumps(filmed.times), encoding="utf-8")
    shutil.rmtree(tmp, ignore_errors=True)
    (out / "shoe.times.json").write_text(json.dumps(times), encoding="utf-8")
    (out / "inputs.jsonl").write_text(
        "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in inputs), encoding="utf-8")
    meta = {"game": game_name, "options": game.settings.changed(), "names": names,
            "seed": seed, "deck_art": deck_art, "difficulty": difficulty,
            "shoe_cards": shoe_cards, "readable_frames": readable, "events": [str(e) for e in game.raw_log],
            "totals": game.score_sheet().totals}
    if filmed is not None:
        meta["table"] = {"seats": game.num_seats, "corners_px": filmed.corners_px,
                         "empty_frames": filmed.empty, "placed": filmed.placed,
                         "removed": filmed.removed}
    (out / "game.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    return load_bundle(out)
