"""`cardtable table ...`, `cardtable read --source table` and `cardtable footage table`.

Hooked into ``cardtable.vision_commands.register`` by one call, so the shoe commands stay as they are.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _fail(message: str, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from vision.table.calibrate import (
        CalibrationError,
        annotate,
        calibrate_corners,
        calibrate_image,
        parse_corners,
        save_calibration,
    )

    path = Path(args.image)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if image is None:
        from vision.video import VideoError, frames

        try:  # a video: calibrate from its first frame
            image = next(iter(frames(path))) if path.is_file() else None
        except (VideoError, StopIteration):
            image = None
    if image is None:
        return _fail(f"cannot read {path}: give a still image (PNG/JPEG) or a video from the "
                     f"table camera")
    out = Path(args.out) if args.out else path.with_suffix(".calibration.json")
    try:
        if args.corners:
            cal = calibrate_corners((image.shape[1], image.shape[0]), parse_corners(args.corners),
                                    args.area_cm * 10)
        else:
            cal = calibrate_image(image, args.marker_cm * 10)
        save_calibration(cal, out)
    except CalibrationError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc}")
    picture = out.with_suffix(".png")
    if not cv2.imwrite(str(picture), annotate(image, cal, args.seats)):
        return _fail(f"cannot write {picture}")
    print(f"calibrated from {cal.source} ({image.shape[1]}x{image.shape[0]}): play area "
          f"{cal.area_mm / 10:.1f} cm across, {cal.image_px_per_mm() * 60:.0f} px for a 6 cm wide "
          f"card; wrote {out} and {picture}")
    return 0


def _faces(args: argparse.Namespace) -> int:
    from vision.profile import ProfileError, load_profile
    from vision.table.faces import FacesError, build_faces, save_faces
    from vision.video import VideoError

    try:
        profile = load_profile(args.name)
        faces = build_faces(profile, Path(args.video) if args.video else None)
        path = save_faces(profile.name, faces, profile)
    except (ProfileError, FacesError, VideoError) as exc:
        return _fail(str(exc))
    print(f"table templates for {args.name!r}: {len(faces.codes)} cards; saved {path}")
    return 0


def _load_hands(path: str | None, seats: int) -> dict[int, list[str]] | None:
    from vision.cards import parse_card_list

    if path is None:
        return None
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read --hands {path}: {exc}") from None
    if not isinstance(raw, dict):
        raise ValueError(f"--hands {path} must be a JSON object like {{\"0\": [\"7C\"], \"1\": []}}")
    hands: dict[int, list[str]] = {}
    for key, cards in raw.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) < seats):
            raise ValueError(f"--hands {path}: seat {key!r} is not one of 0..{seats - 1}")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ValueError(f"--hands {path}: seat {key} must list card codes")
        hands[int(key)] = parse_card_list(",".join(cards)) if cards else []
    return hands


def _read_table(args: argparse.Namespace) -> int:
    from vision.profile import ProfileError, load_profile
    from vision.table.calibrate import CalibrationError, load_calibration
    from vision.table.faces import FacesError
    from vision.table.reader import TableReader, read_frames
    from vision.video import VideoError, frames

    try:
        profile = load_profile(args.deck)
        cal = load_calibration(Path(args.calibration)) if args.calibration else None
        hands = _load_hands(args.hands, args.seats)
        reader = TableReader(profile, cal, args.seats, marker_mm=args.marker_cm * 10)
        if hands is not None:
            reader.set_candidates(hands)
        count = 0
        for event in read_frames(frames(Path(args.path), reuse_buffer=True), reader):
            print(json.dumps(event.to_json(), ensure_ascii=False), flush=True)
            count += 1
    except (ProfileError, CalibrationError, FacesError, VideoError, ValueError) as exc:
        return _fail(str(exc))
    if count == 0:
        print(f"warning: no cards seen in {args.path}", file=sys.stderr)
    return 0


def _footage_table(args: argparse.Namespace) -> int:
    from synth.table import make_table_clip, truth_path
    from vision.artwork import ArtworkError
    from vision.cards import composition, parse_card_list

    try:
        cards = parse_card_list(args.cards) if args.cards else composition(args.composition)
        truth = make_table_clip(Path(args.out), args.deck, args.seats, cards, args.game,
                                args.difficulty, args.seed, args.table, args.face_down,
                                args.objects)
    except (ArtworkError, ValueError, RuntimeError) as exc:
        return _fail(str(exc))
    print(f"wrote {args.out} ({truth.frames} frames, {len(truth.placed)} placements) and "
          f"{truth_path(Path(args.out))}")
    return 0


def _check(args: argparse.Namespace) -> int:
    from hardware.camera import CameraEnded, CameraError
    from vision.cards import parse_card_list
    from vision.profile import ProfileError, load_profile
    from vision.table.calibrate import (
        MARKER_MM,
        CalibrationError,
        load_calibration,
        save_calibration,
    )
    from vision.table.check import card_ru, run_check
    from vision.table.faces import FacesError
    from vision.video import VideoError, frames

    if (args.clip is None) == (args.config is None):
        return _fail("give a clip from the table camera, or --config TABLE.toml to check the "
                     "table camera live")
    if args.clip is not None and args.seconds is not None:
        return _fail("--seconds is for a live check (--config); a clip is read to its end")
    camera: Any = None
    try:
        cards = parse_card_list(args.cards)
        seats = args.seats or len(cards)
        if seats not in (2, 4):
            raise ValueError(f"a check lays one card per seat, and a table has 2 or 4 seats: "
                             f"{len(cards)} cards named")
        if args.config is not None:
            live = _live_source(args)
            if isinstance(live, int):
                return live
            camera, deck, cal, marker_cm, out, fps = live
            print(f"положите {', '.join(map(card_ru, cards))} по одной в зоны мест 1-{seats}, "
                  f"оставьте на 2-3 с и уберите; проверка идёт {args.seconds or 20:g} с\n"
                  f"lay {', '.join(cards)} one in each seat's zone, leave them 2-3 s, take them "
                  f"away; the check watches for {args.seconds or 20:g} s", file=sys.stderr)
            source: Any = (f for _, f in camera.frames(max_s=args.seconds or 20))
        else:
            if args.deck is None:
                raise ValueError("--deck: name the taught deck the clip shows")
            if args.calibration and args.marker_cm != MARKER_MM / 10:
                raise ValueError("--marker-cm is for a check without --calibration (the "
                                 "calibration already knows the play area's size)")
            path = Path(args.clip)
            deck, marker_cm, fps = args.deck, args.marker_cm, 30.0
            cal = load_calibration(Path(args.calibration)) if args.calibration else None
            out = (Path(args.out) if args.out else Path(args.calibration) if args.calibration
                   else path.with_suffix(".calibration.json"))
            source = frames(path, reuse_buffer=True)
        profile = load_profile(deck)
        result = run_check(source, profile, cards, seats, cal, marker_cm * 10, fps)
    except (ProfileError, CalibrationError, FacesError, VideoError, ValueError, CameraError,
            CameraEnded) as exc:
        return _fail(str(exc))
    finally:
        if camera is not None:
            camera.close()
    f = result.figures
    print(f"поле {f['area_cm']} см, карта {f['card_mm'][0]}×{f['card_mm'][1]} мм = "
          f"{f['card_px']} px в ширину; прочитано {f['read']} из {f['laid']}")
    for r in result.seats:
        print(f"  место {r.seat + 1}: ожидалась {card_ru(r.expected)}, прочитано "
              f"{', '.join(map(card_ru, r.read)) or '—'}")
    if not result.ok:
        print("ПРОВЕРКА НЕ ПРОЙДЕНА / check failed:")
        for p in result.problems:
            print(f"  [{p.finding}] {p.ru}\n      {p.en}")
        print("калибровка не изменена / nothing was stored")
        return 1
    assert result.calibration is not None
    try:
        save_calibration(result.calibration, out)
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc}")
    print(f"ПРОВЕРКА ПРОЙДЕНА / check passed: размер карты и цифры записаны в {out}")
    return 0


def _live_source(args: argparse.Namespace) -> Any:
    """The config's table camera for a live check, with what it needs: (camera, deck,
    calibration, marker cm, where to store, fps); or an exit code after saying why not."""
    from controller.config import ConfigError, load_config
    from hardware.camera import CameraError, open_camera
    from vision.table.calibrate import MARKER_MM, load_calibration

    if args.calibration or args.marker_cm != MARKER_MM / 10:
        return _fail("--calibration and --marker-cm come from the config's [cameras.table] in a "
                     "live check")
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        for line in exc.errors:
            print(f"error: {line}", file=sys.stderr)
        return 2
    cam = cfg.cameras.get("table")
    if cam is None:
        return _fail(f"{args.config} has no [cameras.table]: the check reads the overhead "
                     "camera")
    if cam.kind == "session":
        return _fail("the simulated table's camera shows a recording: check a real table's "
                     "camera (or give a clip)")
    stored = cfg.calibration_path("table")
    cal = load_calibration(stored) if cam.calibration or stored.exists() else None
    try:
        camera = open_camera(cam, "table")
    except CameraError as exc:
        return _fail(str(exc))
    out = Path(args.out) if args.out else stored
    return camera, args.deck or cfg.table.deck, cal, cam.marker_cm, out, cam.fps


def _mat(args: argparse.Namespace) -> int:
    from vision.table.mat import markers_svg, mat_svg

    if args.markers_only and args.size is not None:
        return _fail("--markers-only is one A4 page of markers; --size is for the whole mat")
    if not args.markers_only and args.size is None:
        return _fail("--size: the play area's side in cm, between the markers' centres (or "
                     "--markers-only for an A4 page of markers to cut out)")
    try:
        svg = (markers_svg(args.marker_cm * 10) if args.markers_only
               else mat_svg(args.size * 10, args.marker_cm * 10, args.seats))
    except ValueError as exc:
        return _fail(str(exc))
    out = Path(args.out)
    try:
        out.write_text(svg, encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc}")
    what = ("four markers on an A4 page" if args.markers_only else
            f"a {args.size:g} cm play area with its markers")
    print(f"wrote {out}: {what}, {args.marker_cm:g} cm markers. Print it at 100 % (its 10 cm "
          f"bar must measure 10 cm); if a printed marker does not measure {args.marker_cm:g} cm, "
          f"give its real side to `table calibrate` and `table check` with --marker-cm")
    return 0


def _seconds(text: str) -> float:
    """--seconds: within the live check's bounds (imported only when the option is given)."""
    from cardtable.args import number
    from controller.table_check import SECONDS

    return number("--seconds", *SECONDS)(text)


