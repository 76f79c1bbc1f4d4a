"""Shoe reader accuracy and speed on shoes of other geometries than the classic one.

Run: .venv/bin/python bench/bench_geometry.py [--set tuned|seen|seen-2..seen-6|held-back]
     [--deals N] [--speed [--parts]] [--turned-pass] [--rescale K,K,...]

Each (shoe, deck) pair: teach from one easy pass on session 1 of the shoe, read ``--deals``
shuffled hard deals of 36, each on a session of its own (the shoe set up again: a couple of
percent of scale, a few px of offset, under a degree of tilt), 30% of the cards turned 180 deg.
Prints per pair: cards, read %, confident wrong, lost/extra, late (answered more than 100 ms after
the index was fully in view), and the worst answer delay.

Eight sets, reported separately (docs/vision.md): ``tuned`` (run while building), ``seen`` to
``seen-6`` (the first six rounds' held-back sets, each run once after its round and debugged on
since) and ``held-back`` (the seventh round's: shoes and decks fixed before its tuning was done and
run only once the reader is frozen). ``--turned-pass`` teaches each deck from a second pass too,
the deck turned round (``cardtable deck teach --turned``). A pair whose teaching is refused is reported with the reason.
``--rescale`` reads each deal instead on session 1 of the shoe (the one taught on) with its scale
multiplied by each K in turn, nothing else changed: the shoe set up again further off than a
session's own few percent, which the reader's pose fit must find (``--deals`` deals per K).
``--speed`` times ShoeReader.feed per frame (one core) and `cardtable read` (a fresh process)
against a plain decode of the same clip (a fresh process), per shoe, the classic one first;
with ``--parts`` it says instead where the reader's time goes (green strip, locate, looks,
calibrating looks, making templates, pair tests, decisions), each as a share of decoding.
"""

from __future__ import annotations

import os

from cardtable.cli import BLAS_THREADS  # imports no numpy

_OWN_ENV = {var: os.environ.get(var) for var in BLAS_THREADS}
for _var in BLAS_THREADS:
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.reader as reader_module  # noqa: E402
from synth.evaluate import Score, score  # noqa: E402
from synth.shoe import SHOES, Shoe, make_clip, session_geometry  # noqa: E402
from vision.cards import composition  # noqa: E402
from vision.geometry import GeometryError, Normaliser  # noqa: E402
from vision.profile import DeckProfile, save_profile  # noqa: E402
from vision.reader import ShoeReader, _Bank, read_frames, read_video  # noqa: E402
from vision.teach import TeachError, teach_from_video  # noqa: E402
from vision.video import frames  # noqa: E402

cv2.setNumThreads(1)

