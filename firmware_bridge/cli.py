"""`cardtable panels ...`: list connected seat panels, test one, or run a simulated one."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from firmware_bridge.bridge import ButtonEvent, PanelBridge, PanelEvent
from firmware_bridge.config import ConfigError, PanelConfig, SeatPanel, load_config
from firmware_bridge.protocol import MAX_SEATS

CONFIG_NAME = "table.toml"
MAX_PANEL_ID: int = next(  # the longest id a table config can hold
    m.max_length for m in SeatPanel.model_fields["panel_id"].metadata
    if getattr(m, "max_length", None))


class UsageError(Exception):
    """A bad argument or config found after parsing: one line on stderr, exit status 2."""


def _number(kind: type, low: float | None = None, high: float | None = None,
            what: str = "") -> object:
    """An argparse type: a finite number within [low, high]."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if (low is not None and value < low) or (high is not None and value > high):
            span = (f"from {low} to {high}" if high is not None else f"{low} or more")
            raise argparse.ArgumentTypeError(f"must be {what or span}, not {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def _panel_id(text: str) -> str:
    if not 1 <= len(text) <= MAX_PANEL_ID:
        raise argparse.ArgumentTypeError(
            f"must be 1 to {MAX_PANEL_ID} characters (a table config holds no longer ids), "
            f"not {len(text)}")
    if len(text.encode("utf-8")) > 255:  # the hello carries it as a u8-length string
        raise argparse.ArgumentTypeError("is longer than 255 bytes in UTF-8")
    if not text.isprintable() or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} has spaces or control characters")
    return text


def default_config_path() -> Path | None:
    from platformdirs import user_config_dir

    path = Path(user_config_dir("cardtable")) / CONFIG_NAME
    return path if path.exists() else None


def register(subparsers: argparse._SubParsersAction) -> None:
    panels = subparsers.add_parser(
        "panels", help="seat panels on serial: list, test, simulate",
        description="Seat panels (button-and-LED boards on USB serial).")
    sub = panels.add_subparsers(dest="panels_command", metavar="ACTION", required=True)

    def discovery_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", type=Path, help="table config (TOML or JSON) mapping panel "
                       "ids to seats; default: the user config dir's table.toml if present")
        p.add_argument("--by-id-dir", action="append", metavar="DIR",
                       help="look for panels here instead of /dev/serial/by-id (repeatable)")
        p.add_argument("--all-ports", action="store_true",
                       help="probe every entry of the by-id dirs, not only panel-looking names")
        p.add_argument("--no-list-ports", action="store_true",
                       help="do not probe USB ports found by serial.tools.list_ports")

    lst = sub.add_parser("list", help="show connected panels and their firmware")
    lst.add_argument("ports", nargs="*", metavar="PORT", help="also open these ports")
    lst.add_argument("--wait", type=_number(float, 0), default=2.0, metavar="S",
                     help="how long to wait for panels to say hello (default 2 s)")
    discovery_options(lst)
    lst.set_defaults(func=cmd_list)

    test = sub.add_parser("test", help="blink every LED and echo button presses")
    test.add_argument("port", nargs="?", metavar="PORT",
                      help="panel port (default: every panel found)")
    test.add_argument("--duration", type=_number(float, 0), default=0.0, metavar="S",
                      help="stop after S seconds (default: run until Ctrl-C)")
    test.add_argument("--wait", type=_number(float, 0), default=5.0, metavar="S",
                      help="how long to wait for a panel (default 5 s)")
    discovery_options(test)
    test.set_defaults(func=cmd_test)

    sim = sub.add_parser("sim", help="run a simulated panel on a pseudo-terminal")
    sim.add_argument("--seat", type=_number(int, 0, MAX_SEATS - 1,
                                            f"a seat from 0 to {MAX_SEATS - 1} (seats count from 0)"),
                     default=0, metavar="N",
                     help=f"seat 0-{MAX_SEATS - 1}, counted from 0 as in the table config; the "
                     "panel id becomes sim-seat-N (default 0)")
    sim.add_argument("--panel-id", type=_panel_id,
                     help=f"panel id to announce instead of sim-seat-N (1-{MAX_PANEL_ID} "
                     "characters)")
    sim.add_argument("--link", type=Path, metavar="PATH",
                     help="also expose the pty as a symlink here, like /dev/serial/by-id")
    sim.add_argument("--drop", type=_number(float, 0, 1), default=0.0,
                     help="fraction of bytes to drop (0-1)")
    sim.add_argument("--corrupt", type=_number(float, 0, 1), default=0.0,
                     help="fraction of bytes to corrupt (0-1)")
    sim.add_argument("--seed", type=int, default=0, help="seed for the fault injection")
    sim.add_argument("--duration", type=_number(float, 0), default=0.0, metavar="S",
                     help="stop after S seconds (default: run until Ctrl-C)")
    sim.set_defaults(func=cmd_sim)

    for parser in (lst, test, sim):  # errors found after parsing are reported like argparse's
        parser.set_defaults(func=_reporting(parser.get_default("func"), parser.prog))


def _reporting(func: object, prog: str) -> object:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args) or 0)  # type: ignore[operator]
        except (UsageError, ConfigError) as exc:
            print(f"{prog}: error: {exc}", file=sys.stderr)
            return 2

    run.__name__ = getattr(func, "__name__", "run")
    return run


