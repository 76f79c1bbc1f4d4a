"""The table config: one TOML file for the whole table (``/etc/cardtable/table.toml``).

The devices' own sections (``[gpio]``, ``[cameras.NAME]``) are ``hardware.config``'s models and
``[panels]`` is ``firmware_bridge.config``'s; this module puts them together with what the table
is besides its devices: its games, its web display, its club, a recorded session.

Why it exists: a table is a Pi, its GPIO, its cameras, its seat panels, its web display and a data
directory; the organiser sets them up once in one file, and a mistake in it must be found before
the table starts, not halfway through an evening. So the file is validated with pydantic, unknown
keys are errors (a misspelt ``exposre`` would otherwise silently do nothing), and every error names
the key and the line it is on: ``table.toml:14: cameras.shoe.fps: must be greater than 0``.

``load_config(path)`` → :class:`TableConfig` or :class:`ConfigError` (``.errors``: one line each).
``EXAMPLE`` is the commented example ``cardtable config init`` writes.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator, model_validator

from controller.pin import pin_hash_problem
from engine.registry import GAMES
from firmware_bridge.config import PanelConfig
from hardware.config import CameraConfig, GpioConfig, Strict

DEFAULT_DATA_DIR = "/var/lib/cardtable"
DEFAULT_FOOTAGE_BUDGET_MB = 2048
DEFAULT_RECORD_BUDGET_MB = 20480  # about 40 hours of play at the sizes docs/table.md measures


class ConfigError(ValueError):
    """A config file that cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors




class TableSection(Strict):
    name: str = Field(default="cardtable", min_length=1, max_length=64)
    # the deck profile the shoe reader reads with (`cardtable deck teach NAME --video PASS.mp4`)
    deck: str = Field(default="club-deck", min_length=1, max_length=64)
    data_dir: str = DEFAULT_DATA_DIR
    footage_budget_mb: int = Field(default=DEFAULT_FOOTAGE_BUDGET_MB, ge=0)


class GameDefaults(Strict):
    default: str = "belot2"
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)
    names: list[str] = Field(default_factory=list)

    @field_validator("default")
    @classmethod
    def _known_game(cls, v: str) -> str:
        if v not in GAMES:
            raise ValueError(f"unknown game {v!r}; known games: {', '.join(GAMES)}")
        return v


