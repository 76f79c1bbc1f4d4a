"""Seat panels over USB serial: the wire protocol, the host bridge and a simulated panel.

Typical use::

    from firmware_bridge import PanelBridge, load_config

    with PanelBridge(load_config("table.toml")) as bridge:
        bridge.set_led(0, "turn", "blink")  # seats count from 0, as in the engine
        event = bridge.events.get()  # ButtonEvent(seat=0, button="pass", action="press", ...)

The protocol is specified in docs/panel-protocol.md; firmware/ holds the Pico firmware.
"""

from firmware_bridge.bridge import (
    ButtonEvent,
    Delivery,
    PanelBridge,
    PanelEvent,
    PanelInfo,
    PanelNotConnected,
    discover_ports,
)
from firmware_bridge.config import ConfigError, PanelConfig, SeatPanel, load_config

__all__ = [
    "ButtonEvent",
    "ConfigError",
    "Delivery",
    "PanelBridge",
    "PanelConfig",
    "PanelEvent",
    "PanelInfo",
    "PanelNotConnected",
    "SeatPanel",
    "discover_ports",
    "load_config",
]
