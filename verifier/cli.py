"""The ``verifier`` command line."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from . import __version__, registry
from .errors import CaseError, Location, VerifierError, did_you_mean, one_line

if TYPE_CHECKING:  # the commands import what they need when they run, to start fast
    from .case import Case
    from .ruleset import Ruleset
    from .runner import CaseResult

DESCRIPTION = """\
Check spatial game rules against their documented examples.

Cases are YAML files (one scenario each) under cases/<ruleset>/. Each is resolved
by the reference resolver, compared with its expected outcome, drawn as a
before/after diagram and compared with its PNG snapshot under snapshots/.
"""

EPILOG = """\
examples:
  verifier check                      check every case under cases/
  verifier check cases/ypp --json out.json --junit out.xml
  verifier show cases/ypp/move-1b-equal-class-bump.yaml
  verifier show CASE --reading bump=motion-first
  verifier render CASE -o diagram.png
  verifier clauses ypp                the clause table and its named readings
  verifier check --impl "node impl.js" --known-failures known.txt --junit out.xml --github
                                      check another implementation (docs/protocol.md)
  verifier export --format json -o cases.json
  verifier docs --out site            build the rule pages; open site/index.html
  verifier fuzz ypp --impl "python -m verifier.adapters.reference" --examples 500
                                      which reading another implementation follows
