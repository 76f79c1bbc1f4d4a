"""Per-call cost of card finding: ``vision.locate.locate`` and ``Normaliser.green``.

Exists because `cardtable read` must stay within 2x a plain decode of the clip, and these two run
on every frame. Each shoe: teach from an easy pass, then time the calls exactly as
``ShoeReader.feed`` makes them on a hard clip (frames decoded up front, one core). With
``--baseline REV`` (default HEAD) the same calls of that git revision's locate.py and geometry.py
are timed too, their outputs checked equal, and the speed-up printed.

Run: .venv/bin/python bench/bench_locate.py [--shoes narrow-down up-wide ...] [--clips DIR]
     [--baseline REV|none] [--repeats N]
"""

from __future__ import annotations

import os

from cardtable.cli import BLAS_THREADS  # imports no numpy

for _var in BLAS_THREADS:
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from synth.shoe import make_clip  # noqa: E402
from vision import geometry, locate  # noqa: E402
from vision.cards import composition  # noqa: E402
from vision.teach import teach_from_video  # noqa: E402
from vision.video import frames  # noqa: E402

cv2.setNumThreads(1)
ROOT = Path(__file__).resolve().parent.parent
SHOES = ("narrow-down", "up-wide", "left-big", "up-big", "right-small", "classic")


def _module_at(rev: str, name: str, tmp: Path):
    """``vision/<name>.py`` as it is at git revision ``rev``, imported under a private name."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:vision/{name}.py"],
                          check=True, capture_output=True, text=True).stdout
    path = tmp / f"baseline_{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"baseline_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _clips(shoe: str, folder: Path) -> tuple[list[str], Path, Path]:
    cards = composition("36")
    teach, hard = folder / f"{shoe}-teach.mp4", folder / f"{shoe}-hard.mp4"
    if not teach.exists():
        make_clip(teach, "anglo", cards, "easy", seed=3, shoe=shoe, session=1)
    if not hard.exists():
        deal = list(cards)
        random.Random(1).shuffle(deal)
        make_clip(hard, "anglo", deal, "hard", seed=4, shoe=shoe, session=2, rotated=0.3)
    return cards, teach, hard


def _per_call(calls: dict[str, tuple], repeats: int) -> dict[str, float]:
    """Per tag: median over the inputs of the best of ``repeats`` timings of ``fn(*a)``, in us.
    The tags' calls alternate input by input, so a shared machine's load falls on all alike."""
    best = {tag: np.full(len(args), np.inf) for tag, (_, args) in calls.items()}
    n = len(next(iter(calls.values()))[1])
    for _ in range(repeats):
        for i in range(n):
            for tag, (fn, args) in calls.items():
                t = time.perf_counter()
                fn(*args[i])
                best[tag][i] = min(best[tag][i], time.perf_counter() - t)
    return {tag: float(np.median(b)) * 1e6 for tag, b in best.items()}


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return (a.left, a.right, a.edges, a.covered, a.line) == (b.left, b.right, b.edges,
                                                             b.covered, b.line)


def bench(shoe: str, folder: Path, mods: dict, repeats: int) -> None:
    cards, teach, hard = _clips(shoe, folder)
    profile = teach_from_video("bench", teach, cards)
    video = list(frames(hard))
    row = [f"{shoe:12s} {len(video):4d} frames"]
    outputs: dict[str, list] = {}
    green_calls, locate_calls = {}, {}
    for tag, (loc, geo) in mods.items():
        if profile.geometry.is_default():
            greens = [f[:, :, 1] for f in video]
            width, one_side = profile.card_width, False
        else:
            norm = geo.Normaliser(profile.geometry)
            green_calls[tag] = (norm.green, [(f,) for f in video])
            greens = [norm.green(f) for f in video]
            width, one_side = float(geometry.STRIP_IN), True
        locate_calls[tag] = (loc.locate, [(g, width, one_side) for g in greens])
        outputs[tag] = [greens, [loc.locate(*c) for c in locate_calls[tag][1]]]
    green_us = _per_call(green_calls, repeats) if green_calls else {}
    locate_us = _per_call(locate_calls, repeats)
    times = {tag: {"green": green_us.get(tag, float("nan")), "locate": locate_us[tag]}
             for tag in mods}
    for tag, t in times.items():
        row.append(f"{tag}: green {t['green']:6.0f} us  locate {t['locate']:6.0f} us")
    if len(times) == 2:
        (_, a), (_, b) = times.items()
        row.append(f"speed-up: green {a['green'] / b['green']:4.2f}x  "
                   f"locate {a['locate'] / b['locate']:4.2f}x")
        (ga, la), (gb, lb) = outputs.values()
        same = (all(np.array_equal(x, y) for x, y in zip(ga, gb, strict=True))
                and all(_same(x, y) for x, y in zip(la, lb, strict=True)))
        row.append("outputs identical" if same else "OUTPUTS DIFFER")
    print("  ".join(row), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", nargs="+", default=list(SHOES))
    ap.add_argument("--clips", type=Path, help="folder to keep (and reuse) the clips in")
    ap.add_argument("--baseline", default="HEAD", help="git revision to compare with, or none")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.clips or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        mods = {}
        if args.baseline != "none":
            mods[args.baseline] = (_module_at(args.baseline, "locate", Path(tmp)),
                                   _module_at(args.baseline, "geometry", Path(tmp)))
        mods["now"] = (locate, geometry)
        print(f"load: {os.getloadavg()[0]:.2f}")
        for shoe in args.shoes:
            bench(shoe, folder, mods, args.repeats)


if __name__ == "__main__":
    main()
