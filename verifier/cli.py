"""The ``verifier`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__, registry
from .errors import VerifierError, CaseError, Location

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


def _load_with_pins(path: str, pins: list[str]):
    from .case import load_case
    case = load_case(path)
    extra = _parse_pins(pins)
    reading = case.ruleset.reading({**case.pinned, **extra},
                                   {k: Location(None, None, None, f"--reading {k}") for k in extra})
    return case, reading


def cmd_check(args) -> int:
    from .report import write_json, write_junit
    from .runner import RunOptions, check_paths, summary_line
    from .snapshots import SnapshotStore

    options = RunOptions(SnapshotStore(args.snapshots, args.failures), draw=not args.no_draw,
                         update_snapshots=args.update_snapshots)
    results = check_paths(args.paths or ["cases"], options)
    for result in results:
        if result.status == "failed":
            print(f"FAIL {result.id} ({result.file})")
            for problem in result.problems:
                print(f"  {problem}")
        elif result.status == "open":
            print(f"OPEN {result.id} ({result.file}): needs a ruling")
            for problem in result.problems:
                print(f"  {problem}")
        elif args.verbose:
            print(f"ok   {result.id}")
        if result.snapshot is not None and result.snapshot.status == "written":
            print(f"  {result.snapshot.message}")
    if options.draw and not args.paths:
        used = {(r.ruleset, r.id) for r in results if r.case is not None}
        for path in options.snapshots.unused(used):
            print(f"note: snapshot {path} belongs to no case (delete it if the case is gone)")
    if args.json:
        write_json(results, args.json)
    if args.junit:
        write_junit(results, args.junit)
    print(summary_line(results))
    return 0 if all(r.status != "failed" for r in results) else 1


def cmd_show(args) -> int:
    case, reading = _load_with_pins(args.case, args.reading)
    outcome = case.ruleset.resolve(case.before, case.actions, reading)
    print(f"{case.id}: {case.title}")
    print(f"source: {case.source}")
    print("reading: " + ", ".join(f"{k}={v}" for k, v in reading.items()))
    print(case.ruleset.describe(case.before, case.actions, outcome))
    if case.expect is None:
        print("this case needs a ruling: it lists the outcome under each reading")
        return 0
    mismatches = case.ruleset.compare(case.before, case.expect, outcome)
    if mismatches:
        print("differs from the case's expectation:")
        for m in mismatches:
            print(f"  {case.where(('expect',) + tuple(m.path))}: {m.message}")
    else:
        print("matches the case's expectation")
    return 0


def cmd_render(args) -> int:
    case, reading = _load_with_pins(args.case, args.reading)
    outcome = case.ruleset.resolve(case.before, case.actions, reading)
    image = case.ruleset.draw(case.before, case.actions, outcome, title=case.title)
    from .snapshots import png_bytes
    out = Path(args.output)
    if out.exists() and not args.force and _is_protected(out):
        raise CaseError("refusing to overwrite a snapshot or case file; pass --force if you mean it",
                        Location(str(out)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png_bytes(image))
    print(f"wrote {out} ({image.width}x{image.height})")
    return 0


def _is_protected(path: Path) -> bool:
    resolved = path.resolve()
    return any(part in ("snapshots", "cases") for part in resolved.parts) or path.suffix in (".yaml", ".yml")


def cmd_schema(args) -> int:
    from .case import published_schema
    text = json.dumps(published_schema(), indent=2) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_clauses(args) -> int:
    ruleset = registry.get(args.ruleset, Location(None, None, None, "RULESET"))
    print(f"{ruleset.key}: {ruleset.title}")
    for clause in ruleset.clauses:
        print(f"{clause.id:<12} {clause.summary}")
        print(f"{'':<12} [{clause.source}]")
    print("\nreadings (default first):")
    for point in ruleset.reading_points:
        print(f"{point.name}: {point.question}")
        for option, meaning in sorted(point.options.items(), key=lambda kv: kv[0] != point.default):
            mark = " (default)" if option == point.default else ""
            print(f"  {option}{mark}: {meaning}")
    return 0


def cmd_explore(args) -> int:
    from .case import find_case_files, load_case
    from .explore import example_conflicts, example_matrix, exhaustive, search, shrink
    from .findings import report_json, report_markdown, rulings, write_findings, write_reports

    ruleset = registry.get(args.ruleset, Location(None, None, None, "RULESET"))
    out = Path(args.out or f"explore/{ruleset.key}")
    if out.exists() and not out.is_dir():
        raise CaseError("--out must be a folder", Location(str(out)))
    if args.budget <= 0:
        raise CaseError("--budget must be a positive number of seconds", Location(None, None, None, "--budget"))
    out.mkdir(parents=True, exist_ok=True)
    found = {}
    exhaustive_result = None
    if args.exhaustive:
        print(f"enumerating the exhaustive {ruleset.key} space ...", flush=True)
        exhaustive_result = exhaustive(ruleset, terrain=args.terrain)
        found.update(exhaustive_result.examples)
        print(f"  {exhaustive_result.scenes} scenes in {exhaustive_result.seconds:.1f} s: "
              f"{len(exhaustive_result.counts)} finding classes", flush=True)
    print(f"searching with Hypothesis (seed {args.seed}, budget {args.budget:g} s) ...", flush=True)
    search_result = search(ruleset, budget=args.budget, seed=args.seed, max_examples=args.max_examples)
    for fingerprint, finding in search_result.findings.items():
        found.setdefault(fingerprint, finding)
    print(f"  {search_result.examples} scenes in {search_result.seconds:.1f} s: "
          f"{len(search_result.findings)} finding classes", flush=True)
    cases_dir = Path(args.cases)
    cases = []
    if cases_dir.exists():
        for path in find_case_files([cases_dir]):
            try:
                cases.append(load_case(path))
            except VerifierError:
                pass  # 'verifier check' reports broken case files
    matrix = example_matrix(ruleset, cases)
    for finding in example_conflicts(ruleset, matrix):
        found.setdefault(finding.fingerprint, finding)
    minimal = [shrink(ruleset, found[k]) if found[k].kind != "example-conflict" else found[k] for k in sorted(found)]
    ruled = rulings(ruleset, [cases_dir, out / "findings"])
    written = write_findings(ruleset, minimal, out, ruled)
    data = report_json(ruleset, written, search=search_result, exhaustive=exhaustive_result, matrix=matrix,
                       seed=args.seed, budget=args.budget, out=out)
    json_path, md_path = write_reports(out, data, report_markdown(ruleset, data, written, matrix))
    for w in written:
        print(f"{w.status.upper():<8} {w.finding.fingerprint}")
    if "recall" in data:
        r = data["recall"]
        print(f"recall of the search: {r['found']}/{r['of']} exhaustive classes")
    print(f"{len(written)} findings ({data['open']} open, {data['resolved']} resolved); report: {md_path}, {json_path}")
    return 0


def cmd_bench(args) -> int:
    from .bench import main as bench_main
    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="verifier", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
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
    check.add_argument("-v", "--verbose", action="store_true", help="also list passing cases")
    check.set_defaults(func=cmd_check)

    show = sub.add_parser("show", help="print a case's outcome with clause provenance")
    show.add_argument("case", metavar="CASE", help="a case file")
    show.add_argument("--reading", action="append", metavar="POINT=OPTION", help="pin a reading (repeatable)")
    show.set_defaults(func=cmd_show)

    render = sub.add_parser("render", help="draw one case's before/after diagram")
    render.add_argument("case", metavar="CASE", help="a case file")
    render.add_argument("-o", "--output", required=True, metavar="FILE", help="PNG file to write")
    render.add_argument("--reading", action="append", metavar="POINT=OPTION", help="pin a reading (repeatable)")
    render.add_argument("--force", action="store_true", help="allow writing into cases/ or snapshots/")
    render.set_defaults(func=cmd_render)

    schema = sub.add_parser("schema", help="print the JSON Schema of case files")
    schema.add_argument("-o", "--output", metavar="FILE")
    schema.set_defaults(func=cmd_schema)

    clauses = sub.add_parser("clauses", help="list a ruleset's clauses and readings")
    clauses.add_argument("ruleset", metavar="RULESET", help=f"one of: {', '.join(registry.names())}")
    clauses.set_defaults(func=cmd_clauses)

    explore = sub.add_parser(
        "explore", help="search a ruleset for contradictions, gaps and other edge cases",
        description="Search a ruleset's clause table for contradictions, gaps, order dependence, broken "
                    "symmetry, invariant breaches and diverging readings; check documented examples against "
                    "every reading. Writes a needs-ruling case and a diagram per finding, and a report.")
    explore.add_argument("ruleset", metavar="RULESET", help=f"one of: {', '.join(registry.names())}")
    explore.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                         help="time for the Hypothesis search (default: 60)")
    explore.add_argument("--max-examples", type=int, default=20000, metavar="N",
                         help="scenes the search may try (default: 20000); the same seed and count give the "
                              "same findings")
    explore.add_argument("--exhaustive", action="store_true",
                         help="also enumerate the ruleset's small bounded space on every core, and measure "
                              "the search's recall against it")
    explore.add_argument("--terrain", action="store_true", help="with --exhaustive: add one rock, wind tile or "
                                                                "whirlpool to the space")
    explore.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default: 0)")
    explore.add_argument("--out", metavar="DIR", help="report folder (default: explore/RULESET)")
    explore.add_argument("--cases", default="cases", metavar="DIR",
                         help="where documented cases and rulings live (default: cases)")
    explore.set_defaults(func=cmd_explore)

    bench = sub.add_parser("bench", help="measure speed (cases/s, rounds/s, big turns)")
    bench.add_argument("--cases", default="cases", metavar="DIR")
    bench.add_argument("--quick", action="store_true", help="smaller runs, for a smoke test")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except VerifierError as error:
        for line in str(error).splitlines():
            print(f"error: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
