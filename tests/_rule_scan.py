"""Every rule id written in engine/ and controller/, found in the source itself (every
``Verdict``, engine error, error class and alert): shared by tests/test_rule_texts.py and
tests/test_rule_ids.py."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

from controller.core import RESULT_CONFIRMED
from controller.inputs import CameraNote

ROOT = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def rule_ids() -> set[str]:
    """Every rule id written in engine/ and controller/."""
    found: set[str] = set()

    def take(node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and RULE_ID.match(node.value):
            found.add(node.value)

    for package in ("engine", "controller"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    fn = node.func
                    name = (fn.attr if isinstance(fn, ast.Attribute)
                            else fn.id if isinstance(fn, ast.Name) else "")
                    if name == "Verdict" and len(node.args) >= 3:
                        take(node.args[2])  # Verdict(event, False, "rule", message)
                    elif name.endswith("Error") and len(node.args) >= 2:
                        take(node.args[1])  # SomeError(message, "rule")
                    elif name in ("alert", "Alert") and node.args:
                        take(node.args[0])  # alert("rule", message, ...)
                    for kw in node.keywords:
                        if kw.arg == "rule":
                            take(kw.value)
                elif isinstance(node, ast.ClassDef):
                    for stmt in node.body:  # class SomeError: rule = "..."
                        if isinstance(stmt, ast.Assign) and any(
                                isinstance(t, ast.Name) and t.id == "rule" for t in stmt.targets):
                            take(stmt.value)
    # ids made at run time: a camera's alert is camera-<camera>
    found |= {f"camera-{c}" for c in typing.get_args(CameraNote.model_fields["camera"].annotation)}
    return found | {RESULT_CONFIRMED}
