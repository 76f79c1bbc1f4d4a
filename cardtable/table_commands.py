"""``cardtable run`` (the main job) and ``cardtable replay`` (a recorded session → score sheet).

``run`` with no arguments, off a Pi: the simulated table replays the bundled recording of a
complete Belot game in real time — shoe frames through the shoe reader, buttons through simulated
seat panels on real ptys — into the controller and its durable log, and serves the live display on
http://127.0.0.1:8000. Stopped and started again (even by ``kill -9``), it resumes the same game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from cardtable.args import number, whole
from controller.footage import (
    Bundle,
    BundleError,
    load_bundle,
    load_inputs,
    read_frame_times,
)


def register(sub: argparse._SubParsersAction) -> None:
    pin = sub.add_parser("admin-pin", help="a new admin PIN for the table's display, kept beside "
                         "its log (printed once)")
    pin.add_argument("--db", type=Path, help="the table log (default: the data dir's "
                     "table.sqlite); the PIN is kept beside it")
    pin.set_defaults(func=cmd_admin_pin)
    p = sub.add_parser("run", help="the main job: run the table (off a Pi: the simulated table "
                       "replaying bundled footage) with the live display on http://127.0.0.1:8000")
    p.add_argument("--config", type=Path, help="table config (TOML) for the real devices")
    p.add_argument("--bundle", type=Path, default=None,
                   help="recorded session to replay (default: the bundled Belot game)")
    p.add_argument("--speed", type=number("speed", lo=0, hi=1000, above=True), default=None,
                   help="replay speed (1 = real time, the default)")
    p.add_argument("--host", default=None, help="address of the display (default 127.0.0.1, "
                   "or the config's [web] host)")
    p.add_argument("--port", type=whole("port", lo=1, hi=65535), default=None, help="default 8000, or the config's")
    p.add_argument("--db", type=Path, help="table log (default: the data dir's table.sqlite)")
    p.add_argument("--no-panels", action="store_true",
                   help="press buttons straight into the controller instead of simulated panels")
    p.add_argument("--no-web", action="store_true", help="no web display (for scripts and tests)")
    p.add_argument("--once", action="store_true", help="stop after one game")
    p.add_argument("--names", type=_names, default=None, metavar="A,B[,C,D]",
                   help="the players' names, by seat (default: the recording's)")
    p.add_argument("--new-game", action="store_true",
                   help="do not resume: abandon an unfinished game (it stays in the history)")
    p.add_argument("--footage-budget", type=whole("the footage budget (MB)", lo=0), default=None, metavar="MB",
                   help="disk kept for the dispute archive of deal footage (0: keep none)")
    p.add_argument("--record", action="store_true",
                   help="record every game (both cameras' frames in which something moved) for "
                   "`cardtable history export GAME --bundle DIR`; or the config's [record]")
    p.add_argument("--pause", type=number("pause", lo=0), default=None,
                   help="seconds the final score stays up before the next game")
    p.add_argument("--club", metavar="URL", help="publish the table's log to the club's broker "
                   "(mqtt://[user:password@]host[:port]; or the config's [club])")
    p.add_argument("--club-name", default=None, help="the club (default: the config's, or club)")
    p.add_argument("--table-name", default=None,
                   help="this table in the club (default: the config's [table] name, or sim)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("replay", help="replay a recorded session and print its score sheet")
    p.add_argument("bundle", nargs="?", type=Path, help="a recorded session folder (or give the "
                   "files one by one below)")
    p.add_argument("--shoe", type=Path, help="shoe camera clip (SHOE.times.json beside it, if "
                   "present, gives each frame's time)")
    p.add_argument("--table", type=Path, help="table camera clip (TABLE.times.json beside it, if "
                   "present, gives each frame's time; the seat zones are the game's)")
    p.add_argument("--buttons", type=Path, help="BUTTONS.jsonl: {\"t\", \"seat\", \"button\"} lines "
                   "(and table events, see docs/table.md)")
    p.add_argument("--deck", help="deck profile name (cardtable deck list) or a profile .json file")
    p.add_argument("--game", help="game (cardtable games)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                   help="progress bar on stderr")
    p.add_argument("--db", type=Path, help="keep the replay's table log in this SQLite file "
                   "(default: thrown away); `cardtable status --db` and `history` read it")
    p.add_argument("--check", action="store_true", help="compare the replay with the recorded "
                   "game (a folder of recordings: each); exit 1 when anything differs")
    p.set_defaults(func=cmd_replay)


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


# ------------------------------------------------------------------------------ replay
def _replay_bundle(args: argparse.Namespace) -> Bundle:
    from engine.errors import EngineError
    from engine.registry import game_class
    from engine.settings import parse_option

    if args.bundle is not None:
        return load_bundle(args.bundle)
    if args.shoe is None or args.game is None or args.deck is None:
        raise BundleError("give a recorded session folder, or --shoe, --game and --deck")
    try:
        cls = game_class(args.game)
        options = cls(dict(parse_option(o) for o in args.option)).settings.changed()
        seats = cls(options).num_seats
    except EngineError as exc:
        raise BundleError(str(exc)) from None
    if args.table is not None and seats not in (2, 4):
        raise BundleError(f"the table camera reads two- and four-seat games; {args.game} has {seats}")
    inputs = load_inputs(args.buttons) if args.buttons else []  # a bad line is named first
    folder = Path(tempfile.mkdtemp(prefix="cardtable-replay-"))
    times = _loose_clip(args.shoe, folder / "shoe.mp4")
    table_times = _loose_clip(args.table, folder / "table.mp4") if args.table is not None else []
    bundle = Bundle(path=folder, game=args.game, options=options, names=[], shoe_cards=[],
                    events=[], inputs=inputs, times=times, table_times=table_times,
                    table_meta={"seats": seats, "empty_frames": [0]} if table_times else {})
    deck = Path(args.deck)
    if deck.suffix == ".json" and deck.is_file():
        (folder / "deck.json").symlink_to(deck.resolve())
        faces = deck.with_suffix(".table.npz")
        if args.table is not None and faces.is_file():
            (folder / "deck.table.npz").symlink_to(faces.resolve())
    else:
        from vision.profile import load_profile, save_profile  # noqa: F401 - validates the name

        (folder / "deck.json").write_text(load_profile(args.deck).model_dump_json(), encoding="utf-8")
    if args.table is not None and not (folder / "deck.table.npz").exists():
        from controller.footage import save_table_faces
        from vision.table.faces import FacesError, load_faces

        try:
            save_table_faces(folder / "deck.table.npz", load_faces(bundle.profile()))
        except FacesError as exc:
            raise BundleError(str(exc)) from None
    return bundle


def _loose_clip(clip: Path, link: Path) -> list[float]:
    """A clip given on the command line, linked into the replay's folder: its frame times from
    CLIP.times.json beside it, else one frame every 1/30 s."""
    from vision.video import VideoError, frame_count

    if not clip.is_file():
        raise BundleError(f"no such video: {clip}")
    times_path = clip.with_suffix(".times.json")
    if times_path.is_file():
        times = read_frame_times(times_path)
    else:
        try:
            times = [n / 30.0 for n in range(frame_count(clip))]
        except VideoError as exc:
            raise BundleError(str(exc)) from None
    link.symlink_to(clip.resolve())
    return times


def cmd_replay(args: argparse.Namespace) -> int:
    from cardtable.engine_commands import print_sheet

    if args.check and args.bundle is not None and args.bundle.is_dir() \
            and not (args.bundle / "game.json").is_file():
        return _check_folder(args)
    try:
        bundle = _replay_bundle(args)
    except BundleError as exc:
        return _error(str(exc))
    if args.db is not None and args.db.exists():
        return _error(f"{args.db} exists; the replay's log goes to a new file")
    if args.check and (problem := _truth_problem(bundle)) is not None:
        return _error(problem)  # before the (long) replay
    played = _play(bundle, args.db, args.progress, alerts=not args.check)
    if isinstance(played, str):
        return _error(played)
    if args.check:
        try:
            return _print_checks([_check(bundle, played)], args.json)
        except BundleError as exc:
            return _error(str(exc))
    print_sheet(played.score_sheet(), as_json=args.json)
    if not played.is_over:
        print("note: the recording ends before the game does", file=sys.stderr)
    return 0


def _play(bundle: Bundle, db: Path | None, progress: bool, alerts: bool = True) -> Any:
    """The game the controller makes of a recording replayed at full speed (its log in ``db``,
    else thrown away), or what went wrong (a string)."""
    from controller.core import Controller
    from controller.log import GameLog, LogError
    from controller.table import SimulatedTable
    from vision.profile import ProfileError
    from vision.video import VideoError

    try:
        bundle.profile()
        if bundle.table is not None:
            bundle.faces()
    except (BundleError, ProfileError) as exc:
        return str(exc)
    with tempfile.TemporaryDirectory(prefix="cardtable-replay-db-") as tmp:
        try:
            controller = Controller(GameLog(db or Path(tmp) / "replay.sqlite"))
        except (OSError, LogError) as exc:
            return f"cannot write the replay's log {db}: {exc}"
        bar = None
        if progress:
            from tqdm import tqdm

            from vision.video import frame_count

            with contextlib.suppress(VideoError):
                total = frame_count(bundle.shoe) + len(bundle.table_times)
                bar = tqdm(total=total or None, unit="frame", desc=f"replaying {bundle.path.name}",
                           leave=False, file=sys.stderr)
        table = SimulatedTable(controller, bundle, speed=0,
                               progress=(bar.update if bar is not None else None))
        try:
            table.play(resume=False)
        except VideoError as exc:
            return str(exc)
        finally:
            if bar is not None:
                bar.close()
        game = controller.game
        assert game is not None
        if alerts:
            for seq_alert in controller.log.entries(controller.game_id, kinds=("alert",)):
                body = seq_alert.body
                if body.get("level") in ("warning", "error", "illegal"):
                    print(f"alert [{body['rule']}] {body['message']}", file=sys.stderr)
        controller.log.close()
    return game


def _check(bundle: Bundle, game: Any) -> Any:
    """The replay against the recording's truth; BundleError when the truth is unplayable."""
    from controller.check import CheckError, check_game

    try:
        return check_game(bundle.path.name, bundle.game, bundle.options, bundle.events, game)
    except CheckError as exc:
        raise BundleError(str(exc)) from None


