"""The devices' config models: ``[gpio]`` and ``[cameras.NAME]`` of the table config.

Why apart from the table config (``controller.config``): ``hardware/`` owns every device, their
settings included, and knows nothing of games, displays or clubs; the table config puts these
sections together with the rest. Unknown keys are errors (``Strict``): a misspelt ``exposre``
would otherwise silently do nothing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from hardware.gpio import DEFAULT_BUTTONS, DEFAULT_LEDS

BCM_PINS = range(0, 28)


class Strict(BaseModel):
    """A config section whose unknown keys are errors."""

    model_config = ConfigDict(extra="forbid")


class GpioConfig(Strict):
    factory: Literal["lgpio", "rpigpio", "mock"] = "lgpio"
    bounce_s: float = Field(default=0.05, ge=0, le=1)
    hold_s: float = Field(default=1.0, gt=0, le=10)
    buttons: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_BUTTONS))
    leds: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_LEDS))
    buzzer: int | None = None
    card_sensor: int | None = None
    sensor_active_low: bool = True

    @model_validator(mode="after")
    def _pins(self) -> GpioConfig:
        used: dict[int, str] = {}
        pins = [(f"buttons.{k}", v) for k, v in self.buttons.items()]
        pins += [(f"leds.{k}", v) for k, v in self.leds.items()]
        pins += [(k, v) for k, v in (("buzzer", self.buzzer), ("card_sensor", self.card_sensor))
                 if v is not None]
        for key, pin in pins:
            if pin not in BCM_PINS:
                raise ValueError(f"{key}: GPIO{pin} is not a header pin (BCM 0-27)")
            if pin in used:
                raise ValueError(f"{key}: GPIO{pin} is already used by {used[pin]}")
            used[pin] = key
        return self


class CameraConfig(Strict):
    # session: the frames of the recorded session in [session], replayed on its clock
    kind: Literal["picamera2", "v4l2", "file", "synthetic", "session"]
    device: str | int | None = None  # v4l2: /dev/video0 or an index; picamera2: camera number
    path: str | None = None  # file: recorded footage (its .times.json sidecar is used if there)
    width: int = Field(default=640, ge=16, le=8192)
    height: int = Field(default=480, ge=16, le=8192)
    fps: float = Field(default=30.0, gt=0, le=240)
    exposure: Literal["auto"] | int = "auto"  # microseconds
    focus: Literal["auto"] | float = "auto"  # v4l2: focus_absolute; picamera2: dioptres
    realtime: bool = True  # file: at the recording's pace (false: as fast as it decodes)
    speed: float = Field(default=1.0, gt=0)  # file, realtime: this many times real time
    motion_width: int = Field(default=320, ge=16)  # picamera2: low-res stream for motion
    stall_s: float = Field(default=1.0, gt=0)  # no frame for this long past due: "stalled"
    # the table camera: its calibration (`cardtable table calibrate`); else from its markers
    calibration: str | None = None
    # the table camera without a calibration: the markers' printed side, for the play area's size
    marker_cm: float = Field(default=4.4, gt=0.5, lt=200)
    # synthetic: the footage generator renders these cards, or the shoe of a seeded game
    cards: list[str] | None = None
    game: str | None = None
    seed: int = 0
    deck_art: str = "Атласные"

    @field_validator("exposure")
    @classmethod
    def _exposure(cls, v: str | int) -> str | int:
        if isinstance(v, int) and not 1 <= v <= 10_000_000:
            raise ValueError("exposure must be \"auto\" or microseconds from 1 to 10000000")
        return v

    @model_validator(mode="after")
    def _needs(self) -> CameraConfig:
        if self.kind == "file" and not self.path:
            raise ValueError("path: a file camera needs path = \"footage.mp4\"")
        if self.kind == "v4l2" and self.device is None:
            raise ValueError("device: a v4l2 camera needs device = \"/dev/video0\"")
        if self.kind == "picamera2" and self.device is not None and not isinstance(self.device,
                                                                                   int):
            raise ValueError("device: a picamera2 camera's device is its number (0, 1)")
        if self.kind != "file" and self.path is not None:
            raise ValueError(f"path: only a file camera has a path (use device for {self.kind})")
        return self
