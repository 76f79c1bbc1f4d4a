"""``cardtable status`` and ``cardtable history``: the table log read from outside the controller.

Why a separate reader: the organiser (or a script, or the club server) must be able to see what
the table is doing and what it did — the current game's public view, finished games' score
sheets, records to archive — whether or not ``cardtable run`` is running, and without ever
writing to the log. Everything here opens the database read-only and rebuilds a game the only way
the log defines one: by replaying its logged ``event`` entries into a fresh engine game. The
controller's own state (a card waiting for confirmation, a panel's cursor) is the body of the
game's last ``state`` entry.

Every bad input (no database yet, a damaged file, a newer schema, an unknown game id, a bad
``--format``) is one ``error: ...`` line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.log import GameLog, GameRow, LogError, default_path
from engine.errors import EngineError
from engine.game import Game

FORMATS = ("record", "csv", "json")


class CommandError(Exception):
    """A bad input: printed as one ``error:`` line, exit status 2."""


# ---------------------------------------------------------------------------------- arguments


def _db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, default=None, metavar="PATH",
                   help="the table log (default: table.sqlite in the data directory, "
                        "or $CARDTABLE_DATA_DIR)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "status", help="the current game at the table, read from the log (run or not)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    _db_argument(p)
    p.set_defaults(func=cmd_status)

    h = sub.add_parser("history", help="games in the table log: list, show, export")
    hsub = h.add_subparsers(dest="history_command", metavar="ACTION", required=True)

    p = hsub.add_parser("list", help="every game in the log")
    p.add_argument("--json", action="store_true", help="a JSON list")
    _db_argument(p)
    p.set_defaults(func=cmd_list)

    p = hsub.add_parser("show", help="a game's score sheet")
    p.add_argument("game", metavar="GAME", help="game id (see `cardtable history list`)")
    p.add_argument("--json", action="store_true", help="the score sheet as JSON")
    _db_argument(p)
    p.set_defaults(func=cmd_show)

    p = hsub.add_parser("export", help="a game as a record, CSV or JSON, or "
                                        "with --bundle as a recording `cardtable replay` plays")
    p.add_argument("game", metavar="GAME", help="game id (see `cardtable history list`)")
    p.add_argument("--bundle", type=Path, default=None, metavar="DIR",
                   help="write the game and its recording (`cardtable run --record`) as a "
                   "recorded session in this new folder: `cardtable replay DIR --check` checks it")
    p.add_argument("--recordings", type=Path, default=None, metavar="DIR",
                   help="where the table recorded its games (default: recordings/ beside the log)")
    p.add_argument("--format", default="record", metavar="|".join(FORMATS),
                   help="record (engine record, replayable with `cardtable score`), csv (points "
                        "per deal and a total row) or json (score sheet and events)")
    p.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                   help="write here instead of standard output")
    _db_argument(p)
    p.set_defaults(func=cmd_export)

    p = hsub.add_parser(
        "clip", help="a deal's shoe footage from the dispute archive, with the frames its cards "
        "were decided at")
    p.add_argument("game", metavar="GAME", help="game id (see `cardtable history list`)")
    p.add_argument("deal", metavar="DEAL", type=int, help="deal number (Durak: game number)")
    p.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                   help="write the clip here (default: GAME-DEAL.mp4 in this folder)")
    _db_argument(p)
    p.set_defaults(func=cmd_clip)


def _guarded(body: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return body(args)
        except (CommandError, LogError) as exc:
            message = str(exc)
        except EngineError as exc:
            message = f"the logged game cannot be replayed: {exc} [{exc.rule}]"
        except OSError as exc:
            message = str(exc)
        print(f"error: {' '.join(message.split())}", file=sys.stderr)
        return 2

    run.__name__ = body.__name__
    run.__doc__ = body.__doc__
    return run


# ---------------------------------------------------------------------------------- reading
def open_log(path: Path | None) -> GameLog:
    return GameLog(path if path is not None else default_path(), readonly=True)


def replay(log: GameLog, row: GameRow) -> Game:
    """The game as its logged events make it."""
    from engine.registry import game_class

    return game_class(row.game).replay(log.event_texts(row.id), row.options)


def find_game(log: GameLog, text: str) -> GameRow:
    try:
        game_id = int(text)
    except ValueError:
        raise CommandError(f"game id must be a number, not {text!r} "
                           "(see `cardtable history list`)") from None
    if not 1 <= game_id < 2**63:
        raise CommandError(f"there is no game {game_id}: game ids are whole numbers from 1 "
                           "(see `cardtable history list`)")
    row = log.game(game_id)
    if row is None:
        ids = [g.id for g in log.games()]
        known = (f"games {ids[0]}–{ids[-1]}" if len(ids) > 1 else f"game {ids[0]}") if ids \
            else "no games yet"
        raise CommandError(f"there is no game {game_id} in the table log {log.path} ({known})")
    return row


def status(log: GameLog) -> dict[str, Any]:
    """The current (active, else latest) game's public state, from one snapshot of the log."""
    from controller.core import MAX_ALERTS, TableState
    from engine.view import table_view

    with log.reading():
        seq = log.last_seq()
        row = log.active_game() or log.latest_game()
        if row is None:
            return {"seq": seq, "game_id": None, "game": None, "names": [], "status": None,
                    "started": None, "ended": None, "view": None, "pending": None,
                    "cursor": None, "last_trick": [], "alerts": []}
        game = replay(log, row)
        states = list(log.entries(row.id, kinds=("state",)))
        alerts = list(log.entries(row.id, kinds=("alert",)))[-MAX_ALERTS:]
    state = states[-1].body if states else {}
    try:
        table = TableState.from_json(state)  # shown exactly as Controller.public_state shows it
        pending, cursor = table.public_pending(), table.public_cursor()
    except (KeyError, IndexError, TypeError, EngineError) as exc:
        raise CommandError(f"table log {log.path} has an unreadable state entry: {exc}") from exc
    return {
        "seq": seq,
        "game_id": row.id,
        "game": row.game,
        "names": list(row.names),
        "status": row.status,
        "started": row.started,
        "ended": row.ended,
        "view": table_view(game).model_dump(mode="json"),
        "pending": pending,
        "cursor": cursor,
        "last_trick": list(state.get("last_trick") or []),
        "alerts": [{**a.body, "seq": a.seq, "t": a.t} for a in alerts],
    }


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t else ""


