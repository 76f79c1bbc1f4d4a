"""Deck profiles: what the reader learned about one deck's look, stored as versioned JSON.

A profile holds, for every card, the leading index corner as the shoe camera saw it (a small PNG,
base64) plus where that corner sits relative to the card's leading edge. Everything is measured in
pixels at ``card_width``; the reader rescales when the camera sees cards at another size.
Since version 2 a profile also holds the shoe geometry it was taught in (``vision.geometry``);
a version-1 profile is migrated on load to the classic shoe's geometry, which it was taught in.
A profile may also hold ``turned`` corners: the leading corner of cards dealt 180 degrees turned,
taught from a second pass, for cards whose two corners differ (single-headed court cards).
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import platformdirs
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from vision.cards import all_codes
from vision.geometry import DEFAULT_GEOMETRY, ShoeGeometry

PROFILE_VERSION = 2
MAX_SEARCH = 200  # px at card_width: more than half a card would search beyond the card
_NAME_RE = re.compile(r"[\w.\-]{1,64}", re.UNICODE)  # fullmatch: no newline sneaks in


class ProfileError(RuntimeError):
    """A deck profile is missing, corrupt or of an unknown version."""


class CardTemplate(BaseModel):
    code: str
    png: str = Field(description="base64 PNG of the index corner, BGR")

    @field_validator("code")
    @classmethod
    def _known_code(cls, v: str) -> str:
        if v not in all_codes():
            raise ValueError(f"unknown card code {v!r}")
        return v

    def image(self) -> np.ndarray:
        try:
            raw = np.frombuffer(base64.b64decode(self.png, validate=True), np.uint8)
        except ValueError as exc:
            raise ValueError(f"template {self.code}: bad base64") from exc
        img = cv2.imdecode(raw, cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError(f"template {self.code}: not a PNG image")
        return img

    @classmethod
    def from_image(cls, code: str, img: np.ndarray) -> CardTemplate:
        ok, buf = cv2.imencode(".png", img)
        if not ok:
            raise ValueError(f"cannot encode template {code}")
        return cls(code=code, png=base64.b64encode(buf.tobytes()).decode("ascii"))


class PassCheck(BaseModel):
    """How the reader read one pass of the deck after teaching (``vision.verify``)."""

    what: str = Field(description="'teaching pass' or 'verification pass', and the clip")
    cards: int = Field(ge=0, description="cards that passed the window")
    read: int = Field(ge=0, description="named right (a pass in unknown order: named once)")
    unsure: int = Field(ge=0, description="answered ??")
    wrong: int = Field(ge=0, description="named wrongly (in unknown order: at least this many)")
    missing: list[str] = Field(default_factory=list, description="deck cards never named")
    extra: int = Field(0, ge=0, description="answers beyond the cards that passed (a card seen "
                                            "as two, artwork taken for the gap between cards)")
    latency_ms: float = Field(0.0, ge=0, description="slowest answer after the index's first "
                                                     "look")
    reasons: dict[str, int] = Field(default_factory=dict, description="?? by refusal id")


class Verification(BaseModel):
    """The self-check ``cardtable deck teach`` ran: a profile is verified when every pass read
    at least VERIFIED_RATE of its cards with none wrong, one of them a pass other than the one
    taught from."""

    verified: bool
    checked: str
    passes: list[PassCheck]
    why: str = Field("", description="why the profile is not verified, in a builder's words")


class DeckProfile(BaseModel):
    version: int
    name: str
    created: str
    source: str = Field(description="'video' or 'images', and the path taught from")
    card_width: float = Field(gt=50, lt=5000)
    # Index region relative to the leading edge's right corner (x from the right edge, y from the
    # leading edge, both usually negative): x0, y0, x1, y1 in pixels at card_width.
    roi: tuple[int, int, int, int]
    search: tuple[int, int] = Field(description="extra search margin (x, y) in pixels")
    cards: list[CardTemplate]
    # The leading corner of cards dealt turned round, where it differs from ``cards``' (a
    # single-headed court card shows no index there); absent in profiles taught from one pass.
    turned: list[CardTemplate] = Field(default_factory=list)
    geometry: ShoeGeometry = Field(default_factory=lambda: DEFAULT_GEOMETRY.model_copy())
    # The self-check after teaching; None in a profile taught before there was one.
    verification: Verification | None = None

    @property
    def verified(self) -> bool:
        """Read at the bar on a pass it was not taught from: the table trusts its readings."""
        return self.verification is not None and self.verification.verified

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: object) -> object:
        # Version 1 knew one shoe, the classic one: give such profiles its geometry.
        if isinstance(data, dict) and data.get("version") == 1:
            data = {**data, "version": 2, "geometry": DEFAULT_GEOMETRY.model_dump()}
        return data

    @field_validator("version")
    @classmethod
    def _supported(cls, v: int) -> int:
        if v != PROFILE_VERSION:
            raise ValueError(f"profile version {v} is not supported (this reader reads {PROFILE_VERSION})")
        return v

    @field_validator("name")
    @classmethod
    def _good_name(cls, v: str) -> str:
        if not _NAME_RE.fullmatch(v) or v.startswith("."):
            raise ValueError(f"bad deck name {v!r}: use letters, digits, '-', '_' or '.'")
        return v

    @field_validator("search")
    @classmethod
    def _sane_margin(cls, v: tuple[int, int]) -> tuple[int, int]:
        if not all(0 <= m <= MAX_SEARCH for m in v):
            raise ValueError(f"search margin {list(v)} must be 0..{MAX_SEARCH} px on each axis")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> DeckProfile:
        x0, y0, x1, y1 = self.roi
        if not (x0 < x1 and y0 < y1):
            raise ValueError("roi is empty")
        codes = [c.code for c in self.cards]
        if not codes:
            raise ValueError("profile has no cards")
        if len(set(codes)) != len(codes):
            raise ValueError("profile lists a card twice")
        turned = [c.code for c in self.turned]
        if len(set(turned)) != len(turned):
            raise ValueError("profile lists a turned card twice")
        if not set(turned) <= set(codes):
            raise ValueError(f"turned corner of a card not taught: {sorted(set(turned) - set(codes))}")
        for c in [*self.cards, *self.turned]:
            img = c.image()
            if img.shape[:2] != (y1 - y0, x1 - x0):
                raise ValueError(f"template {c.code} is {img.shape[1]}x{img.shape[0]}, roi is "
                                 f"{x1 - x0}x{y1 - y0}")
        return self

    def templates(self) -> dict[str, np.ndarray]:
        return {c.code: c.image() for c in self.cards}

    def views(self) -> list[tuple[str, np.ndarray]]:
        """Every corner the reader matches: each card's, then the turned corners taught."""
        return [(c.code, c.image()) for c in [*self.cards, *self.turned]]

    @classmethod
    def build(cls, name: str, source: str, card_width: float, roi: tuple[int, int, int, int],
              search: tuple[int, int], templates: dict[str, np.ndarray],
              geometry: ShoeGeometry | None = None) -> DeckProfile:
        return cls(version=PROFILE_VERSION, name=name,
                   created=datetime.now(UTC).isoformat(timespec="seconds"), source=source,
                   card_width=card_width, roi=roi, search=search,
                   cards=[CardTemplate.from_image(k, v) for k, v in templates.items()],
                   geometry=geometry or DEFAULT_GEOMETRY.model_copy())


