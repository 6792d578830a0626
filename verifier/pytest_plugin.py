"""A pytest plugin: ``pytest cases/`` collects every case file as a test item.

Registered under the ``pytest11`` entry point, so it is active wherever verifier is
installed. It only collects YAML files that are case files (a top-level
``ruleset:`` key) and that lie in a folder named ``cases`` (the ``verifier_case_dirs``
ini option) or were named on the command line, so other projects' YAML is left alone.

Each item is checked by the check engine (``verifier.check``, as ``verifier check``
does): resolved with the reference resolver (or, with ``--verifier-impl``, another
implementation through the adapter protocol), compared with the case's expectation,
its listed clauses checked, and its diagram compared with the PNG snapshot. A failure
quotes the case's own YAML lines, lists the differences field by field, shows which
clauses decided each piece's fate, and names the expected, actual and diff images.
A run over whole case folders also fails on snapshots that no case names (also those
of the syrupy extension, ``verifier.syrupy_png``); ``--snapshot-update`` deletes them.

``--verifier-contract KEY`` runs the ruleset contract suite (``verifier.testing``) instead.

Selecting cases:

- ``-m`` takes markers: ``ruleset_ypp``, ``status_documented`` (``status_needs_ruling``),
  ``tag_basic``, ``clause_move_1b`` (a clause id with every character that is not a
  letter, digit or underscore replaced by ``_``). ``-m`` matches marker names exactly.
- ``-k`` matches substrings of the case id, the file name, and the raw keywords:
  the ruleset key, the status, the tags and the clause ids as written, such as
  ``-k move.1b`` or ``-k "bump and not wind"``. Being a substring match,
  ``-k bump.1`` also selects ``wind.bump.1``; use ``-m clause_bump_1`` to be exact.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .case import Case, CaseIds, LoadFailure
    from .check import CaseChecker
    from .runner import CaseResult

from .errors import CaseError, VerifierError

# The shipped contract suite is a test module: its asserts explain themselves.
pytest.register_assert_rewrite("verifier.testing")

_RULESET_LINE = re.compile(r"(?m)^ruleset[ \t]*:")
_QUOTE_ALL_BELOW = 45  # lines: shorter case files are quoted whole in a failure
_checker_key: pytest.StashKey[CaseChecker] = pytest.StashKey()
_ids_key: pytest.StashKey[CaseIds] = pytest.StashKey()
_unused_key = pytest.StashKey[list[str]]()  # what to say about unused snapshots at the end
_compared_from_key = pytest.StashKey[int]()  # where this session's entries start in COMPARED
_deselected_key = pytest.StashKey[bool]()
_known_key = pytest.StashKey[Any]()
_markers_key = pytest.StashKey[set[str]]()
_results_key = pytest.StashKey[list[bool]]()
_checked_key = pytest.StashKey[dict[int, 'CaseResult']]()  # with --verifier-workers: results by item, checked ahead
_empty_key = pytest.StashKey[bool]()  # per case item run: was it checked (not skipped or open)


# (snapshot folder, ruleset, case id) of every diagram compared through the syrupy extension
# (verifier.syrupy_png), in order; each session takes the entries it added, and removes them.
COMPARED: list[tuple[Path, str, str]] = []


def marker_name(prefix: str, value: str) -> str:
    return f"{prefix}_" + re.sub(r"[^0-9A-Za-z_]", "_", value)


# --- options ---------------------------------------------------------------------

def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("verifier", "verifier case files (YAML cases as test items)")
    group.addoption("--verifier-allow-empty", action="store_true",
                    help="verifier cases: let a run whose case items were all skipped or open pass")
    group.addoption("--verifier-no-draw", action="store_true",
                    help="verifier cases: skip diagrams and snapshot comparison")
    group.addoption("--verifier-update-snapshots", action="store_true",
                    help="verifier cases: write missing snapshots, replace differing ones and delete unused "
                         "ones (syrupy's --snapshot-update does the same)")
    group.addoption("--verifier-impl", metavar="COMMAND",
                    help="verifier cases: check another implementation through the adapter protocol "
                         "(docs/protocol.md): a command, or python:MODULE:FUNCTION")
    group.addoption("--verifier-impl-timeout", type=float, default=10.0, metavar="SECONDS",
                    help="verifier cases: how long one case may take with --verifier-impl (default: 10)")
    group.addoption("--verifier-case-timeout", type=float, default=60.0, metavar="SECONDS",
                    help="verifier cases: how long one case may take with the reference resolver (default: 60); "
                         "a case that takes longer fails")
    group.addoption("--verifier-workers", type=int, default=1, metavar="N",
                    help="verifier cases: resolve and draw every collected case in N local processes before "
                         "the items run (default: 1, each item in turn); the results are the same")
    group.addoption("--verifier-known-failures", metavar="FILE",
                    help="verifier cases: 'CASE-ID: reason' lines; listed cases are strict xfails")
    group.addoption("--verifier-contract", action="append", metavar="KEY[,KEY...]",
                    help="run verifier's ruleset contract suite (verifier.testing) on these rulesets, instead of "
                         "the tests the run would collect")
    group.addoption("--verifier-contract-cases", action="append", metavar="FOLDER",
                    help="with --verifier-contract: a folder holding a KEY/ folder of case files per ruleset "
                         "(default: cases)")
    parser.addini("verifier_case_dirs", type="args", default=["cases"],
                  help="verifier: names of folders whose YAML case files pytest collects (default: cases)")
    parser.addini("verifier_snapshots", default="snapshots",
                  help="verifier: snapshot folder, relative to the rootdir (default: snapshots)")
    parser.addini("verifier_failures", default=".verifier-failures",
                  help="verifier: where expected/actual/diff images go, relative to the rootdir")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """With --verifier-contract, the run is the shipped contract suite."""
    if getattr(early_config.known_args_namespace, "verifier_contract", None):
        args.append(str(Path(__file__).with_name("testing.py")))


def pytest_configure(config: pytest.Config) -> None:
    from .case import STATUSES, CaseIds
    config.stash[_ids_key] = CaseIds()
    config.stash[_results_key] = []
    for status in STATUSES:
        config.addinivalue_line("markers", f"{marker_name('status', status)}: verifier cases with status {status}")
    if config.getoption("--verifier-contract", None):
        from .testing import contract_rulesets
        contract_rulesets(config)  # an unknown key is a usage error now, not at collection
    path = config.getoption("--verifier-known-failures", None)
    if path:
        from .known_failures import load_known_failures
        try:
            config.stash[_known_key] = load_known_failures(path)
        except CaseError as error:
            raise pytest.UsageError(f"--verifier-known-failures: {error}") from None


def _checker(config: pytest.Config) -> CaseChecker:
    """The session's check engine, made from the options at first use."""
    checker = config.stash.get(_checker_key, None)
    if checker is None:
        from .check import CaseChecker, CheckOptions
        root = config.rootpath
        checker = config.stash[_checker_key] = CaseChecker(CheckOptions(
            root / config.getini("verifier_snapshots"), root / config.getini("verifier_failures"),
            draw=not config.getoption("--verifier-no-draw"), update_snapshots=_updating(config),
            update_advice=update_advice(config), impl=config.getoption("--verifier-impl", None),
            impl_timeout=config.getoption("--verifier-impl-timeout"), impl_cwd=str(config.invocation_params.dir),
            case_timeout=config.getoption("--verifier-case-timeout")))
    return checker