def _truth_problem(bundle: Bundle) -> str | None:
    """Why the recording's own game cannot be replayed, or None."""
    from engine.errors import EngineError
    from engine.registry import game_class

    try:
        game_class(bundle.game).replay(bundle.events, bundle.options)
    except (EngineError, ValueError) as exc:
        return (f"{bundle.path.name}: the recorded game (game.json's events) cannot be "
                f"replayed: {exc}")
    return None


def _check_folder(args: argparse.Namespace) -> int:
    """Every recording in a folder (its subfolders with a game.json), replayed and checked."""
    folders = sorted(p.parent for p in args.bundle.glob("*/game.json"))
    if not folders:
        return _error(f"{args.bundle} holds no recording (no game.json in it or its folders)")
    reports: list[Any] = []
    for folder in folders:
        try:
            bundle = load_bundle(folder)
        except BundleError as exc:
            return _error(str(exc))
        if (problem := _truth_problem(bundle)) is not None:
            return _error(problem)
        played = _play(bundle, None, args.progress, alerts=False)
        if isinstance(played, str):
            return _error(f"{folder.name}: {played}")
        try:
            reports.append(_check(bundle, played))
        except BundleError as exc:
            return _error(str(exc))
    return _print_checks(reports, args.json)


def _print_checks(reports: list[Any], as_json: bool) -> int:
    """The reports (and, for several, a summary); exit 1 when any recording differs."""
    if as_json:
        print(json.dumps([r.to_json() for r in reports], ensure_ascii=False, indent=2))
    else:
        for r in reports:
            print("\n".join(r.lines()))
        if len(reports) > 1:
            same = sum(r.ok for r in reports)
            print(f"{same} of {len(reports)} recordings replay as recorded")
    return 0 if all(r.ok for r in reports) else 1