def _config(args: argparse.Namespace) -> PanelConfig:
    path = args.config or default_config_path()
    config = load_config(path) if path else PanelConfig()  # ConfigError: one line, status 2
    updates: dict[str, object] = {}
    if args.by_id_dir:
        updates["by_id_dirs"] = list(args.by_id_dir)
    if args.all_ports:
        updates["port_globs"] = ["*"]
    if args.no_list_ports:
        updates["use_list_ports"] = False
    return config.model_copy(update=updates)


def _wait_for_hellos(bridge: PanelBridge, seconds: float) -> None:
    """Wait until every port found has handshaked, or the time is up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ports = bridge.ports()
        if ports and all(port.state == "connected" for port in ports):
            return
        time.sleep(0.02)


def cmd_list(args: argparse.Namespace) -> int:
    with PanelBridge(_config(args), ports=args.ports) as bridge:
        _wait_for_hellos(bridge, args.wait)
        panels = bridge.status()["panels"]
    connected = [p for p in panels if p["state"] == "connected"]
    if not panels:
        print("no panels found")
        return 1
    rows = [("PORT", "PANEL", "SEAT", "FIRMWARE", "BUTTONS", "LEDS", "STATE")]
    for p in panels:
        rows.append((
            p["port"], p["panel_id"] or "-", "-" if p["seat"] is None else str(p["seat"]),
            p["firmware"] or "-", str(len(p["buttons"])), ",".join(p["leds"]) or "-",
            p["state"]))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip())
    return 0 if connected else 1


def cmd_test(args: argparse.Namespace) -> int:
    ports = [args.port] if args.port else []
    with PanelBridge(_config(args), ports=ports, discover=not args.port) as bridge:
        if not bridge.wait_connected(1, args.wait):
            print("no panel answered", file=sys.stderr)
            return 1
        _wait_for_hellos(bridge, 0.5)
        for port in bridge.connected():
            info = port.info
            assert info is not None
            print(f"{info.panel_id} on {port.path}: firmware {info.firmware}, seat "
                  f"{port.seat if port.seat is not None else '-'}; blinking "
                  f"{', '.join(info.led_names())}", flush=True)
            for n, lid in enumerate(sorted(info.leds)):
                colour = ((255, 0, 0), (0, 255, 0), (0, 0, 255))[n % 3]
                bridge.set_led(info.panel_id, lid, "blink", colour, 400 + 100 * n)
            if info.has_buzzer:
                bridge.buzz(info.panel_id, 2000, 80)
        print("press buttons; Ctrl-C to stop", flush=True)
        deadline = time.monotonic() + args.duration if args.duration else None
        try:
            while deadline is None or time.monotonic() < deadline:
                event = bridge.next_event(timeout=0.1)
                if isinstance(event, ButtonEvent):
                    seat = "-" if event.seat is None else event.seat
                    print(f"seat {seat} {event.panel_id}: {event.button} {event.action} "
                          f"(panel t={event.panel_ms} ms)", flush=True)
                elif isinstance(event, PanelEvent) and event.kind != "connected":
                    print(f"{event.panel_id}: {event.kind} {event.detail}".rstrip(), flush=True)
        except KeyboardInterrupt:
            pass
        finally:
            for port in bridge.connected():
                if port.info is not None:
                    done = [bridge.set_led(port.info.panel_id, lid, "off")
                            for lid in port.info.leds]
                    for delivery in done:
                        delivery.wait(1.0)
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    from firmware_bridge.sim import Faults, SimPanel

    panel_id = args.panel_id or PanelConfig.simulated_panel_id(args.seat)
    faults = Faults(drop=args.drop, corrupt=args.corrupt)
    if args.link is not None:
        folder = args.link.parent
        if not folder.is_dir():
            raise UsageError(f"--link {args.link}: folder {folder} does not exist")
        if args.link.is_dir():
            raise UsageError(f"--link {args.link}: is a folder; give the path of the link")
    try:
        sim = SimPanel(panel_id, link_path=args.link, faults=faults, seed=args.seed).start()
    except OSError as exc:
        where = f"--link {args.link}" if args.link is not None else "pseudo-terminal"
        raise UsageError(f"{where}: {exc.strerror or exc}") from None
    print(f"simulated panel {panel_id} (seat {args.seat}) on {sim.pty_path}", flush=True)
    if args.link:
        print(f"also at {args.link}", flush=True)
    print("type a button name to tap it, 'long NAME' for a long press, Ctrl-C to stop; "
          f"buttons: {' '.join(sim.buttons)}", flush=True)
    threading.Thread(target=_sim_input, args=(sim,), daemon=True).start()
    deadline = time.monotonic() + args.duration if args.duration else None
    shown = 0
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.05)
            with sim.lock:
                new = sim.applied[shown:]
                shown += len(new)
            for cmd in new:
                print(f"LED {cmd.led} {cmd.mode} colour={cmd.colour} period={cmd.period_ms} ms",
                      flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


def _sim_input(sim: object) -> None:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "long" and len(words) == 2:
                sim.long_press(words[1])  # type: ignore[attr-defined]
            else:
                sim.tap(words[0])  # type: ignore[attr-defined]
        except KeyError:
            print(f"no button {words[-1]!r}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run only the panels commands (``python -m firmware_bridge.cli panels ...``)."""
    parser = argparse.ArgumentParser(prog="cardtable")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
