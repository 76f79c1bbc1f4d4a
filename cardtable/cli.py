"""cardtable: the smart card table — rules engine, shoe reader, seat panels.

Each package contributes its own subcommands through a ``register(subparsers)`` function, so this
module stays a thin index and no package has to know about the others. Only the module that owns
the command being run is imported: start-up time counts (``cardtable read`` is measured against a
plain video decode, and OpenCV, pyserial and pydantic each take a while to import).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

# Which module registers which top-level command. A module that is not there yet (a package
# still being built) is skipped, so the CLI keeps working while the product grows.
COMMANDS: dict[str, str] = {
    "games": "cardtable.engine_commands",
    "score": "cardtable.engine_commands",
    "play": "cardtable.engine_commands",
    "demo": "cardtable.engine_commands",
    "deck": "cardtable.vision_commands",
    "read": "cardtable.vision_commands",
    "footage": "cardtable.vision_commands",
    "table": "cardtable.vision_commands",
    "panels": "firmware_bridge.cli",
    "run": "cardtable.table_commands",
    "admin-pin": "cardtable.table_commands",
    "replay": "cardtable.table_commands",
    "status": "cardtable.history_commands",
    "history": "cardtable.history_commands",
    "config": "cardtable.config_commands",
    "doctor": "cardtable.config_commands",
    "club": "club.cli",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command, or only with the module that owns ``command``."""
    from cardtable.args import OneLineParser

    # every command's own argument errors are one `error: …` line (no usage block), status 2
    parser = OneLineParser(prog="cardtable", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    owner = COMMANDS.get(command or "")
    for name in dict.fromkeys(COMMANDS.values()):
        if owner is not None and name != owner:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # The shoe reader's matrix products are small (a few dozen templates against a few dozen
    # offsets): BLAS threads cost more to wake than they save, and the decoding thread needs the
    # other core. Set before any command imports numpy; where the user set any of these, the
    # user's setting stands (OpenBLAS reads OMP_NUM_THREADS when its own variable is unset).
    # (`cardtable read` of the classic shoe's bench clip: 1.63 s with two BLAS threads, 1.15 s
    # with one; docs/vision.md, round XII.)
    if not any(var in os.environ for var in BLAS_THREADS):
        os.environ.update(dict.fromkeys(BLAS_THREADS, "1"))
    # FFmpeg's own complaints ("moov atom not found") would come before, and besides, the one
    # `error: ... names the file` line the command says about a video it cannot read.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
