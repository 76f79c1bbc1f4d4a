"""``cardtable config init|check`` and ``cardtable doctor``: the table config and its devices.

Why it exists: the organiser writes one ``table.toml`` and must learn about every mistake in it,
and every device that is not answering, before the evening starts. Bad input is one ``error:``
line per problem and exit status 2; a doctor run with a failed check exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DEFAULT_CONFIG = Path("/etc/cardtable/table.toml")




def register(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("config", help="the table config: write an example, "
                                                       "check a file")
    csub = c.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    p = csub.add_parser("init", help="write a commented example config")
    p.add_argument("file", nargs="?", type=Path, metavar="FILE",
                   help="where to write it (default: standard output)")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(func=cmd_init)
    p = csub.add_parser("check", help="validate a config file")
    p.add_argument("file", type=Path, metavar="FILE")
    p.set_defaults(func=cmd_check)

    d = sub.add_parser("doctor", help="check every device the config names")
    d.add_argument("--config", type=Path, default=DEFAULT_CONFIG, metavar="FILE",
                   help=f"the table config (default: {DEFAULT_CONFIG})")
    d.add_argument("--json", action="store_true", help="one JSON object")
    d.add_argument("--snapshot", type=Path, default=None, metavar="DIR",
                   help="save one annotated frame per camera in DIR")
    d.add_argument("--camera-window", type=float, default=None, metavar="S",
                   help="seconds each camera is watched (default 2)")
    d.add_argument("--panel-wait", type=float, default=None, metavar="S",
                   help="seconds the panels get to answer (default 3)")
    d.set_defaults(func=cmd_doctor)


def _errors(lines: list[str]) -> int:
    for line in lines:
        print(f"error: {line}", file=sys.stderr)
    return 2


def cmd_init(args: argparse.Namespace) -> int:
    from controller.config import EXAMPLE

    if args.file is None:
        sys.stdout.write(EXAMPLE)
        return 0
    if args.file.exists() and not args.force:
        return _errors([f"{args.file} exists; --force overwrites it"])
    try:
        args.file.write_text(EXAMPLE, encoding="utf-8")
    except OSError as exc:
        return _errors([f"cannot write {args.file}: {exc.strerror or exc}"])
    print(f"wrote {args.file}; check it with `cardtable config check {args.file}`",
          file=sys.stderr)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from controller.config import ConfigError, load_config

    try:
        cfg = load_config(args.file)
    except ConfigError as exc:
        return _errors(exc.errors)
    cams = ", ".join(f"{n} ({c.kind})" for n, c in cfg.cameras.items()) or "none"
    print(f"{args.file}: ok — table {cfg.table.name!r}, {len(cfg.panels.seats)} seat panel(s), "
          f"GPIO {cfg.gpio.factory}, cameras: {cams}")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from cardtable.backends import plug
    from cardtable.doctor import as_json, report, run_checks
    from controller.config import ConfigError, load_config

    plug()
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        return _errors(exc.errors)
    kwargs = {}
    if args.camera_window is not None:
        kwargs["camera_window_s"] = args.camera_window
    if args.panel_wait is not None:
        kwargs["panel_wait_s"] = args.panel_wait
    checks = run_checks(cfg, snapshot_dir=args.snapshot, **kwargs)
    if args.json:
        print(json.dumps(as_json(checks), ensure_ascii=False, indent=2))
    else:
        print(report(checks))
    return 0 if all(c.ok for c in checks) else 1
