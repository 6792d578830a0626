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


def _used_snapshot_names() -> set[tuple[str, str]]:
    from verifier.case import load_case
    from verifier.errors import VerifierError
    used = set()
    for path in case_files():
        try:
            case = load_case(path)
        except VerifierError:
            continue
        used.add((case.ruleset.key, case.id))
    return used


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Report snapshots that no case names (syrupy cannot tie them to a test), and
    remove them under --snapshot-update, as syrupy does for its own."""
    from verifier.snapshots import SnapshotStore
    session = terminalreporter._session
    if config.getoption("collectonly", False) or not any(
            "test_diagrams" in str(item.fspath) for item in session.items):
        return
    store = SnapshotStore(ROOT / "snapshots")
    unused = store.unused(_used_snapshot_names())
    if not unused:
        return
    reporter = terminalreporter
    if config.getoption("--snapshot-update", False):
        for path in unused:
            path.unlink()
            reporter.write_line(f"deleted unused snapshot {path.relative_to(ROOT)}")
        return
    for path in unused:
        reporter.write_line(f"unused snapshot {path.relative_to(ROOT)}: no case has this id "
                            "(run 'pytest --snapshot-update' to delete it)", red=True)
    session.exitstatus = 1


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory):
    """The rule pages built once from the bundled cases (every ruleset, a short explorer
    pass), shared by tests/test_docs.py and the browser test."""
    from verifier.docs import build_site
    return build_site(tmp_path_factory.mktemp("docs") / "site", cases_dir=CASES, findings_dir=None, examples=60)