class WebConfig(Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    admin_pin_hash: str | None = None  # `python -c "from table_ui.security import hash_pin..."`

    @field_validator("admin_pin_hash")
    @classmethod
    def _hash(cls, v: str | None) -> str | None:
        if v is not None and (problem := pin_hash_problem(v)) is not None:
            raise ValueError(f"not a PIN hash ({problem}; make one with `cardtable admin-pin` "
                             "or table_ui.security.hash_pin)")
        return v


class ClubConfig(Strict):
    """The club server this table publishes its log to (docs/club.md)."""
    broker: str = Field(pattern=r"^mqtts?://")  # mqtt://host[:port], mqtts:// for TLS
    club: str = Field(default="club", pattern=r"^[A-Za-z0-9_-]{1,64}$")
    table: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")  # [table] name
    username: str | None = None  # this table's broker user (`cardtable club tables add`)
    password: str | None = None


class SessionConfig(Strict):
    """A recorded session the table replays as its world (the simulated table): its cameras of
    kind "session" show the recording's frames, its players press the recorded buttons on the
    panels (simulated ones, or straight into the controller without), its dealer presses «новая
    сдача», and the organiser's recorded corrections are made, all on the recording's clock."""

    bundle: str  # the recorded session's folder; a relative path is taken from the config's
    speed: float = Field(default=1.0, gt=0, le=1000)  # this many times real time
    pause_s: float = Field(default=20.0, ge=0)  # the final score stays up this long, then again
    once: bool = False  # stop after one game instead of playing the recording again
    names: list[str] | None = None  # the players' names (default: the recording's)


class RecordConfig(Strict):
    """Recording the games for replay (``controller.recorder``): both cameras' frames in which
    something moved, per game, under ``dir`` (default: ``recordings`` beside the table log), within
    ``budget_mb`` (oldest games go first); `cardtable history export GAME --bundle DIR` makes a
    game a replayable recording."""

    enabled: bool = True
    budget_mb: int = Field(default=DEFAULT_RECORD_BUDGET_MB, ge=1)
    dir: str | None = None


class TableConfig(Strict):
    table: TableSection = Field(default_factory=TableSection)
    game: GameDefaults = Field(default_factory=GameDefaults)
    panels: PanelConfig = Field(default_factory=PanelConfig)
    gpio: GpioConfig = Field(default_factory=GpioConfig)
    cameras: dict[str, CameraConfig] = Field(default_factory=dict)
    web: WebConfig = Field(default_factory=WebConfig)
    club: ClubConfig | None = None
    session: SessionConfig | None = None
    record: RecordConfig | None = None

    @model_validator(mode="after")
    def _session_cameras(self) -> TableConfig:
        for name, camera in self.cameras.items():
            if camera.kind == "session" and self.session is None:
                raise ValueError(f"cameras.{name}.kind: a session camera shows a recorded "
                                 "session: add [session] with bundle = \"FOLDER\"")
        return self

    @property
    def data_dir(self) -> Path:
        return Path(self.table.data_dir)

    def calibration_path(self, camera: str = "table") -> Path:
        """Where the overhead camera's calibration is kept: its ``calibration`` key, else
        ``<data_dir>/<camera>.calibration.json`` (written by ``cardtable table check``)."""
        cam = self.cameras.get(camera)
        if cam is not None and cam.calibration:
            return Path(cam.calibration)
        return self.data_dir / f"{camera}.calibration.json"

    @property
    def recordings(self) -> Path | None:
        """Where the games are recorded, or None when they are not."""
        if self.record is None or not self.record.enabled:
            return None
        return Path(self.record.dir) if self.record.dir else self.data_dir / "recordings"

    @property
    def footage_budget_bytes(self) -> int:
        return self.table.footage_budget_mb * 1024**2


# --------------------------------------------------------------------------- key → line
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")


def _split_key(text: str) -> list[str]:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", text)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


def key_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """Line (1-based) of every table header and key in a TOML text, by its path.

    Arrays of tables get their index (``("panels", "seats", 1, "seat")``); keys inside inline
    tables and arrays are not resolved (an error there is reported at the key holding them).
    """
    lines: dict[tuple[str | int, ...], int] = {}
    counts: dict[tuple[str | int, ...], int] = {}
    table: tuple[str | int, ...] = ()
    in_multiline: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if in_multiline is not None:
            if line.count(in_multiline) % 2 == 1:
                in_multiline = None
            continue
        m = _HEADER.match(line)
        if m and not _KEY.match(line):
            parts = tuple(_split_key(m.group(2)))
            if m.group(1) == "[[":
                idx = counts.get(parts, 0)
                counts[parts] = idx + 1
                table = (*_resolve(parts, counts), idx)
                lines.setdefault(table[:-1], n)
            else:
                table = _resolve(parts, counts)
            lines.setdefault(table, n)
            continue
        k = _KEY.match(line)
        if k:
            path = (*table, *_split_key(k.group(1)))
            lines.setdefault(path, n)
            rest = line[k.end():]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_multiline = quote
    return lines


def _resolve(parts: tuple[str, ...], counts: dict[tuple[str | int, ...], int]
             ) -> tuple[str | int, ...]:
    """A header path with the current index of every array of tables it passes through."""
    out: list[str | int] = []
    for i, part in enumerate(parts):
        out.append(part)
        prefix = parts[: i + 1]
        if i < len(parts) - 1 and prefix in counts:
            out.append(counts[prefix] - 1)
    return tuple(out)


def line_of(lines: dict[tuple[str | int, ...], int], loc: tuple[str | int, ...]) -> int | None:
    """The line of ``loc`` or of the nearest enclosing key or table that is in the text."""
    for end in range(len(loc), 0, -1):
        if loc[:end] in lines:
            return lines[loc[:end]]
    return None


# ------------------------------------------------------------------------------ loading
def _message(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key"
    if err["type"] == "missing":
        return "required key is missing"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


def parse_config(text: str, source: str = "table.toml") -> TableConfig:
    """A TableConfig from TOML text; ConfigError with ``source:line: key: problem`` lines."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ConfigError([f"{source}: nested too deep (tables or arrays inside each other "
                           "hundreds of times): not a table config"]) from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        where = f"{source}:{m.group(1)}" if m else source
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "bad TOML"
        col = f" (column {m.group(2)})" if m else ""
        raise ConfigError([f"{where}: TOML syntax error: {msg}{col}"]) from None
    try:
        return TableConfig.model_validate(data)
    except ValidationError as exc:
        lines = key_lines(text)
        errors: list[str] = []
        for err in exc.errors():
            loc = _data_loc(data, tuple(err["loc"]))
            msg = _message(err)
            # a model-level check names its own key first ("path: ..."): point at that key
            m = re.match(r"([A-Za-z_][\w.]*): (.*)", msg)
            if m and err["type"] == "value_error":
                sub = tuple(int(p) if p.isdigit() else p for p in m.group(1).split("."))
                loc, msg = (*loc, *sub), m.group(2)
            line = line_of(lines, loc)
            key = ".".join(str(p) for p in loc) or "(top level)"
            where = f"{source}:{line}" if line is not None else source
            line_text = f"{where}: {key}: {msg}"
            same = next((i for i, e in enumerate(errors) if e.startswith(f"{where}: {key}: ")), None)
            if same is None:
                errors.append(line_text)
            else:  # one value failing every branch of a union: one line
                errors[same] += f", or {msg}"
        raise ConfigError(sorted(errors, key=_line_number)) from None


def _line_number(error: str) -> int:
    m = re.match(r"[^\n]*?:(\d+): ", error)
    return int(m.group(1)) if m else 0


def _data_loc(data: Any, loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The part of a pydantic error location that is keys of the file (not union branches)."""
    out: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str):
            out.append(part)
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int):
            out.append(part)
            node = node[part] if part < len(node) else None
        else:
            break  # a union branch tag ("int", "literal['auto']"): not a key
    return tuple(out)


