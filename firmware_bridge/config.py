"""Table config for the panels: which panel sits at which seat, and where to look for them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

DEFAULT_BY_ID_DIRS = ("/dev/serial/by-id",)
# Names under /dev/serial/by-id that look like seat panels (MicroPython on a Pico, our own
# firmware's USB product string). Other USB serial gadgets on the Pi are left alone.
DEFAULT_PORT_GLOBS = ("*MicroPython*", "*Pico*", "*cardtable*", "*panel*")
PICO_USB_VID = 0x2E8A  # Raspberry Pi
SIMULATED_PANEL_ID = "sim-seat-{}"  # ids that `cardtable panels sim --seat N` announces


class SeatPanel(BaseModel):
    """One seat and the panel that belongs to it."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=1, le=8)
    panel_id: str = Field(min_length=1, max_length=64)
    name: str = ""


class PanelConfig(BaseModel):
    """Panel-id -> seat mapping plus discovery settings."""

    model_config = ConfigDict(extra="forbid")

    seats: list[SeatPanel] = Field(default_factory=list)
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
        """Config for a table of simulated panels: sim-seat-N sits at seat N."""
        return cls.from_mapping(
            {cls.simulated_panel_id(n): n for n in range(1, seats + 1)}, **kwargs)

    @classmethod
    def from_mapping(cls, mapping: dict[str, int], **kwargs: object) -> PanelConfig:
        seats = [SeatPanel(seat=seat, panel_id=pid) for pid, seat in mapping.items()]
        return cls(seats=seats, **kwargs)  # type: ignore[arg-type]


class ConfigError(ValueError):
    """A table config that cannot be used; the message is one line naming the file and the
    line (syntax) or the key (content) that is wrong."""


def _key(prefix: str, loc: tuple[int | str, ...]) -> str:
    key = prefix
    for part in loc:
        key += f"[{part}]" if isinstance(part, int) else (f".{part}" if key else str(part))
    return key or "(top level)"


def _validation_message(exc: ValidationError, prefix: str) -> str:
    problems = []
    for error in exc.errors():
        msg = error["msg"].removeprefix("Value error, ")
        problems.append(f"{_key(prefix, tuple(error['loc']))}: {msg}")
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
        raise ConfigError(f"{path}: {_validation_message(exc, prefix)}") from None