def _cm(text: str) -> float:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a length in cm") from None
    if not 0.5 < value < 200:
        raise argparse.ArgumentTypeError(f"{text} cm is not a plausible size")
    return value


def register(subparsers: argparse._SubParsersAction, read: argparse.ArgumentParser,
             footage: argparse._SubParsersAction) -> None:
    from vision.cards import COMPOSITIONS
    from vision.table.calibrate import AREA_MM, MARKER_MM

    table = subparsers.add_parser("table", help="calibrate and check the overhead table camera")
    tsub = table.add_subparsers(dest="table_command", metavar="ACTION", required=True)
    cal = tsub.add_parser("calibrate", help="find the play area from its ArUco markers")
    cal.add_argument("image", help="a still (or a video) from the table camera")
    cal.add_argument("--out", help="calibration file to write (default IMAGE.calibration.json)")
    cal.add_argument("--corners", help="the operator's corners instead of markers: "
                                       "'x,y;x,y;x,y;x,y' bottom-left, top-left, top-right, bottom-right")
    cal.add_argument("--seats", type=int, choices=(2, 4), default=4,
                     help="seat zones to draw on the picture")
    cal.add_argument("--marker-cm", type=_cm, default=MARKER_MM / 10,
                     help=f"printed side of the markers, black border included (default "
                          f"{MARKER_MM / 10:g}, the project's mat)")
    cal.add_argument("--area-cm", type=_cm, default=AREA_MM / 10,
                     help="with --corners: the play area's side in cm (default %(default)g)")
    cal.set_defaults(func=_calibrate)
    check = tsub.add_parser("check", help="lay known cards in the seat zones: does this table "
                                          "read? (stores the card size on a pass)")
    check.add_argument("clip", nargs="?", help="a clip from the table camera: one named card "
                                               "laid in each seat's zone, left a moment, taken "
                                               "away (or --config: the live camera)")
    check.add_argument("--config", help="the table's config: check its overhead camera live "
                                        "and store the result where the config keeps it")
    check.add_argument("--seconds", type=_seconds, default=None,
                       help="live: how long the check watches (default 20)")
    check.add_argument("--deck", help="taught deck profile name (with --config: default the "
                                      "config's [table] deck)")
    check.add_argument("--cards", required=True,
                       help="the card laid in each seat's zone, seat 1's first: AS,AH")
    check.add_argument("--seats", type=int, choices=(2, 4), default=None,
                       help="default: one per card named")
    check.add_argument("--calibration", help="calibration file to check and update (default: "
                                             "markers in the clip; writes CLIP.calibration.json)")
    check.add_argument("--marker-cm", type=_cm, default=MARKER_MM / 10,
                       help="without --calibration: the markers' printed side (default "
                            "%(default)g)")
    check.add_argument("--out", help="where to write the checked calibration")
    check.set_defaults(func=_check)
    mat = tsub.add_parser("mat", help="a printable mat (SVG at real size) with the four markers "
                                      "and the seat zones, or --markers-only: an A4 page")
    mat.add_argument("out", nargs="?", default="cardtable-mat.svg",
                     help="the SVG to write (default %(default)s)")
    mat.add_argument("--size", type=_cm, help="the play area's side in cm, between the markers' "
                                              "centres (the reader is measured on 40-100)")
    mat.add_argument("--marker-cm", type=_cm, default=MARKER_MM / 10,
                     help="the markers' printed side, black border included (default %(default)g)")
    mat.add_argument("--seats", type=int, choices=(2, 4), default=4,
                     help="seat zones to draw (default %(default)s)")
    mat.add_argument("--markers-only", action="store_true",
                     help="one A4 page with the four markers to cut out and lay on the corners")
    mat.set_defaults(func=_mat)
    faces = tsub.add_parser("faces", help="(re)make a deck's table templates from its shoe pass")
    faces.add_argument("name")
    faces.add_argument("--video", help="the shoe pass the deck was taught from (default: as taught)")
    faces.set_defaults(func=_faces)

    shoe = read.get_default("func")
    read.add_argument("--source", choices=("shoe", "table"), default="shoe",
                      help="which camera the video is from (default shoe)")
    read.add_argument("--seats", type=int, choices=(2, 4), default=2, help="table: seats")
    read.add_argument("--calibration", help="table: calibration file (default: markers in the "
                                            "first frame)")
    read.add_argument("--hands", help="table: JSON of the cards still in each hand, "
                                      "{\"0\": [\"7C\", ...], \"1\": [...]}")
    read.add_argument("--marker-cm", type=_cm, default=MARKER_MM / 10,
                      help="table, without --calibration: the markers' printed side (default "
                           "%(default)g)")

    def dispatch(args: argparse.Namespace) -> int:
        if args.source == "table":
            return _read_table(args)
        if args.calibration or args.hands or args.marker_cm != MARKER_MM / 10:
            return _fail("--calibration, --hands and --marker-cm are for --source table")
        return shoe(args)

    read.set_defaults(func=dispatch)

    make = footage.add_parser("table", help="make an overhead table clip and its .truth.json")
    make.add_argument("out", help="output video (.mp4)")
    make.add_argument("--deck", required=True, help="artwork deck (see `footage decks`)")
    make.add_argument("--cards", help="comma-separated card codes to deal round the seats")
    make.add_argument("--composition", choices=COMPOSITIONS, default="36")
    make.add_argument("--seats", type=int, choices=(2, 4), default=2)
    make.add_argument("--game", choices=("tricks", "durak"), default="tricks")
    make.add_argument("--difficulty", default="normal", choices=("easy", "normal", "hard"))
    make.add_argument("--table", choices=("green_felt", "blue_felt", "wood"), default=None)
    make.add_argument("--seed", type=int, default=0)
    make.add_argument("--face-down", type=int, default=0, help="face-down cards to slip in")
    make.add_argument("--objects", type=int, default=0, help="foreign objects to slip in")
    make.set_defaults(func=_footage_table)
