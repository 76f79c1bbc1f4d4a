"""cardtable: the smart card table — rules engine, shoe reader, seat panels.

Each package contributes its own subcommands through a ``register(subparsers)`` function, so this
module stays a thin index and no package has to know about the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that contribute subcommands. A module that is not there yet (a package still being
# built) is skipped, so the CLI keeps working while the product grows.
COMMAND_MODULES: tuple[str, ...] = (
    "cardtable.engine_commands",
    "vision.cli",
    "firmware_bridge.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