def load_config(path: str | Path) -> TableConfig:
    """The table config in ``path``; ConfigError (one line per problem) if it cannot be used."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError([f"{path}: cannot read the config ({exc})"]) from None
    cfg = parse_config(text, str(path))
    if cfg.session is not None and not Path(cfg.session.bundle).is_absolute():
        cfg.session.bundle = str(path.parent / cfg.session.bundle)
    for camera in cfg.cameras.values():  # files named in the config are beside it
        if camera.calibration and not Path(camera.calibration).is_absolute():
            camera.calibration = str(path.parent / camera.calibration)
        if camera.path and not Path(camera.path).is_absolute():
            camera.path = str(path.parent / camera.path)
    if cfg.record is not None and cfg.record.dir and not Path(cfg.record.dir).is_absolute():
        cfg.record.dir = str(path.parent / cfg.record.dir)
    return cfg


EXAMPLE = '''\
# cardtable: the table's config. Check it with `cardtable config check table.toml`,
# then the devices with `cardtable doctor --config table.toml`.

[table]
name = "Стол 1"                     # shown on the display
deck = "club-deck"                  # taught with `cardtable deck teach club-deck --video pass.mp4`
data_dir = "/var/lib/cardtable"     # the game log and the footage archive live here
footage_budget_mb = 2048            # shoe footage kept for disputes; oldest clips go first

[game]
default = "belot2"                  # belot2, durak2, joker, bazar or terz
names = ["Анна", "Борис"]           # players' names, seat by seat (optional)
[game.options]                      # house rules (see `cardtable games`)
# game_type = "501"

# Seat panels (USB serial). Each panel announces its id; this says where it sits.
[panels]
seats_from = 0                      # seats count from 0, as in the game log: seat 0 plays first
scan_interval_s = 0.5
# by_id_dirs = ["/dev/serial/by-id"]
# port_globs = ["*MicroPython*", "*Pico*", "*cardtable*", "*panel*"]

[[panels.seats]]
seat = 0
panel_id = "panel-a"
name = "Север"

[[panels.seats]]
seat = 1
panel_id = "panel-b"
name = "Юг"

# GPIO on the Pi's header (BCM numbers).
[gpio]
factory = "lgpio"                   # lgpio (Pi 5, Pi 4), rpigpio (Pi 4 and older), mock (no Pi)
bounce_s = 0.05                     # presses closer than this to the last edge are contact chatter
hold_s = 1.0                        # a press held this long is a long press
buzzer = 24                         # remove if there is no buzzer
card_sensor = 25                    # the shoe's IR break-beam; remove if not fitted
sensor_active_low = true            # the receiver pulls the line low while the beam is broken

[gpio.buttons]
new_deal = 17                       # «новая сдача»
cancel = 27                         # «отмена»

[gpio.leds]
ready = 22                          # the table is running
attention = 23                      # blinks while a card waits; steady when the log fails

# Cameras. kind = "picamera2" (the Pi camera), "v4l2" (a USB camera: device = "/dev/video0")
# or "file" (recorded footage: path = "shoe.mp4", with shoe.times.json beside it if recorded).
[cameras.shoe]
kind = "picamera2"
device = 0                          # camera number
width = 640
height = 480
fps = 30
exposure = 4000                     # microseconds, or "auto"
focus = "auto"                      # or a lens position
stall_s = 1.0                       # no frame this long past due: reported as stalled

# The overhead camera over the play area (ArUco markers 0-3 at its corners, docs/table-camera.md):
# which seat put down which card, and cards gathered. Two- and four-seat games.
# [cameras.table]
# kind = "v4l2"
# device = "/dev/video0"
# width = 1280
# height = 720
# fps = 30
# calibration = "table.json"        # from `cardtable table calibrate`; relative paths in this
#                                   # file are taken from its folder. Without one, `table check`
#                                   # stores it as <data_dir>/table.calibration.json
# marker_cm = 4.4                   # without a calibration: the markers' printed side

[web]
host = "0.0.0.0"                    # 127.0.0.1: this Pi's screen only
port = 8000
# admin_pin_hash = "scrypt$16384$8$1$..."   # from table_ui.security.hash_pin; else a PIN is made

# Recording every game for replay (docs/table.md "Recording"): both cameras' frames in which
# something moved; `cardtable history export GAME --bundle DIR` makes one a recording that
# `cardtable replay DIR --check` checks. Without this section (or `cardtable run --record`), none.
# [record]
# budget_mb = 20480                 # oldest games' recordings go first
# dir = "/mnt/usb/recordings"      # default: recordings/ beside the table log

# The club server this table publishes its games to (docs/club.md); without it, none.
# [club]
# broker = "mqtt://club-server.local:1883"
# club = "spb"
# table = "table-1"                  # default: [table] name
# username = "table-1"               # from `cardtable club tables add table-1`
# password = "..."
'''
