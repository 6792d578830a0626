"""``verifier bench``: how fast the verifier is.

The core knows three suites. ``core``: cases per second of ``verifier check`` over the
bundled cases (every ruleset), with drawing and snapshot comparison, and without
drawing, so the drawing share is visible. ``docs``: seconds to build the whole site
with ``verifier docs`` on every local core, reading the explorer's reports where they
are (``explore/RULESET/report.json``, written by ``verifier explore`` first: a warm
report) and running the quick explorer pass for a ruleset without one. ``search``: scenes per
CPU second of the explorer's search and of fuzz against the reference (in-process adapter,
one worker), and against the reference's recorded answers (fuzz's own rate), for every
ruleset that both can take. Every other suite belongs to a ruleset
that declares ``Capability.BENCHMARKS`` and is named ``RULESET.SUITE`` (``ypp.turns``,
``scatter.odds``, ...); ``verifier bench --list`` shows them all. ``--suite`` takes
``core`` (the default), ``all``, a suite's name, a ruleset's key (all of its
suites), or several of these separated by commas.

Timings are the best of several repetitions timed with ``time.perf_counter`` (the
median is shown next to it), by the helpers of ``verifier.kit.bench`` that the
rulesets' suites use too. Nothing is written into the repository: failure
images of the check go to a temporary folder, and snapshots are never updated.

Optional attributes read from ``args`` besides those of the ``bench`` parser
(``cases``, ``quick``, ``json``, ``repeats``, ``suite``, ``list``):
``snapshots`` (the snapshot folder of the core suite), ``findings`` (the explorer's
report folder for the docs suite; by default ``explore`` beside the cases folder).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import tempfile
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from . import registry
from .errors import CaseError, Location, did_you_mean
from .execute import Progress
from .kit.bench import Row, format_rows, measure, progress, rate, repeats_for, secs, set_meter
from .ruleset import BenchSettings, BenchSuite, Capability, Ruleset

CORE = "core"
DOCS = "docs"
ALL = "all"


class UnknownSuiteError(CaseError):
    """A ``--suite`` name that neither the core nor any registered ruleset provides."""


def load_average() -> tuple[float, float, float] | None:
    """Other work on the machine skews every figure; the load average says how much there was."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


def write_json(path: str | Path, data: Mapping[str, Any]) -> None:
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


# --- the core suite: verifier check ------------------------------------------------


def _count(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items()))


def _seeded_snapshots(cases: str, snapshots: str, folder: Path) -> Path:
    """A temporary snapshot folder in which every case has a snapshot: the ones in
    ``snapshots`` are copied, the missing ones drawn. Only ``folder`` is written."""
    from PIL import Image

    from .runner import RunOptions, check_paths
    from .snapshots import SnapshotResult, SnapshotStore, png_bytes

    root = folder / "snapshots"
    if Path(snapshots).is_dir():
        shutil.copytree(snapshots, root)
    root.mkdir(parents=True, exist_ok=True)

    class SeedingStore(SnapshotStore):
        def check(self, ruleset: str, case_id: str, image: Image.Image, update: bool = False) -> SnapshotResult:
            path = self.path_for(ruleset, case_id)
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(png_bytes(image, digest=True))
            return super().check(ruleset, case_id, image, update=False)

    list(check_paths([cases], RunOptions(SeedingStore(root, folder / "seed-failures"), draw=True)))
    return root


