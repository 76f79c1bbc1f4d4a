"""Engine subcommands: ``games``, ``score``, ``play`` and the interim ``demo``."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cardtable import args as argtypes
from engine import record
from engine.cards import card
from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.registry import GAMES, available_games, game_class
from engine.scoresheet import ScoreSheet
from engine.settings import parse_option

Chooser = Callable[[Game, list[Event]], Event]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the games and their house-rule options")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("score", help="print the score sheet of a game record")
    p.add_argument("record", type=Path)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("play", help="play a whole game in the terminal with random, scripted or human seats")
    add_play_arguments(p)
    p.set_defaults(func=cmd_play, _prog=p.prog)

    p = sub.add_parser("demo", help="the main job off a Pi: a simulated table")
    add_play_arguments(p, default_game="belot2")
    p.set_defaults(func=cmd_play, _prog=p.prog)


def add_play_arguments(p: argparse.ArgumentParser, default_game: str | None = None) -> None:
    p.add_argument("--game", required=default_game is None, default=default_game,
                   choices=sorted(GAMES), help="game to play")
    p.add_argument("--seed", type=argtypes.whole("the seed", lo=0), default=None,
                   help="seed for the shoe and random seats (0 or more)")
    p.add_argument("--seat", action="append", default=[], metavar="N=KIND",
                   help="seat player: random (default), first, human, or script:FILE (events, one a line)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                   help="house-rule option (see `cardtable games`)")
    p.add_argument("--shoe", type=Path, help="file of card codes the shoe deals in this order "
                   "(random once it runs out)")
    p.add_argument("--record", type=Path, help="write the game record here")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the score sheet")
    p.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    p.add_argument("--delay", type=argtypes.number("the delay (seconds)", lo=0), default=0.0,
                   help="seconds between events (to watch; 0 or more)")






def cmd_games(_args: argparse.Namespace) -> int:
    console = Console()
    for name in available_games():
        cls = game_class(name)
        console.print(f"[bold]{name}[/bold]  {cls.title}")
        for key, field in cls.settings_model.model_fields.items():
            console.print(f"    {key} = {field.default!r}  {field.description or ''}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    try:
        rec = record.read(args.record)
    except EngineError as exc:
        print(f"error: {args.record}: {exc} [{exc.rule}]", file=sys.stderr)
        return 2
    print_sheet(rec.game.score_sheet(), as_json=args.json)
    return 0


def print_sheet(sheet: ScoreSheet, as_json: bool = False) -> None:
    if as_json:
        print(json.dumps(sheet.to_dict(), ensure_ascii=False, indent=2))
        return
    console = Console()
    opts = ", ".join(f"{k}={v}" for k, v in sheet.options.items()) or "defaults"
    table = Table(title=f"{sheet.game} — options: {opts}")
    table.add_column("deal", justify="right")
    for side in sheet.sides:
        table.add_column(side, justify="right")
    table.add_column("details")
    for deal in sheet.deals:
        details = [f"{sheet.sides[i.side]}: {i.what} {i.points:+d}" + (f" [{i.rule}]" if i.rule else "")
                   for i in deal.items] + [p.text() for p in deal.illegal] + [f"note: {n}" for n in deal.notes]
        table.add_row(str(deal.number), *(str(p) for p in deal.points), "\n".join(details))
    table.add_row("total", *(str(t) for t in sheet.totals), sheet.result, style="bold")
    console.print(table)


# A random seat that said «Партия!» whenever it may would end most long games in the first deal
# with a failed claim; at a real table nobody claims blind, so random seats leave claims alone.
RANDOM_AVOIDS = frozenset({"claim"})


def random_choice(rng: random.Random, actions: list[Event]) -> Event:
    sensible = [a for a in actions if a.kind not in RANDOM_AVOIDS] or actions
    return sensible[rng.randrange(len(sensible))]


class UsageError(Exception):
    """A bad argument found after parsing: one line on stderr and exit status 2, like argparse."""


class InputEnded(Exception):
    """A human seat's input or a seat's script ended before the game did."""


def make_chooser(spec: str, rng: random.Random, seat: int) -> Chooser:
    kind, _, arg = spec.partition(":")
    if kind == "random":
        return lambda _g, actions: random_choice(rng, actions)
    if kind == "first":
        return lambda _g, actions: actions[0]
    if kind == "human":
        return human_chooser(seat)
    if kind == "script":
        if not arg:
            raise UsageError(f"--seat {seat}=script: needs a file: script:FILE")
        script = iter(read_script(Path(arg), seat))

        def scripted(_g: Game, actions: list[Event]) -> Event:
            try:
                return next(script)
            except StopIteration:
                raise InputEnded(f"the script for seat {seat} ran out of events") from None

        return scripted
    raise UsageError(f"--seat {seat}={spec}: unknown seat kind {kind!r}; "
                     "use random, first, human or script:FILE")


def read_script(path: Path, seat: int) -> list[Event]:
    """The events of a seat's script, one a line (``#`` comments); bad lines are named."""
    where = f"--seat {seat}=script:{path}"
    text = _read_text(path, where)
    events = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            events.append(Event.parse(line))
        except EngineError as exc:
            raise UsageError(f"{where}: line {number}: {exc}") from None
    return events


