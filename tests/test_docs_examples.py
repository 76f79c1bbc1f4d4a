"""The code examples in the docs run as written (they are the first thing a developer copies)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@pytest.mark.parametrize("page", ["engine.md"])
def test_python_examples_run(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = BLOCK.findall((DOCS / page).read_text(encoding="utf-8"))
    assert blocks, f"{page} has no python example"
    for code in blocks:
        exec(compile(code, f"docs/{page}", "exec"), {})
    assert "must-trump" in capsys.readouterr().out