def bench_check(cases: str, snapshots: str, repeats: int) -> dict[str, Any]:
    from .case import LoadFailure, collect, find_case_files
    from .execute import Execution
    from .runner import CaseResult, ProblemKind, RunOptions, check_case, check_files, failure_result
    from .snapshots import SnapshotStore

    try:
        files = list(find_case_files([cases]))
    except Exception as error:  # a missing folder and the like: report, do not crash
        return {"cases": 0, "error": f"{type(error).__name__}: {error}"}
    result: dict[str, Any] = {"cases": len(files), "folder": str(cases), "snapshots": str(snapshots)}
    if not files:
        result["error"] = f"no case files under {cases}"
        return result

    def timed(options: RunOptions, workers: int = 1) -> dict[str, Any]:
        last: list[CaseResult] = []
        passes = [0]
        cpu: list[float] = []  # CPU seconds of each pass: this process and the workers it waited for
        how = f"{'with' if options.draw else 'without'} drawing, {workers} worker{'s' if workers > 1 else ''}"

        def run() -> None:
            start = _cpu_seconds()
            try:
                one_pass()
            finally:
                cpu.append(_cpu_seconds() - start)

        def one_pass() -> None:
            passes[0] += 1
            progress(f"checking {len(files)} cases {how}: pass {passes[0]} ...")
            if workers == 1:
                # Unguarded (not check_paths): a drawing that cannot run must stop the measurement.
                last[:] = [failure_result(item) if isinstance(item, LoadFailure) else check_case(item, options)
                           for item in collect([cases]).entries]
                return
            last[:] = check_files([cases], options, Execution(workers))  # as verifier check runs them
            crashed = [p for r in last if r.case is not None for p in r.problems if p.kind == ProblemKind.ERROR]
            if crashed:
                raise RuntimeError(str(crashed[0]))

        try:
            timing = measure(run, repeats)
        except ImportError as error:
            return {"unavailable": f"drawing is not available ({type(error).__name__}: {error})"}
        except Exception as error:
            return {"error": f"{type(error).__name__}: {error}"}
        n = len(last)
        cpu_median = statistics.median(cpu[1:] or cpu)  # the first pass warms up: not counted
        return {
            "cases_per_second": n / timing.best,
            "cases_per_second_median": n / timing.median,
            "seconds_per_pass": timing.best,
            "cpu_seconds_per_pass": cpu_median,
            "cases_per_cpu_second": n / max(cpu_median, 1e-9),
            "repeats": timing.repeats,
            "passes_per_repeat": timing.number,
            "statuses": _count(r.status for r in last),
            "snapshot_statuses": _count(r.snapshot.status for r in last if r.snapshot is not None),
        }

    with tempfile.TemporaryDirectory(prefix="verifier-bench-") as temp:
        folder = Path(temp)
        # update_snapshots stays False throughout: mismatches only write into the temporary folder.
        result["with_draw"] = timed(RunOptions(SnapshotStore(snapshots, folder / "failures"), draw=True))
        # The same in two worker processes, in the same run, for the speed-up of the execution layer.
        if "cases_per_second" in result["with_draw"]:  # not where drawing is unavailable or broken
            result["with_draw_2_workers"] = timed(RunOptions(SnapshotStore(snapshots, folder / "failures"),
                                                             draw=True), workers=2)
        result["without_draw"] = timed(RunOptions(SnapshotStore(snapshots, folder / "failures"), draw=False))
        missing = result["with_draw"].get("snapshot_statuses", {}).get("missing", 0)
        if missing:
            # Missing snapshots make every pass encode failure images, which a passing check never
            # does; time it again against a complete temporary snapshot folder.
            try:
                seeded = _seeded_snapshots(cases, snapshots, folder)
            except Exception as error:
                result["with_draw_all_snapshots"] = {"error": f"{type(error).__name__}: {error}"}
            else:
                entry = timed(RunOptions(SnapshotStore(seeded, folder / "failures"), draw=True))
                entry["seeded"] = missing
                result["with_draw_all_snapshots"] = entry

    plain = result["without_draw"].get("seconds_per_pass")
    drawn = result.get("with_draw_all_snapshots", result["with_draw"]).get("seconds_per_pass")
    if plain and drawn:
        result["draw_share"] = max(0.0, (drawn - plain) / drawn)
        result["draw_share_of"] = "with_draw_all_snapshots" if "with_draw_all_snapshots" in result else "with_draw"
    return result


def check_rows(check: Mapping[str, Any]) -> list[Row]:
    rows: list[Row] = []
    n = check.get("cases", 0)
    if "error" in check:
        rows.append(("check: cases/s", "unavailable", check["error"]))
    labels = (("with_draw", "check: cases/s (with drawing)"),
              ("with_draw_2_workers", "check: cases/s (with drawing, 2 worker processes)"),
              ("with_draw_all_snapshots", "check: cases/s (drawing, snapshots complete)"),
              ("without_draw", "check: cases/s (no drawing)"))
    for key, label in labels:
        entry = check.get(key)
        if entry is None:
            continue
        if "cases_per_second" in entry:
            status = ", ".join(f"{v} {k}" for k, v in entry["statuses"].items())
            if entry["snapshot_statuses"]:
                status += "; snapshots " + ", ".join(f"{v} {k}" for k, v in entry["snapshot_statuses"].items())
            if entry.get("seeded"):
                status += f" ({entry['seeded']} missing ones drawn into a temporary folder first)"
            cpu = (f", {secs(entry['cpu_seconds_per_pass'])} CPU/pass ({rate(entry['cases_per_cpu_second'])} per "
                   "CPU second)") if "cpu_seconds_per_pass" in entry else ""
            rows.append((label, rate(entry["cases_per_second"]),
                         f"median {rate(entry['cases_per_second_median'])}; {n} cases, "
                         f"{secs(entry['seconds_per_pass'])}/pass{cpu}; {status}"))
        else:
            rows.append((label, "unavailable" if "unavailable" in entry else "error",
                         entry.get("unavailable") or entry.get("error", "")))
    one, two = (check.get(k, {}).get("cases_per_second") for k in ("with_draw", "with_draw_2_workers"))
    if one and two:
        rows.append(("check: speed-up of 2 workers", f"{two / one:.2f}x", "with drawing, best passes compared"))
    if "draw_share" in check:
        rows.append(("check: drawing share", f"{check['draw_share'] * 100:.0f} %",
                     "of the time per case spent drawing and comparing snapshots"
                     + (" (snapshots complete)" if check["draw_share_of"] == "with_draw_all_snapshots" else "")))
    return rows


