"""The seat panels a table config describes, from one factory: real ones on USB serial, simulated
panel firmware on ptys, or none.

Why it exists: a table is built one way whatever its devices are (``controller.live``); only this
factory knows that a simulated panel is MicroPython's firmware logic on a pty found by the same
discovery as a real panel (``firmware_bridge.sim``). Either way the table gets a started
``PanelBridge`` (None without panels) and speaks to it alone; a simulated panel can also be
pressed (``press``), which is how a recorded session's players press their buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_bridge.config import SIMULATED_PANEL_ID, PanelConfig


@dataclass
class Panels:
    bridge: Any  # firmware_bridge.bridge.PanelBridge, started; None without panels
    seats: int = 0  # seats with a panel (simulated panels: all of the game's)
    sim: Any = None  # firmware_bridge.sim.SimTable of simulated panels

    @property
    def pressable(self) -> bool:
        return self.sim is not None

    def press(self, seat: int, button: str) -> None:
        """A player's press on a simulated panel (seat from 0)."""
        self.sim[seat].tap(button)

    def close(self) -> None:
        if self.sim is not None:
            self.sim.close()  # stops its bridge too
        elif self.bridge is not None:
            self.bridge.stop()


def open_panels(cfg: PanelConfig, seats: int) -> Panels:
    """Start the panels of ``cfg`` (``seats``: how many simulated panels, one per seat)."""
    if cfg.backend == "none":
        return Panels(bridge=None)
    if cfg.backend == "sim":
        from firmware_bridge.sim import SimTable

        sim = SimTable({SIMULATED_PANEL_ID.format(s): s for s in range(seats)}).start()
        return Panels(bridge=sim.bridge, seats=seats, sim=sim)
    from firmware_bridge.bridge import PanelBridge

    return Panels(bridge=PanelBridge(cfg).start(), seats=len(cfg.seats))