def verification_word(profile: DeckProfile) -> str:
    """One word for what the self-check said: verified, unverified, or never checked."""
    if profile.verification is None:
        return "unchecked"
    return "verified" if profile.verification.verified else "unverified"


def data_dir() -> Path:
    override = os.environ.get("CARDTABLE_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("cardtable"))


def profiles_dir() -> Path:
    return data_dir() / "decks"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name) or name.startswith("."):
        raise ProfileError(f"bad deck name {name!r}: use letters, digits, '-', '_' or '.'")
    return name


def profile_path(name: str) -> Path:
    return profiles_dir() / f"{check_name(name)}.json"


def save_profile(profile: DeckProfile) -> Path:
    path = profile_path(profile.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A temporary file of its own per save (two saves at once must not share one), in the same
    # folder so the rename is atomic: a load sees the old profile or the new one, never part.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as tmp:
            tmp.write(profile.model_dump_json(indent=1))
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    return path


def list_profiles() -> list[str]:
    folder = profiles_dir()
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def load_profile(name: str) -> DeckProfile:
    path = profile_path(name)
    if not path.is_file():
        known = ", ".join(list_profiles()) or "none yet (use `cardtable deck teach`)"
        raise ProfileError(f"no deck profile called {name!r}; known decks: {known}")
    return read_profile(path)


def read_profile(path: Path) -> DeckProfile:
    """A profile file, or ProfileError in one line saying what is wrong with it (never the
    file's bytes)."""
    try:
        return DeckProfile.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "file"
        raise ProfileError(f"deck profile {path} is corrupt ({where}: {first['msg']}); "
                           f"teach the deck again") from None
    except OSError as exc:
        raise ProfileError(f"deck profile {path} is unreadable: {exc.strerror or exc}") from None
