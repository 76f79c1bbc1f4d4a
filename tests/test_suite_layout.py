"""The test suite keeps one layout: shared fixtures in conftest.py, shared helpers in ``_*.py``
modules, and no test file importing another (a test module run alone must not run another's)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_test_file_imports_another() -> None:
    offenders = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name} imports {n}" for n in names if n.startswith("test_")]
    assert not offenders, offenders


def test_helper_modules_are_never_collected() -> None:
    # pytest collects test_*.py only; a helper named test_* would be collected as tests
    for path in TESTS.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tests = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                 and n.name.startswith("test_")]
        assert tests, f"{path.name} has no tests: name it _{path.name[5:]} if it is a helper"
