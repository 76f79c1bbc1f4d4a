"""The real table: the config's shoe camera, seat panels and GPIO joined to the controller.

``cardtable run --config table.toml`` builds a :class:`LiveTable` from the table config
(``hardware.config``): the shoe camera's frames go through the same :class:`ShoeLoop` as the
simulated table's, the overhead camera's (``[cameras.table]``) through the same
:class:`TableLoop`, the seat panels through ``PanelBridge`` + :class:`PanelLink`, the dealer's
buttons and status LEDs through :class:`DealerLink` on the configured pin factory. Devices that
stall or vanish are shown on the display (``Controller.set_device``) and picked up again; none of
them stops the table.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from controller.archive import FootageArchive
from controller.core import Controller
from controller.table import DealerLink, PanelLink, ShoeLoop, TableLoop
from vision.profile import DeckProfile
from vision.reader import ShoeReader

log = logging.getLogger("cardtable.live")


class LiveTable:
    def __init__(self, controller: Controller, cfg: Any, profile: DeckProfile,
                 archive: FootageArchive | None = None) -> None:
        self.controller = controller
        self.cfg = cfg
        self.profile = profile
        self.archive = archive
        self.stop_event = threading.Event()
        self._threads: list[threading.Thread] = []
        self._cameras: list[Any] = []
        self.bridge: Any = None
        self.panel_link: PanelLink | None = None
        self.dealer: DealerLink | None = None

    def start(self) -> LiveTable:
        from firmware_bridge.bridge import PanelBridge
        from hardware.gpio import pin_factory

        cfg, ctl = self.cfg, self.controller
        if ctl.game is None or ctl.game_status != "active":
            ctl.new_game(cfg.game.default, dict(cfg.game.options), list(cfg.game.names))
        self.dealer = DealerLink(ctl, pin_factory(cfg.gpio.factory), gpio=cfg.gpio)
        self.bridge = PanelBridge(cfg.panels).start()
        self.panel_link = PanelLink(ctl, self.bridge).start()
        shoe = cfg.cameras.get("shoe")
        if shoe is None:
            log.warning("no [cameras.shoe] in the config: cards must be confirmed on the admin page")
        else:
            thread = threading.Thread(target=self._shoe, args=(shoe,), name="shoe camera",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        overhead = cfg.cameras.get("table")
        if overhead is not None:
            thread = threading.Thread(target=self._table, args=(overhead,), name="table camera",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def _table(self, cam_cfg: Any) -> None:
        """The overhead camera: read while the game has two or four seats (the seat zones)."""
        from pathlib import Path

        from hardware.camera import open_camera
        from vision.table.calibrate import CalibrationError, load_calibration
        from vision.table.faces import FacesError, load_faces
        from vision.table.reader import TableReader

        name = "camera table"

        def on_event(kind: str, detail: str) -> None:
            self.controller.set_device(name, {"kind": "camera", "state": kind, "detail": detail})

        try:
            cal = load_calibration(Path(cam_cfg.calibration)) if cam_cfg.calibration else None
            faces = load_faces(self.profile)
        except (CalibrationError, FacesError, OSError) as exc:
            log.error("table camera not started: %s", exc)
            on_event("error", str(exc))
            return
        camera = open_camera(cam_cfg, "table", on_event=on_event)
        self._cameras.append(camera)
        loop: TableLoop | None = None
        try:
            for n, (t, frame) in enumerate(camera.frames()):
                if self.stop_event.is_set():
                    break
                game = self.controller.game
                seats = game.num_seats if game is not None else 0
                if loop is None or loop.reader.seats != seats:
                    if seats not in (2, 4):
                        if loop is not None or n == 0:
                            on_event("idle", f"the table camera reads two- and four-seat games; "
                                     f"this one has {seats}")
                        loop = None
                        continue
                    reader = TableReader(self.profile, cal, seats, faces,
                                         marker_mm=cam_cfg.marker_cm * 10)
                    loop = TableLoop(self.controller, reader, name=name)
                loop.frame(t, n, frame)
        except Exception as exc:  # the camera loop must never take the table down
            log.exception("table camera loop failed")
            on_event("error", str(exc))
        finally:
            camera.close()

    def _shoe(self, cam_cfg: Any) -> None:
        from hardware.camera import open_camera

        def on_event(kind: str, detail: str) -> None:
            self.controller.set_device("camera shoe", {"kind": "camera", "state": kind,
                                                       "detail": detail})

        camera = open_camera(cam_cfg, "shoe", on_event=on_event)
        self._cameras.append(camera)
        loop = ShoeLoop(self.controller, ShoeReader(self.profile), archive=self.archive)
        self.controller.set_device("camera shoe", {"kind": "camera", "state": "connected",
                                                   "detail": str(cam_cfg.kind)})
        try:
            for n, (t, frame) in enumerate(camera.frames()):
                if self.stop_event.is_set():
                    break
                loop.frame(t, n, frame)
            loop.finish(0.0)
        except Exception as exc:  # the camera loop must never take the table down
            log.exception("shoe camera loop failed")
            self.controller.set_device("camera shoe", {"kind": "camera", "state": "error",
                                                       "detail": str(exc)})
        finally:
            camera.close()

    def wait(self, timeout: float | None = None) -> bool:
        return self.stop_event.wait(timeout)

    def stop(self) -> None:
        self.stop_event.set()
        for camera in self._cameras:
            camera.close()
        for thread in self._threads:
            thread.join(timeout=3)
        if self.panel_link is not None:
            self.panel_link.stop()
        if self.bridge is not None:
            self.bridge.stop()
        if self.dealer is not None:
            self.dealer.close()
        if self.archive is not None:
            self.archive.close()