def _read_text(path: Path, where: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not a UTF-8 text file") from None
    except IsADirectoryError:
        raise UsageError(f"{where}: is a folder, not a file") from None
    except OSError as exc:
        raise UsageError(f"{where}: {exc.strerror or exc}") from None


def _choice(answer: str, actions: list[Event], seat: int) -> Event | None:
    """The offered action the answer names (its number or its event, the seat optional)."""
    if answer.isdigit():
        index = int(answer)
        return actions[index] if index < len(actions) else None
    try:
        said = Event.parse(answer)
    except EngineError:
        return None
    if said.seat is None:
        said = Event(said.kind, seat, said.cards, said.arg)
    return next((a for a in actions if str(a) == str(said)), None)


def human_chooser(seat: int) -> Chooser:
    """Asks on stdin; takes only one of the offered (legal) actions, by number or as typed."""

    def show(actions: list[Event]) -> None:
        for i, a in enumerate(actions):
            print(f"  {i:2}: {a}")

    def ask(game: Game, actions: list[Event]) -> Event:
        print(f"seat {seat}, your hand: {' '.join(c.pretty() for c in game.hand(seat))}")
        show(actions)
        while True:
            try:
                answer = input(f"seat {seat}> ").strip()
            except EOFError:
                print()
                raise InputEnded(f"end of input at seat {seat}'s turn") from None
            if not answer:
                continue
            choice = _choice(answer, actions, seat)
            if choice is not None:
                return choice
            print(f"  {answer!r} is not one of the choices; type a number or an event:")
            show(actions)

    return ask


def _seat_choosers(args: argparse.Namespace, game: Game, rng: random.Random,
                   ) -> dict[int, Chooser]:
    n = game.num_seats
    seats = f"the game has {n} seats, 0 to {n - 1}"
    choosers: dict[int, Chooser] = {}
    for spec in args.seat:
        number, _, kind = spec.partition("=")
        number = number.strip()
        if not number.lstrip("-").isdigit():
            raise UsageError(f"--seat {spec}: seat {number!r} is not a number ({seats})")
        seat = int(number)
        if not 0 <= seat < n:
            raise UsageError(f"--seat {spec}: {seats}")
        if seat in choosers:
            raise UsageError(f"--seat {spec}: seat {seat} is given twice")
        choosers[seat] = make_chooser(kind.strip() or "random", rng, seat)
    return choosers


def _stacked_shoe(path: Path, game: Game) -> list[str]:
    """The card codes of a --shoe file, each checked against the game's deck."""
    where = f"--shoe {path}"
    deck = set(game.deck_cards())
    codes = []
    for number, token in enumerate(_read_text(path, where).split(), start=1):
        try:
            c = card(token)
        except EngineError:
            raise UsageError(f"{where}: card {number}, {token[:20]!r}, is not a card code "
                             "(rank 6 7 8 9 T J Q K A plus suit C D H S, or BJ/RJ)") from None
        if c not in deck:
            raise UsageError(f"{where}: card {number}, {c.code}, is not in the {game.deck}-card "
                             f"deck of {game.name}")
        codes.append(c.code)
    return codes


def _check_record_path(path: Path) -> None:
    where = f"--record {path}"
    if path.is_dir():
        raise UsageError(f"{where}: is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{where}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{where}: not writable")


def _keep_record(args: argparse.Namespace, game: Game, seed: int) -> str:
    """Write the record if asked; says what happened, for the closing message."""
    if not args.record:
        return "no record kept (use --record FILE)"
    try:
        record.write(args.record, game, {"seed": str(seed)})
    except OSError as exc:
        raise UsageError(f"--record {args.record}: {exc.strerror or exc}") from None
    return f"the record so far ({len(game.raw_log)} events) is in {args.record}"


def cmd_play(args: argparse.Namespace) -> int:
    prog = getattr(args, "_prog", "cardtable play")
    try:
        return _play(args, prog)
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2


def _play(args: argparse.Namespace, prog: str) -> int:
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    try:
        cls = game_class(args.game)
        game = cls(dict(parse_option(o) for o in args.option))
    except (EngineError, ValueError) as exc:
        raise UsageError(str(exc).splitlines()[0]) from None
    choosers = _seat_choosers(args, game, rng)
    stacked = _stacked_shoe(args.shoe, game) if args.shoe else []
    if args.record:
        _check_record_path(args.record)
    console = Console(stderr=False)
    if not args.quiet and not args.json:
        console.print(f"[bold]{cls.title or cls.name}[/bold]  seed {seed}")
    from_file = 0  # cards dealt from the --shoe file so far
    try:
        while not game.is_over:
            actions = game.legal_actions()
            chooser = None
            stacked_card = False
            if game.expects_shoe:
                stacked_card = bool(stacked)
                if stacked:
                    from_file += 1
                    event = Event.parse(f"shoe {stacked.pop(0)}")
                else:
                    event = actions[rng.randrange(len(actions))]
            else:
                seat = game.to_act()
                mine = [a for a in actions if a.seat == seat] or actions
                chooser = choosers.get(seat if seat is not None else -1)
                event = chooser(game, mine) if chooser else random_choice(rng, mine)
            try:
                verdict = game.record(event)
            except EngineError as exc:
                if stacked_card:
                    raise UsageError(f"--shoe {args.shoe}: card {from_file}, {event.card.code}: "
                                     f"{exc}") from None
                console.print(f"[red]refused[/red] {event}: {exc}")
                if chooser is not None:  # a script's event: the script goes on
                    continue
                raise
            if not args.quiet and not args.json:
                note = "" if verdict.legal else f"  [red]illegal: {verdict.message}[/red]"
                console.print(f"  {event}{note}", highlight=False)
            if args.delay:
                time.sleep(args.delay)
    except InputEnded as exc:
        print(f"{prog}: stopped: {exc}, the game is not over; {_keep_record(args, game, seed)}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; {_keep_record(args, game, seed)}", file=sys.stderr)
        return 130
    if args.record:
        _keep_record(args, game, seed)
    print_sheet(game.score_sheet(), as_json=args.json)
    return 0