def _updating(config: pytest.Config) -> bool:
    return bool(config.getoption("--verifier-update-snapshots", False) or config.getoption("--snapshot-update", False))


def update_advice(config: pytest.Config) -> str:
    """The command that stores new drawings, as this pytest has it: syrupy's option where
    syrupy is active, the plugin's own otherwise."""
    if config.pluginmanager.hasplugin("syrupy"):
        return "pytest --snapshot-update"
    return "pytest --verifier-update-snapshots"


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_compared_from_key] = len(COMPARED)


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        items[0].config.stash[_deselected_key] = True


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run whose case items were all skipped or open checked nothing, and fails; so does
    one that leaves snapshots no case names."""
    config = session.config
    ran = config.stash.get(_results_key, [])
    if ran and not any(ran) and exitstatus == 0 and not config.getoption("--verifier-allow-empty"):
        config.stash[_empty_key] = True
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    start = config.stash.get(_compared_from_key, len(COMPARED))
    compared = COMPARED[start:]
    del COMPARED[start:]  # an inner pytest run (pytester) leaves nothing to the outer one
    if _whole_folders_ran(session, exitstatus):
        notes, unused = _unused_snapshots(config, compared)
        config.stash[_unused_key] = notes
        if unused and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _whole_folders_ran(session: pytest.Session, exitstatus: int) -> bool:
    """Whether every case of the folders given ran, so that a snapshot no case named is
    unused, not merely unselected: no case file or test named alone, nothing deselected, no early stop."""
    config = session.config
    if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) or session.shouldstop \
            or session.shouldfail or config.stash.get(_deselected_key, False) or config.getoption("collectonly"):
        return False
    return not any("::" in str(arg) or str(arg).endswith((".yaml", ".yml")) for arg in config.args)


def _unused_snapshots(config: pytest.Config, compared: list[tuple[Path, str, str]]) -> tuple[list[str], bool]:
    """What to say of the snapshots that no case of the run named, in the snapshot folders
    and rulesets the run drew for; with an update, they are deleted. And whether the run fails."""
    from .snapshots import SnapshotStore
    used: dict[Path, set[tuple[str, str]]] = {}
    for root, ruleset, case_id in compared:
        used.setdefault(root, set()).add((ruleset, case_id))
    checker = config.stash.get(_checker_key, None)
    if checker is not None and checker.options.draw and not checker.through_impl:
        collected = config.stash[_ids_key].taken
        if collected:
            used.setdefault(checker.options.snapshots, set()).update(collected)
    notes, failing = [], False
    for root, names in used.items():
        for path in SnapshotStore(root).unused(names, {ruleset for ruleset, _ in names}):
            if _updating(config):
                path.unlink()
                notes.append(f"deleted unused snapshot {path}")
            else:
                failing = True
                notes.append(f"unused snapshot {path}: no case has this id (run '{update_advice(config)}' to "
                             "delete it)")
    return notes, failing


def pytest_unconfigure(config: pytest.Config) -> None:
    checker = config.stash.get(_checker_key, None)
    if checker is not None:
        checker.close()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Say why a run that checked nothing failed; name known-failure entries that no
    collected case has (a renamed or deleted case)."""
    if config.stash.get(_empty_key, False):
        count = len(config.stash.get(_results_key, []))
        terminalreporter.write_line(f"verifier: nothing was checked: all {count} case items were skipped or need a "
                                    "ruling; pass --verifier-allow-empty if that is what you meant", red=True)
    for note in config.stash.get(_unused_key, []):
        terminalreporter.write_line(f"verifier: {note}", red=not note.startswith("deleted"))
    known = config.stash.get(_known_key, None)
    ids = config.stash.get(_ids_key, None)
    if known is None or ids is None or not ids.taken:
        return
    from .known_failures import unused_known_failures
    for note in unused_known_failures(sorted(case_id for _, case_id in ids.taken), known):
        terminalreporter.write_line(f"verifier: {note}", yellow=True)


