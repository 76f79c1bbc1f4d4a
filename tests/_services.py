"""Real servers for the club's tests: Mosquitto and PostgreSQL, started on free local ports as an
unprivileged user in a temporary folder, stopped afterwards. Not fixtures (see conftest)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from table_ui.testing import free_port

__all__ = ["Mosquitto", "Postgres", "free_port", "running", "wait_until"]


def wait_until(what: Callable[[], bool], timeout: float = 15) -> None:
    """Poll ``what`` until it holds; AssertionError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError(f"not reached in {timeout} s")


def _as(user: str) -> list[str]:
    """Run as ``user`` when we are root (PostgreSQL refuses root; Mosquitto drops to it)."""
    return ["runuser", "-u", user, "--"] if os.geteuid() == 0 else []


def _folder(user: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"cardtable-{user}-"))
    if os.geteuid() == 0:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    return folder


def _wait_port(port: int, what: str, proc: subprocess.Popen | None = None,
               timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited at start ({proc.returncode})")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not open port {port}")


class Mosquitto:
    """A Mosquitto broker on a free port; ``stop``/``start`` again keep its persistence."""

    def __init__(self, conf_extra: str = "") -> None:
        exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(exe).exists():
            raise RuntimeError("mosquitto is not installed (apt-get install mosquitto)")
        self.exe = exe
        self.port = free_port()
        user = "mosquitto" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.user = user
        self.folder = _folder(user)
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            f"persistence true\npersistence_location {self.folder}/\n"
            "autosave_interval 1\n"
            f"log_dest file {self.folder}/mosquitto.log\n"
            + (f"user {user}\n" if os.geteuid() == 0 else "")
            + (conf_extra or "allow_anonymous true\n"))
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_port(self.port, "mosquitto", self.proc)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    exe = shutil.which(name)
    if exe is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    return exe


class Postgres:
    """A PostgreSQL server of its own (``initdb`` in a temporary folder, ``pg_ctl`` on a free
    port), with a database per ``database(name)``."""

    def __init__(self) -> None:
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.folder = _folder(self.user)
        self.data = self.folder / "data"
        self.port = free_port()
        subprocess.run([*_as(self.user), _pg_bin("initdb"), "-D", str(self.data), "-A", "trust",
                        "-U", "cardtable", "-E", "UTF8", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> Postgres:
        opts = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c full_page_writes=off")
        subprocess.run([*_as(self.user), _pg_bin("pg_ctl"), "-D", str(self.data), "-o", opts,
                        "-l", str(self.folder / "pg.log"), "-w", "-t", "30", "start"],
                       check=True, stdout=subprocess.DEVNULL)
        return self

    def stop(self) -> None:
        subprocess.run([*_as(self.user), _pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast",
                        "-w", "stop"], check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def database(self, name: str) -> str:
        """A new empty database; its SQLAlchemy URL."""
        subprocess.run([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "cardtable", name], check=True)
        return f"postgresql+psycopg://cardtable@127.0.0.1:{self.port}/{name}"

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running(service: Mosquitto | Postgres) -> Iterator:
    try:
        yield service.start()
    finally:
        service.close()