# ------------------------------------------------------------------------------ run
RECORDINGS = "recordings"  # beside the table log: the recorded games (`--record`)
PIN_FILE = "admin-pin.hash"  # beside the table log: the admin PIN's hash, kept across restarts


def _display(controller: Any, archive: Any, host: str, port: int, pin_hash: str | None,
             pin: str | None = None, hint: str = "", pin_file: Path | None = None,
             table_check: Any = None, replaying: bool = False) -> tuple[Any, str]:
    """The web display's server, and where to find it. Without a PIN hash, the one kept in
    ``pin_file`` is used; without that, a PIN is made (or ``pin`` used), its hash kept there
    and the PIN written once to stderr (``admin PIN: 123456``)."""
    from table_ui.app import create_app
    from table_ui.app import server as web_server

    note = ""
    if pin_hash is None:
        pin_hash, note = _kept_pin(pin_file, pin, hint)
    server = web_server(create_app(controller, admin_pin_hash=pin_hash, archive=archive,
                                   table_check=table_check, replaying=replaying),
                        host=host, port=port)
    url = f"http://{host}:{port}"
    return server, f"table display: {url}/   history: {url}/history   admin: {url}/admin{note}"


def _kept_pin(pin_file: Path | None, pin: str | None, hint: str) -> tuple[str, str]:
    """(hash, note): the PIN kept in ``pin_file``, or a new one kept there and said on stderr."""
    from table_ui.security import hash_pin, random_pin

    if pin is None and pin_file is not None:
        try:
            kept = pin_file.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            kept = ""
        if kept.startswith("scrypt$") and kept.count("$") == 5:
            return kept, " (the admin PIN as first printed; `cardtable admin-pin` makes a new one)"
    keep = pin is None
    pin = pin or random_pin()
    hashed = hash_pin(pin)
    if pin_file is not None and keep and (problem := _write_pin(pin_file, hashed)):
        print(f"warning: {problem}; a new PIN is made at the next start", file=sys.stderr)
    print(f"admin PIN: {pin}{' (' + hint + ')' if hint else ''}", file=sys.stderr, flush=True)
    return hashed, " (PIN on stderr)"


