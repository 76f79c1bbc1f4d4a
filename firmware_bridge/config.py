"""Table config for the panels: which panel sits at which seat, and where to look for them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

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

    @model_validator(mode="after")
    def _one_panel_per_seat(self) -> PanelConfig:
        seats: dict[int, str] = {}
        panels: dict[str, int] = {}
        for entry in self.seats:
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
        """Config for a table of simulated panels: sim-seat-N sits at seat N."""
        return cls.from_mapping(
            {cls.simulated_panel_id(n): n for n in range(1, seats + 1)}, **kwargs)

    @classmethod
    def from_mapping(cls, mapping: dict[str, int], **kwargs: object) -> PanelConfig:
        seats = [SeatPanel(seat=seat, panel_id=pid) for pid, seat in mapping.items()]
        return cls(seats=seats, **kwargs)  # type: ignore[arg-type]


def load_config(path: str | Path) -> PanelConfig:
    """Load a PanelConfig from TOML or JSON. A TOML table may hold it under ``[panels]``."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    if "panels" in data and isinstance(data["panels"], dict):
        data = data["panels"]
    return PanelConfig.model_validate(data)
