from __future__ import annotations

import os
import shutil
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import settings

# Speed is measured by benchmarks, never by timed tests: no Hypothesis deadline, which on a
# loaded two-core CI machine fails an example for being slow, not for being wrong.
settings.register_profile("verifier", deadline=None)
settings.load_profile("verifier")

# The record of files the verifier wrote (verifier.output) goes to a folder of this run,
# not the user's ~/.local/state; commands the tests start inherit it.
os.environ["VERIFIER_STATE_DIR"] = tempfile.mkdtemp(prefix="verifier-state-")

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
IMPLS = ROOT / "tests" / "impls"
PYTHON = sys.executable
REFERENCE = f"{PYTHON} -m verifier.adapters.reference"
NODE = shutil.which("node")
BUMP = CASES / "ypp" / "move-1b-equal-class-bump.yaml"


def run(capsys, *argv):
    """``verifier ARGV`` in this process: (exit code, stdout, stderr)."""
    from verifier.cli import main
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)  # relative paths in reports, as a user at the top of the repository sees them


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


# Rulesets from outside verifier/ (tests/plugins/README.md), registered only through
# entry-point metadata, which Python finds only while this folder is on sys.path.
PLUGINS = ROOT / "tests" / "plugins"


def plugin_keys() -> list[str]:
    """The keys of the rulesets in tests/plugins, read from their entry-point metadata."""
    from importlib.metadata import distributions

    from verifier.registry import GROUP
    return sorted(ep.name for dist in distributions(path=[str(PLUGINS)]) for ep in dist.entry_points
                  if ep.group == GROUP)


@pytest.fixture
def plugin_rulesets(monkeypatch):
    """Register the rulesets of tests/plugins for one test: their folder goes on sys.path
    (for the registry) and on PYTHONPATH (for the commands the test runs). Afterwards
    both are as before and the registry has forgotten them, so no other test sees them."""
    from verifier import registry
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PLUGINS), os.environ.get("PYTHONPATH")])))
    yield PLUGINS
    for key in plugin_keys():
        registry._loaded.pop(key, None)


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook (see _group below)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``pytest -n`` (pytest-xdist, ``--dist loadgroup``) the tests that use a session
    fixture defined under tests/ run on one worker, so that the fixture is made once, not once
    per worker: each gets an ``xdist_group`` mark. Tests joined through shared fixtures (one
    uses A, another A and B, a third B) are one group, named after its first fixture. So a
    session fixture here is for something costly that a few tests share."""
    if not config.pluginmanager.hasplugin("xdist"):
        return  # the mark is pytest-xdist's: without it, an unknown mark
    uses = {item: _shared_fixtures(item) for item in items}
    joined: dict[str, str] = {}  # union-find over fixture names

    def root(name: str) -> str:
        while joined.setdefault(name, name) != name:
            name = joined[name]
        return name
    for names in uses.values():
        for name in names:
            joined[root(name)] = root(names[0])
    groups: dict[str, str] = {}
    for name in sorted(joined):
        groups.setdefault(root(name), name)  # the component's first name in alphabetical order
    sizes = Counter(groups[root(names[0])] for names in uses.values() if names)
    for item, names in uses.items():
        # A group of more than half the tests (an autouse fixture, say) would undo the workers:
        # its fixture is made on every worker instead.
        if names and sizes[groups[root(names[0])]] * 2 <= len(items):
            item.add_marker(pytest.mark.xdist_group(groups[root(names[0])]))
        if getattr(config.option, "loadgroup", False):
            _group(item)


def _shared_fixtures(item: pytest.Item) -> list[str]:
    """The session fixtures defined under tests/ that an item uses, directly or not; not the
    autouse ones, which every test uses."""
    definitions = getattr(item, "_fixtureinfo", None)
    if definitions is None:
        return []
    return sorted(name for name, defs in definitions.name2fixturedefs.items()
                  if defs and defs[-1].scope == "session" and _ours(defs[-1].func)
                  and not getattr(defs[-1], "_autouse", False))


def _group(item: pytest.Item) -> None:
    """Tell the scheduler an item's group. pytest-xdist 3.8 does it by appending ``@GROUP`` to
    the node id through ``item._nodeid``, which pytest 9.2 no longer reads (its node ids are
    structured, ``item._id``), so every test ran wherever it fell: pytest-xdist issue #1386.
    Here the suffix is added where the node id is kept, unless it is there already."""
    names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                    for m in item.iter_markers("xdist_group")})
    if not names or "@" in item.nodeid.rpartition("]")[2]:
        return
    grouped = f"{item.nodeid}@{'_'.join(names)}"
    if hasattr(item, "_id"):
        from _pytest.nodeid import coerce_node_id
        item._id = coerce_node_id(grouped)
    else:
        item._nodeid = grouped
    if item.nodeid != grouped:
        warnings.warn(f"pytest-xdist cannot group {item.nodeid}: its session fixtures are made on every worker",
                      pytest.PytestWarning, stacklevel=1)


def _ours(func) -> bool:
    """Whether a fixture is defined under tests/ (not by pytest or a plugin)."""
    code = getattr(func, "__code__", None)
    return code is not None and Path(code.co_filename).resolve().is_relative_to(ROOT / "tests")


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory):
    """The rule pages built once from the bundled cases (every ruleset, a short explorer
    pass), shared by tests/test_docs.py and the browser test."""
    from verifier.docs import build_site
    return build_site(tmp_path_factory.mktemp("docs") / "site", cases_dir=CASES, findings_dir=None, examples=60)



def _import_every_verifier_module() -> None:
    """pytester's in-process runs forget the modules they imported, and the next run imports
    them afresh: numpy (under shapely) refuses a second import in one process, and a ruleset's
    enums imported twice are two types whose equal-looking members differ. Modules imported
    before the first run are kept across runs, so every verifier module is imported here."""
    import importlib
    import pkgutil

    import verifier
    for module in pkgutil.walk_packages(verifier.__path__, "verifier."):
        importlib.import_module(module.name)


_import_every_verifier_module()