TUNED_SHOES = ("narrow-down", "up-wide", "left-big")
TUNED_DECKS = (("Атласные", "36j"), ("anglo", "36"), ("simplistic", "36"))
# The first held-back set: chosen before the first round's tuning and run once after it. It has
# been looked at since (its failures were debugged in the second round), so it is now "seen".
SEEN_SHOES = ("right-mirror", "up-mirror-small", "down-big")
SEEN_DECKS = (("neoclassical", "36"), ("plastic", "36"), ("gnomangelo", "36"))
# The second held-back set: fixed before the second round's tuning, run once after that round's
# reader was frozen; its teaching refusals are what the third round worked on, so it is "seen-2".
SEEN2_SHOES = ("left-mirror-small", "down-mirror-wide", "right-big")
SEEN2_DECKS = (("tango", "36"), ("dondorf", "36"), ("bellot", "36"))
# The third held-back set: fixed before the third round's tuning began, run once on its frozen
# reader; its failures are what the fourth round works on, so it is "seen-3".
SEEN3_SHOES = ("up-big", "right-small", "left-mirror-wide")
SEEN3_DECKS = (("guyenne-classic", "36"), ("slavic_costumes", "36"), ("lattmann", "36"))
# The fourth held-back set: fixed on 1 Dec 2026 (evening) before the fourth round's tuning
# began, run only once the reader is frozen. The decks were chosen by their cards' aspect ratio
# alone (1.41, 1.5, 1.67 to 1) among decks the project had never used, without looking at
# their artwork (ornamental, 1.37, was dropped: docs/vision.md had already reported on it).
# Run once on round IV's frozen reader (fba9eac) and looked at since: now "seen-4".
SEEN4_SHOES = ("down-small", "up-mirror-wide", "right-mirror-huge")
SEEN4_DECKS = (("ancient_french", "36"), ("berlin", "36"), ("orell", "36"))
# The fifth held-back set: fixed on 2 Dec 2026 before the fifth round's tuning began, run once on
# its frozen reader (7a91df8). The decks are the three of distinct aspect ratio (1.5, 1.56, 1.67
# to 1) among those the project had never used, leaving out decks whose name marks them as a
# variant of one already used. Looked at since (swiss-xvii's single-headed court cards gave the
# turned pass of round VI; left-huge's refusals were diagnosed): now "seen-5".
SEEN5_SHOES = ("up-small-steep", "left-huge", "down-mirror-mid")
SEEN5_DECKS = (("rheinland", "36"), ("swiss-xvii", "36"), ("tarocco", "36"))
# The sixth held-back set: fixed on 2 Dec 2026 after the turned pass was written and before its
# constants were settled, run once on its frozen reader (ce947af) and looked at since (tango_nuevo's
# refusals): now "seen-6". tigullio is the one deck left that the project never used and is no
# variant of a used one; tango_nuevo and anglo_poker are variants (of tango, seen-2, and anglo,
# tuned), chosen as the two unused decks whose aspect ratios (1.35, 1.40 to 1) differ most from
# tigullio's (1.52) and each other's. Their artwork was not looked at.
SEEN6_SHOES = ("right-mirror-small-steep", "down-huge", "left-mid-tilt")
SEEN6_DECKS = (("tigullio", "36"), ("tango_nuevo", "36"), ("anglo_poker", "36"))
# The seventh held-back set: fixed on 2 Dec 2026 at the start of the seventh round, before any of
# its work, and run once on the reader as it stood then (817d084). Four shoes new to the
# project. Every deck the project never used is a variant of one it did; these three are
# variants of decks in the tuned and first seen sets (Атласные, neoclassical, gnomangelo): a
# Cyrillic one for the product's own games, a recoloured one and a bitmap rendering. Their
# artwork was not looked at. Its `??` (look-alikes) were looked at since: now "seen-7".
SEEN7_SHOES = ("up-mirror-mid-steep", "left-mirror-big", "right-wide-steep", "down-small-tilt")
SEEN7_DECKS = (("atlasnye_skat", "36"), ("neoclassical_4_color", "36"),
               ("gnomangelo_bitmap", "36"))
# The eighth held-back set: fixed on 3 Dec 2026 in round X, once its two changes (longer card
# proportions in one-sided shoes, the warp's border in locate) were written and before any bench
# of them on these shoes, to be run once on the round's frozen reader. Three shoes new to the
# project; the three decks are the last the project never used, all variants of anglo (tuned):
# a bitmap rendering (1.56:1) and a modern redrawing in two and in four colours (1.5:1). So they
# test the reader less hard than new designs would. Their artwork was not looked at.
HELD_BACK_SHOES = ("up-mirror-large", "right-mid-tilt", "down-mirror-small")
HELD_BACK_DECKS = (("anglo_bitmap", "36"), ("anglo_modern", "36"),
                   ("anglo_modern_4_color", "36"))
# Round XI's held-back set: new designs at last, from KDE's card decks. Shoes drawn at random
# (synth/shoe.py); decks drawn at random from the KDE designs that are not gnome-cards ones
# again (dondorf, gm-paris, tigullio-international), a family (oxygen, nicu, xskat) counting as
# one: first xskat-french, jolly-royal, standard; xskat-french's faces turned out to be 62 px
# bitmaps (as are konqi-modern's), so bitmap decks were left out and a redraw gave future. The
# family of a held-back deck is not used for tuning. Nothing of these was looked at.
HELD_BACK2_SHOES = ("down-big-level", "right-wide-tilted", "up-mid-steep")
HELD_BACK2_DECKS = (("kde-jolly-royal", "36"), ("kde-standard", "36"), ("kde-future", "36"))
# Round XI's second held-back set, fixed once its changes were made and before any bench on it:
# three shoes drawn as above, the KDE designs kept back (penguins, the nicu family).
HELD_BACK3_SHOES = ("right-small-steep-edge", "up-big-tilted", "down-mirror-mid-centre")
HELD_BACK3_DECKS = (("kde-penguins", "36"), ("kde-nicu-white", "36"),
                    ("kde-nicu-ornamental", "36"))
