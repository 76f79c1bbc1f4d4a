"""Data flows one way: sensors → controller → engine → displays and the club. Each package may
import only the packages upstream of it (and its own modules); the command line (``cardtable/``)
is the one place that wires them all together.

Read from the source (every ``import``, at any depth, function-level ones included), so a lazy
import against the flow fails here as surely as one at the top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "firmware_bridge", "hardware", "vision", "controller", "table_ui", "club",
            "synth", "cardtable")
# what each package may import of the others: a package name, or one module of it
MAY_IMPORT: dict[str, set[str]] = {
    "engine": set(),  # the rules: nothing else of the project
    "firmware_bridge": set(),  # the seat panels' wire and bridge
    "hardware": {"firmware_bridge"},  # devices; the panels' back-ends are the bridge's
    "vision": {"engine"},  # readers of frames; card codes are the engine's
    "controller": {"engine", "vision", "hardware", "firmware_bridge",
                   "club.protocol"},  # the club's topics, one protocol file for both ends
    "table_ui": {"engine", "controller"},  # displays read the controller
    # the club server: the engine, and the table's PIN hashing, sessions and flood guard
    "club": {"engine", "table_ui.security", "table_ui.guard"},
    "synth": {"engine", "vision", "hardware", "controller"},  # footage generators, tests' kit
    "cardtable": set(PACKAGES),  # the command line wires the parts together
}


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports by absolute name."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def against_the_flow(package: str, path: Path) -> list[str]:
    allowed = MAY_IMPORT[package] | {package}
    wrong = []
    for name in sorted(imports(path)):
        top = name.split(".")[0]
        if top not in PACKAGES:
            continue  # the standard library or a dependency
        if top in allowed or any(name == a or name.startswith(a + ".") for a in allowed):
            continue
        wrong.append(name)
    return wrong


def test_every_import_goes_with_the_data_flow() -> None:
    found: dict[str, list[str]] = {}
    count = 0
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            count += 1
            if wrong := against_the_flow(package, path):
                found[str(path.relative_to(ROOT))] = wrong
    assert count > 100  # the packages were found
    assert found == {}


def test_the_generators_are_imported_only_where_footage_is_made() -> None:
    """The synthetic footage is for tests, benchmarks and the ``footage`` commands: no package
    on the product's runtime path imports it (the command line plugs in the synthetic camera)."""
    users = {str(p.relative_to(ROOT)) for package in PACKAGES if package != "synth"
             for p in (ROOT / package).rglob("*.py")
             if any(n.split(".")[0] == "synth" for n in imports(p))}
    assert all(u.startswith("cardtable/") for u in users), users


def test_the_check_sees_an_import_against_the_flow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from controller.log import GameLog\nimport vision.reader\n"
                   "from table_ui.security import hash_pin\nfrom table_ui.app import create_app\n"
                   "def later():\n    from cardtable.args import whole\n")
    assert against_the_flow("club", bad) == ["cardtable.args", "controller.log", "table_ui.app",
                                             "vision.reader"]
    assert against_the_flow("hardware", bad) == ["cardtable.args", "controller.log",
                                                 "table_ui.app", "table_ui.security",
                                                 "vision.reader"]
    assert against_the_flow("cardtable", bad) == []
