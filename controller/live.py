"""A table built from its config: the cameras, seat panels and GPIO joined to the controller.

Every table is built here, one way, whatever its devices are: ``cardtable run --config
table.toml`` on a Pi and the simulated table of ``cardtable run`` (a config whose devices are the
recorded and simulated back-ends, ``controller/data/table.toml``) alike. :func:`build_table`
makes a :class:`Table`: each camera of ``[cameras]`` comes from ``hardware.camera.open_camera``
(picamera2, V4L2, a recorded file, a recorded session) and its frames go through the same
:class:`ShoeLoop` (``shoe``) or :class:`TableLoop` (``table``); the seat panels come from
``hardware.panels.open_panels`` (USB serial, simulated firmware on ptys, none) and are joined by
:class:`PanelLink`; the dealer's buttons and status LEDs come from the configured gpiozero pin
factory (``MockFactory`` off a Pi) through :class:`DealerLink`. With a ``[session]`` the world
around the table is a recording (``controller.session``): its players, dealer and organiser act
as recorded, and its cameras show the recorded frames. Devices that stall or vanish are shown on
the display (``Controller.set_device``) and picked up again; none of them stops the table.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from controller.archive import FootageArchive
from controller.core import Controller
from controller.recorder import Recorder, deck_keeper
from controller.table import DealerLink, PanelLink, ShoeLoop, TableLoop
from controller.table_check import LiveCheck, Refusal
from vision.profile import DeckProfile
from vision.reader import ShoeReader
from vision.table.faces import Faces

log = logging.getLogger("cardtable.live")

PANELS_CONNECT_S = 5.0  # simulated panels: how long the start waits for their bridge to find them
Loop = ShoeLoop | TableLoop


class Table:
    """The devices of one table joined to its controller; :meth:`start`, :meth:`wait`,
    :meth:`stop`. ``faces``: the table reader's face strips (default: the deck's saved ones)."""

    def __init__(self, controller: Controller, cfg: Any, profile: DeckProfile,
                 archive: FootageArchive | None = None, *, faces: Faces | None = None,
                 world: Any = None, recorder: Recorder | None = None) -> None:
        self.controller = controller
        self.cfg = cfg
        self.profile = profile
        self.archive = archive
        self.faces = faces
        self.world = world  # controller.session.SessionPlayer: a recorded session's world
        self.recorder = recorder  # keeps the games' frames for replay (``--record``)
        if recorder is not None and recorder.deck is None:
            recorder.deck = deck_keeper(profile, self._faces if "table" in cfg.cameras else None)
        self.feed = world.feed if world is not None else None
        self.stop_event = threading.Event()
        self._threads: list[threading.Thread] = []
        self._cameras: list[Any] = []
        self.panels: Any = None  # hardware.panels.Panels
        self.bridge: Any = None
        self.panel_link: PanelLink | None = None
        self.dealer: DealerLink | None = None
        self.table_calibration: Any = None  # vision.table.calibrate.Calibration, once loaded
        self.check: LiveCheck | None = None  # the organiser's table check (a table camera)
        if "table" in cfg.cameras:
            cam = cfg.cameras["table"]
            self.check = LiveCheck(profile, None, save_to=cfg.calibration_path("table"),
                                   marker_mm=cam.marker_cm * 10, fps=cam.fps,
                                   calibration=lambda: self.table_calibration,
                                   busy=self._check_busy, on_pass=self._checked)

    def start(self) -> Table:
        from hardware.gpio import pin_factory
        from hardware.panels import open_panels

        cfg, ctl = self.cfg, self.controller
        if self.world is None and (ctl.game is None or ctl.game_status != "active"):
            ctl.new_game(cfg.game.default, dict(cfg.game.options), list(cfg.game.names))
        self.dealer = DealerLink(ctl, pin_factory(cfg.gpio.factory), gpio=cfg.gpio)
        seats = self.world.seats if self.world is not None else 4
        self.panels = open_panels(cfg.panels, seats)
        self.bridge = self.panels.bridge
        if self.bridge is not None:
            self.panel_link = PanelLink(ctl, self.bridge).start()
            if self.panels.pressable:
                self.bridge.wait_connected(self.panels.seats, timeout=PANELS_CONNECT_S)
        if self.world is not None:
            self.world.start(self)  # it opens the cameras for each pass of the recording
        else:
            self.start_cameras()
        return self

    # -- cameras -----------------------------------------------------------------------------
    def start_cameras(self, on_loop: Callable[[Loop], None] | None = None) -> None:
        """A thread per configured camera (``shoe``: the shoe reader; ``table``: the overhead
        camera). ``on_loop`` is told of each camera loop as it is made, before its first frame."""
        if "shoe" not in self.cfg.cameras:
            log.warning("no [cameras.shoe] in the config: cards must be confirmed on the admin page")
        for name, target in (("shoe", self._shoe), ("table", self._table)):
            cam_cfg = self.cfg.cameras.get(name)
            if cam_cfg is None:
                continue
            thread = threading.Thread(target=target, args=(cam_cfg, on_loop),
                                      name=f"{name} camera", daemon=True)
            thread.start()
            self._threads.append(thread)

    def join_cameras(self, timeout: float = 10.0) -> None:
        """Wait for the camera threads to end (their footage over, or the table stopped)."""
        for thread in self._threads:
            thread.join(timeout=timeout)
        self._threads = [t for t in self._threads if t.is_alive()]
        self._cameras = [c for c in self._cameras if c.state not in ("closed", "ended")]

    def _open(self, cam_cfg: Any, name: str, on_event: Callable[[str, str], None]) -> Any:
        from hardware.camera import open_camera

        extra: dict[str, Any] = {"feed": self.feed} if cam_cfg.kind == "session" else {}
        camera = open_camera(cam_cfg, name, on_event=on_event, **extra)
        self._cameras.append(camera)
        return camera

    def _table(self, cam_cfg: Any, on_loop: Callable[[Loop], None] | None) -> None:
        """The overhead camera: read while the game has two or four seats (the seat zones)."""
        from vision.table.calibrate import CalibrationError, load_calibration
        from vision.table.faces import FacesError
        from vision.table.reader import TableReader

        name = "camera table"

        def on_event(kind: str, detail: str) -> None:
            self.controller.set_device(name, {"kind": "camera", "state": kind, "detail": detail})

        path = self.cfg.calibration_path("table")
        try:
            # the configured calibration must be there; the one a check stored, if it is
            cal = load_calibration(path) if cam_cfg.calibration or path.exists() else None
            faces = self._faces()
        except (CalibrationError, FacesError, OSError) as exc:
            log.error("table camera not started: %s", exc)
            on_event("error", str(exc))
            return
        self.table_calibration = cal
        if self.check is not None:
            self.check.faces = faces
        camera = None
        loop: TableLoop | None = None
        try:
            camera = self._open(cam_cfg, "table", on_event)
            frames = camera.frames()
            for t, frame in frames:
                if self.stop_event.is_set():
                    break
                if self.check is not None and self.check.take(t, frame, frames):
                    loop = None  # after the check the reader learns the empty table again
                    continue
                self._record("table", frame)
                if self.table_calibration is not cal:  # a check stored a new one
                    cal, loop = self.table_calibration, None  # the reader starts afresh with it
                game = self.controller.game
                seats = game.num_seats if game is not None else 0
                if loop is None or loop.reader.seats != seats:
                    if seats not in (2, 4):
                        if loop is not None or camera.counters.frames == 1:
                            on_event("idle", f"the table camera reads two- and four-seat games; "
                                     f"this one has {seats}")
                        loop = None
                        continue
                    reader = TableReader(self.profile, cal, seats, faces,
                                         marker_mm=cam_cfg.marker_cm * 10)
                    loop = TableLoop(self.controller, reader, name=name)
                    if on_loop is not None:
                        on_loop(loop)
                # the camera's own count: frames the check took are counted too
                loop.frame(t, camera.start_frame + camera.counters.frames - 1, frame)
        except Exception as exc:  # the camera loop must never take the table down
            log.exception("table camera loop failed")
            on_event("error", str(exc))
        finally:
            if camera is not None:
                camera.close()

    def _faces(self) -> Faces:
        from vision.table.faces import load_faces

        return self.faces if self.faces is not None else load_faces(self.profile)

    def _record(self, camera: str, frame: Any) -> None:
        """A frame of the game in play for the recording (none when the game is over)."""
        if self.recorder is None:
            return
        game = self.controller.game
        over = game is None or game.is_over
        self.recorder.frame(camera, None if over else self.controller.game_id, frame)

    # -- the organiser's table check ------------------------------------------------------------
    def _check_busy(self) -> Refusal | None:
        if self.world is not None:
            return Refusal("check-simulated", "это симулированный стол: его камера показывает "
                           "запись, проверять нечего. Проверка — на настоящем столе",
                           "this is the simulated table: its camera shows a recording. Check a "
                           "real table")
        ctl = self.controller
        with ctl.lock:
            game = ctl.game
            if game is not None and ctl.game_status == "active" and game.events \
                    and not game.is_over:
                return Refusal("check-game-in-play", "идёт игра: проверьте стол до её начала "
                               "или после конца партии",
                               "a game is in play: check the table before it starts or after "
                               "it ends")
        if not any(t.is_alive() and t.name == "table camera" for t in self._threads):
            return Refusal("check-no-camera", "камера стола не работает: смотрите «Устройства» "
                           "и `cardtable doctor`",
                           "the table camera is not running: see the devices and "
                           "`cardtable doctor`")
        return None

    def _checked(self, cal: Any) -> None:
        self.table_calibration = cal

    def _shoe(self, cam_cfg: Any, on_loop: Callable[[Loop], None] | None) -> None:
        name = "camera shoe"

        def on_event(kind: str, detail: str) -> None:
            self.controller.set_device(name, {"kind": "camera", "state": kind, "detail": detail})

        camera = None
        t = 0.0
        try:
            camera = self._open(cam_cfg, "shoe", on_event)
            loop = ShoeLoop(self.controller, ShoeReader(self.profile), archive=self.archive)
            if on_loop is not None:
                on_loop(loop)
            self.controller.set_device(name, {"kind": "camera", "state": "connected",
                                              "detail": str(cam_cfg.kind)})
            for n, (t, frame) in enumerate(camera.frames()):
                if self.stop_event.is_set():
                    break
                self._record("shoe", frame)
                loop.frame(t, camera.start_frame + n, frame)
            loop.finish(t)
        except Exception as exc:  # the camera loop must never take the table down
            log.exception("shoe camera loop failed")
            self.controller.set_device(name, {"kind": "camera", "state": "error",
                                              "detail": str(exc)})
        finally:
            if camera is not None:
                camera.close()

    # -- running -----------------------------------------------------------------------------
    def wait(self, timeout: float | None = None) -> bool:
        """True once the table has stopped, or its recorded session is over (``once``)."""
        return self.stop_event.wait(timeout)

    def stop(self) -> None:
        self.stop_event.set()
        if self.world is not None:
            self.world.stop()
        for camera in self._cameras:
            camera.close()
        for thread in self._threads:
            thread.join(timeout=3)
        if self.panel_link is not None:
            self.panel_link.stop()
        if self.panels is not None:
            self.panels.close()
        if self.dealer is not None:
            self.dealer.close()
        if self.archive is not None:
            self.archive.close()
        if self.recorder is not None:
            self.recorder.close()


def build_table(controller: Controller, cfg: Any, *, archive: FootageArchive | None = None,
                world: Any = None) -> Table:
    """The table ``cfg`` (a ``hardware.config.TableConfig``) describes, joined to ``controller``
    (not started). With a recorded session (``world``, a ``controller.session.SessionPlayer``
    for the config's ``[session]``) the deck and the table reader's faces are the recording's;
    otherwise the deck is the config's ``[table] deck`` (``vision.profile.ProfileError``). With
    ``[record]`` on, the games are recorded (``controller.recorder``)."""
    from vision.profile import load_profile

    recorder = None
    if cfg.recordings is not None:
        assert cfg.record is not None
        recorder = Recorder(cfg.recordings, budget_bytes=cfg.record.budget_mb * 1024**2)
    if world is not None:
        return Table(controller, cfg, world.bundle.profile(), archive,
                     faces=world.bundle.faces() if world.bundle.table is not None else None,
                     world=world, recorder=recorder)
    return Table(controller, cfg, load_profile(cfg.table.deck), archive, recorder=recorder)

