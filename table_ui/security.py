"""The admin's security: a hashed PIN, a login rate limit, sessions and CSRF tokens.

Why this shape: the admin is used from a phone on the table's own network, so the PIN is short;
scrypt makes a stolen hash slow to brute-force, the rate limit makes guessing over the network
slow, and the session cookie is HttpOnly + SameSite=Strict with a session-bound CSRF token that
every POST must echo in the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from controller.pin import pin_hash_problem

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SESSION_COOKIE = "ct_admin"
CSRF_HEADER = "X-CSRF-Token"
SESSION_TTL = 8 * 3600.0
MAX_FAILURES = 5
FAILURE_WINDOW = 60.0
MAX_FAILURES_OVERALL = 20  # wrong PINs a minute from every address together
PIN_CHECKS_AT_ONCE = 2  # scrypt hashes (16 MiB each) running at one time, at most
_PIN_CHECKS = threading.BoundedSemaphore(PIN_CHECKS_AT_ONCE)


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt_hex$hash_hex`` of a PIN (salted, slow on purpose)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    """True when ``pin`` matches a :func:`hash_pin` string; False for any malformed hash. At
    most ``PIN_CHECKS_AT_ONCE`` hashes run at a time (each takes 16 MiB)."""
    try:
        if pin_hash_problem(stored) is not None:
            return False
        _scheme, n, r, p, salt_hex, hash_hex = stored.split("$")
        with _PIN_CHECKS:
            digest = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt_hex), n=int(n),
                                    r=int(r), p=int(p), dklen=len(hash_hex) // 2)
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(digest.hex(), hash_hex)


def random_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


class RateLimiter:
    """At most ``limit`` failures per ``window`` seconds per client key, and ``overall`` from
    every key together. Use :meth:`attempt` before checking a PIN: it counts the try as a
    failure in the same step as it checks the limit (so tries sent at once cannot all pass the
    check before any is counted), and :meth:`reset` forgives them once the PIN is right."""

    OVERALL = "\x00overall"

    def __init__(self, limit: int = MAX_FAILURES, window: float = FAILURE_WINDOW,
                 clock: Callable[[], float] = time.monotonic,
                 overall: int = MAX_FAILURES_OVERALL) -> None:
        self.limit, self.window, self.clock, self.overall = limit, window, clock, overall
        self._fails: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str) -> deque[float]:
        q = self._fails.setdefault(key, deque())
        now = self.clock()
        while q and now - q[0] > self.window:
            q.popleft()
        return q

    def blocked(self, key: str) -> bool:
        with self._lock:
            return (len(self._recent(key)) >= self.limit
                    or len(self._recent(self.OVERALL)) >= self.overall)

    def attempt(self, key: str) -> bool:
        """False when ``key`` (or everyone) is over the limit; else the try is counted (as a
        failure until :meth:`reset`) and True."""
        with self._lock:
            if (len(self._recent(key)) >= self.limit
                    or len(self._recent(self.OVERALL)) >= self.overall):
                return False
            now = self.clock()
            self._recent(key).append(now)
            self._recent(self.OVERALL).append(now)
            if len(self._fails) > 10_000:  # never grow without bound
                self._fails = {k: v for k, v in self._fails.items() if v}
            return True

    def retry_after(self, key: str) -> int:
        with self._lock:
            q = self._recent(key)
            if len(q) < self.limit:
                q = self._recent(self.OVERALL)
            return max(1, int(self.window - (self.clock() - q[0])) + 1) if q else 1

    def fail(self, key: str) -> None:
        with self._lock:
            self._recent(key).append(self.clock())
            if len(self._fails) > 10_000:  # never grow without bound
                self._fails = {k: v for k, v in self._fails.items() if v}

    def reset(self, key: str) -> None:
        with self._lock:
            self._fails.pop(key, None)


@dataclass
class Session:
    token: str
    csrf: str
    expires: float


class Sessions:
    """Server-side admin sessions (in memory: a restart logs the admin out, which is fine)."""

    def __init__(self, ttl: float = SESSION_TTL, clock: Callable[[], float] = time.time) -> None:
        self.ttl, self.clock = ttl, clock
        self._by_token: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self) -> Session:
        s = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), self.clock() + self.ttl)
        with self._lock:
            now = self.clock()
            self._by_token = {k: v for k, v in self._by_token.items() if v.expires > now}
            self._by_token[s.token] = s
        return s

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        with self._lock:
            s = self._by_token.get(token)
            if s is None or s.expires <= self.clock():
                self._by_token.pop(token, None)
                return None
            return s

    def drop(self, token: str | None) -> None:
        with self._lock:
            self._by_token.pop(token or "", None)


def csrf_ok(session: Session, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(session.csrf.encode(), (sent or "").encode())
