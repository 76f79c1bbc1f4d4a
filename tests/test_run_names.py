"""`cardtable run --names`: the players' names for the simulated table, by seat (the club demo
gives each table its registered players this way); a wrong count or an empty name is refused in
one line, before anything starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(("names", "said"), [
    ("Аня", "the recording's game has 2 seats, 1 names were given"),
    ("Аня,Боря,Вера", "the recording's game has 2 seats, 3 names were given"),
    ("Аня,,Вера", "names are 1-40 characters each"),
])
def test_bad_names_are_refused_in_one_line(tmp_path: Path, names: str, said: str) -> None:
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "cardtable", "run", "--no-web", "--no-panels",
                          "--once", "--names", names, "--db", str(tmp_path / "t.sqlite")],
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert said in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "t.sqlite").exists()  # nothing started