def _registered(config: pytest.Config, name: str, description: str) -> None:
    """Register a marker once, so that --strict-markers accepts it."""
    done = config.stash.setdefault(_markers_key, set())
    if name not in done:
        done.add(name)
        if not any(line.split(":", 1)[0].strip() == name for line in config.getini("markers")):
            config.addinivalue_line("markers", f"{name}: {description}")


# --- collection ------------------------------------------------------------------

def _case_tree(config: pytest.Config, path: Path) -> Path | None:
    """The case folder (one named in ``verifier_case_dirs``) that ``path`` sits in, or None."""
    names = set(config.getini("verifier_case_dirs"))
    base = config.rootpath.parent
    try:  # from the rootdir down (the rootdir itself may be the case folder)
        parts = path.relative_to(base).parts[:-1]
    except ValueError:
        base, parts = Path(path.anchor), path.parts[1:-1]
    for i, part in enumerate(parts):
        if part in names:
            return base.joinpath(*parts[: i + 1])
    return None


def _in_case_tree(config: pytest.Config, path: Path) -> bool:
    return _case_tree(config, path) is not None


def _looks_like_case(path: Path) -> bool:
    """Whether ``path`` is a case file: a YAML mapping with a top-level ``ruleset`` key, found
    by parsing the whole file (a case's ``ruleset:`` may lie anywhere in it). A file that
    does not parse is collected when it has a ``ruleset:`` line, so its item says what is wrong."""
    from .source import file_problem, limits, load_file
    if file_problem(path):
        return True  # collected, so that the item says what is wrong with it
    try:
        document = load_file(path)
    except VerifierError:
        try:
            with path.open("rb") as handle:
                text = handle.read(limits()[0] + 1).decode("utf-8", errors="replace")
        except OSError:
            return False
        return bool(_RULESET_LINE.search(text))
    return isinstance(document.data, dict) and "ruleset" in document.data


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Links to folders inside a case tree are not followed, as ``verifier check`` does not
    follow them: a link loop cannot make collection endless."""
    if collection_path.is_symlink() and collection_path.is_dir() and _in_case_tree(config, collection_path / "x"):
        return True
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> CaseFile | None:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    explicit = parent.session.isinitpath(file_path)
    if not (explicit or _in_case_tree(parent.config, file_path)) or not _looks_like_case(file_path):
        return None
    return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    """One case file; yields one item named by the case's id."""

    def collect(self) -> Iterator[pytest.Item]:
        from .case import Case, case_file_problem, load_entry
        explicit = self.session.isinitpath(self.path)
        loaded = load_entry(self.path, case_file_problem(self.path, None if explicit else _case_tree(
            self.config, self.path)))
        entry = self.config.stash[_ids_key].admit(loaded)
        name = loaded.id if isinstance(loaded, Case) else self.path.stem
        if isinstance(entry, Case):
            yield CaseItem.from_parent(self, name=name, case=entry)
        else:
            yield BrokenCaseItem.from_parent(self, name=name, failure=entry)


