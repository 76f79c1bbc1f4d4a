"""Recorded sessions made up: a seeded game played by simulated players, filmed by the generators.

``record_session`` makes a bundle (``controller.footage`` reads them; the format is in
docs/table.md) with a settable rate of mistakes (illegal plays, a card dealt face down that the
dealer must confirm) so corrections and policies are exercised. The clips are encoded with H.264
(PyAV) when available, else MPEG-4. ``teach_deck`` teaches a deck, as a user would, from one
synthetic teaching pass. ``scripts/make-bundles`` makes the bundled recordings with these.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from controller import buttons as vocabulary
from controller.footage import Bundle, load_bundle, save_table_faces
from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class
from engine.view import table_view
from synth.session import CameraLog, SessionCamera
from synth.shoe import FACE_DOWN, FPS, make_clip
from synth.table import FRAME_H as TABLE_FRAME_H
from synth.table import FRAME_W as TABLE_FRAME_W
from vision.profile import DeckProfile
from vision.table.faces import Faces, build_faces
from vision.teach import teach_from_video
from vision.video import ClipWriter
from vision.video import frames as video_frames

# How long simulated players take (seconds).
PACE = {"play": 1.4, "beat": 1.4, "button": 1.2, "press_gap": 0.35, "gather": 0.9, "confirm": 2.5,
        # filmed plays: the arm starts this long before the card would have been "placed", and
        # the next input comes this long after the card lies uncovered (the reader's decision)
        "reach": 0.8, "seen": 0.3}


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
    wrong = vocabulary.illegal_cards(game, seat, legal)
    return vocabulary.illegal_play(game, seat, rng.choice(wrong).code, None) if wrong else None


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
    encoder: ClipWriter | None = None
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
        camera = SessionCamera(ClipWriter(out / "table.mp4", (TABLE_FRAME_W, TABLE_FRAME_H)),
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
                    encoder = ClipWriter(out / "shoe.mp4", (frame.shape[1], frame.shape[0]))
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