def check_table(check: Mapping[str, Any]) -> str:
    return format_rows(check_rows(check))


def check_broken(check: Mapping[str, Any]) -> bool:
    return "error" in check or any("error" in entry for entry in check.values() if isinstance(entry, dict))


def check_suite(snapshots: str | None = None) -> BenchSuite:
    """The core suite. ``snapshots`` defaults to the folder beside the cases folder, else
    ``snapshots``."""

    def run(settings: BenchSettings) -> Mapping[str, Any]:
        folder = snapshots
        if folder is None:
            beside = Path(settings.cases).parent / "snapshots"
            folder = str(beside if beside.is_dir() else Path("snapshots"))
        progress(f"checking the cases under {settings.cases} ...")
        return bench_check(str(settings.cases), folder, repeats_for(settings))

    return BenchSuite(CORE, "cases per second of 'verifier check' over the bundled cases of every ruleset, "
                            "with drawing and snapshot comparison and without", run, check_table)


# --- the search suite: scenes a second through the explorer and fuzz ---------------------

SEARCH = "search"
REFERENCE_ADAPTER = "python:verifier.adapters.reference:handle"


def _timed_scenes(run: Callable[[], int]) -> dict[str, float]:
    """Scenes, wall seconds and this process's CPU seconds of ``run()`` (which returns its
    scene count): CPU seconds give the rate per core whatever else the machine runs."""
    import time
    wall, cpu = time.perf_counter(), time.process_time()
    scenes = run()
    return {"scenes": scenes, "seconds": time.perf_counter() - wall, "cpu_seconds": time.process_time() - cpu}


def _explored(ruleset: Ruleset, scenes: int, seed: int) -> int:
    from .explore import search
    from .generation import builds_scenes
    progress(f"  the {ruleset.key} search " + ("builds seeded scenes (Capability.SCENES)" if builds_scenes(ruleset)
                                               else "draws its scenes with Hypothesis"))
    return search(ruleset, budget=600.0, seed=seed, max_examples=scenes).examples


def _fuzzed(ruleset: Ruleset, scenes: int, seed: int, adapter: str = REFERENCE_ADAPTER) -> int:
    from .adapter import Session, open_implementation
    from .fuzz import run

    with Session(open_implementation(adapter)) as session:
        return len(run(ruleset, session, examples=scenes, budget=600.0, seed=seed).trials)


# Fuzz against an implementation that answers at once: the reference's answers, recorded
# by request in one forked process and handed back by look-up in another, so that what is
# timed is fuzz's own work (drawing, the reference under every reading, reading and
# comparing the answers) and nothing of the implementation's. Both runs are forked, so
# that no memo of this process has seen the scenes: the replaying run resolves its
# reference as cold as the plain fuzz run does.

_RECORDED: dict[str, Any] = {}  # answers by request text, in the process that records or replays them
_MISSED: list[str] = []  # requests the replaying process found no answer for


def _request_text(message: Mapping[str, Any]) -> str:
    return json.dumps(message, sort_keys=True)


def recording_reference(message: Any) -> Any:
    """The in-process reference adapter, keeping each case's answer by its request."""
    from .adapters.reference import handle
    answer = handle(message)
    if isinstance(message, dict) and message.get("type") == "case":
        _RECORDED[_request_text(message)] = answer
    return answer


def recorded_answer(message: Any) -> Any:
    """The answer ``recording_reference`` gave the same request (the hello is the reference's)."""
    from .adapters.reference import handle
    if not (isinstance(message, dict) and message.get("type") == "case"):
        return handle(message)
    found = _RECORDED.get(_request_text(message))
    if found is None:
        _MISSED.append(str(message.get("id")))
        return {"type": "errored", "id": message.get("id", ""), "message": "no recorded answer"}
    return found


def _recorded(key: str, scenes: int, seed: int) -> dict[str, Any]:
    _fuzzed(registry.get(key), scenes, seed, f"python:{__name__}:recording_reference")
    return dict(_RECORDED)


def _replayed(key: str, scenes: int, seed: int, answers: dict[str, Any]) -> dict[str, float]:
    _RECORDED.clear()
    _RECORDED.update(answers)
    figures = _timed_scenes(partial(_fuzzed, registry.get(key), scenes, seed, f"python:{__name__}:recorded_answer"))
    return {**figures, "missed": len(_MISSED)}