# Round XI tunes on other KDE designs, on shoes already seen; penguins and the nicu family are
# kept for a later held-back set.
SEEN8_SHOES = ("down-big", "narrow-down", "up-wide")
SEEN8_DECKS = (("kde-ancient-egyptians", "36"), ("kde-oxygen", "36"), ("kde-dondorf", "36"))
SETS = {"tuned": (TUNED_SHOES, TUNED_DECKS), "seen": (SEEN_SHOES, SEEN_DECKS),
        "seen-2": (SEEN2_SHOES, SEEN2_DECKS), "seen-3": (SEEN3_SHOES, SEEN3_DECKS),
        "seen-4": (SEEN4_SHOES, SEEN4_DECKS), "seen-5": (SEEN5_SHOES, SEEN5_DECKS),
        "seen-6": (SEEN6_SHOES, SEEN6_DECKS), "seen-7": (SEEN7_SHOES, SEEN7_DECKS),
        "seen-8": (SEEN8_SHOES, SEEN8_DECKS),
        "held-back": (HELD_BACK_SHOES, HELD_BACK_DECKS),
        "held-back-2": (HELD_BACK2_SHOES, HELD_BACK2_DECKS),
        "held-back-3": (HELD_BACK3_SHOES, HELD_BACK3_DECKS)}
ROTATED = 0.3