def _write_pin(pin_file: Path, hashed: str) -> str | None:
    """Keep a PIN's hash (readable by its owner only); what went wrong, or None."""
    try:
        pin_file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(pin_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(hashed + "\n")
    except OSError as exc:
        return f"the admin PIN cannot be kept in {pin_file}: {exc.strerror or exc}"
    return None


def cmd_admin_pin(args: argparse.Namespace) -> int:
    """A new admin PIN for this table's display, kept beside its log, printed once."""
    from controller.log import default_path
    from table_ui.security import hash_pin, random_pin

    if args.db is not None and not Path(args.db).is_file():
        return _error(f"no table log at {args.db} (run the table once first, or leave out --db "
                      "for the data dir's)")
    pin_file = Path(args.db or default_path()).parent / PIN_FILE
    pin = random_pin()
    if (problem := _write_pin(pin_file, hash_pin(pin))) is not None:
        return _error(problem)
    print(f"admin PIN: {pin}  (kept in {pin_file}; a running table takes it at its next start)")
    return 0


def _announce(what: str, where: str) -> None:
    """Say what runs and where to look."""
    print(f"cardtable: {what}", flush=True)
    if where:
        print(f"  {where}", flush=True)
    print("  stop with Ctrl-C (started again, it resumes the same game)", flush=True)


def _stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and systemd's stop (SIGTERM) both stop the table cleanly, from the very
    start: SIGINT even when the process was started with it ignored (a background job of a
    script inherits that, and then nothing but kill -9 would stop the table)."""
    def terminate(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminate)


def _lock_table(db: Path) -> Any:
    """One ``cardtable run`` per table log: two would interleave their games in one file. The
    lock sits beside the log's real file, whatever path (a symlink) named it."""
    import fcntl

    from controller.log import LogError

    db = Path(db).resolve()  # the file itself: a symlink or another path to it is the same log
    handle = open(db.with_name(db.name + ".lock"), "a+")  # noqa: SIM115 - held for the run
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        owner = handle.read().strip() or "?"
        handle.close()
        raise LogError(f"another `cardtable run` (pid {owner}) is using the table log {db}; "
                       "stop it first, or give this one its own --db") from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def _names(text: str) -> list[str]:
    """``--names``: comma-separated, each 1-40 characters."""
    from controller.core import BadNames, clean_names

    try:
        names = clean_names(text.split(","))
    except BadNames as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not all(names):
        raise argparse.ArgumentTypeError("names are 1-40 characters each, separated by commas")
    return names


def _club(args: argparse.Namespace, cfg: Any, game_log: Any, controller: Any) -> Any:
    """The club link of ``--club`` or the config's ``[club]`` (None without either), started;
    its state shows on the display as the device ``club``. ValueError for a bad URL or name."""
    from club.protocol import Broker

    section = getattr(cfg, "club", None) if cfg is not None else None
    url = args.club or (section.broker if section is not None else None)
    if url is None:
        return None
    broker = Broker.parse(url)
    if section is not None and section.username and broker.username is None:
        broker = broker.model_copy(update={"username": section.username,
                                           "password": section.password})
    club = args.club_name or (section.club if section is not None else "club")
    table = (args.table_name or (section.table if section is not None else None)
             or (cfg.table.name if cfg is not None else "sim"))
    from controller.club_link import ClubLink

    shown: list[str] = []

    def on_state(state: str, detail: str) -> None:
        if shown == [state, detail]:
            return  # a start that waits is offered again every poll: say it once
        shown[:] = [state, detail]
        controller.set_device("club", {"kind": "club", "state": state, "detail": detail})

    def on_start(start: Any) -> bool:
        """A round of the club's tournament: start it, unless a game is still being played
        here (then it waits, and the display says so)."""
        with controller.lock:  # no input between the look and the new game
            game = controller.game
            if game is not None and controller.game_status == "active" and not game.is_over:
                on_state("online", f"the club's next game ({start.title or start.game}) waits "
                         "for this one to end")
                return False
            controller.new_game(start.game, start.options, start.names)
        on_state("online", f"the club started {start.game}: {', '.join(start.names)}")
        return True

    return ClubLink(game_log.path, broker, club, table, on_state=on_state,
                    on_start=on_start).start()


SIM_CONFIG = Path(__file__).parents[1] / "controller" / "data" / "table.toml"  # the simulated table's devices


def _table_config(args: argparse.Namespace) -> Any:
    """The table's config: ``--config``, or the simulated table's (its devices the recorded and
    simulated back-ends) with the command line's overrides. ConfigError, or ValueError for an
    override that does not fit the config."""
    from controller.config import load_config

    cfg = load_config(args.config or SIM_CONFIG)
    session = cfg.session
    given = [flag for flag, value in (("--bundle", args.bundle), ("--speed", args.speed),
                                      ("--pause", args.pause), ("--names", args.names))
             if value is not None] + (["--once"] if args.once else [])
    if session is None:
        if given:
            raise ValueError(f"{given[0]} is for a recorded session (the simulated table); the "
                             f"config {args.config} has no [session]")
    else:
        session = session.model_copy(update={
            k: v for k, v in (("bundle", str(args.bundle) if args.bundle else None),
                              ("speed", args.speed), ("pause_s", args.pause),
                              ("names", args.names), ("once", args.once or None))
            if v is not None})
    panels = cfg.panels
    if args.no_panels:
        panels = panels.model_copy(update={"backend": "none"})
    table = cfg.table
    if args.footage_budget is not None:
        table = table.model_copy(update={"footage_budget_mb": args.footage_budget})
    if args.config is None:  # the simulated table keeps its log in the user's data dir
        from controller.log import data_dir

        table = table.model_copy(update={"data_dir": str(data_dir())})
    record = cfg.record
    if args.record:
        from controller.config import RecordConfig

        record = (record or RecordConfig()).model_copy(update={"enabled": True})
    return cfg.model_copy(update={"session": session, "panels": panels, "table": table,
                                  "record": record})


def _session_bundle(cfg: Any) -> Bundle:
    """The recorded session of ``cfg``'s ``[session]``, checked: BundleError, ProfileError,
    VideoError saying why it cannot be played."""
    from controller.footage import timed_frames
    from vision.video import VideoError, frame_count

    bundle = load_bundle(cfg.session.bundle)
    if cfg.session.names is not None:
        if len(cfg.session.names) != len(bundle.names):
            raise BundleError(f"--names: the recording's game has {len(bundle.names)} "
                              f"seats, {len(cfg.session.names)} names were given")
        bundle.names = list(cfg.session.names)
    bundle.profile()
    if bundle.table is not None:
        bundle.faces()
    if frame_count(bundle.shoe) == 0:
        raise VideoError(f"video {bundle.shoe} has no frames")
    try:
        next(iter(timed_frames(bundle.shoe, bundle.times)))  # decodes, or says why not
    except StopIteration:
        raise VideoError(f"video {bundle.shoe} has no frames") from None
    return bundle


def cmd_run(args: argparse.Namespace) -> int:
    """``run``: the table of ``--config``, or the simulated table; built one way
    (``controller.live.build_table``) whatever the devices are."""
    from cardtable.backends import plug
    from controller.archive import FootageArchive
    from controller.config import ConfigError
    from controller.core import Controller, ResumeError
    from controller.live import build_table
    from controller.log import GameLog, LogError
    from hardware.gpio import GpioError
    from table_ui.guard import quiet_repeats
    from vision.profile import ProfileError
    from vision.video import VideoError

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    _stop_on_signals()
    quiet_repeats()  # an error that repeats (a flood's failed accepts) is said once, counted
    plug()
    try:
        cfg = _table_config(args)
    except ConfigError as exc:
        for line in exc.errors:
            print(f"error: {line}", file=sys.stderr)
        return 2
    except ValueError as exc:
        return _error(str(exc))
    # Whatever can be checked before anything is opened: the recording, the deck.
    bundle = None
    if cfg.session is not None:
        try:
            bundle = _session_bundle(cfg)
        except (BundleError, ProfileError, VideoError) as exc:
            return _error(str(exc))
    else:
        from vision.profile import load_profile

        try:
            load_profile(cfg.table.deck)
        except ProfileError as exc:
            return _error(f"{exc} (the config's [table] deck)")
    host = args.host or cfg.web.host
    port = args.port or cfg.web.port
    if not args.no_web and (problem := _free_port(host, port)):
        return _error(problem)
    lock = None
    try:
        game_log = GameLog(args.db or cfg.data_dir / "table.sqlite")
        lock = _lock_table(game_log.path)
        controller = Controller(game_log, resume=not args.new_game)
    except LogError as exc:
        if lock is not None:
            lock.close()
        return _error(str(exc))
    except ResumeError as exc:
        assert lock is not None
        lock.close()
        return _error(f"{exc}; `cardtable run --new-game` abandons it (it stays in the history "
                      "for `cardtable history`) and starts a new one")
    if cfg.record is not None and cfg.record.enabled and not cfg.record.dir:
        # beside the log, as the footage archive: `history export --db` finds them there
        cfg = cfg.model_copy(update={"record": cfg.record.model_copy(
            update={"dir": str(game_log.path.parent / RECORDINGS)})})
    session = None
    if bundle is not None:
        from controller.session import SessionPlayer

        session = SessionPlayer(controller, bundle, speed=cfg.session.speed,
                                pause_s=cfg.session.pause_s, once=cfg.session.once)
    try:
        club = _club(args, cfg, game_log, controller)
    except ValueError as exc:
        game_log.close()
        lock.close()
        return _error(str(exc))
    archive = (FootageArchive(game_log.path.parent / "footage", cfg.footage_budget_bytes)
               if cfg.footage_budget_bytes > 0 else None)
    table = build_table(controller, cfg, archive=archive, world=session)
    failed: str | None = None
    # From here on the table's threads run: whatever stops this (Ctrl-C even during the start,
    # SIGTERM, a device that cannot open) stops them too, or the process would live on headless.
    try:
        try:
            table.start()
        except (GpioError, OSError) as exc:
            hint = f" (see `cardtable doctor --config {args.config}`)" if args.config else ""
            failed = f"{exc}{hint}"
            return _error(failed)
        server: Any = None
        where = ""
        if not args.no_web:
            server, where = _display(controller, archive, host, port,
                                     cfg.web.admin_pin_hash
                                     or os.environ.get("CARDTABLE_ADMIN_PIN_HASH"),
                                     os.environ.get("CARDTABLE_ADMIN_PIN"),
                                     pin_file=game_log.path.parent / PIN_FILE,
                                     table_check=table.check, replaying=session is not None)

            def end_with_the_table() -> None:
                table.wait()  # the recorded session played once, or failed
                server.should_exit = True

            threading.Thread(target=end_with_the_table, name="run until the table ends",
                             daemon=True).start()
        if session is not None:
            what = (f"simulated table replaying {session.bundle.path.name} "
                    f"({session.bundle.game}), log {game_log.path}")
        else:
            what = f"table {cfg.table.name!r}, log {game_log.path}"
        if cfg.recordings is not None:
            what += f", recording the games in {cfg.recordings}"
        _announce(what, where)
        if server is not None:
            server.run()
        else:
            while not table.wait(0.2):
                pass
    except KeyboardInterrupt:
        pass
    finally:
        table.stop()
        if club is not None:
            club.stop(drain_s=0.0 if failed else 2.0)
        game_log.close()
        lock.close()
    if session is not None and session.failure:
        return _error(session.failure)
    return 0


def _free_port(host: str, port: int) -> str | None:
    import socket

    with socket.socket() as probe:
        # as uvicorn binds: connections of an earlier run in TIME_WAIT do not count
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return (f"cannot serve the display on {host}:{port} ({exc.strerror}); is the table "
                    "already running? --port picks another")
    return None