def _fuzzed_at_once(ruleset: Ruleset, scenes: int, seed: int) -> dict[str, float]:
    """``_timed_scenes`` of fuzz against the reference's recorded answers, with ``missed``:
    the requests no answer was recorded for (fuzz asked the two runs different things)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        answers = pool.submit(_recorded, ruleset.key, scenes, seed).result()
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(_replayed, ruleset.key, scenes, seed, answers).result()


def _drawn(ruleset: Ruleset, scenes: int, seed: int) -> int:
    """The scenes fuzz draws (same seed, same count), drawn and nothing more done with them."""
    from .fuzz.scenes import draw_scenes
    from .generation import BOUNDARY_SHARE
    drawn = []
    share = BOUNDARY_SHARE if ruleset.supports(Capability.BOUNDARIES) else 0.0
    draw_scenes(ruleset, seed, scenes, float("inf"), lambda before, actions, visit: drawn.append(before), share)
    return len(drawn)


FUZZ_START_SCENES = 5  # the first fuzz run of a ruleset in the process, timed on its own


def search_figures(quick: bool, seed: int = 0) -> dict[str, Any]:
    """Per ruleset that can be searched and fuzzed: the explorer's search over a fixed
    number of scenes, and fuzz of the reference resolver through the in-process adapter
    on one worker (300 scenes, as issue #30 measures ``--examples 300 --workers 1``), each
    timed as a whole; fuzz of the same scenes against the reference's recorded answers
    ("fuzz_at_once": what fuzz itself costs, the rate no implementation can raise); and
    the drawing of fuzz's scenes alone, so that fuzz's rate once a scene exists can be
    told apart. What a process pays once, at its first
    fuzz run of a ruleset (the hello, the schemas' quick checks compiled, the first scenes'
    strategy), is timed apart ("fuzz_start", a run of FUZZ_START_SCENES scenes on another
    seed) and shown as its own row, so that it neither hides nor swamps the rate per scene."""
    explore_scenes, fuzz_scenes = (200, 30) if quick else (1000, 300)
    figures: dict[str, Any] = {}
    for ruleset in registry.all_rulesets():
        if not all(ruleset.supports(c) for c in (Capability.SEARCH, Capability.INTERCHANGE, Capability.FINDINGS)):
            continue
        progress(f"searching {ruleset.key}: {explore_scenes} scenes, then fuzzing {fuzz_scenes} ...")
        figures[ruleset.key] = {
            "explore": _timed_scenes(partial(_explored, ruleset, explore_scenes, seed)),
            "fuzz_start": _timed_scenes(partial(_fuzzed, ruleset, FUZZ_START_SCENES, seed + 1)),
            "fuzz_at_once": _fuzzed_at_once(ruleset, fuzz_scenes, seed),  # before this process sees the scenes
            "fuzz": _timed_scenes(partial(_fuzzed, ruleset, fuzz_scenes, seed)),
            "drawing": _timed_scenes(partial(_drawn, ruleset, fuzz_scenes, seed))}
    return {"quick": quick, "seed": seed, "rulesets": figures}


def search_rows(figures: Mapping[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key, found in figures["rulesets"].items():
        for what in ("explore", "fuzz"):
            f = found[what]
            rows.append((f"{key} {what}: scenes / CPU s", f"{f['scenes'] / max(f['cpu_seconds'], 1e-9):,.0f}",
                         f"{f['scenes']} scenes, {f['cpu_seconds']:.2f} s CPU, {f['seconds']:.2f} s wall"))
        start = found.get("fuzz_start")
        if start:  # what the first fuzz run of the ruleset in the process paid, beside the rate after it
            rows.append((f"{key} fuzz start: CPU s", f"{start['cpu_seconds']:.2f}",
                         f"the process's first fuzz run of {key}, {start['scenes']} scenes, timed apart"))
        at_once = found.get("fuzz_at_once")
        if at_once:  # fuzz's own rate: an implementation that costs nothing would get no more
            missed = int(at_once.get("missed", 0))
            rows.append((f"{key} fuzz, answers at once: scenes / CPU s",
                         f"{at_once['scenes'] / max(at_once['cpu_seconds'], 1e-9):,.0f}" if not missed else "invalid",
                         f"the reference's answers recorded, then looked up: {at_once['scenes']} scenes, "
                         f"{at_once['cpu_seconds']:.2f} s CPU" if not missed else
                         f"{missed} requests had no recorded answer: the two runs asked different things"))
        drawing = found.get("drawing")
        if drawing:  # fuzz less the CPU its scenes take to draw
            fuzz = found["fuzz"]
            own = fuzz["cpu_seconds"] - drawing["cpu_seconds"]
            rows.append((f"{key} fuzz once drawn: scenes / CPU s", f"{fuzz['scenes'] / max(own, 1e-9):,.0f}",
                         f"drawing {drawing['scenes']} scenes alone took {drawing['cpu_seconds']:.2f} s CPU, "
                         f"{drawing['cpu_seconds'] / max(fuzz['cpu_seconds'], 1e-9):.0%} of fuzz's"))
    return rows


def search_suite() -> BenchSuite:
    return BenchSuite(SEARCH, "scenes a second (per CPU second, so per core) of the explorer's search and of fuzz "
                              "against the reference through the in-process adapter and against its recorded "
                              "answers, for every ruleset that both can take",
                      lambda settings: search_figures(settings.quick),
                      lambda figures: format_rows(search_rows(figures)))


# --- the docs suite: verifier docs -------------------------------------------------


def bench_docs(cases: str, findings: str, repeats: int) -> dict[str, Any]:
    """Seconds per whole-site build (the best and the median of ``repeats`` builds into a
    temporary folder), with the size of what it wrote and which rulesets had a warm report."""
    from .docs import build_site
    from .kit.bench import measure_once_each

    reports = {r: (Path(findings) / r / "report.json").is_file() for r in registry.names()}
    result: dict[str, Any] = {"cases": str(cases), "findings": str(findings),
                              "warm": sorted(r for r, found in reports.items() if found),
                              "cold": sorted(r for r, found in reports.items() if not found)}
    built: list[Any] = []
    cpu: list[float] = []
    with tempfile.TemporaryDirectory(prefix="verifier-bench-docs-") as temp:
        def build() -> None:
            out = Path(temp) / "site"
            shutil.rmtree(out, ignore_errors=True)
            before = _cpu_seconds()
            built[:] = [build_site(out, cases_dir=cases, findings_dir=findings)]
            cpu.append(_cpu_seconds() - before)

        try:
            timing = measure_once_each(build, repeats)
        except Exception as error:  # a broken build is reported, the other suites still run
            return {**result, "error": f"{type(error).__name__}: {error}"}
    site = built[-1]
    result.update({"seconds": timing.best, "seconds_median": timing.median, "repeats": timing.repeats,
                   "cpu_seconds": min(cpu), "load_average": load_average(),
                   "files": site.files, "bytes": site.bytes, "pages": site.pages, "warnings": len(site.warnings),
                   "workers": os.cpu_count()})
    return result


def _cpu_seconds() -> float:
    """Processor seconds of this process and of its finished workers: a build's cost that,
    unlike its wall time, hardly depends on how busy the machine is."""
    import resource
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def docs_rows(figures: Mapping[str, Any]) -> list[Row]:
    warm = ", ".join(figures.get("warm", ())) or "none"
    cold = figures.get("cold", ())
    reports = f"warm explorer reports: {warm}" + (f"; quick pass for {', '.join(cold)}" if cold else "")
    if "error" in figures:
        return [("docs: site build", "error", figures["error"]), ("docs: reports", "", reports)]
    load = figures.get("load_average")
    return [("docs: site build", secs(figures["seconds"]),
             f"median {secs(figures['seconds_median'])} of {figures['repeats']}; {figures['workers']} CPUs"
             + (f", load average {load[0]:.1f}" if load else "")),
            ("docs: processor time", secs(figures["cpu_seconds"]),
             "of the least costly build, this process and its workers together"),
            ("docs: site size", f"{figures['bytes'] / 1e6:.1f} MB",
             f"{figures['files']} files, {figures['pages']} pages, {figures['warnings']} warnings"),
            ("docs: reports", str(len(figures.get("warm", ()))), reports)]


def docs_suite(findings: str | None = None) -> BenchSuite:
    """The docs suite. ``findings`` defaults to ``explore`` beside the cases folder."""

    def run(settings: BenchSettings) -> Mapping[str, Any]:
        folder = findings if findings is not None else str(Path(settings.cases).parent / "explore")
        repeats = settings.repeats or (1 if settings.quick else 3)
        progress(f"building the site from {settings.cases} and the reports in {folder}, {repeats} time(s) ...")
        return bench_docs(str(settings.cases), folder, repeats)

    return BenchSuite(DOCS, "seconds to build the rule pages with 'verifier docs' on every local core, from "
                            "the explorer's reports (run 'verifier explore RULESET' for each ruleset first)",
                      run, lambda figures: format_rows(docs_rows(figures)))


# --- the explorer: exhaustive spaces against the search -----------------------------------

EXPLORE_BUDGET = 10.0  # seconds the search has to find every class of the spaces
EXPLORE_WORKERS = 2  # worker processes the search runs on
QUICK_EXPLORE_BUDGET = 5.0


# Besides those ``findings.code_digest`` leaves out, the modules the findings of an exhaustive
# space cannot depend on: the search, the explorer command and its report, the case files.
_NOT_ANALYSIS = ("cli.py", "generation.py", "explorer.py", "findings.py", "report.py", "schema.py",
                 "quickschema.py", "output.py", "refusal.py")
SEARCH_MARK = "# --- searching ---"  # in explore.py: the analysis above it, the search below


def analysis_digest(package: str | None = None) -> str:
    """A digest of the sources the findings of an exhaustive space of the bundled ruleset in
    ``rulesets/PACKAGE`` depend on: those of ``findings.code_digest`` but for the modules in
    ``_NOT_ANALYSIS`` and the search half of ``explore.py``, so that speeding up the search
    leaves the recorded spaces valid."""
    from .findings import other_rulesets, outside_results, sources_digest

    other = other_rulesets(package)
    return sources_digest(lambda relative: outside_results(relative) or relative in _NOT_ANALYSIS or other(relative),
                          cut={"explore.py": SEARCH_MARK})


def space_cache(ruleset: str, space: str) -> Path:
    """Where ``explore_figures`` records the shards of an exhaustive space (a ``shards`` results
    file, resumed when interrupted), under the verifier's state folder and keyed by
    ``analysis_digest``: any change to the analysis or a resolver enumerates the space again.
    Files of other digests of the same space are removed once an hour old (another checkout
    may be filling one now)."""
    from .output import state_dir
    folder = state_dir() / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{ruleset}-{space}-{analysis_digest(ruleset)}.jsonl"
    import time
    for old in folder.glob(f"{ruleset}-{space}-*.jsonl"):
        try:
            if old != path and time.time() - old.stat().st_mtime > 3600:
                old.unlink()
        except OSError:
            pass  # removed meanwhile
    return path


def explore_figures(ruleset: Ruleset, quick: bool = False, budget: float = EXPLORE_BUDGET,
                    seed: int = 0, spaces: tuple[str, ...] = (), workers: int = EXPLORE_WORKERS) -> dict[str, Any]:
    """With ``quick``: a search of at most 200 scenes (and 5 s). Otherwise each of ``spaces``
    (the ruleset's first by default) enumerated on every core, or read back from its record
    (``space_cache``); the search's scenes per CPU second measured in this process, on one
    core, over its first 2,000 scenes; then a search of as many scenes as ``workers`` cores
    try in ``budget`` CPU seconds at that pace, on ``workers`` processes, and when it first
    found each class of finding of each space (its scene's number at that pace): the time to
    full recall is the slowest of them. So load on the machine slows the run, not the figures."""
    from .execute import Execution
    from .explore import search
    from .shards import exhaustive

    key = ruleset.key
    if quick:
        budget = min(budget, QUICK_EXPLORE_BUDGET)
        progress(f"searching {key} (at most 200 scenes, {budget:g} s) ...")
        result = search(ruleset, budget=budget, seed=seed, max_examples=200)
        return {"ruleset": key, "quick": True, "budget_seconds": budget, "seed": seed,
                "search": {"scenes": result.examples, "seconds": result.seconds, "classes": len(result.findings)}}
    names = spaces or (next(iter(ruleset.exhaustive_spaces())),)
    enumerated = {}
    cached: dict[str, str] = {}
    for name in names:
        where = space_cache(key, name)
        cached[name] = str(where)
        progress(f"enumerating the exhaustive {key} space {name} (recorded in {where}) ...")
        enumerated[name] = exhaustive(ruleset, space=name, results=where)
    # The search's pace is taken in CPU seconds, so that a loaded machine does not shorten it:
    # the scenes one core tries in a CPU second, then as many scenes as ``workers`` such cores
    # try in ``budget`` seconds, each class's time being the number of its first scene at that pace.
    progress(f"searching {key} on one core for its scenes per CPU second ...")
    per_core = _timed_scenes(partial(_explored, ruleset, 2000, seed))
    pace = per_core["scenes"] / max(per_core["cpu_seconds"], 1e-9) * workers
    scenes = max(int(pace * budget), 1)
    progress(f"searching {key}: {scenes:,} scenes ({budget:g} s on {workers} cores at {pace / workers:,.0f} "
             "scenes per CPU second) ...")
    found = search(ruleset, budget=3600.0, seed=seed, max_examples=scenes, execution=Execution(workers))
    figures: dict[str, Any] = {"ruleset": key, "quick": False, "budget_seconds": budget, "seed": seed,
                               "workers": workers, "spaces": {},
                               "search": {"scenes": found.examples, "analysed": found.analysed,
                                          "seconds": found.seconds, "classes": len(found.findings)},
                               "per_core": per_core}
    every: dict[str, float | None] = {}
    for name, space in enumerated.items():
        first_seen = {fingerprint: (found.first_scene[fingerprint] + 1) / pace if fingerprint in found.findings
                      else None for fingerprint in sorted(space.counts)}
        every.update(first_seen)
        hits = [seconds for seconds in first_seen.values() if seconds is not None]
        figures["spaces"][name] = {
            "scenes": space.scenes, "seconds": space.seconds, "workers": space.workers,
            "cache": cached[name], "shards": space.shards, "resumed": space.resumed,
            "classes": len(space.counts), "first_seen": first_seen,
            "recall": len(hits) / max(len(space.counts), 1),
            "full_recall_seconds": max(hits, default=0.0) if len(hits) == len(space.counts) else None,
            # the number of the scene that found the last class: the same on any machine and load
            "full_recall_scene": max((found.first_scene[f] for f in space.counts), default=0)
            if len(hits) == len(space.counts) else None}
    hits = [seconds for seconds in every.values() if seconds is not None]
    figures["recall"] = len(hits) / max(len(every), 1)
    figures["full_recall_seconds"] = max(hits, default=0.0) if len(hits) == len(every) else None
    return figures


def explore_rows(figures: Mapping[str, Any]) -> list[Row]:
    key, found = figures["ruleset"], figures["search"]
    rows: list[Row] = []
    if figures["quick"]:
        rows.append((f"{key} search: scenes / s", f"{found['scenes'] / max(found['seconds'], 1e-9):,.0f}", ""))
        rows.append((f"{key} search: classes found in {found['seconds']:.1f} s", str(found["classes"]), ""))
        return rows
    per_core = figures["per_core"]
    rows.append((f"{key} search: scenes / CPU s (one core)",
                 f"{per_core['scenes'] / max(per_core['cpu_seconds'], 1e-9):,.0f}",
                 f"{per_core['scenes']} scenes, {per_core['cpu_seconds']:.2f} s CPU"))
    analysed = found.get("analysed")
    rows.append((f"{key} search: scenes in {figures['budget_seconds']:g} s on {figures['workers']} cores",
                 f"{found['scenes']:,}",
                 (f"{analysed:,} analysed, the rest seen before; " if analysed is not None else "")
                 + f"{found['seconds']:.1f} s wall on {figures['workers']} processes"))
    for name, space in figures["spaces"].items():
        resumed = space.get("resumed", 0)
        how = (f"all {resumed} shards read from {space['cache']}" if resumed and resumed == space.get("shards") else
               f"{space['seconds']:.1f} s on {space['workers']} processes"
               + (f" ({resumed} shards read from {space['cache']})" if resumed else ""))
        rows.append((f"{key} exhaustive {name}: scenes", f"{space['scenes']:,}",
                     f"{how}, {space['classes']} finding classes"))
        for fingerprint, seconds in space["first_seen"].items():
            rows.append((f"  first found: {fingerprint}",
                         f"{seconds:.2f} s" if seconds is not None else f"not within {figures['budget_seconds']:g} s",
                         ""))
        rows.append((f"{key} search recall against {name}", f"{space['recall']:.0%}", ""))
        full = space["full_recall_seconds"]
        rows.append((f"{key} search: time to full recall of {name}", f"{full:.2f} s" if full is not None else
                     f"not within {figures['budget_seconds']:g} s",
                     f"at scene {space['full_recall_scene']:,}" if full is not None else ""))
    full = figures["full_recall_seconds"]
    rows.append((f"{key} search: time to full recall of every space", f"{full:.2f} s" if full is not None else
                 f"not within {figures['budget_seconds']:g} s ({figures['recall']:.0%})", ""))
    return rows


def explore_table(figures: Mapping[str, Any]) -> str:
    return format_rows(explore_rows(figures))


def explore_suite(ruleset: Ruleset, spaces: tuple[str, ...] = ()) -> BenchSuite:
    """``RULESET.explore``, for every ruleset with exhaustive spaces and a search: ``spaces``
    (the first by default) against a search of ``EXPLORE_BUDGET`` seconds on
    ``EXPLORE_WORKERS`` processes. A ruleset lists its own to name other spaces."""
    return BenchSuite("explore", f"the exhaustive space{'s ' + ', '.join(spaces) if spaces else ''}, how soon a "
                                 f"{EXPLORE_BUDGET:g} s search on {EXPLORE_WORKERS} processes finds each of their "
                                 "classes, and the search's scenes per CPU second (--quick: a short search only)",
                      lambda settings: explore_figures(ruleset, quick=settings.quick, spaces=spaces), explore_table)


# --- the driver --------------------------------------------------------------------


def suites(snapshots: str | None = None, findings: str | None = None) -> dict[str, BenchSuite]:
    """Every suite by its ``--suite`` name: ``core``, ``docs``, ``search``, ``boundaries``, then
    each ruleset's as ``RULESET.SUITE``, rulesets in registry order and suites in the order the
    ruleset lists them."""
    from .boundary_bench import suite as boundaries_suite
    found = {CORE: check_suite(snapshots), DOCS: docs_suite(findings), SEARCH: search_suite(),
             "boundaries": boundaries_suite()}
    for ruleset in registry.all_rulesets():
        if ruleset.supports(Capability.BENCHMARKS):
            try:
                listed = tuple(ruleset.benchmarks())
            except Exception as error:
                raise registry.BrokenRulesetError(f"ruleset {ruleset.key!r} declares benchmarks, but listing them "
                                                  f"fails: {type(error).__name__}: {error}") from error
            for suite in listed:
                found[f"{ruleset.key}.{suite.name}"] = suite
        if ruleset.supports(Capability.EXHAUSTIVE) and ruleset.supports(Capability.SEARCH):
            found.setdefault(f"{ruleset.key}.explore", explore_suite(ruleset))
    return found


def select(asked: str, available: Mapping[str, BenchSuite]) -> list[str]:
    """The suite names ``asked`` means: ``all``, ``core``, ``RULESET.SUITE``, ``RULESET``
    (all of its suites), or several of these separated by commas; in order, once each."""
    where = Location(None, None, None, "--suite")
    chosen: list[str] = []
    for word in (w.strip() for w in asked.split(",")):
        if word == ALL:
            names = list(available)
        elif word in available:
            names = [word]
        else:
            names = [name for name in available if name.startswith(f"{word}.")]
        if not names:
            rulesets = {r.key: r for r in registry.all_rulesets()}
            if word in rulesets:
                rulesets[word].require(Capability.BENCHMARKS, f"verifier bench --suite {word}")
            choices = [ALL, *available, *sorted({name.split(".")[0] for name in available if "." in name})]
            raise UnknownSuiteError(f"no benchmark suite {word!r}; {did_you_mean(word, choices)} "
                                    "('verifier bench --list' shows them all)", where)
        chosen += [name for name in names if name not in chosen]
    return chosen


def list_text(available: Mapping[str, BenchSuite]) -> str:
    width = max(len(name) for name in available)
    lines = [f"{name:<{width}}  {suite.summary}" for name, suite in available.items()]
    lines.append(f"{ALL:<{width}}  every suite above; a ruleset's key alone means all of its suites")
    return "\n".join(lines)


def _run_suite(name: str, suite: BenchSuite, settings: BenchSettings) -> Mapping[str, Any]:
    """A suite's figures; a suite that raises is reported as an error, and the others still run."""
    try:
        return suite.run(settings)
    except Exception as error:
        progress(f"error: suite {name} failed: {type(error).__name__}: {error}")
        return {"error": f"{type(error).__name__}: {error}"}


def _suite_table(suite: BenchSuite, figures: Mapping[str, Any]) -> str:
    if set(figures) == {"error"}:
        return format_rows([("suite", "error", str(figures["error"]))])
    return suite.table(figures)


def main(args: argparse.Namespace) -> int:
    available = suites(getattr(args, "snapshots", None), getattr(args, "findings", None))
    if getattr(args, "list", False):
        print(list_text(available))
        return 0
    chosen = select(str(getattr(args, "suite", None) or CORE), available)
    repeats = getattr(args, "repeats", None)
    if repeats is not None and repeats < 1:
        raise CaseError("must be 1 or more", Location(None, None, None, "--repeats"))
    settings = BenchSettings(cases=str(getattr(args, "cases", None) or "cases"),
                             quick=bool(getattr(args, "quick", False)), repeats=repeats)

    # The core suite runs last: the rulesets' resolvers are timed in a process that has not yet
    # loaded cases, schemas and images (more live objects make each full GC pass longer).
    # The tables keep the order asked for.
    figures: dict[str, Mapping[str, Any]] = {}
    with Progress("benchmarking", len(chosen), unit="suites", noted="failed") as meter:
        previous = set_meter(meter)  # each suite's steps show on this meter's line
        try:
            for name in sorted(chosen, key=lambda n: n == CORE):
                meter.what = f"benchmarking {name}"
                meter.note("starting")
                figures[name] = _run_suite(name, available[name], settings)
                meter.advance(1, noted=sum(set(f) == {"error"} for f in figures.values()), detail="")
        finally:
            set_meter(previous)
            meter.what = "benchmarking"

    results: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "quick": settings.quick,
        "repeats": repeats_for(settings),
        "suites": {name: figures[name] for name in chosen},
        "load_average": load_average(),
    }
    load = results["load_average"]
    print(f"verifier bench (Python {results['python']}, {'quick, ' if settings.quick else ''}"
          f"best of {results['repeats']}; times are per call"
          + (f"; load average {load[0]:.1f} at the end, {os.cpu_count()} CPUs" if load else "") + ")")
    for name in chosen:
        print(f"\n{name}: {available[name].summary}")
        print(_suite_table(available[name], figures[name]))
    out = getattr(args, "json", None)
    if out:
        write_json(out, results)
        print(f"\nwrote {out}")
    broken = any(set(f) == {"error"} for f in figures.values()) or (CORE in figures and check_broken(figures[CORE]))
    return 1 if broken else 0