def run_pair(shoe: str, deck: str, comp: str, deals: int, seed: int, turned: bool = False,
             rescale: tuple[float, ...] = ()) -> tuple[str, str, Score, int, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cards = composition(comp)
        teach = folder / "teach.mp4"
        make_clip(teach, deck, cards, "easy", seed=seed, shoe=shoe, session=1)
        turned_pass = None
        if turned:  # the deck dealt again, turned round, in the same session
            turned_pass = folder / "teach-turned.mp4"
            make_clip(turned_pass, deck, cards, "easy", seed=seed + 500, shoe=shoe, session=1,
                      rotated=1.0)
        total = Score()
        try:
            profile = teach_from_video(deck, teach, cards, turned_pass)
        except (TeachError, GeometryError) as exc:
            total.problems.append(f"teaching refused: {exc}")
            return shoe, deck, total, -1, []
        worst = 0
        # (shoe, session) per deal: sessions of their own, or session 1 at another scale.
        setups: list[tuple[str | Shoe, int]] = [(shoe, 2 + k) for k in range(deals)]
        if rescale:
            base = SHOES[shoe]
            taught_on = session_geometry(base, 1)
            setups = [(Shoe(name=shoe, speed=base.speed, geometry=taught_on.model_copy(
                update={"scale": taught_on.scale * m})), 0) for m in rescale for _ in range(deals)]
        notes: list[str] = []
        for k, (setup, session) in enumerate(setups):
            deal = cards[:]
            random.Random(seed * 100 + k).shuffle(deal)
            clip = folder / f"deal{k}.mp4"
            truth = make_clip(clip, deck, deal, "hard", seed=seed * 100 + k, shoe=setup,
                              session=session, rotated=ROTATED)
            events = list(read_video(clip, profile))
            result = score(events, truth)
            total.add(result)
            if rescale:
                notes.append(f"x{rescale[k // deals]} deal {k % deals}: {result.line()}")
            if len(events) == len(truth.items):  # in order, one event per card
                worst = max([worst, *(e.frame - i.visible_frame
                                      for e, i in zip(events, truth.items, strict=True))])
            else:
                worst = -1
    return shoe, deck, total, worst, notes


PLAIN_DECODE = """
import sys, cv2
cv2.setNumThreads(1)
cap = cv2.VideoCapture(sys.argv[1])
while cap.read()[0]:
    pass
"""


def speed_clip(folder: Path, shoe: str) -> tuple[Path, DeckProfile]:
    """The speed clip of a shoe: anglo taught from one easy pass on session 1, then four
    shuffled hard deals of 36 on session 2, 30% of the cards turned round."""
    cards = composition("36")
    extra = {} if shoe == "classic" else {"shoe": shoe, "session": 1}
    make_clip(folder / "t.mp4", "anglo", cards, "easy", seed=3, **extra)
    profile = teach_from_video("bench", folder / "t.mp4", cards)
    deal = cards[:]
    random.Random(1).shuffle(deal)
    clip = folder / "d.mp4"
    more = {} if shoe == "classic" else {"shoe": shoe, "session": 2, "rotated": ROTATED}
    make_clip(clip, "anglo", deal * 4, "hard", seed=4, **more)
    return clip, profile


# Where ShoeReader.feed spends its time (``--parts``): part name -> (owner, method). Nested
# parts are counted in both: calibrating looks are looks, and templates are made in looks (the
# poses' fine ones) and in the first frame (the coarse ones every calibrating look needs).
PARTS = {"green strip": (Normaliser, "green"), "locate": (reader_module, "locate"),
         "looks": (ShoeReader, "_look"), "calibrating looks": (ShoeReader, "_calibrating_look"),
         "making templates": (_Bank, "_image"), "pair tests": (ShoeReader, "_pair_tests"),
         "decisions": (ShoeReader, "_decide")}


def parts(shoe: str) -> str:
    """ShoeReader.feed's time on the speed clip, whole and per part, each as a share of a plain
    decode of the same clip (in this process, one core): machine-independent ratios."""
    with tempfile.TemporaryDirectory() as tmp:
        clip, profile = speed_clip(Path(tmp), shoe)
        decoded = list(frames(clip))
        start = time.perf_counter()
        for _ in frames(clip, reuse_buffer=True):  # a plain decode, as `--speed` compares with
            pass
        decode = time.perf_counter() - start
        spent = dict.fromkeys(PARTS, 0.0)
        originals = {name: getattr(owner, attr) for name, (owner, attr) in PARTS.items()}

        def timed(name: str, fn):
            def wrapper(*args, **kwargs):
                begun = time.perf_counter()
                try:
                    return fn(*args, **kwargs)
                finally:
                    spent[name] += time.perf_counter() - begun
            return wrapper

        for name, (owner, attr) in PARTS.items():
            setattr(owner, attr, timed(name, originals[name]))
        try:
            reader = ShoeReader(profile)
            start = time.perf_counter()
            for frame in decoded:
                reader.feed(frame)
            reader.finish()
            total = time.perf_counter() - start
        finally:
            for name, (owner, attr) in PARTS.items():
                setattr(owner, attr, originals[name])
    shares = ", ".join(f"{name} {spent[name] / decode:.2f}" for name in PARTS)
    return (f"{shoe:18s} reading / decoding {total / decode:.2f} ({len(decoded)} frames, decode "
            f"{decode / len(decoded) * 1000:.2f} ms a frame); of a decode: {shares}")


def speed(shoe: str, repeats: int = 3) -> str:
    """Per-frame ShoeReader.feed time (one core) and `cardtable read` (a fresh process, as a user
    runs it) against a plain OpenCV decode of the same clip in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "CARDTABLE_DATA_DIR": str(folder / "data")}
        clip, profile = speed_clip(folder, shoe)
        os.environ["CARDTABLE_DATA_DIR"] = env["CARDTABLE_DATA_DIR"]
        save_profile(profile)
        decoded = list(frames(clip))
        reader = ShoeReader(profile)
        reader.feed(decoded[0])
        times = []
        for frame in decoded[1:]:
            start = time.perf_counter()
            reader.feed(frame)
            times.append(time.perf_counter() - start)
        ms = np.array(times) * 1000
        cmd = [sys.executable, "-m", "cardtable", "read", str(clip), "--deck", "bench"]
        # `cardtable read` as a user runs it: with the environment's own thread settings (the
        # CLI keeps BLAS to one thread itself; this bench sets it for its own process only) and
        # with bytecode cached as on any installed machine after the first run (this writes
        # __pycache__ into the source tree, which git ignores).
        user_env = {k: v for k, v in env.items()
                    if k not in (*BLAS_THREADS, "PYTHONDONTWRITEBYTECODE")}
        user_env.update({k: v for k, v in _OWN_ENV.items() if v is not None})
        plain_cmd = [sys.executable, "-c", PLAIN_DECODE, str(clip)]
        plain, wall, inner, serial = [], [], [], []
        load = os.getloadavg()[0]  # the overlap of decode and reading needs a core to spare
        for _ in range(repeats):  # interleaved, best of each: a busy machine skews both alike
            start = time.perf_counter()
            subprocess.run(plain_cmd, check=True, env=env)
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(cmd, check=True, env=user_env, capture_output=True)
            wall.append(time.perf_counter() - start)
            start = time.perf_counter()
            list(read_video(clip, profile))  # decoded ahead in a thread (vision.video)
            inner.append(time.perf_counter() - start)
            start = time.perf_counter()
            list(read_frames(frames(clip, reuse_buffer=True), profile))  # decode, read in turn
            serial.append(time.perf_counter() - start)
        return (f"{shoe:18s} feed median {np.median(ms):.2f} ms, mean {ms.mean():.2f}, p90 "
                f"{np.percentile(ms, 90):.2f}, max {ms.max():.1f}; `cardtable read` "
                f"{min(wall):.2f} s / plain decode {min(plain):.2f} s = "
                f"{min(wall) / min(plain):.2f} (both fresh processes); read_video in process "
                f"{min(inner):.2f} s, decoding in turn {min(serial):.2f} s ({len(decoded)} "
                f"frames); load {load:.1f} on {os.cpu_count()} cores")


def scale_factors(text: str) -> tuple[float, ...]:
    """``--rescale``'s value: positive numbers, comma-separated."""
    try:
        factors = tuple(float(k) for k in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not numbers: {text!r} (write e.g. 0.92,1.08)") from None
    if not all(0 < k < 10 for k in factors):
        raise argparse.ArgumentTypeError(f"scale factors must lie between 0 and 10: {text!r}")
    return factors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=tuple(SETS), default="tuned")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--speed", action="store_true", help="time the reader per shoe instead")
    parser.add_argument("--parts", action="store_true",
                        help="where the reader's time goes per shoe, as shares of a decode")
    parser.add_argument("--shoes", default=None, help="comma-separated subset of shoes")
    parser.add_argument("--decks", default=None, help="comma-separated subset of decks")
    parser.add_argument("--turned-pass", action="store_true",
                        help="teach each deck from a second pass too, turned round")
    parser.add_argument("--rescale", default=(), type=scale_factors,
                        help="comma-separated scale factors: read session 1 at each instead")
    args = parser.parse_args()
    shoes, decks = SETS[args.set]
    if args.shoes:
        shoes = tuple(args.shoes.split(","))
    if args.decks:
        decks = tuple(d for d in decks if d[0] in args.decks.split(","))
    if args.speed or args.parts:
        for shoe in ("classic", *shoes):
            print(parts(shoe) if args.parts else speed(shoe), flush=True)
        return 0
    jobs = [(shoe, deck, comp, args.deals, 11 + i, args.turned_pass, args.rescale)
            for i, (shoe, (deck, comp)) in enumerate((s, d) for s in shoes for d in decks)]
    grand = Score()
    with ProcessPoolExecutor(max(1, min(args.workers, 2))) as pool:  # 2 shared cores
        futures = [pool.submit(run_pair, *job) for job in jobs]
        for fut in futures:
            shoe, deck, result, worst, notes = fut.result()
            grand.add(result)
            print(f"{args.set} {shoe:16s} {deck:12s} {result.line()}; worst delay "
                  f"{worst if worst >= 0 else 'n/a (events did not pair up one to one)'} frames", flush=True)
            for note in notes:
                print(f"    {note}", flush=True)
            wrong = [p for p in result.problems if "WRONG" in p or "lost" in p]
            for p in result.problems[:6] + [p for p in wrong if p not in result.problems[:6]]:
                print(f"    {p}", flush=True)
    print(f"{args.set} all: {grand.line()}")
    return 0 if grand.wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
