"""The Pi deployment files say what docs/deploy-pi.md promises, and the unit's command parses."""

from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cardtable.cli import build_parser

UNIT = Path(__file__).parent.parent / "deploy" / "cardtable.service"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(UNIT, encoding="utf-8")
    return parser


def test_service_runs_unprivileged_and_restarts() -> None:
    service = unit()["Service"]
    assert service["User"] == "cardtable" and service["User"] != "root"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "dialout", "video"}
    assert service["Restart"] == "on-failure"
    # the log lives in the service's own state directory, which it may write
    assert "Environment=CARDTABLE_DATA_DIR=/var/lib/cardtable" in UNIT.read_text().splitlines()
    assert service["StateDirectory"] == "cardtable"
    assert "/var/lib/cardtable" in service["ReadWritePaths"]


def test_exec_start_is_a_cardtable_run_command_line() -> None:
    argv = shlex.split(unit()["Service"]["ExecStart"])
    assert argv[0].endswith("/.venv/bin/cardtable") and argv[1] == "run"
    args = build_parser("run").parse_args(argv[1:])
    assert args.command == "run" and args.host == "0.0.0.0" and args.port == 8000
    assert args.config == Path("/etc/cardtable/table.toml")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd is not installed here")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(UNIT)], capture_output=True, text=True)
    # the user and the venv do not exist on this machine; anything else is a real complaint
    problems = [ln for ln in result.stderr.splitlines()
                if ln.strip() and "cardtable" not in ln.split(":", 1)[-1] and "/opt/" not in ln]
    assert not problems, result.stderr
