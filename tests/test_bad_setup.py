"""Config and replay say what is wrong (the table keeps playing, issue item 6): PIN hashes that
a few hundred guesses would match or that no PIN can ever match are refused; a config nested
thousands deep is one line; a recording cut short is an error (exit 2), not a 0:0 game; a
garbage deck profile is one line, not its bytes; an empty table log is not silently a new one;
a read-only data dir says so."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import ConfigError, parse_config
from controller.log import GameLog, LogError
from controller.pin import pin_hash_problem
from table_ui.security import hash_pin, verify_pin

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtable", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("bad", [
    "scrypt$16384$8$1$00112233445566778899aabbccddeeff$ab",  # a 1-byte hash
    "scrypt$1048576$8$1$00112233445566778899aabbccddeeff$" + "ab" * 32,  # N=2^20: never verifies
    "scrypt$3$8$1$00112233445566778899aabbccddeeff$" + "ab" * 32,  # not a power of two
    "scrypt$16384$8$1$00$" + "ab" * 32,  # a 1-byte salt
    "md5$whatever",
])
def test_pin_hashes_that_cannot_protect_are_refused(bad: str) -> None:
    assert pin_hash_problem(bad) is not None
    with pytest.raises(ConfigError) as err:
        parse_config(f'[web]\nadmin_pin_hash = "{bad}"\n')
    assert "not a PIN hash" in str(err.value)
    assert not verify_pin("1234", bad)


def test_a_real_hash_passes() -> None:
    good = hash_pin("482913")
    assert pin_hash_problem(good) is None and verify_pin("482913", good)


def test_a_config_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    for args in (("config", "check", str(deep)), ("doctor", "--config", str(deep))):
        run = cli(*args)
        assert run.returncode != 0 and "Traceback" not in run.stderr, args
        assert "nested too deep" in run.stderr, (args, run.stderr[-500:])


def test_a_recording_cut_short_is_an_error(tmp_path: Path) -> None:
    """The shoe clip re-encoded with its index first (as a recorder that streams writes it),
    then cut at 60%: the frames stop half way through their timestamps."""
    av = pytest.importorskip("av")
    bundle = tmp_path / "cut"
    shutil.copytree(ROOT / "controller" / "data" / "durak2", bundle)
    for shared in ("deck.json", "deck.table.npz"):
        shutil.copy(ROOT / "controller" / "data" / shared, bundle / shared)
    src = av.open(str(ROOT / "controller" / "data" / "durak2" / "shoe.mp4"))
    out = av.open(str(bundle / "shoe.mp4"), "w", options={"movflags": "faststart"})
    stream_in = src.streams.video[0]
    stream = out.add_stream("libx264", rate=30)
    stream.width, stream.height = stream_in.codec_context.width, stream_in.codec_context.height
    stream.pix_fmt = "yuv420p"
    for frame in src.decode(stream_in):
        for packet in stream.encode(frame.reformat(format="yuv420p")):
            out.mux(packet)
    for packet in stream.encode():
        out.mux(packet)
    out.close()
    size = (bundle / "shoe.mp4").stat().st_size
    with (bundle / "shoe.mp4").open("r+b") as f:
        f.truncate(int(size * 0.6))
    run = cli("replay", str(bundle), "--no-progress")
    assert run.returncode == 2
    assert "cut short" in run.stderr.splitlines()[-1]


def test_a_garbage_deck_profile_is_one_line(tmp_path: Path) -> None:
    bundle = tmp_path / "b"
    shutil.copytree(ROOT / "controller" / "data" / "durak2", bundle)
    (bundle / "deck.json").write_bytes(b'{"version": 1, "cards": ' + os.urandom(3000) + b"}")
    run = cli("replay", str(bundle), "--no-progress")
    assert run.returncode == 2
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: deck profile")


def test_an_empty_table_log_is_not_a_new_one(tmp_path: Path) -> None:
    empty = tmp_path / "table.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(LogError, match="empty file"):
        GameLog(empty)
    assert empty.stat().st_size == 0  # left as it was
    run = cli("run", "--no-web", "--once", "--db", str(empty))
    assert run.returncode == 2 and "empty file" in run.stderr


def test_a_read_only_data_dir_says_so(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: a filesystem mounted read-only stops it
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(ro)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a read-only tmpfs: {done.stderr.strip()}")
    else:
        ro.chmod(0o500)
    try:
        run = cli("run", "--no-web", "--once", env={"CARDTABLE_DATA_DIR": str(ro)})
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert "read-only" in run.stderr, run.stderr[-500:]
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", "-l", str(ro)], check=False)