class CaseFailure(Exception):
    """Raised by a case item that did not pass; ``repr_failure`` formats it."""

    def __init__(self, report: str):
        super().__init__(report)
        self.report = report


class KnownFailureChanged(Exception):
    """A listed known failure that fails in another way than the list records: not the
    expected failure, so a strict xfail does not take it."""

    def __init__(self, report: str):
        super().__init__(report)
        self.report = report


class _Item(pytest.Item):
    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, (CaseFailure, KnownFailureChanged)):
            return excinfo.value.report
        return super().repr_failure(excinfo, style)


class BrokenCaseItem(_Item):
    """A case file that does not load: the item fails with the loader's errors."""

    def __init__(self, *, failure: LoadFailure, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.failure = failure

    def runtest(self) -> None:
        errors = self.failure.errors
        lines = {e.location.line for e in errors if e.location.line}
        text = [f"{self.path.name} does not load as a case:"]
        text += [f"  {e}" for e in errors]
        text += ["", *_quote_yaml(self.path, lines)]
        raise CaseFailure("\n".join(text))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"case file {self.path.name}"


class CaseItem(_Item):
    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        config = self.config
        names = [(marker_name("ruleset", case.ruleset.key), f"verifier cases of ruleset {case.ruleset.key}"),
                 (marker_name("status", case.status), f"verifier cases with status {case.status}")]
        names += [(marker_name("tag", t), f"verifier cases tagged {t}") for t in case.tags]
        names += [(marker_name("clause", c), f"verifier cases that illustrate clause {c}") for c in case.clauses]
        for name, description in names:
            _registered(config, name, description)
            self.add_marker(name)
        self.extra_keyword_matches.update({case.ruleset.key, case.status, *case.tags, *case.clauses})
        known = config.stash.get(_known_key, None)
        if known is not None and case.id in known:
            self.add_marker(pytest.mark.xfail(reason=f"known failure ({known.file}): {known.reasons[case.id]}",
                                              strict=True, raises=CaseFailure))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"{self.case.id}: {self.case.title}"

    # --- running ---------------------------------------------------------------

    def _checked_ahead(self, checker: CaseChecker) -> dict[int, CaseResult]:
        """With --verifier-workers N: every case item of the session checked at once, in N
        processes, the first time an item runs; each item then takes its own result."""
        ahead = self.config.stash.get(_checked_key, None)
        if ahead is None:
            ahead = self.config.stash[_checked_key] = {}
            workers = self.config.getoption("--verifier-workers", 1) or 1
            if workers > 1 and not checker.through_impl:
                from .execute import Execution
                items = [item for item in self.session.items if isinstance(item, CaseItem)]
                for item, result in zip(items, checker.check_ahead([item.case for item in items],
                                                                   Execution(workers))):
                    ahead[id(item)] = result
        return ahead

    def runtest(self) -> None:
        from .runner import CHECKED, Status
        case = self.case
        config = self.config
        checker = _checker(config)
        if checker.through_impl:
            try:
                checker.implementation_run()
            except VerifierError as error:
                raise pytest.UsageError(f"--verifier-impl: {error}") from None
        ahead = self._checked_ahead(checker)
        result = ahead.pop(id(self)) if id(self) in ahead else checker.check(case)
        checked = result.status in CHECKED or (result.status == Status.OPEN and not checker.through_impl)
        config.stash[_results_key].append(checked)
        if result.status == Status.OPEN:
            notes = "; ".join(p.message for p in result.problems)
            pytest.skip("needs a ruling (see 'verifier explore')" + (f"; {notes}" if notes else ""))
        if result.status == Status.SKIPPED:
            pytest.skip(result.reason)
        known = config.stash.get(_known_key, None)
        if known is not None and case.id in known and result.status != Status.PASSED:
            from .known_failures import mark_known_failure
            from .runner import ProblemKind
            marked = mark_known_failure(result, known)
            if any(p.kind is ProblemKind.CHANGED for p in marked.problems):  # not the listed failure
                raise KnownFailureChanged(failure_report(case, marked, update_advice(config)))
        if result.status != Status.PASSED:
            raise CaseFailure(failure_report(case, result, update_advice(config)))


# --- the failure report ----------------------------------------------------------

def _quote_yaml(path: Path, marked: set[int]) -> list[str]:
    """The case file's lines, numbered, with '>' at the lines a problem concerns. Short
    files are quoted whole; long ones around the marked lines."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    if len(lines) <= _QUOTE_ALL_BELOW or not marked:
        shown = list(range(1, len(lines) + 1))
    else:
        keep = sorted({n for m in marked for n in range(m - 3, m + 4) if 1 <= n <= len(lines)})
        shown = keep
    width = len(str(len(lines)))
    out, last = [], 0
    for number in shown:
        if last and number != last + 1:
            out.append(f"   {'':>{width}} | ...")
        out.append(f"{'>' if number in marked else ' '}  {number:>{width}} | {lines[number - 1]}")
        last = number
    return out


def _value(value: Any) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def failure_report(case: Case, result: CaseResult, advice: str = "pytest --verifier-update-snapshots") -> str:
    """What a failing case item shows: the case, its YAML lines, the differences field by
    field, the other problems, the clause provenance and the images."""
    from .runner import ProblemKind
    from .source import format_path
    ruleset = case.ruleset
    text = [f"{case.id}: {case.title}",
            f"{case.path} (ruleset {ruleset.key}, status {case.status}; reading "
            + ", ".join(f"{k}={v}" for k, v in case.readings.items()) + ")"]
    if result.compared_under:
        text.append(result.compared_under)
    if result.not_compared:
        text.append("not compared (the implementation does not report them): " + ", ".join(result.not_compared))
    mismatches = []
    if result.outcome is not None and case.expect is not None:
        try:
            mismatches = ruleset.compare(case.before, case.expect, result.outcome)
        except Exception:  # the failure already says that comparing crashed
            mismatches = []
    marked = {p.location.line for p in result.problems if p.location.line and p.location.file == case.path
              and p.kind not in (ProblemKind.SNAPSHOT, ProblemKind.ARTIFACTS)}
    text += ["", "case file:", *_quote_yaml(Path(case.path), marked)]
    if mismatches:
        rows = [["field", "expected", "actual", "line"]]
        for m in mismatches:
            location = case.where(("expect",) + tuple(m.path))
            rows.append([format_path(("expect",) + tuple(m.path)), _value(m.expected), _value(m.actual),
                         str(location.line or "")])
        text += ["", "differences (expected vs actual):", *_table(rows)]
        text += ["", "in words:"] + [f"  {m.message}" for m in mismatches]
    others = [p for p in result.problems
              if p.kind not in (ProblemKind.MISMATCH, ProblemKind.ARTIFACTS, ProblemKind.DETAIL)]
    if others:
        text += ["", "problems:"] + [f"  {p}" for p in others]
    text += _provenance(case, result)
    images = []
    if result.snapshot is not None and result.snapshot.artifacts:
        for path in result.snapshot.artifacts:
            kind = Path(path).suffixes[-2].lstrip(".") if len(Path(path).suffixes) >= 2 else "image"
            images.append(f"  {kind}: {path}")
        images.append(f"  snapshot: {result.snapshot.path}")
    images += [f"  {p.message}" for p in result.problems if p.kind is ProblemKind.ARTIFACTS]
    if images:
        text += ["", "images:", *images]
        if result.snapshot is not None and not result.snapshot.ok:
            text.append(f"  if the new drawing is right: {advice}")
    return "\n".join(text)


def _provenance(case: Case, result: CaseResult) -> list[str]:
    ruleset = case.ruleset
    outcome = result.outcome
    label = "provenance (the clauses that decided each piece's fate):"
    if outcome is None or not outcome.provenance:
        try:
            outcome = ruleset.resolve(case.before, case.actions, case.readings)
            label = "provenance of the reference resolver (the implementation gave none):" \
                if result.outcome is not None else label
        except Exception:
            return []
    lines = ["", label]
    for piece, causes in outcome.provenance.items():
        lines.append(f"  {piece}: " + ", ".join(map(str, causes)))
    ids = list(case.clauses)
    for causes in outcome.provenance.values():
        for cause in causes:
            if cause.clause and cause.clause not in ids:
                ids.append(cause.clause)
    known = set(ruleset.clause_ids)
    described = [c for c in ids if c in known]
    if described:
        lines += ["", "clauses:"]
        width = max(len(c) for c in described)
        for clause_id in described:
            clause = ruleset.clause(clause_id)
            mark = "*" if clause_id in case.clauses else " "
            lines.append(f" {mark}{clause_id:<{width}}  {clause.summary} [{clause.source}]")
        lines.append("  (* = listed by the case)")
    return lines
