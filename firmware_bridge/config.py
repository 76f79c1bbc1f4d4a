"""Table config for the panels: which panel sits at which seat, and where to look for them.

Seats count from 0, as in the engine, the log and the bridge. Files written when they counted
from 1 must not shift every player by one without a word, so a config that lists seats also says
``seats_from = 0``; one that does not is refused with a one-line error naming the key.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from firmware_bridge.protocol import MAX_SEATS

DEFAULT_BY_ID_DIRS = ("/dev/serial/by-id",)
# Names under /dev/serial/by-id that look like seat panels (MicroPython on a Pico, our own
# firmware's USB product string). Other USB serial gadgets on the Pi are left alone.
DEFAULT_PORT_GLOBS = ("*MicroPython*", "*Pico*", "*cardtable*", "*panel*")
PICO_USB_VID = 0x2E8A  # Raspberry Pi
SIMULATED_PANEL_ID = "sim-seat-{}"  # ids that `cardtable panels sim --seat N` announces
SEATS_FROM_0 = (
    "seats now count from 0 (the first player is seat 0, as in the game log): renumber them "
    f"0 to {MAX_SEATS - 1} and add `seats_from = 0` to the panel settings (in [panels], before the seats)"
)


class SeatPanel(BaseModel):
    """One seat and the panel that belongs to it."""

    model_config = ConfigDict(extra="forbid")

    seat: int  # from 0, as the engine counts
    panel_id: str = Field(min_length=1, max_length=64)
    name: str = ""

    @field_validator("seat")
    @classmethod
    def _seat_in_range(cls, value: int) -> int:
        if not 0 <= value < MAX_SEATS:
            raise ValueError(f"seat {value} is not 0 to {MAX_SEATS - 1} (seats count from 0)")
        return value


class PanelConfig(BaseModel):
    """Panel-id -> seat mapping plus discovery settings."""

    model_config = ConfigDict(extra="forbid")

    # usb: the panels on the Pi's USB serial ports; sim: simulated panel firmware on ptys (one
    # per seat of the game, as `cardtable panels sim` runs); none: no panels (buttons on the
    # admin page, or a recorded session's presses straight into the controller)
    backend: Literal["usb", "sim", "none"] = "usb"
    seats: list[SeatPanel] = Field(default_factory=list)
    # Required when seats are listed: the file's seats count from 0 (not an offset; 0 only).
    seats_from: int | None = None
    by_id_dirs: list[str] = Field(default_factory=lambda: list(DEFAULT_BY_ID_DIRS))
    port_globs: list[str] = Field(default_factory=lambda: list(DEFAULT_PORT_GLOBS))
    use_list_ports: bool = True
    usb_vids: list[int] = Field(default_factory=lambda: [PICO_USB_VID])
    baudrate: int = 115200
    scan_interval_s: float = Field(default=0.5, gt=0)

    @field_validator("seats")
    @classmethod
    def _one_panel_per_seat(cls, value: list[SeatPanel]) -> list[SeatPanel]:
        # A field validator, so the error names the key ("seats"), not just the whole config.
        seats: dict[int, str] = {}
        panels: dict[str, int] = {}
        for entry in value:
            if entry.seat in seats:
                raise ValueError(
                    f"seat {entry.seat} is claimed by two panels: "
                    f"{seats[entry.seat]!r} and {entry.panel_id!r}"
                )
            if entry.panel_id in panels:
                raise ValueError(
                    f"panel {entry.panel_id!r} is listed for seats "
                    f"{panels[entry.panel_id]} and {entry.seat}"
                )
            seats[entry.seat] = entry.panel_id
            panels[entry.panel_id] = entry.seat
        return value

    @model_validator(mode="after")
    def _seats_count_from_0(self) -> PanelConfig:
        # Named "key: message" so the table config's loader can point at the line of the key.
        if self.seats_from not in (None, 0):
            raise ValueError(f"seats_from: must be 0, not {self.seats_from}: {SEATS_FROM_0}")
        if self.seats and self.seats_from is None:
            raise ValueError(f"seats.0.seat: {SEATS_FROM_0}")
        return self

    def seat_for(self, panel_id: str) -> int | None:
        for entry in self.seats:
            if entry.panel_id == panel_id:
                return entry.seat
        return None

    @staticmethod
    def simulated_panel_id(seat: int) -> str:
        return SIMULATED_PANEL_ID.format(seat)

    @classmethod
    def for_simulated_seats(cls, seats: int, **kwargs: object) -> PanelConfig:
        """Config for a table of simulated panels: sim-seat-N sits at seat N (0 to seats-1)."""
        return cls.from_mapping({cls.simulated_panel_id(n): n for n in range(seats)}, **kwargs)

    @classmethod
    def from_mapping(cls, mapping: dict[str, int], **kwargs: object) -> PanelConfig:
        """Config from {panel id: seat from 0}."""
        seats = [SeatPanel(seat=seat, panel_id=pid) for pid, seat in mapping.items()]
        return cls(seats=seats, seats_from=0, **kwargs)


class ConfigError(ValueError):
    """A table config that cannot be used; the message is one line naming the file and the
    line (syntax) or the key (content) that is wrong."""


def _key(prefix: str, loc: tuple[int | str, ...]) -> str:
    key = prefix
    for part in loc:
        key += f"[{part}]" if isinstance(part, int) else (f".{part}" if key else str(part))
    return key or "(top level)"


def _line_of(text: str, name: str) -> int | None:
    """The line of the first ``name = `` (TOML) or ``"name":`` (JSON) key in ``text``."""
    pattern = re.compile(rf"""^\s*(?:{re.escape(name)}|"{re.escape(name)}")\s*=|"{re.escape(name)}"\s*:""")
    for n, line in enumerate(text.splitlines(), 1):
        if pattern.search(line):
            return n
    return None


def _validation_message(exc: ValidationError, prefix: str, text: str = "") -> str:
    problems = []
    for error in exc.errors():
        msg = error["msg"].removeprefix("Value error, ")
        loc = tuple(error["loc"])
        where = ""
        # a check of the whole config names its own key first ("seats.0.seat: ..."): use it
        named = re.match(r"([A-Za-z_][\w.]*): (.*)", msg)
        if named and error["type"] == "value_error" and not loc:
            parts = named.group(1).split(".")
            loc = tuple(int(p) if p.isdigit() else p for p in parts)
            msg = named.group(2)
            line = _line_of(text, parts[-1])
            where = f"line {line}: " if line is not None else ""
        problems.append(f"{where}{_key(prefix, loc)}: {msg}")
    return "; ".join(problems)


def load_config(path: str | Path) -> PanelConfig:
    """Load a PanelConfig from TOML or JSON. A TOML table may hold it under ``[panels]``.

    Raises ConfigError (a ValueError) with a one-line message for a missing or unreadable file,
    a syntax error (with line and column) or a bad value (with its key)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}") from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib puts "(at line L, column C)" in its message
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the config must be a table of keys, not "
                          f"{type(data).__name__}")
    prefix = ""
    if "panels" in data and isinstance(data["panels"], dict):
        data = data["panels"]
        prefix = "panels"
    try:
        return PanelConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{path}: {_validation_message(exc, prefix, text)}") from None
