"""The self-check after teaching: read passes of the deck with the new profile, give the figures
and a verdict, and say in a builder's words what in the shoe's build is wrong when it fails.

``cardtable deck teach`` re-reads its own teaching pass (the order is known: exact figures) and,
given ``--verify PATH``, a second pass of the deck dealt again in any order (figures from what a
deck must add up to: every card once). ``cardtable deck verify NAME --video PATH`` checks an
existing profile on a new pass, say after the shoe was set up again. A profile is *verified* when
a pass it was not taught from read at least ``VERIFIED_RATE`` of its cards with none wrong (and the
teaching pass did too); otherwise it is saved *unverified*, and the table asks the organiser to
confirm every card the reader is less than sure of (``controller.table.UNVERIFIED_BAR``).

In a pass of unknown order a card named twice means at least one wrong reading, and two cards
swapped for each other (AD read as AH and AH as AD) cannot be seen; the teaching pass's exact
figures are the check on those.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from vision.cards import UNKNOWN, ReaderFlag
from vision.geometry import GeometryError, learn_geometry
from vision.profile import DeckProfile, PassCheck, Verification
from vision.reader import CardEvent, Refusal, ShoeReader
from vision.video import frames, frames_ahead

VERIFIED_RATE = 0.998  # share of a pass's cards read right for a profile to be verified
FPS = 30.0  # the shoe camera's frame rate (the reference shoe's; docs/build/shoe.md)
LATE_MS = 100.0  # an answer later than this after the index's first look is late
DARK = 50  # median brightness (0..255) of the card in view below this: too dark
BLOWN = 0.08  # share of the card's pixels at full white above this: blown out
MIN_LOOKS = 2  # most cards should give the reader at least this many looks at their index


class VerifyError(RuntimeError):
    """A verification pass that cannot be checked against this profile (another deck, another
    shoe): the message names what differs."""


@dataclass
class PassLight:
    """How the pass is lit, from the frames where a card fills the view's middle."""

    brightness: list[float] = field(default_factory=list)  # median green of such frames
    blown: list[float] = field(default_factory=list)  # their share of pixels at 250 or more

    def add(self, frame: np.ndarray) -> None:
        green = frame[::8, ::8, 1]
        h, w = green.shape
        middle = green[h // 4: 3 * h // 4, w // 4: 3 * w // 4]
        level = float(np.median(middle))
        if level > 20:  # something lit is in view (an empty dark window tells nothing)
            self.brightness.append(level)
            self.blown.append(float((middle >= 250).mean()))

    def problem(self) -> str | None:
        if not self.brightness:
            return None
        level, blown = float(np.median(self.brightness)), float(np.median(self.blown))
        if level < DARK:
            return (f"too dark: the cards' median brightness is {level:.0f} of 255 (at least "
                    f"{DARK} needed); light the window more, or lengthen the exposure only as far "
                    "as motion blur allows")
        if blown > BLOWN:
            return (f"blown out: {100 * blown:.0f}% of a card's pixels are pure white; dim or "
                    "diffuse the lighting, or shorten the exposure, and keep the lamp's "
                    "reflection off the index corner")
        return None


def _cards_only(events: Iterable[CardEvent]) -> Iterator[CardEvent]:
    for e in events:
        if e.flag == ReaderFlag.OBSTRUCTION and e.card == UNKNOWN and not e.candidates:
            continue  # not a card: something in the window (the reader's own alert)
        yield e


def read_pass(profile: DeckProfile, path: Path) -> tuple[list[CardEvent], PassLight]:
    """Every card event of a pass, and how the pass is lit."""
    reader = ShoeReader(profile)
    light = PassLight()
    events: list[CardEvent] = []
    for n, frame in enumerate(frames_ahead(Path(path))):
        if n % 3 == 0:
            light.add(frame)
        events += reader.feed(frame)
    events += reader.finish()
    return list(_cards_only(events)), light


def _latency(events: list[CardEvent]) -> float:
    lags = [(e.frame - e.looked_at) * 1000.0 / FPS for e in events if e.looked_at >= 0]
    return round(max(lags), 1) if lags else 0.0


def _reasons(events: list[CardEvent]) -> dict[str, int]:
    return dict(Counter(str(e.reason or e.flag or "unsure") for e in events if e.card == UNKNOWN))


def check_known_order(events: list[CardEvent], order: list[str], what: str) -> PassCheck:
    """Figures for a pass whose order is known (the teaching pass): events aligned to it."""
    got = [e.card for e in events]
    read = unsure = wrong = 0
    missing: list[str] = []
    matcher = difflib.SequenceMatcher(None, order, got, autojunk=False)
    for tag, i0, i1, j0, j1 in matcher.get_opcodes():
        if tag == "equal":
            read += i1 - i0
            continue
        expected, answered = order[i0:i1], got[j0:j1]
        # A card answered ?? or named wrongly in its place; events beyond the cards are extra
        # answers (a card seen as two), each named one a wrong reading.
        for card in answered:
            if card == UNKNOWN:
                unsure += 1
            else:
                wrong += 1
        missing += expected[len(answered):]
    return PassCheck(what=what, cards=len(order), read=read, unsure=unsure, wrong=wrong,
                     missing=missing, extra=max(0, len(events) - len(order)),
                     latency_ms=_latency(events), reasons=_reasons(events))


def check_any_order(events: list[CardEvent], deck: list[str], what: str) -> PassCheck:
    """Figures for a pass of the whole deck in an unknown order: every card once."""
    named = Counter(e.card for e in events if e.card != UNKNOWN)
    unsure = sum(1 for e in events if e.card == UNKNOWN)
    taught = set(deck)
    wrong = sum(k - 1 for c, k in named.items() if c in taught)  # a card named twice
    wrong += sum(k for c, k in named.items() if c not in taught)  # never taught: cannot be
    read = sum(1 for c in named if c in taught)
    missing = [c for c in deck if c not in named]
    return PassCheck(what=what, cards=len(deck), read=read, unsure=unsure, wrong=wrong,
                     missing=missing, extra=max(0, len(events) - len(deck)),
                     latency_ms=_latency(events), reasons=_reasons(events))


def diagnose(check: PassCheck, events: list[CardEvent], light: PassLight) -> list[str]:
    """What in the build makes the reader miss cards, in words a builder can act on."""
    why: list[str] = []
    lit = light.problem()
    if lit:
        why.append(lit)
    reasons = Counter(check.reasons)
    trouble = check.unsure + len(check.missing)
    if trouble == 0 and check.wrong == 0 and check.extra == 0 and check.latency_ms <= LATE_MS:
        return why
    if any(e.flag == ReaderFlag.GEOMETRY_CHANGED for e in events):
        why.append("the cards stopped running where they ran when the deck was taught: the "
                   "camera or the window moved during the pass (fix it firmly; tilt and shift "
                   "must stay within 1 degree and a few pixels), or teach again")
    if reasons[str(Refusal.INDEX_NOT_SEEN)] >= max(1, trouble // 3):
        why.append("the index is never wholly in view for some cards: the window cuts it off, "
                   "or the cards pass it between two frames; widen the window on the index "
                   "side or slow the deal")
    if check.extra:
        why.append("more answers than cards passed: something in the cards' "
                   "artwork near the end leaving the shoe looks like the gap between two cards, "
                   "or a card stopped and slid back in view; at the table each would wait for "
                   "the organiser")
    # (A clear card is named from its first look; only the refused ones say how long the index
    # stayed in view.)
    looked = [e.looks for e in events if e.looks > 0 and e.card == UNKNOWN]
    if looked and float(np.median(looked)) < MIN_LOOKS:
        why.append(f"too little travel in view at this frame rate: the reader saw most indexes "
                   f"in only {float(np.median(looked)):.0f} frame; show more of the card's travel "
                   f"(at least two frames' worth at the fastest deal), or raise the frame rate")
    unmatched = reasons[str(Refusal.NO_MATCH)] + reasons[str(Refusal.MISMATCH)]
    if unmatched >= max(1, trouble // 3) and unmatched > check.extra:  # (not just the phantoms)
        why.append("cards do not match what was taught: the lighting or the camera changed "
                   "since teaching, or the index is smeared (motion blur: a shorter exposure "
                   "and more light)")
    if reasons[str(Refusal.NARROW_LEAD)] + reasons[str(Refusal.LOOKS_DISAGREE)] \
            + reasons[str(Refusal.LOOK_ALIKE)] >= max(1, trouble // 3):
        why.append("the index is not clear enough to tell similar cards apart: motion blur or "
                   "focus (a shorter exposure and more light, the lens focused on the card "
                   "plane), or glare on the index corner")
    if check.latency_ms > LATE_MS:
        why.append(f"cards are answered up to {check.latency_ms:.0f} ms after their index shows "
                   f"({LATE_MS:.0f} ms allowed): the Pi is overloaded, or the index enters the "
                   "view blurred")
    if check.wrong and not why:
        why.append("a card was named wrongly with no sign of a build problem: teach the deck "
                   "again from a slower pass")
    return why


def _geometry_differs(profile: DeckProfile, path: Path) -> str | None:
    """Why a pass cannot be of this profile's shoe (None: it can)."""
    try:
        seen = learn_geometry(frames(path), f"verification pass {path}")
    except GeometryError:
        return None  # the reading itself will say what is wrong
    taught = profile.geometry
    if not seen:
        return None
    if any(g.direction == taught.direction and g.mirror == taught.mirror for g in seen):
        sizes = [g.scale for g in seen]
        if all(abs(k / taught.scale - 1) > 0.15 for k in sizes):
            return (f"the cards in {path} look {min(sizes) * 400:.0f} px wide, those taught "
                    f"{taught.scale * 400:.0f} px: another shoe, or the camera moved; verify in "
                    "the shoe the deck was taught in, or teach it again here")
        return None
    g = seen[0]
    return (f"the cards in {path} travel {g.direction}"
            + (" (mirrored)" if g.mirror else "") + f", those taught travelled "
            f"{taught.direction}" + (" (mirrored)" if taught.mirror else "")
            + ": another shoe, or the camera turned; verify in the shoe the deck was taught in")


def verify(profile: DeckProfile, teaching: Path | None, order: list[str] | None,
           passes: list[Path], turned: Path | None = None) -> Verification:
    """Read the teaching pass (in ``order``; and the ``turned`` pass) and each verification
    pass with ``profile``; the verdict, with the reasons when it is not verified.

    Raises VerifyError for a verification pass of another deck or another shoe."""
    deck = [c.code for c in profile.cards]
    checks: list[PassCheck] = []
    why: list[str] = []
    known = [(teaching, "teaching pass"), (turned, "turned pass")] if order else []
    for path, label in known:
        if path is None or order is None:
            continue
        events, light = read_pass(profile, path)
        check = check_known_order(events, order, f"{label} {path}")
        checks.append(check)
        if not _passes(check):
            why += diagnose(check, events, light) or [_short(check)]
    for path in passes:
        differs = _geometry_differs(profile, path)
        if differs:
            raise VerifyError(differs)
        events, light = read_pass(profile, path)
        check = check_any_order(events, deck, f"verification pass {path}")
        foreign = sum(v for k, v in check.reasons.items()
                      if k in (str(Refusal.NO_MATCH), str(Refusal.MISMATCH)))
        if events and foreign >= max(3, len(events) // 2):
            raise VerifyError(f"{foreign} of {len(events)} cards in {path} match no card taught "
                              f"for deck {profile.name!r}: another deck's pass? Verify with a "
                              "pass of the deck that was taught")
        checks.append(check)
        if not _passes(check):
            why += diagnose(check, events, light) or [_short(check)]
    if not passes and not why:
        why.append("no verification pass: deal the deck again, shuffled, and give it with "
                   "--verify PASS.mp4")
    verified = bool(passes) and all(_passes(c) for c in checks)
    return Verification(verified=verified, checked=datetime.now(UTC).isoformat(timespec="seconds"),
                        passes=checks, why="; ".join(dict.fromkeys(why)) if not verified else "")


def _passes(check: PassCheck) -> bool:
    return (check.wrong == 0 and check.extra == 0 and check.cards > 0
            and check.read >= VERIFIED_RATE * check.cards and check.latency_ms <= LATE_MS)


def _short(check: PassCheck) -> str:
    return (f"{check.what}: read {check.read} of {check.cards}, {check.wrong} wrong, "
            f"{check.unsure} unsure")


def report(v: Verification) -> list[str]:
    """The figures and the verdict, a line each, as `cardtable deck teach` prints them."""
    lines = []
    for c in v.passes:
        pct = 100.0 * c.read / c.cards if c.cards else 0.0
        line = (f"{c.what}: read {c.read} of {c.cards} ({pct:.1f}%), ?? {c.unsure}, "
                f"wrong {c.wrong}, slowest answer {c.latency_ms:.0f} ms")
        if c.extra:
            line += f", {c.extra} answers more than cards"
        if c.missing:
            line += f"; never named: {' '.join(c.missing[:8])}" + (" ..." if len(c.missing) > 8
                                                                   else "")
        if c.reasons:
            line += "; ?? because " + ", ".join(f"{k} x{n}" for k, n in sorted(c.reasons.items()))
        lines.append(line)
    if v.verified:
        lines.append("verdict: VERIFIED - the table trusts this deck's readings")
    else:
        lines.append(f"verdict: UNVERIFIED - {v.why}. The table will ask the organiser to "
                     "confirm every card the reader is not sure of")
    return lines