# ---------------------------------------------------------------------------------- status
@_guarded
def cmd_status(args: argparse.Namespace) -> int:
    log = open_log(args.db)
    try:
        out = status(log)
    finally:
        log.close()
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print_status(out, log.path)
    return 0


def _seat(out: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "—"
    names = out["names"]
    return f"{names[seat]} (seat {seat})" if seat < len(names) else f"seat {seat}"


def print_status(out: dict[str, Any], path: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(markup=False, highlight=False)  # names and messages are text, not markup
    view = out["view"]
    if view is None:
        console.print(f"No game in the table log yet ({path}, seq {out['seq']}).")
        return
    table = Table(title=f"game {out['game_id']}: {view['title']} — {out['status']}",
                  show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("players", ", ".join(f"{i}: {printable(n)}"
                                       for i, n in enumerate(out["names"])))
    table.add_row("started", _when(out["started"]) + (f", ended {_when(out['ended'])}"
                                                     if out["ended"] else ""))
    phase = view["phase"] + (f", deal {view['deal']}" if view["deal"] is not None else "")
    table.add_row("phase", phase or "—")
    turn = ("game over" if view["over"] else "the shoe is dealing" if view["expects_shoe"]
            else _seat(out, view["to_act"]))
    table.add_row("to act", turn)
    trump = view["trump"] or "not yet known"
    if view["trump_card"]:
        trump += f" (turned {view['trump_card']})"
    table.add_row("trump", trump + (f", contract {view['contract']}" if view["contract"] else ""))
    trick = " ".join(f"{t['card']}" + (f"/{t['covered_by']}" if t["covered_by"] else "")
                     + f"@{t['seat']}" for t in view["trick"])
    table.add_row("trick", trick or "—")
    table.add_row("hands", " ".join(str(n) for n in view["hand_sizes"]) or "—")
    table.add_row("totals", ", ".join(f"{s} {t}" for s, t in zip(view["sides"], view["totals"],
                                                                    strict=False)))
    if view["outcome"]["finished"]:
        table.add_row("result", view["outcome"]["reason"])
    p = out["pending"]
    if p:
        who = f" from {_seat(out, p['seat'])}" if p["seat"] is not None else ""
        extra = f", candidates {' '.join(p['candidates'])}" if p["candidates"] else ""
        held = f", {p['held']} shoe card(s) held" if p["held"] else ""
        table.add_row("waiting", f"confirm the {p['source']} card{who}: {p['reason']}{extra}{held}")
    if out["cursor"]:
        table.add_row("choosing", f"{_seat(out, out['cursor']['seat'])}: {out['cursor']['showing']}")
    for a in out["alerts"][-3:]:
        table.add_row(f"alert {a['seq']}", f"[{a['level']}] {a['rule']}: {a['message']}")
    table.add_row("log", f"{path}, seq {out['seq']}, {view['events']} events in this game")
    console.print(table)


def printable(text: str) -> str:
    """``text`` for a terminal: control and format characters (escape sequences, line breaks,
    bidi overrides) shown as their code, never sent raw."""
    import unicodedata

    return "".join(c if unicodedata.category(c)[0] != "C" else f"\\u{ord(c):04x}" for c in text)


# ---------------------------------------------------------------------------------- history
def _summary(log: GameLog, row: GameRow) -> dict[str, Any]:
    return {"id": row.id, "game": row.game, "names": list(row.names), "options": row.options,
            "status": row.status, "started": row.started, "ended": row.ended}


@_guarded
def cmd_list(args: argparse.Namespace) -> int:
    log = open_log(args.db)
    try:
        with log.reading():
            rows = log.games()
            games = []
            for row in rows:
                try:  # one game that cannot be replayed does not hide the others
                    game = replay(log, row)
                except EngineError as exc:
                    games.append({**_summary(log, row), "events": None, "sides": [],
                                  "totals": [], "result": f"cannot be replayed: {exc}"})
                    continue
                sheet = game.score_sheet()
                games.append({**_summary(log, row), "events": len(game.raw_log),
                              "sides": list(sheet.sides), "totals": list(sheet.totals),
                              "result": sheet.result})
    finally:
        log.close()
    if args.json:
        print(json.dumps(games, ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    if not games:
        print(f"No games in the table log yet ({log.path}).")
        return 0
    table = Table(title=f"games in {log.path}")
    for column in ("id", "game", "players", "started", "status", "events", "totals"):
        table.add_column(column, justify="right" if column in ("id", "events") else "left")
    for g in games:
        table.add_row(str(g["id"]), g["game"], printable(", ".join(g["names"])), _when(g["started"]),
                      g["status"], "—" if g["events"] is None else str(g["events"]),
                      " : ".join(str(t) for t in g["totals"]) or printable(g["result"]))
    Console(markup=False, highlight=False).print(table)
    return 0


@_guarded
def cmd_show(args: argparse.Namespace) -> int:
    from cardtable.engine_commands import print_sheet

    log = open_log(args.db)
    try:
        with log.reading():
            row = find_game(log, args.game)
            game = replay(log, row)
    finally:
        log.close()
    if not args.json:
        print(f"game {row.id}: {printable(', '.join(row.names))} — {row.status}, "
              f"started {_when(row.started)}")
    print_sheet(game.score_sheet(), as_json=args.json)
    return 0


def export_text(log: GameLog, row: GameRow, game: Game, fmt: str, events: list[str]) -> str:
    from engine import record

    sheet = game.score_sheet()
    if fmt == "record":
        meta = {"table_game_id": str(row.id), "names": ",".join(row.names),
                "started": _when(row.started), "status": row.status}
        return record.dumps(game, meta)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["deal", *sheet.sides])
        for deal in sheet.deals:
            w.writerow([deal.number, *deal.points])
        w.writerow(["total", *sheet.totals])
        return buf.getvalue()
    return json.dumps({**_summary(log, row), "sheet": sheet.to_dict(), "events": events},
                      ensure_ascii=False, indent=2) + "\n"


@_guarded
def cmd_export(args: argparse.Namespace) -> int:
    if args.bundle is not None:
        return _export_bundle(args)
    if args.format not in FORMATS:
        raise CommandError(f"unknown --format {args.format!r}: use one of {', '.join(FORMATS)}")
    log = open_log(args.db)
    try:
        with log.reading():
            row = find_game(log, args.game)
            events = log.event_texts(row.id)
        from engine.registry import game_class

        game = game_class(row.game).replay(events, row.options)
        text = export_text(log, row, game, args.format, events)
    finally:
        log.close()
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
    return 0


def _export_bundle(args: argparse.Namespace) -> int:
    from controller.export import ExportError, export_bundle

    log = open_log(args.db)
    try:
        with log.reading():
            row = find_game(log, args.game)
        recordings = args.recordings or log.path.parent / "recordings"
        try:
            report = export_bundle(log, row.id, recordings, args.bundle)
        except ExportError as exc:
            raise CommandError(str(exc)) from exc
    finally:
        log.close()
    print("\n".join(report.lines()))
    return 0


@_guarded
def cmd_clip(args: argparse.Namespace) -> int:
    """Copy a deal's archived footage out and say which frames decided which logged events."""
    import shutil

    from controller.archive import FootageArchive

    log = open_log(args.db)
    try:
        with log.reading():
            row = find_game(log, args.game)
            inputs = [(e.seq, e.frame, e.body) for e in log.entries(row.id, kinds=("input",))
                      if e.source == "shoe" and e.frame is not None]
    finally:
        log.close()
    archive = FootageArchive(log.path.parent / "footage")
    clips = archive.find(row.id, args.deal)
    if not clips:
        kept = sorted({c.deal for c in archive.clips(row.id)})
        raise CommandError(f"no footage of game {row.id} deal {args.deal} in {archive.root} "
                           f"(kept: {', '.join(map(str, kept)) or 'none'}; the archive keeps the "
                           "newest deals within its budget)")
    out = args.output or Path(f"{row.id}-{args.deal}.mp4")
    try:
        shutil.copyfile(clips[0].path, out)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from exc
    clip = clips[0]
    print(f"{out}: game {row.id} deal {args.deal}, camera frames {clip.first_frame}–"
          f"{clip.last_frame} (clip frame = camera frame − {clip.first_frame})")
    for seq, frame, body in inputs:
        if clip.first_frame <= frame <= clip.last_frame:
            print(f"  log #{seq}: shoe card {body.get('card')} decided at camera frame {frame} "
                  f"(clip frame {frame - clip.first_frame})")
    if len(clips) > 1:
        print(f"  (and {len(clips) - 1} more part(s) after a restart: "
              f"{', '.join(str(c.path) for c in clips[1:])})")
    return 0