"""


def _parse_pins(pins: list[str]) -> dict[str, str]:
    result = {}
    for pin in pins or []:
        name, sep, option = pin.partition("=")
        if not sep or not name or not option:
            raise CaseError(f"--reading takes POINT=OPTION, such as bump=motion-first; got {pin!r}",
                            Location(None, None, None, "--reading"))
        result[name] = option
    return result


def _load_with_pins(path: str, pins: list[str]) -> tuple[Case, Mapping[str, str]]:
    from .case import load_case
    case = load_case(path)
    extra = _parse_pins(pins)
    reading = case.ruleset.reading({**case.pinned, **extra},
                                   {k: Location(None, None, None, f"--reading {k}") for k in extra})
    return case, reading


def cmd_check(args: argparse.Namespace) -> int:
    from .check import CheckOptions, run_check
    from .output import check_writable
    from .runner import Status
    if (args.write_known_failures or args.check_order) and not args.impl:
        flag = "--write-known-failures" if args.write_known_failures else "--check-order"
        raise CaseError(f"{flag} needs --impl", Location(None, None, None, flag))
    for option in ("json", "junit", "github_output", "write_known_failures"):
        out = getattr(args, option)
        if out:
            check_writable(out, f"--{option.replace('_', '-')} report", args.force)
    known = None
    if args.known_failures:
        from .known_failures import load_known_failures
        known = load_known_failures(args.known_failures)
    skips: dict[str, int] = {}

    def report(result: CaseResult) -> None:
        _print_result(result, args.verbose)
        if result.status == Status.SKIPPED:
            skips[result.reason] = skips.get(result.reason, 0) + 1

    def introduce(impl: Any) -> None:
        print(f"implementation: {one_line(impl.describe())} [{one_line(args.impl)}]")
        from .adapter.declare import describe
        for key, declaration in impl.declarations().items():
            words = describe(registry.get(key), declaration)
            if words:
                print(f"  declares {one_line(words)}")

    options = CheckOptions(Path(args.snapshots), Path(args.failures), draw=not args.no_draw,
                           update_snapshots=args.update_snapshots, impl=args.impl, impl_timeout=args.impl_timeout,
                           check_order=args.check_order, known_failures=known, unused_snapshots=not args.paths,
                           case_timeout=args.case_timeout)
    paths = args.paths or ["cases"]
    if args.impl:
        run = run_check(paths, options, on_result=report, on_implementation=introduce)
    else:
        from dataclasses import replace

        from .execute import Progress
        with Progress("checking", None, unit="cases", noted="failing") as progress:
            run = run_check(paths, replace(options, execution=_execution(args)), on_result=report, progress=progress)
    from .report import comparison_notes, format_table, summary_table, write_json  # after the work: not in its way
    results = list(run.results)
    for path in run.unused_snapshots:
        print(f"note: snapshot {path} belongs to no case (delete it if the case is gone)")
    for reason, count in skips.items():
        if not args.verbose:
            print(f"skipped {count} case{'s' if count != 1 else ''}: {one_line(reason)}")
    if known is not None:
        from .known_failures import unused_known_failures
        for note in unused_known_failures((r.id for r in results), known):
            print(f"note: {note}")
    for note in comparison_notes(results):
        print(note)
    unwritten = []  # reports that could not be written (a full disk): said, and the run still sums up

    def reporting(write: Any) -> None:
        try:
            write()
        except VerifierError as error:
            unwritten.append(error)
            for line in str(error).splitlines():
                print(f"error: {one_line(line, 2000)}", file=sys.stderr)

    if args.write_known_failures:
        def known_list() -> None:
            from .known_failures import write_known_failures
            count = write_known_failures(results, args.write_known_failures, args.force)
            print(f"wrote {args.write_known_failures}: {count} known failure{'s' if count != 1 else ''}")
        reporting(known_list)
    _write_ci_reports(results, args, "check", reporting)
    if args.json:
        reporting(lambda: write_json(results, args.json, {"implementation": run.implementation}
                                     if run.implementation else {}, force=args.force))
    if not args.no_table and results:
        print(format_table(summary_table(results)))
    print(run.summary)
    if unwritten:
        return 2
    skipped = sum(skips.values())
    if args.require_all and skipped:
        print(f"error: {skipped} of {len(results)} case{'s' if len(results) != 1 else ''} skipped, and "
              "--require-all asks for every case to be checked", file=sys.stderr)
        return 1
    if run.nothing_checked and not args.allow_empty:
        print(f"error: {run.nothing_checked}", file=sys.stderr)
        return 1
    return 1 if run.failing else 0


def _write_ci_reports(results: list[CaseResult], args: argparse.Namespace, command: str,
                      reporting: Callable[[Callable[[], None]], None] | None = None) -> None:
    """--github (or --github-output) and --junit, the same for check and fuzz: the
    annotations, the step summary when $GITHUB_STEP_SUMMARY is set, and JUnit XML. Each
    write goes through ``reporting`` (which may say a failed write and go on), when given."""
    from .output import text_mark, write_failure, write_text
    from .report import annotations_markdown, github_annotations, summary_markdown, write_junit

    def run(write: Callable[[], None]) -> None:
        (reporting or (lambda w: w()))(write)

    if args.github or args.github_output:
        step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
        lines = github_annotations(results, step_summary)
        if args.github_output:
            run(lambda: write_text(args.github_output, "".join(
                line + "\n" for line in [f"::debug::{text_mark(command)}", *lines]), "--github-output report",
                args.force))
        else:
            for line in lines:
                print(line)
        if step_summary:
            def append_summary() -> None:
                try:
                    with open(step_summary, "a", encoding="utf-8") as handle:
                        title = "verifier" if command == "check" else f"verifier {command}"
                        handle.write(summary_markdown(results, title) + annotations_markdown(results))
                except OSError as error:
                    raise CaseError(write_failure(error, "step summary"), Location(step_summary)) from None
            run(append_summary)
    if args.junit:
        run(lambda: write_junit(results, args.junit, force=args.force, command=command))


_TAGS = {"failed": "FAIL", "errored": "ERROR", "xpass": "XPASS"}


def _print_result(result: CaseResult, verbose: bool) -> None:
    from .runner import Status
    if result.status in _TAGS:
        print(f"{_TAGS[result.status]} {one_line(result.id)} ({one_line(result.file)})")
        if result.compared_under:
            print(f"  {one_line(result.compared_under)}")
        for problem in result.problems:
            print(f"  {one_line(problem, 6000)}")
    elif result.status == Status.OPEN:
        print(f"OPEN {one_line(result.id)} ({one_line(result.file)}): needs a ruling")
        for problem in result.problems:
            print(f"  {one_line(problem, 6000)}")
    elif verbose:
        if result.status == Status.XFAIL:
            print(f"xfail {one_line(result.id)}: {one_line(result.reason)}")
            for problem in result.problems:
                print(f"  {one_line(problem, 6000)}")
        elif result.status == Status.SKIPPED:
            print(f"skip {one_line(result.id)}: {one_line(result.reason)}")
        else:
            under = f": {one_line(result.compared_under)}" if result.compared_under else ""
            print(f"ok   {one_line(result.id)}{under}")
    if result.snapshot is not None and result.snapshot.status == "written":
        print(f"  {result.snapshot.message}")


def cmd_show(args: argparse.Namespace) -> int:
    from .ruleset import compare_outcome
    case, reading = _load_with_pins(args.case, args.reading)
    outcome = case.ruleset.resolve(case.before, case.actions, reading)
    print(f"{case.id}: {one_line(case.title)}")
    print(f"source: {one_line(case.source)}")
    print("reading: " + ", ".join(f"{k}={v}" for k, v in reading.items()))
    print(case.ruleset.describe(case.before, case.actions, outcome))
    if case.expect is None:
        print("this case needs a ruling: it lists the outcome under each reading")
        return 0
    mismatches = compare_outcome(case.ruleset, case.before, case.expect, outcome)
    if mismatches:
        print("differs from the case's expectation:")
        for m in mismatches:
            print(f"  {case.where(('expect',) + tuple(m.path))}: {one_line(m.message)}")
    else:
        print("matches the case's expectation")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    if Path(args.output).suffix.lower() != ".png":
        suffix = one_line(Path(args.output).suffix or "no extension", 40)
        raise CaseError(f"render writes PNG pictures only; give a file name ending in .png, not {suffix}",
                        Location(args.output, None, None, "-o"))
    case, reading = _load_with_pins(args.case, args.reading)
    outcome = case.ruleset.resolve(case.before, case.actions, reading)
    image = case.ruleset.draw(case.before, case.actions, outcome, title=case.title)
    from .output import write_bytes
    from .snapshots import png_bytes
    write_bytes(args.output, png_bytes(image, software="verifier render"), "picture", args.force)
    print(f"wrote {args.output} ({image.width}x{image.height})")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from .case import published_schema
    from .output import text_mark
    if args.adapter:
        from .adapter import adapter_schema
        schema = adapter_schema()
    else:
        schema = published_schema()
    text = json.dumps({"$comment": text_mark("schema"), **schema}, indent=2) + "\n"
    return _write_or_print(text, args.output, "schema", args.force)


def cmd_export(args: argparse.Namespace) -> int:
    from .export import export_text
    return _write_or_print(export_text(args.paths or ["cases"], args.format), args.output, "export", args.force)


def _write_or_print(text: str, output: str | None, what: str, force: bool) -> int:
    if output:
        from .output import write_text
        write_text(output, text, what, force)
        print(f"wrote {output}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_clauses(args: argparse.Namespace) -> int:
    from .ruleset import Capability, TermStatus
    ruleset = registry.get(args.ruleset, Location(None, None, None, "RULESET"))
    print(f"{ruleset.key}: {ruleset.title}")
    for clause in ruleset.clauses:
        print(f"{clause.id:<12} {clause.summary}")
        print(f"{'':<12} [{clause.source}]")
        terms = ruleset.terms_of(clause.id)
        if terms:
            print(f"{'':<12} terms: " + ", ".join(t.name for t in terms))
    if ruleset.glossary:
        glossary = ruleset.glossary
        counts = {status: sum(t.status == status for t in glossary) for status in TermStatus}
        print(f"\nglossary ({len(glossary)} terms: " + ", ".join(f"{n} {s}" for s, n in counts.items())
              + f"; {sum(bool(t.reading) for t in glossary)} decided by a reading point):")
        for term in glossary:
            print(f"{term.name} [{term.status}{', ' + term.kind if term.kind else ''}; judged at {term.judged_at}]: "
                  f"{term.definition}")
            print(f"  source: {term.source or 'undefined in the sources'}")
            if term.reading:
                print(f"  reading point: {term.reading}")
            if term.single_meaning:
                print(f"  one meaning: {term.single_meaning}")
            print(f"  used by: {', '.join(term.clauses)}")
    print("\nreadings (default first):")
    for point in ruleset.reading_points:
        print(f"{point.name}: {point.question}")
        for option, meaning in sorted(point.options.items(), key=lambda kv: kv[0] != point.default):
            mark = " (default)" if option == point.default else ""
            print(f"  {option}{mark}: {meaning}")
    print("\ncapabilities: " + (", ".join(sorted(ruleset.capabilities)) or "none"))
    if ruleset.supports(Capability.EXHAUSTIVE):
        print("exhaustive spaces (verifier explore --exhaustive --space NAME; the first is the default):")
        for name, what in ruleset.exhaustive_spaces().items():
            print(f"  {name}: {what}")
    if ruleset.supports(Capability.BOUNDARIES):
        print("boundaries (a share of the scenes of explore and fuzz, --boundary-share; with --exhaustive, "
              "SPACE+boundaries):")
        for boundary in ruleset.boundaries():
            print(f"  {boundary.name} ({', '.join(boundary.clauses)}): {boundary.summary}")
    return 0


def _report_folder(out: Path, force: bool, writer: str, report: str) -> Path:
    """``out`` if a command that writes a report there may use it: new, empty, or holding a
    report of its own (``report.json`` marked as ``report``), unless ``force``."""
    from .output import refusal
    if out.exists() and not out.is_dir():
        raise CaseError("--out must be a folder", Location(str(out)))
    if out.is_dir() and any(out.iterdir()) and not force:
        mine = out / "report.json"
        if not mine.is_file() or refusal(mine, report):
            raise CaseError(f"--out names a folder that holds files {writer} did not write (a case folder?); "
                            "give an empty or new folder, or pass --force", Location(str(out)))
    return out


def _add_boundary_share(parser: argparse.ArgumentParser) -> None:
    from .generation import BOUNDARY_SHARE
    parser.add_argument("--boundary-share", type=float, default=BOUNDARY_SHARE, metavar="SHARE",
                        help="the share of scenes, 0 to 1, moved onto the ruleset's boundaries: contacts, ties and "
                             f"limits, exactly on them and just either side (default: {BOUNDARY_SHARE:g})")


def _boundary_share(args: argparse.Namespace) -> float:
    share: float = args.boundary_share
    if not 0.0 <= share <= 1.0:
        raise CaseError(f"--boundary-share must be a share from 0 to 1, not {share:g}",
                        Location(None, None, None, "--boundary-share"))
    return share


def cmd_explore(args: argparse.Namespace) -> int:
    from .explorer import ExploreOptions, run_explore
    from .findings import write_reports
    from .ruleset import Capability

    ruleset = registry.get(args.ruleset, Location(None, None, None, "RULESET"))
    out = _report_folder(Path(args.out or f"explore/{ruleset.key}"), args.force, "the explorer", "explorer report")
    if args.budget <= 0:
        raise CaseError("--budget must be a positive number of seconds", Location(None, None, None, "--budget"))
    if args.max_examples < 1:
        raise CaseError("--max-examples must be 1 or more", Location(None, None, None, "--max-examples"))
    for option in ("space", "pieces", "shards", "results"):
        if getattr(args, option) is not None and not args.exhaustive:
            flag = "--ships" if option == "pieces" else f"--{option}"
            raise CaseError(f"{flag} only means something with --exhaustive", Location(None, None, None, flag))
    if args.exhaustive:
        ruleset.require(Capability.EXHAUSTIVE, "verifier explore --exhaustive")
    options = ExploreOptions(budget=args.budget, max_examples=args.max_examples, seed=args.seed,
                             boundary_share=_boundary_share(args),
                             exhaustive=args.exhaustive, space=_space_of(ruleset, args) if args.exhaustive else None,
                             shards=args.shards, results=Path(args.results) if args.results else None,
                             cases_dir=Path(args.cases), out=out, execution=_execution(args), progress=True)
    run = run_explore(ruleset, options, log=lambda m: print(m, flush=True))
    data, markdown = run.report()
    json_path, md_path = write_reports(out, data, markdown)
    for w in run.written:
        print(f"{w.status.upper():<8} {w.finding.fingerprint}")
    if "recall" in data:
        r = data["recall"]
        print(f"recall of the search: {r['found']}/{r['of']} exhaustive classes")
    print(f"{len(run.written)} findings ({data['open']} open, {data['resolved']} resolved); "
          f"report: {md_path}, {json_path}")
    return 0


# Spaces named for how many pieces they hold, for --ships N.
_COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _space_of(ruleset: Ruleset, args: argparse.Namespace) -> str | None:
    """The space --space names, or the first whose name starts with the number --ships gives."""
    if args.pieces is None:
        return str(args.space) if args.space else None
    where = Location(None, None, None, "--ships")
    if args.space:
        raise CaseError("give --space or --ships, not both", where)
    from .shards import spaces_of
    spaces = list(spaces_of(ruleset))  # the caller has required Capability.EXHAUSTIVE
    word = _COUNT_WORDS[args.pieces - 1] if 1 <= args.pieces <= len(_COUNT_WORDS) else str(args.pieces)
    for name in spaces:
        if name.split("-")[0] == word:
            return name
    raise CaseError(f"ruleset {ruleset.key!r} has no exhaustive space of {args.pieces} pieces; its spaces: "
                    + (", ".join(spaces) or "none"), where)


def _add_execution(parser: argparse.ArgumentParser, *, workers: bool = True) -> None:
    """--workers and --scheduler: where the command's work runs (verifier/execute.py)."""
    if workers:
        parser.add_argument("--workers", type=int, metavar="N",
                            help="local processes (default: one per core; 1 runs everything in this process, "
                                 "the easy way to debug); the output is the same with any number")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the work on the Dask cluster whose scheduler is at ADDRESS (such as "
                             "tcp://10.0.0.5:8786) instead of local processes; its workers need this verifier "
                             "installed, and the case and snapshot folders at the same paths")


