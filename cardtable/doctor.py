"""``cardtable doctor``: checks every device a table config names, before the table starts.

Why it exists: setting up a table in a club means a Pi, a camera in a shoe, a few USB panels and
a network; when something is wrong the organiser needs one command that says which part and what
to do about it, not a traceback from the middle of ``cardtable run``. Each check returns a
:class:`Check` (ok or not, what was seen, and a fix when it failed); ``run_checks(config)`` runs
them all, ``report()`` prints them, and the exit status is non-zero when any failed.

Checks: the GPIO pin factory can be imported and the configured pins claimed; each camera
delivers frames at its configured rate within a short window (files: frames at all); the table
camera sees the play area (its calibration fits its frames, or all four ArUco markers are in
view) and the deck has the table reader's face strips; the shoe's deck is taught and verified;
each panel
of ``[panels]`` answers with its firmware version through a ``PanelBridge``; the web port is free;
the data directory is writable and has room for the footage budget.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from controller.config import TableConfig
from hardware.config import CameraConfig

CAMERA_WINDOW_S = 2.0  # how long each camera is watched
RATE_SHARE = 0.8  # a live camera must deliver this share of its configured fps
PANEL_WAIT_S = 3.0  # how long the panels get to say hello
SPARE_MB = 200  # free space wanted beyond the footage budget (the game log, the OS)


@dataclass
class Check:
    kind: str  # gpio, camera, deck, panel, web, data
    name: str
    ok: bool
    detail: str
    fix: str = ""


# -------------------------------------------------------------------------------- GPIO
def check_gpio(cfg: TableConfig) -> Check:
    from hardware.gpio import DealerPanel, GpioError, close_factory, pin_factory

    g = cfg.gpio
    try:
        factory = pin_factory(g.factory)
    except GpioError as exc:
        fix = {"lgpio": "sudo apt install python3-lgpio; recreate the venv with "
                        "--system-site-packages (see docs/deploy-pi.md)",
               "rpigpio": "on a Pi 5 set factory = \"lgpio\"; else install python3-rpi.gpio",
               }.get(g.factory, "set [gpio] factory to lgpio, rpigpio or mock")
        return Check("gpio", g.factory, False, str(exc), fix)
    try:
        panel = DealerPanel(factory, lambda _name: None, buttons=dict(g.buttons),
                            leds=dict(g.leds), bounce_s=g.bounce_s, hold_s=g.hold_s,
                            buzzer=g.buzzer, card_sensor=g.card_sensor,
                            sensor_active_low=g.sensor_active_low)
    except GpioError as exc:
        close_factory(factory)
        return Check("gpio", g.factory, False, str(exc),
                     "another program holds these pins (stop it) or change the pins in [gpio]; "
                     "the service user must be in group gpio")
    parts = [f"{len(panel.buttons)} buttons", f"{len(panel.leds)} LEDs"]
    if panel.buzzer is not None:
        parts.append("buzzer")
    if panel.sensor is not None:
        parts.append(f"card sensor ({'card in the beam' if panel.card_present else 'beam clear'})")
    panel.close()
    close_factory(factory)
    return Check("gpio", g.factory, True, f"pin factory {g.factory}: " + ", ".join(parts))


# ------------------------------------------------------------------------------ cameras
def _camera_fix(cam_cfg: CameraConfig, detail: str) -> str:
    if cam_cfg.kind == "file":
        return f"check path = {cam_cfg.path!r}: the file must exist and be a complete video"
    if cam_cfg.kind == "v4l2":
        if "exist" in detail or "cannot be opened" in detail:
            return ("plug the USB camera in, or point device at the right /dev/videoN "
                    "(`v4l2-ctl --list-devices`); the service user must be in group video")
        return ("lower width/height/fps (USB bandwidth: one camera per port), or try another "
                "USB port or cable")
    if "not installed" in detail:
        return "sudo apt install python3-picamera2; recreate the venv with --system-site-packages"
    return ("check the ribbon cable and `rpicam-hello --list-cameras`; lower width/height/fps "
            "if frames are slow")


def check_camera(name: str, cam_cfg: CameraConfig, *, window_s: float = CAMERA_WINDOW_S,
                 snapshot_dir: Path | None = None, last_frame: list[np.ndarray] | None = None
                 ) -> Check:
    """``last_frame``: when given, the last frame seen is appended to it."""
    from hardware.camera import CameraError, open_camera

    label = f"{name} ({cam_cfg.kind})"
    try:
        cam = open_camera(cam_cfg, name)
    except CameraError as exc:
        return Check("camera", label, False, str(exc), _camera_fix(cam_cfg, str(exc)))
    times: list[float] = []
    last: np.ndarray | None = None
    started = time.monotonic()
    first_at: float | None = None
    try:
        for t, frame in cam.frames(max_s=window_s + 2.0):  # + time to open and warm up
            if first_at is None:
                first_at = time.monotonic()
            times.append(t)
            last = frame
            if time.monotonic() - first_at >= window_s:
                break
    finally:
        cam.close()
    c = cam.counters
    if last is not None and last_frame is not None:
        last_frame.append(last)
    if last is None:
        detail = cam.last_error or f"no frame within {window_s + 2.0:.0f} s"
        return Check("camera", label, False, detail, _camera_fix(cam_cfg, detail))
    elapsed = max((first_at and time.monotonic() - first_at) or 0.0, 1e-6)
    h, w = last.shape[:2]
    rate = (len(times) - 1) / elapsed if len(times) > 1 else 0.0
    detail = f"{len(times)} frames of {w}x{h} in {time.monotonic() - started:.1f} s"
    if snapshot_dir is not None:
        detail += f"; snapshot {save_snapshot(snapshot_dir, name, last)}"
    if cam_cfg.kind == "file":
        return Check("camera", label, True, detail)
    detail += f", {rate:.1f} fps (configured {cam_cfg.fps:g}), dropped {c.dropped}, " \
              f"stalls {c.stalls}"
    if (w, h) != (cam_cfg.width, cam_cfg.height):
        return Check("camera", label, False, detail + f"; asked for {cam_cfg.width}x"
                     f"{cam_cfg.height}", "the camera does not offer that size: pick one it "
                     "lists (`v4l2-ctl --list-formats-ext`)")
    if rate < RATE_SHARE * cam_cfg.fps or c.stalls:
        return Check("camera", label, False, detail, _camera_fix(cam_cfg, "slow"))
    return Check("camera", label, True, detail)


def check_table_view(cfg: TableConfig, frame: np.ndarray) -> Check:
    """The overhead camera sees the play area, the set-up can be read (the card's width in the
    image, the play area's size, the light: ``vision.table.check.setup_problems``) and the deck
    can be read on the table."""
    from vision.profile import ProfileError, load_profile
    from vision.table.calibrate import CalibrationError, calibrate_image, load_calibration
    from vision.table.check import setup_problems
    from vision.table.faces import FacesError, load_faces

    cam_cfg = cfg.cameras["table"]
    label = "table view"
    try:
        if cam_cfg.calibration:
            cal = load_calibration(Path(cam_cfg.calibration))
            cal.check_frame(frame.shape)
            seen = f"calibration {cam_cfg.calibration} fits the {frame.shape[1]}x{frame.shape[0]} frames"
        else:
            cal = calibrate_image(frame, cam_cfg.marker_cm * 10)
            seen = "all four ArUco markers (0-3) in view"
    except CalibrationError as exc:
        return Check("camera", label, False, str(exc),
                     "put the DICT_4X4_50 markers 0-3 on the play area's corners in view of the "
                     "camera, or calibrate it: cardtable table calibrate SNAPSHOT.png --out table.json "
                     "and set calibration in [cameras.table]")
    card_mm = (cal.card_mm or (60.0, 87.5))[0]
    seen += (f"; play area {cal.area_mm / 10:.1f} cm, a card {card_mm * cal.image_px_per_mm():.0f} px "
             f"wide" + (f", the markers' white {max(cal.white):.0f}" if cal.white else ""))
    problems = setup_problems(cal)
    if problems:
        return Check("camera", label, False, f"{seen}; " + "; ".join(p.en for p in problems),
                     "fix the set-up as said, then lay known cards: cardtable table check")
    if cal.check is None:
        seen += "; not yet checked with known cards (cardtable table check)"
    try:
        load_faces(load_profile(cfg.table.deck), build=False)
    except ProfileError as exc:
        return Check("camera", label, False, f"{seen}; deck: {exc}",
                     f"teach the deck: cardtable deck teach {cfg.table.deck} --video PASS.mp4")
    except FacesError:
        return Check("camera", label, False, f"{seen}; deck {cfg.table.deck!r} has no table face "
                     "strips", f"cardtable table faces {cfg.table.deck} --video PASS.mp4 (the pass "
                     "it was taught from)")
    return Check("camera", label, True, f"{seen}; deck {cfg.table.deck!r} readable on the table")


def check_shoe_deck(cfg: TableConfig) -> Check:
    """The shoe reader's deck is taught, and verified by its self-check (``vision.verify``): an
    unverified deck makes the table ask the organiser to confirm every card it is unsure of."""
    from vision.profile import ProfileError, load_profile

    name = cfg.table.deck
    try:
        profile = load_profile(name)
    except ProfileError as exc:
        return Check("deck", name, False, str(exc),
                     f"teach it: cardtable deck teach {name} --video PASS.mp4 "
                     "--verify SHUFFLED_PASS.mp4")
    fix = (f"deal the deck through the shoe again, shuffled, and run: cardtable deck verify "
           f"{name} --video PASS.mp4")
    if profile.verification is None:
        return Check("deck", name, False, "taught but never checked: the table asks to confirm "
                     "every card the reader is not sure of", fix)
    if not profile.verified:
        return Check("deck", name, False, f"unverified ({profile.verification.why}): the table "
                     "asks to confirm every card the reader is not sure of", fix)
    figures = ", ".join(f"{c.read}/{c.cards}" for c in profile.verification.passes)
    return Check("deck", name, True, f"verified {profile.verification.checked} (read {figures})")


def annotate(frame: np.ndarray, name: str) -> np.ndarray:
    """A copy of ``frame`` with the card the shoe reader's locator finds drawn on it."""
    import cv2

    from vision.locate import locate

    out = frame.copy()
    geo = locate(np.ascontiguousarray(frame[:, :, 1]), None)
    h = out.shape[0]
    if geo is None:
        text = f"{name}: no card in view"
    else:
        cv2.rectangle(out, (geo.left, 0), (geo.right, h - 1), (0, 255, 0), 2)
        for edge in geo.edges:
            cv2.line(out, (geo.left, edge), (geo.right, edge), (0, 0, 255), 2)
        text = (f"{name}: card {geo.left}-{geo.right} px wide {geo.width}, "
                f"{len(geo.edges)} edge(s), {geo.covered:.0%} covered")
    cv2.putText(out, text, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(out, text, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def save_snapshot(directory: Path, name: str, frame: np.ndarray) -> Path:
    import cv2

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.png"
    if not cv2.imwrite(str(path), annotate(frame, name)):
        raise OSError(f"cannot write {path}")
    return path


# ------------------------------------------------------------------------------- panels
def check_panels(cfg: TableConfig, wait_s: float = PANEL_WAIT_S) -> list[Check]:
    from firmware_bridge.bridge import PanelBridge

    seats = cfg.panels.seats
    if not seats:
        return [Check("panel", "panels", True, "no seat panels configured")]
    bridge = PanelBridge(cfg.panels).start()
    try:
        deadline = time.monotonic() + wait_s
        wanted = {s.panel_id for s in seats}
        while time.monotonic() < deadline:
            seen = {p.info.panel_id for p in bridge.connected() if p.info is not None}
            if wanted <= seen:
                break
            time.sleep(0.05)
        found = {p.info.panel_id: p for p in bridge.connected() if p.info is not None}
        ports = [p.path for p in bridge.ports()]
    finally:
        bridge.stop()
    out = []
    for s in seats:
        label = f"seat {s.seat} ({s.panel_id})"
        port = found.get(s.panel_id)
        if port is not None and port.info is not None:
            out.append(Check("panel", label, True,
                             f"firmware {port.info.firmware} on {port.path}"))
        else:
            where = ", ".join(ports) or "no serial port that looks like a panel"
            out.append(Check("panel", label, False,
                             f"panel {s.panel_id!r} did not answer within {wait_s:g} s "
                             f"(ports seen: {where})",
                             "plug the panel in (`cardtable panels list`), check its USB cable, "
                             "and that its panel_id matches [[panels.seats]]; the service user "
                             "must be in group dialout"))
    strangers = sorted(set(found) - {s.panel_id for s in seats})
    if strangers:
        out.append(Check("panel", "unassigned", True,
                         f"panels with no seat in the config: {', '.join(strangers)}"))
    return out


# ---------------------------------------------------------------------------- web, data
def check_web(cfg: TableConfig) -> Check:
    host, port = cfg.web.host, cfg.web.port
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return Check("web", f"{host}:{port}", False,
                         f"cannot listen on {host}:{port} ({exc.strerror})",
                         "stop what holds the port (`ss -ltnp`; is the table already running?) "
                         "or set [web] port to another; host must be an address of this Pi")
    return Check("web", f"{host}:{port}", True, "port free")


def check_data(cfg: TableConfig) -> Check:
    path = cfg.data_dir
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-") as f:
            f.write(b"ok")
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        return Check("data", str(path), False, f"cannot write in {path}: {exc.strerror or exc}",
                     f"create it for the service user: sudo install -d -o cardtable {path} "
                     "(or set [table] data_dir)")
    free_mb = shutil.disk_usage(path).free // 1024**2
    need = cfg.table.footage_budget_mb + SPARE_MB
    detail = f"writable, {free_mb} MB free (footage budget {cfg.table.footage_budget_mb} MB)"
    if free_mb < need:
        return Check("data", str(path), False, detail,
                     f"free {need - free_mb} MB on that disk or lower [table] footage_budget_mb")
    return Check("data", str(path), True, detail)


# --------------------------------------------------------------------------------- all
def run_checks(cfg: TableConfig, *, snapshot_dir: Path | None = None,
               camera_window_s: float = CAMERA_WINDOW_S,
               panel_wait_s: float = PANEL_WAIT_S) -> list[Check]:
    """Every check, in order: GPIO, cameras, the shoe's deck, panels, web, data."""
    checks = [check_gpio(cfg)]
    if not cfg.cameras:
        checks.append(Check("camera", "cameras", False, "no camera configured",
                            "add a [cameras.shoe] table (`cardtable config init` shows one)"))
    for name, cam_cfg in cfg.cameras.items():
        last: list[np.ndarray] = []
        try:
            checks.append(check_camera(name, cam_cfg, window_s=camera_window_s,
                                       snapshot_dir=snapshot_dir, last_frame=last))
            if name == "table" and last:
                checks.append(check_table_view(cfg, last[-1]))
        except Exception as exc:  # a check must report, never crash the doctor
            checks.append(Check("camera", name, False, f"check failed: {exc}",
                                "see the log; report it"))
    if "shoe" in cfg.cameras:
        checks.append(check_shoe_deck(cfg))
    checks += check_panels(cfg, panel_wait_s)
    checks.append(check_web(cfg))
    checks.append(check_data(cfg))
    return checks


def report(checks: list[Check]) -> str:
    lines = []
    for c in checks:
        lines.append(f"{'ok  ' if c.ok else 'FAIL'} {c.kind} {c.name}: {c.detail}")
        if not c.ok and c.fix:
            lines.append(f"     fix: {c.fix}")
    failed = sum(not c.ok for c in checks)
    lines.append("all devices ok" if not failed else f"{failed} problem(s)")
    return "\n".join(lines)


def as_json(checks: list[Check]) -> dict[str, Any]:
    return {"ok": all(c.ok for c in checks), "checks": [asdict(c) for c in checks]}
