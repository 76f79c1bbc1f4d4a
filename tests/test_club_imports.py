"""The club server is its own package: it may use the engine, never the table's parts (but for
``table_ui.security``, the PIN hashing, login rate limit and sessions that the club's admin
shares with the table's, and ``table_ui.guard``, the web server's guard against floods)."""

from __future__ import annotations

import ast
from pathlib import Path

CLUB = Path(__file__).resolve().parents[1] / "club"
FORBIDDEN = ("controller", "vision", "table_ui", "hardware", "firmware_bridge", "cardtable")
ALLOWED = ("table_ui.security", "table_ui.guard")


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names if a.name not in ALLOWED)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module not in ALLOWED:
            names.add(node.module.split(".")[0])
    return names


def test_club_imports_no_part_of_the_table() -> None:
    files = sorted(CLUB.rglob("*.py"))
    assert len(files) >= 5
    wrong = {str(f.relative_to(CLUB)): sorted(imported(f) & set(FORBIDDEN)) for f in files}
    assert {f: w for f, w in wrong.items() if w} == {}


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from controller.log import GameLog\nimport vision.reader\n"
                   "from table_ui.security import hash_pin\nfrom table_ui.app import create_app\n")
    assert imported(bad) & set(FORBIDDEN) == {"controller", "vision", "table_ui"}