def _execution(args: argparse.Namespace) -> Any:
    from .execute import execution_from_options
    return execution_from_options(getattr(args, "workers", None), args.scheduler)


def cmd_fuzz(args: argparse.Namespace) -> int:
    from .adapter import open_implementation
    from .fuzz import require, run, timing, verdict, write_report

    ruleset = registry.get(args.ruleset, Location(None, None, None, "RULESET"))
    require(ruleset)
    for name, value in (("--examples", args.examples), ("--workers", args.workers)):
        if value < 1:
            raise CaseError(f"{name} must be 1 or more", Location(None, None, None, name))
    if not args.budget > 0:
        raise CaseError("--budget must be a positive number of seconds", Location(None, None, None, "--budget"))
    _boundary_share(args)
    out = _report_folder(Path(args.out or f"fuzz/{ruleset.key}"), args.force, "verifier fuzz", "fuzz report")
    from .output import check_writable
    for option in ("junit", "github_output"):
        if getattr(args, option):
            check_writable(getattr(args, option), f"--{option.replace('_', '-')} report", args.force)
    _execution(args)  # a bad --scheduler is refused before the implementation starts
    impl = open_implementation(args.impl, args.impl_timeout, rulesets=[ruleset.key])
    print(f"fuzzing {ruleset.key} through {args.impl} (seed {args.seed}, up to {args.examples} scenes, "
          f"budget {args.budget:g} s) ...", flush=True)
    from .execute import Progress
    try:
        with Progress("fuzzing", args.examples, unit="scenes", noted="groups so far", limit=args.budget) as progress:
            result = run(ruleset, impl, examples=args.examples, budget=args.budget, seed=args.seed,
                         workers=args.workers, scheduler=args.scheduler, log=lambda m: print(m, flush=True),
                         progress=progress, boundary_share=args.boundary_share)
    finally:
        impl.close()
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path, data, results = write_report(result, out, args.force)
    _write_ci_reports(results, args, "fuzz")
    print(verdict(result))
    d = data["disagreements"]
    m, o, r = data["mixed_readings"], data["order"], data["repeat"]

    def groups(section: dict[str, Any]) -> str:
        return f"{len(section['groups'])} group{'' if len(section['groups']) == 1 else 's'}"

    print(f"{d['explained_by_no_reading']} scenes no reading explains, in {groups(d)}; "
          f"{m['scenes']} explained by another reading, in {groups(m)}; "
          f"{o['differing']} order-dependent answers, in {groups(o)}, and {r['differing']} changing answers, in "
          f"{groups(r)}; {len(result.problems)} problem answers")
    t = timing(result)
    print(f"{len(result.trials)} scenes in {t['seconds']} s ({t['scenes_per_second']} scenes/s); "
          f"report: {md_path}, {json_path}")
    if result.given_up:
        print(f"error: the run stopped early: {result.given_up}", file=sys.stderr)
    return result.exit_code


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import main as bench_main
    return bench_main(args)


