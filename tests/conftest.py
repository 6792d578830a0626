from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"


def case_files() -> list[Path]:
    return sorted(CASES.rglob("*.yaml"))


def case_param(path: Path):
    return pytest.param(path, id=str(path.relative_to(CASES).with_suffix("")))


@pytest.fixture
def write_case(tmp_path):
    """Write YAML text to a temporary case file and return its path."""
    def write(text: str, name: str = "case.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write
