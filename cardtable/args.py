"""Argument checks shared by every command: argparse types for bounded numbers, and argparse's
own errors as one line. Each command module used to write its own copies of these."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """A parser whose own errors are one line, status 2 (and so are its subcommands': a
    subparser is made of its parent's class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see `{self.prog} --help`)\n")


def _bounds(what: str, lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"{what} must be {lo:g}–{hi:g}"
    if lo is not None:
        return f"{what} must be {lo:g} or more"
    return f"{what} must be {hi:g} or less"


def whole(what: str = "it", lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within [lo, hi]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"{_bounds(what, lo, hi)}, not {value}")
        return value

    return parse


def number(what: str = "it", lo: float | None = None, hi: float | None = None, *,
           above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number within [lo, hi] (above ``lo`` when ``above``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        low = lo is not None and (value <= lo if above else value < lo)
        if not math.isfinite(value) or low or (hi is not None and value > hi):
            bounds = (f"{what} must be above {lo:g}" + (f" and at most {hi:g}" if hi else "")
                      if above and lo is not None else _bounds(what, lo, hi))
            raise argparse.ArgumentTypeError(f"{bounds}, not {text}")
        return value

    return parse