def cmd_docs(args: argparse.Namespace) -> int:
    from .docs import build_site
    if args.examples < 0:
        raise CaseError("--examples must be a number of scenes, 0 or more", Location(None, None, None, "--examples"))
    from .case import scan_case_files
    if args.cases is not None and not scan_case_files([args.cases]):  # as check: no case files is an error
        raise CaseError("nothing to draw: no case files were found", Location(str(args.cases)))
    result = build_site(args.out, cases_dir=args.cases, findings_dir=args.findings, rulesets=args.ruleset or None,
                        examples=args.examples, seed=args.seed, execution=_execution(args),
                        log=lambda m: print(m, flush=True))
    def n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    for s in result.summaries:
        print(f"{s.key}: {n(s.clauses, 'clause')}, {n(s.cases, 'case')}, {n(s.open, 'open finding')}; "
              f"{n(s.uncovered, 'clause')} with no documented example")
    print(f"wrote {result.pages} pages and {result.files} files ({result.bytes / 1e6:.1f} MB) to {result.out} "
          f"in {result.seconds:.1f} s; open {result.out / 'index.html'} in a browser")
    return 0


_FORCE_HELP = ("replace the output file even if the verifier did not write it (a case file, a snapshot, a "
               "known-failure list, a link); without it such a file is never overwritten")


