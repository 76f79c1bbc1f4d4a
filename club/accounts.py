"""Broker accounts: each table its own user and password, and an ACL that lets it publish only
under its own topics (``club.protocol``) and read only what the server says to it (``resend``,
``start``); the club server reads every table and writes only the ``resend`` and ``start``
messages.

Passwords go into Mosquitto's password file through Mosquitto's own ``mosquitto_passwd`` (it
hashes them; nothing here writes a hash by hand); the ACL lines are plain text.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from club.protocol import ROOT, check_name

SERVER_USER = "club-server"


@dataclass(frozen=True)
class Account:
    username: str
    password: str
    acl: str  # the Mosquitto ACL lines of this account


def table_account(club: str, table: str, password: str | None = None) -> Account:
    check_name("club", club)
    check_name("table", table)
    user = f"{club}-{table}"
    base = f"{ROOT}/{club}/{table}"
    acl = (f"user {user}\ntopic write {base}/log\ntopic write {base}/status\n"
           f"topic read {base}/resend\ntopic read {base}/start\n")
    return Account(user, password or secrets.token_urlsafe(18), acl)


def server_account(password: str | None = None) -> Account:
    acl = (f"user {SERVER_USER}\ntopic read {ROOT}/#\ntopic write {ROOT}/+/+/resend\n"
           f"topic write {ROOT}/+/+/start\n")
    return Account(SERVER_USER, password or secrets.token_urlsafe(18), acl)


class AccountError(RuntimeError):
    pass


def add_to_broker(account: Account, passwd: Path | None, acl: Path | None) -> None:
    """Add the account to Mosquitto's password file (made if missing) and its ACL file."""
    if passwd is not None:
        tool = shutil.which("mosquitto_passwd")
        if tool is None:
            raise AccountError("mosquitto_passwd is not installed (apt install mosquitto)")
        flags = ["-b"] if passwd.exists() else ["-c", "-b"]
        done = subprocess.run([tool, *flags, str(passwd), account.username, account.password],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise AccountError(f"mosquitto_passwd could not write {passwd}: "
                               f"{(done.stderr or done.stdout).strip()}")
    if acl is not None:
        text = acl.read_text(encoding="utf-8") if acl.exists() else ""
        if f"user {account.username}\n" in text:
            return  # already there: the ACL does not change with the password
        with acl.open("a", encoding="utf-8") as f:
            f.write(("\n" if text and not text.endswith("\n\n") else "") + account.acl)
