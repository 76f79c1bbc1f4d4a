"""The one check of an admin PIN hash's form, shared by the table config and the web admin.

Why here: the table config (``controller.config``) refuses a malformed ``admin_pin_hash`` at its
line before the table starts, and the web admin (``table_ui.security.verify_pin``) refuses one at
login; both ask this function, so they cannot disagree. Hashes are made by
``table_ui.security.hash_pin`` (``cardtable admin-pin``).
"""

from __future__ import annotations

import re


def pin_hash_problem(value: str) -> str | None:
    """What is wrong with a PIN hash string, or None: ``scrypt$N$r$p$salt$hash`` with N a
    power of two from 2^12 to 2^16, r 1-16, p 1-4, a salt of 16-64 bytes and a 32-byte hash,
    in lower-case hex (a shorter hash is guessed in a few hundred tries; a larger N needs more
    memory than scrypt is allowed, so no PIN would ever match)."""
    m = re.fullmatch(r"scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([0-9a-f]+)\$([0-9a-f]+)", value)
    if m is None:
        return "scrypt$N$r$p$salt$hash"
    n, r, p = (int(g) for g in m.group(1, 2, 3))
    if n not in {2**k for k in range(12, 17)}:
        return f"N={n}: a power of two from 4096 to 65536"
    if not (1 <= r <= 16 and 1 <= p <= 4):
        return f"r={r}, p={p}: r 1-16, p 1-4"
    if not (32 <= len(m.group(4)) <= 128 and len(m.group(4)) % 2 == 0):
        return "the salt is 16-64 bytes in hex"
    if len(m.group(5)) != 64:
        return "the hash is 32 bytes (64 hex digits)"
    return None