def _positive_seconds(text: str) -> float:
    import math
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return seconds


# Stands in help texts for the registered rulesets' names, which are looked up only when a help
# text is shown: finding them reads every installed distribution's metadata, which a command
# that only runs need not wait for.
RULESETS = "\x00rulesets\x00"


class _Formatter(argparse.HelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        return text.replace(RULESETS, ", ".join(registry.names())) if text and RULESETS in text else text


class _RawDescriptionFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, with a near miss of a command or choice answered by "did you mean", and the
    rulesets' names in help texts (``RULESETS``) looked up when a help text is shown."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> NoReturn:
        found = re.search(r"invalid choice: '((?:[^'\\]|\\.)*)' \(choose from (.*)\)$", message)
        if found:
            choices = re.findall(r"'([^']*)'", found.group(2))
            message = f"{message.split(' (choose from ')[0]}; {did_you_mean(found.group(1), choices)}"
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="verifier", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=_RawDescriptionFormatter)
    parser.add_argument("--version", action="version", version=f"verifier {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="load, resolve, compare and draw every case",
                           description="Load, resolve, compare and draw every case; exit 1 if any fails.")
    check.add_argument("paths", nargs="*", metavar="PATH", help="case files or folders (default: cases/)")
    check.add_argument("--json", metavar="FILE", help="write results as JSON")
    check.add_argument("--junit", metavar="FILE", help="write results as JUnit XML")
    check.add_argument("--snapshots", metavar="DIR", default="snapshots", help="snapshot folder (default: snapshots)")
    check.add_argument("--failures", metavar="DIR", default=".verifier-failures",
                       help="where expected/actual/diff images of mismatches go (default: .verifier-failures)")
    check.add_argument("--no-draw", action="store_true", help="skip diagrams and snapshot comparison")
    check.add_argument("--update-snapshots", action="store_true",
                       help="write missing snapshots and replace differing ones")
    check.add_argument("-v", "--verbose", action="store_true",
                       help="also list passing, skipped and expected-to-fail cases")
    check.add_argument("--impl", metavar="COMMAND",
                       help="check another implementation instead of the reference resolver: a command that "
                            "speaks the adapter protocol on stdin/stdout (docs/protocol.md), such as "
                            "\"node my-impl.js\", or python:MODULE:FUNCTION to call a function in-process")
    check.add_argument("--impl-timeout", type=float, default=10.0, metavar="SECONDS",
                       help="with --impl: how long one case may take (default: 10); a stopped implementation "
                            "is restarted for the next case")
    check.add_argument("--case-timeout", type=_positive_seconds, default=60.0, metavar="SECONDS",
                       help="how long one case may take with the reference resolver (resolve, compare, draw; "
                            "default: 60); a case that takes longer is stopped and fails, with any --workers")
    check.add_argument("--known-failures", metavar="FILE",
                       help="cases expected to fail, one 'CASE-ID: reason' a line; they are reported as "
                            "xfail, and a listed case that passes fails the run")
    check.add_argument("--write-known-failures", metavar="FILE",
                       help="with --impl: write every failing case to FILE as a known-failure list, each with "
                            "how it fails (a case that later fails differently fails the run); an existing file "
                            "the verifier did not write is kept unless --force")
    check.add_argument("--check-order", action="store_true",
                       help="with --impl: send each case a second time with its pieces listed in reverse order, "
                            "and fail a case whose answer changes (the order of a request carries no meaning)")
    check.add_argument("--github", action="store_true",
                       help="print GitHub Actions annotations (::error file=...,line=...::), and append a "
                            "summary to $GITHUB_STEP_SUMMARY when it is set")
    check.add_argument("--github-output", metavar="FILE", help="like --github, but write the annotations to FILE")
    check.add_argument("--no-table", action="store_true", help="leave out the table per ruleset and clause")
    check.add_argument("--force", action="store_true", help=_FORCE_HELP)
    check.add_argument("--allow-empty", action="store_true",
                       help="let a run that checks no case pass (every case skipped or needing a ruling); "
                            "without it such a run fails, so a green run always checked something")
    check.add_argument("--require-all", action="store_true",
                       help="fail a run in which any case was skipped (an implementation that skips a case, or a "
                            "ruleset it does not serve); without it a partly skipped run passes, and its last line "
                            "says how many were skipped")
    _add_execution(check)
    check.set_defaults(func=cmd_check)

    show = sub.add_parser("show", help="print a case's outcome with clause provenance")
    show.add_argument("case", metavar="CASE", help="a case file")
    show.add_argument("--reading", action="append", metavar="POINT=OPTION", help="pin a reading (repeatable)")
    show.set_defaults(func=cmd_show)

    render = sub.add_parser("render", help="draw one case's before/after diagram")
    render.add_argument("case", metavar="CASE", help="a case file")
    render.add_argument("-o", "--output", required=True, metavar="FILE", help="PNG file to write")
    render.add_argument("--reading", action="append", metavar="POINT=OPTION", help="pin a reading (repeatable)")
    render.add_argument("--force", action="store_true", help=_FORCE_HELP)
    render.set_defaults(func=cmd_render)

    schema = sub.add_parser("schema", help="print the JSON Schema of case files")
    schema.add_argument("-o", "--output", metavar="FILE")
    schema.add_argument("--force", action="store_true", help=_FORCE_HELP)
    schema.add_argument("--adapter", action="store_true",
                        help="the schema of the adapter protocol's messages instead (docs/schema/adapter.schema.json)")
    schema.set_defaults(func=cmd_schema)

    export = sub.add_parser("export", help="write every case as JSON, for implementations in other languages",
                            description="Write every case (header, readings, before, actions, expect) as JSON, "
                                        "sorted by ruleset and id. See docs/protocol.md.")
    export.add_argument("paths", nargs="*", metavar="PATH", help="case files or folders (default: cases/)")
    export.add_argument("--format", choices=["json", "jsonl"], default="json",
                        help="json: one document; jsonl: one case a line (default: json)")
    export.add_argument("-o", "--output", metavar="FILE", help="file to write (default: stdout)")
    export.add_argument("--force", action="store_true", help=_FORCE_HELP)
    export.set_defaults(func=cmd_export)

    clauses = sub.add_parser("clauses", help="list a ruleset's clauses and readings")
    clauses.add_argument("ruleset", metavar="RULESET", help=f"one of: {RULESETS}")
    clauses.set_defaults(func=cmd_clauses)

    explore = sub.add_parser(
        "explore", help="search a ruleset for contradictions, gaps and other edge cases",
        description="Search a ruleset's clause table for contradictions, gaps, order dependence, broken "
                    "symmetry, invariant breaches and diverging readings; check documented examples against "
                    "every reading. Writes a needs-ruling case and a diagram per finding, and a report.")
    explore.add_argument("ruleset", metavar="RULESET", help=f"one of: {RULESETS}")
    explore.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                         help="time for the Hypothesis search (default: 60)")
    explore.add_argument("--max-examples", type=int, default=20000, metavar="N",
                         help="scenes the search may try (default: 20000); the same seed and count give the "
                              "same findings")
    explore.add_argument("--exhaustive", action="store_true",
                         help="also enumerate one of the ruleset's bounded spaces, in shards over the workers, "
                              "and measure the search's recall against it")
    explore.add_argument("--space", metavar="NAME",
                         help="with --exhaustive: which of the ruleset's spaces to enumerate (default: its first; "
                              "'verifier clauses RULESET' lists them)")
    explore.add_argument("--ships", "--pieces", type=int, dest="pieces", metavar="N",
                         help="with --exhaustive: the space of N pieces (the first space whose name starts with "
                              "the number, such as three-ships for 3)")
    explore.add_argument("--shards", type=int, metavar="N",
                         help="with --exhaustive: cut the space into N shards, each enumerated where it runs "
                              "(default: 64; more for a large cluster); the findings are the same with any workers")
    explore.add_argument("--results", metavar="FILE",
                         help="with --exhaustive: record each finished shard in FILE (JSON lines); run again with "
                              "the same FILE to resume without redoing them")
    _add_execution(explore)
    explore.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default: 0)")
    _add_boundary_share(explore)
    explore.add_argument("--force", action="store_true",
                         help="write into an --out folder that holds files the explorer did not write")
    explore.add_argument("--out", metavar="DIR", help="report folder (default: explore/RULESET)")
    explore.add_argument("--cases", default="cases", metavar="DIR",
                         help="where documented cases and rulings live (default: cases)")
    explore.set_defaults(func=cmd_explore)

    fuzz = sub.add_parser(
        "fuzz", help="run generated scenes through another implementation and compare with every reading",
        description="Differential conformance: scenes from the ruleset's explorer strategies go to the "
                    "implementation over the adapter protocol and to the reference resolver under every full "
                    "reading. Reports which reading the implementation follows, shrinks every disagreement no "
                    "reading explains to a minimal case file with a diagram, and checks whether its answers "
                    "depend on listing order or change when a scene is sent again.")
    fuzz.add_argument("ruleset", metavar="RULESET", help=f"one of: {RULESETS}")
    fuzz.add_argument("--impl", required=True, metavar="COMMAND",
                      help="the implementation: a command speaking the adapter protocol, or python:MODULE:FUNCTION")
    fuzz.add_argument("--impl-timeout", type=float, default=10.0, metavar="SECONDS",
                      help="time the implementation may take per scene (default: 10)")
    fuzz.add_argument("--examples", type=int, default=200, metavar="N", help="scenes to generate (default: 200)")
    fuzz.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                      help="time for generating and sending scenes (default: 60); shrinking comes after")
    fuzz.add_argument("--seed", type=int, default=0, metavar="N",
                      help="random seed (default: 0); the same seed and --examples give the same report")
    fuzz.add_argument("--out", metavar="DIR", help="report folder (default: fuzz/RULESET)")
    _add_boundary_share(fuzz)
    fuzz.add_argument("--workers", type=int, default=1, metavar="N",
                      help="processes resolving the reference under every reading (default: 1); the "
                           "implementation is asked from one; the report is the same whatever N is")
    _add_execution(fuzz, workers=False)
    fuzz.add_argument("--force", action="store_true",
                      help="write into an --out folder that holds files verifier fuzz did not write")
    fuzz.add_argument("--github", action="store_true",
                      help="print GitHub Actions annotations, one per group found (::error file=...::), as check "
                           "does, and append a summary to $GITHUB_STEP_SUMMARY when it is set")
    fuzz.add_argument("--github-output", metavar="FILE", help="like --github, but write the annotations to FILE")
    fuzz.add_argument("--junit", metavar="FILE", help="write the groups found as JUnit XML, as check does")
    fuzz.set_defaults(func=cmd_fuzz)

    bench = sub.add_parser(
        "bench", help="measure speed: cases/s of check, and each ruleset's own suites",
        description="Measure speed. The core suite times 'verifier check' over the cases of every ruleset; "
                    "each ruleset that declares the 'benchmarks' capability adds suites of its own, named "
                    "RULESET.SUITE. Speed is never asserted in tests.")
    bench.add_argument("--cases", default="cases", metavar="DIR", help="case folder (default: cases)")
    bench.add_argument("--quick", action="store_true", help="smaller runs, for a smoke test")
    bench.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    bench.add_argument("--repeats", type=int, metavar="N",
                       help="repetitions of each timing (default: 7; 2 with --quick)")
    bench.add_argument("--suite", default="core", metavar="NAME",
                       help="core: cases per second of check, with and without drawing (default); docs: seconds "
                            "to build the site; RULESET.SUITE: "
                            f"one suite of a ruleset; RULESET ({RULESETS}): all of its suites; "
                            "all: everything; several separated by commas. --list shows them")
    bench.add_argument("--findings", metavar="DIR",
                       help="the docs suite: the explorer's report folder (default: explore beside --cases)")
    bench.add_argument("--list", action="store_true", help="list every suite with what it measures, and exit")
    bench.set_defaults(func=cmd_bench)

    docs = sub.add_parser(
        "docs", help="build the illustrated rule pages: a static HTML site",
        description="Build a static site with one page per ruleset: every clause with its source, the cases "
                    "that exercise it (by provenance) drawn before and after, the explorer's open findings, "
                    "and a clause coverage table. Writes only inside --out, and refuses a folder that holds "
                    "anything but an earlier site.")
    docs.add_argument("--out", default="site", metavar="DIR", help="folder to write the site into (default: site)")
    docs.add_argument("--cases", default="cases", metavar="DIR", help="case folder (default: cases)")
    docs.add_argument("--findings", default="explore", metavar="DIR",
                      help="the explorer's output folder, with RULESET/report.json (default: explore); where "
                           "there is none, a quick explorer pass runs while building")
    docs.add_argument("--ruleset", action="append", metavar="RULESET",
                      help="only this ruleset (repeatable; default: every ruleset that has cases under --cases, of "
                           f"{RULESETS})")
    docs.add_argument("--examples", type=int, default=150, metavar="N",
                      help="scenes for the quick explorer pass where there is no report (default: 150; "
                           "0 skips the search)")
    docs.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the quick explorer pass (default: 0)")
    _add_execution(docs)
    docs.add_argument("--jobs", type=int, dest="workers", help=argparse.SUPPRESS)  # the former name of --workers
    docs.set_defaults(func=cmd_docs)
    return parser


