"""`cardtable deck ...`, `cardtable read ...` and `cardtable footage ...` subcommands."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2

from vision.cards import COMPOSITIONS, check_card_list, composition, parse_card_list
from vision.profile import (
    ProfileError,
    check_name,
    list_profiles,
    load_profile,
    profile_path,
    save_profile,
    verification_word,
)

SHEET_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


def _fail(message: str, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def _cards_from(args: argparse.Namespace) -> list[str]:
    if getattr(args, "cards", None):
        return parse_card_list(args.cards)
    return composition(args.composition or "36")


# -- deck -------------------------------------------------------------------------------------
def _deck_teach(args: argparse.Namespace) -> int:
    from vision.teach import TeachError, teach_from_images, teach_from_video
    from vision.verify import VerifyError, report, verify
    from vision.video import VideoError, open_video

    if bool(args.video) == bool(args.images):
        return _fail("give exactly one of --video PATH or --images DIR")
    if args.turned and not args.video:
        return _fail("--turned is a second pass through the shoe: give it with --video PATH")
    if args.verify and not args.video:
        return _fail("--verify checks a deck taught from a pass: give it with --video PATH")
    try:
        check_name(args.name)
        if args.cards:
            # The list is the pass: every card once, in the order dealt (a card twice would teach
            # wrong templates and read them confidently). A composition given as well must agree.
            comp = args.composition
            check_card_list(parse_card_list(args.cards),
                            len(composition(comp)) if comp else None,
                            f"composition {comp}" if comp else "")
        for extra in args.verify:
            open_video(Path(extra)).release()  # an unreadable pass fails before teaching
        if args.images:
            codes = _cards_from(args) if (args.cards or args.composition) else None
            profile = teach_from_images(args.name, Path(args.images), codes)
            checked = None
        else:
            order = _cards_from(args)
            turned_pass = Path(args.turned) if args.turned else None
            profile = teach_from_video(args.name, Path(args.video), order, turned_pass)
            print(f"learned deck {args.name!r}: {len(profile.cards)} cards; checking it ...",
                  file=sys.stderr, flush=True)
            checked = verify(profile, Path(args.video), order, [Path(v) for v in args.verify],
                             turned_pass)
            profile = profile.model_copy(update={"verification": checked})
        existed = profile_path(args.name).exists()
        path = save_profile(profile)
    except (TeachError, VerifyError, VideoError, ProfileError, ValueError) as exc:
        return _fail(f"{exc}; nothing saved" if isinstance(exc, VerifyError) else str(exc))
    verb = "replaced" if existed else "saved"
    turned = ""
    if args.turned:
        turned = (f", {len(profile.turned)} of them also turned round (their two corners differ)"
                  if profile.turned else
                  "; the turned pass showed the same corners as the first, so nothing was added")
    status = "" if checked is None else (" (verified)" if profile.verified else " (UNVERIFIED)")
    print(f"learned deck {args.name!r}: {len(profile.cards)} cards{turned}; {verb} {path}"
          f"{status}")
    for line in report(checked) if checked is not None else ():
        print(line)
    return 0


def _deck_verify(args: argparse.Namespace) -> int:
    from vision.verify import VerifyError, report, verify
    from vision.video import VideoError

    try:
        profile = load_profile(args.name)
        checked = verify(profile, None, None, [Path(v) for v in args.video])
        path = save_profile(profile.model_copy(update={"verification": checked}))
    except (VerifyError, VideoError, ProfileError) as exc:
        return _fail(str(exc))
    for line in report(checked):
        print(line)
    print(f"saved {path}")
    return 0 if checked.verified else 1


def _deck_list(args: argparse.Namespace) -> int:
    names = list_profiles()
    if not names:
        print("no deck profiles yet; teach one with `cardtable deck teach NAME --video PATH`")
        return 0
    for name in names:
        try:
            p = load_profile(name)
        except ProfileError as exc:
            print(f"{name}\tCORRUPT\t{exc}")
            continue
        turned = f" (+{len(p.turned)} turned)" if p.turned else ""
        print(f"{name}\t{len(p.cards)} cards{turned}\t{verification_word(p)}\t"
              f"taught {p.created} from {p.source}")
    return 0


def _deck_show(args: argparse.Namespace) -> int:
    from vision.sheet import LEGEND, contact_sheet, geometry_picture, look_picture, teaching_clip
    from vision.video import VideoError

    try:
        profile = load_profile(args.name)
    except ProfileError as exc:
        return _fail(str(exc))
    out = Path(args.out) if args.out else Path(f"{args.name}-contact.png")
    if out.suffix.lower() not in SHEET_SUFFIXES:
        return _fail(f"--out {out}: the contact sheet is an image; name it "
                     f"{' or '.join('FILE' + s for s in SHEET_SUFFIXES)}")
    try:
        written = cv2.imwrite(str(out), contact_sheet(profile))
    except cv2.error:
        written = False
    if not written:
        return _fail(f"cannot write {out}")
    picture = out.with_name(f"{out.stem}-geometry{out.suffix}")
    # The geometry is drawn where the reader really looks, on the teaching pass itself; a pass
    # that is gone (moved, deleted, another clip in its place) leaves the frame kept at teaching.
    clip = teaching_clip(profile)
    drawn, why = None, "taught from still images"
    if clip is not None:
        try:
            drawn = look_picture(profile, clip)
            why = f"the reader names no card in the teaching pass {clip}"
        except VideoError as exc:
            why = f"the teaching pass can no longer be read ({exc})"
        except ValueError as exc:
            why = f"{clip} is no longer the teaching pass ({exc})"
    try:
        written = cv2.imwrite(str(picture), geometry_picture(profile) if drawn is None
                              else drawn.image)
    except cv2.error:
        written = False
    if not written:
        return _fail(f"cannot write {picture}")
    if drawn is not None:
        where = (f"geometry: {picture} (frame {drawn.frame} of {clip}, where the reader named "
                 f"{drawn.card}; {LEGEND})")
    else:
        kept = "the frame kept at teaching" if profile.geometry.preview else "a blank frame"
        where = f"geometry: {picture}, drawn on {kept}: {why}"
    codes = " ".join(c.code for c in profile.cards)
    if profile.turned:
        codes += f"; turned corners of {' '.join(c.code for c in profile.turned)}"
    print(f"{args.name}: {len(profile.cards)} cards ({codes}), taught {profile.created} "
          f"from {profile.source}\nshoe: {profile.geometry.describe()}\n"
          f"check: {verification_word(profile)}"
          + (f" ({profile.verification.why})" if profile.verification and
             profile.verification.why else "") + "\n"
          f"contact sheet: {out}\n{where}")
    return 0


# -- read -------------------------------------------------------------------------------------
def _read(args: argparse.Namespace) -> int:
    from vision.reader import read_video
    from vision.video import VideoError

    try:
        profile = load_profile(args.deck)
    except ProfileError as exc:
        return _fail(str(exc))
    count = 0
    try:
        for event in read_video(Path(args.path), profile, progress=args.progress):
            print(json.dumps(event.to_json(), ensure_ascii=False), flush=True)
            count += 1
    except VideoError as exc:
        return _fail(str(exc))
    if count == 0:
        print(f"warning: no cards seen in {args.path}", file=sys.stderr)
    return 0


# -- footage ----------------------------------------------------------------------------------
def _footage_make(args: argparse.Namespace) -> int:
    from synth.shoe import make_clip, truth_path
    from vision.artwork import ArtworkError

    try:
        cards = _cards_from(args) * args.passes
        if args.shuffle is not None:
            random.Random(args.shuffle).shuffle(cards)
        truth = make_clip(Path(args.out), args.deck, cards, args.difficulty, args.seed,
                          face_down=args.face_down, objects=args.objects,
                          shoe=args.shoe, session=args.session, rotated=args.rotated,
                          border=args.border)
    except (ArtworkError, ValueError, RuntimeError) as exc:
        return _fail(str(exc))
    print(f"wrote {args.out} ({truth.frames} frames, {len(truth.items)} items) and "
          f"{truth_path(Path(args.out))}")
    return 0


def _footage_stills(args: argparse.Namespace) -> int:
    from synth.shoe import write_stills
    from vision.artwork import ArtworkError

    try:
        paths = write_stills(Path(args.folder), args.deck, _cards_from(args))
    except (ArtworkError, ValueError) as exc:
        return _fail(str(exc))
    print(f"wrote {len(paths)} images to {args.folder}")
    return 0


def _footage_decks(args: argparse.Namespace) -> int:
    from vision.artwork import available_decks  # only footage needs artwork (start-up time)

    decks = available_decks()
    if not decks:
        return _fail("no card artwork found; install gnome-cards-data", 1)
    for name, path in decks.items():
        print(f"{name}\t{path}")
    return 0


def _add_card_choice(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cards", help="comma-separated card codes in pass order, e.g. 7C,8C,BJ "
                                   "(the list is the deck: no --composition needed)")
    p.add_argument("--composition", choices=COMPOSITIONS, default=None,
                   help="deck composition in standard order (default 36)")


def register(subparsers: argparse._SubParsersAction) -> None:
    deck = subparsers.add_parser("deck", help="teach, list and inspect deck profiles")
    dsub = deck.add_subparsers(dest="deck_command", metavar="ACTION", required=True)

    teach = dsub.add_parser(
        "teach", help="learn a deck from one pass through the shoe",
        description="Learn a deck from one pass through the shoe, dealt in the order given: "
                    "--cards lists it; otherwise --composition (default 36) in standard order: "
                    "clubs, diamonds, hearts, spades, each from its lowest rank (6, or 7 in 32) "
                    "up to the ace, then the black and the red joker (36j: no black sixes).")
    teach.add_argument("name")
    teach.add_argument("--video", help="clip of one pass of the whole deck")
    teach.add_argument("--images", help="folder of still images named by card code (QS.png)")
    teach.add_argument("--turned", metavar="VIDEO",
                       help="clip of a second pass, the deck turned round (same order): for "
                            "decks whose court cards are drawn once, not mirrored")
    teach.add_argument("--verify", metavar="VIDEO", action="append", default=[],
                       help="clip of the deck dealt again, shuffled: read with the new profile "
                            "to verify it (repeatable; without one the profile is unverified)")
    _add_card_choice(teach)
    teach.set_defaults(func=_deck_teach)

    check = dsub.add_parser("verify", help="check a taught deck on a new pass (the shoe set up "
                                           "again, say) and save the verdict")
    check.add_argument("name")
    check.add_argument("--video", action="append", required=True, metavar="VIDEO",
                       help="clip of the whole deck dealt in any order (repeatable)")
    check.set_defaults(func=_deck_verify)

    dlist = dsub.add_parser("list", help="list taught decks")
    dlist.set_defaults(func=_deck_list)

    show = dsub.add_parser("show", help="write a contact sheet of what was learned")
    show.add_argument("name")
    show.add_argument("--out", help="PNG to write (default NAME-contact.png)")
    show.set_defaults(func=_deck_show)

    read = subparsers.add_parser("read", help="read the cards dealt in a shoe video (JSON lines)")
    read.add_argument("path")
    read.add_argument("--deck", required=True, help="taught deck profile name")
    read.add_argument("--progress", action="store_true", help="progress bar on stderr")
    read.set_defaults(func=_read)

    footage = subparsers.add_parser("footage", help="synthetic shoe clips with ground truth")
    fsub = footage.add_subparsers(dest="footage_command", metavar="ACTION", required=True)
    make = fsub.add_parser("make", help="make a clip and its .truth.json")
    make.add_argument("out", help="output video (.mp4)")
    make.add_argument("--deck", required=True, help="artwork deck (see `footage decks`)")
    _add_card_choice(make)
    make.add_argument("--passes", type=int, default=1, help="repeat the cards this many times")
    make.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                      help="shuffle the cards with this seed (default: keep the order)")
    make.add_argument("--difficulty", default="normal", choices=("easy", "normal", "hard"))
    make.add_argument("--seed", type=int, default=0, help="seed for camera and shoe randomness")
    make.add_argument("--face-down", type=int, default=0, help="face-down cards to slip in")
    make.add_argument("--objects", type=int, default=0, help="foreign objects to slip in")
    make.add_argument("--shoe", default=None, metavar="NAME",
                      help="shoe geometry (see docs/vision.md; default the classic shoe)")
    make.add_argument("--session", type=int, default=0,
                      help="mounting session of the shoe (0 = exact, others differ slightly)")
    make.add_argument("--rotated", type=float, default=0.0, metavar="SHARE",
                      help="share of cards turned 180 degrees (0..1)")
    make.add_argument("--border", default=None, metavar="STYLE",
                      help="draw a border round every face: dark, black, or THICKNESS,GREY "
                           "(fraction of the card width, e.g. 0.03,30)")
    make.set_defaults(func=_footage_make)

    stills = fsub.add_parser("stills", help="write clean card images named by code")
    stills.add_argument("folder")
    stills.add_argument("--deck", required=True)
    _add_card_choice(stills)
    stills.set_defaults(func=_footage_stills)

    decks = fsub.add_parser("decks", help="list the card artwork available")
    decks.set_defaults(func=_footage_decks)

    from cardtable.table_camera_commands import register as register_table  # overhead table camera

    register_table(subparsers, read, fsub)
