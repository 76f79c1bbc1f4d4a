"""Engine subcommands: ``games``, ``score``, ``play`` and the interim ``demo``."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from engine import record
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
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("demo", help="the main job off a Pi: a simulated table")
    add_play_arguments(p, default_game="belot2")
    p.set_defaults(func=cmd_play)


def add_play_arguments(p: argparse.ArgumentParser, default_game: str | None = None) -> None:
    p.add_argument("--game", required=default_game is None, default=default_game,
                   choices=sorted(GAMES), help="game to play")
    p.add_argument("--seed", type=int, default=None, help="seed for the shoe and random seats")
    p.add_argument("--seat", action="append", default=[], metavar="N=KIND",
                   help="seat player: random (default), first, human, or script:FILE (events, one a line)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                   help="house-rule option (see `cardtable games`)")
    p.add_argument("--shoe", type=Path, help="file of card codes the shoe deals in this order "
                   "(random once it runs out)")
    p.add_argument("--record", type=Path, help="write the game record here")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the score sheet")
    p.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between events (to watch)")


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
                   for i in deal.items] + [f"note: {n}" for n in deal.notes]
        table.add_row(str(deal.number), *(str(p) for p in deal.points), "\n".join(details))
    table.add_row("total", *(str(t) for t in sheet.totals), sheet.result, style="bold")
    console.print(table)


# A random seat that said «Партия!» whenever it may would end most long games in the first deal
# with a failed claim; at a real table nobody claims blind, so random seats leave claims alone.
RANDOM_AVOIDS = frozenset({"claim"})


def random_choice(rng: random.Random, actions: list[Event]) -> Event:
    sensible = [a for a in actions if a.kind not in RANDOM_AVOIDS] or actions
    return sensible[rng.randrange(len(sensible))]


def make_chooser(spec: str, rng: random.Random, seat: int) -> Chooser:
    kind, _, arg = spec.partition(":")
    if kind == "random":
        return lambda _g, actions: random_choice(rng, actions)
    if kind == "first":
        return lambda _g, actions: actions[0]
    if kind == "human":
        return human_chooser(seat)
    if kind == "script":
        lines = [ln.strip() for ln in Path(arg).read_text(encoding="utf-8").splitlines()]
        script = iter(Event.parse(ln) for ln in lines if ln and not ln.startswith("#"))

        def scripted(_g: Game, actions: list[Event]) -> Event:
            try:
                return next(script)
            except StopIteration:
                raise SystemExit(f"script for seat {seat} ran out of events") from None

        return scripted
    raise SystemExit(f"unknown seat kind {spec!r}: random, first, human or script:FILE")


def human_chooser(seat: int) -> Chooser:
    def ask(game: Game, actions: list[Event]) -> Event:
        print(f"seat {seat}, your hand: {' '.join(c.pretty() for c in game.hand(seat))}")
        for i, a in enumerate(actions):
            print(f"  {i:2}: {a}")
        while True:
            answer = input(f"seat {seat}> ").strip()
            if answer.isdigit() and int(answer) < len(actions):
                return actions[int(answer)]
            try:
                return Event.parse(answer)
            except EngineError as exc:
                print(f"  {exc}")

    return ask


def cmd_play(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    try:
        cls = game_class(args.game)
        game = cls(dict(parse_option(o) for o in args.option))
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    choosers: dict[int, Chooser] = {}
    for spec in args.seat:
        number, _, kind = spec.partition("=")
        choosers[int(number)] = make_chooser(kind or "random", rng, int(number))
    stacked = Path(args.shoe).read_text(encoding="utf-8").split() if args.shoe else []
    console = Console(stderr=False)
    if not args.quiet and not args.json:
        console.print(f"[bold]{cls.title or cls.name}[/bold]  seed {seed}")
    while not game.is_over:
        actions = game.legal_actions()
        if game.expects_shoe:
            event = Event.parse(f"shoe {stacked.pop(0)}") if stacked else actions[rng.randrange(len(actions))]
        else:
            seat = game.to_act()
            mine = [a for a in actions if a.seat == seat] or actions
            chooser = choosers.get(seat if seat is not None else -1)
            event = chooser(game, mine) if chooser else random_choice(rng, mine)
        try:
            verdict = game.record(event)
        except EngineError as exc:
            console.print(f"[red]refused[/red] {event}: {exc}")
            if event.seat in choosers:
                continue
            raise
        if not args.quiet and not args.json:
            note = "" if verdict.legal else f"  [red]illegal: {verdict.message}[/red]"
            console.print(f"  {event}{note}", highlight=False)
        if args.delay:
            time.sleep(args.delay)
    if args.record:
        record.write(args.record, game, {"seed": str(seed)})
    print_sheet(game.score_sheet(), as_json=args.json)
    return 0