# Control characters from case files or an implementation's answers could clear the
# screen or forge lines on a terminal: everything the commands print shows them as \xNN.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class _Printable(io.TextIOBase):
    """A text stream that writes control characters (but tabs and line breaks) escaped."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    # TextIOBase defines these itself, so __getattr__ would never pass them on: without
    # them the progress bar took every terminal for a log.
    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def main(argv: list[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(out), _Printable(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except VerifierError as error:
        for line in str(error).splitlines():
            print(f"error: {one_line(line, 2000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`verifier clauses ypp | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno() if sys.__stdout__ else 1)
        return 141
    except OSError as error:  # a file that vanished, a full disk, a name too long: said in one line
        where = f"{error.filename}: " if error.filename else ""
        print(f"error: {one_line(where)}{one_line(error.strerror or error)}", file=sys.stderr)
        return 2
    except (RecursionError, MemoryError) as error:
        what = "nests too deeply" if isinstance(error, RecursionError) else "needs more memory than there is"
        print(f"error: the input {what} to be handled ({type(error).__name__})", file=sys.stderr)
        return 2
    except Exception as error:  # a bug: still one line, never a traceback, with what to report
        print(f"error: internal error while running 'verifier {args.command}': {type(error).__name__}: "
              f"{one_line(error, 500)}; this is a bug of the ruleset or the verifier: please report it with the "
              "command and its input (set VERIFIER_TRACEBACK=1 for the traceback)", file=sys.stderr)
        if os.environ.get("VERIFIER_TRACEBACK"):
            raise
        return 2


if __name__ == "__main__":
    sys.exit(main())
