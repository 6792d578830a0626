"""Exhaustive spaces cut into shards. A shard is named, never shipped: (ruleset key, space,
index, count) is all a worker gets, and it enumerates its own scenes through the ruleset's
``exhaustive_shard``. What comes back is small: per finding class the scenes (and unreduced
scenes) that show it and the position of its best example in the shard.

Finished shards can be recorded in a results file, one JSON line each, so that an
interrupted run resumes without redoing them. The examples of findings are not recorded:
enumeration is deterministic, so on resume the scene at a recorded position is enumerated
again.
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .errors import CaseError, Location
from .execute import IN_PROCESS, Execution, Progress, map_as_completed
from .output import write_failure
from .ruleset import Capability, Ruleset

if TYPE_CHECKING:
    from .explore import Finding

# Fixed, whatever the number of workers, so the same space gives the same report anywhere.
DEFAULT_SHARDS = 64
MAX_SHARDS = 1_000_000
RESULTS_FORMAT = "verifier exhaustive shards"
# A results file larger than this, or a line longer, is not one of ours.
MAX_RESULTS_BYTES = 512 * 1024 * 1024
MAX_LINE_BYTES = 4 * 1024 * 1024


# A space named with this suffix is the space before it with, after each of its scenes, that
# scene moved onto each of the ruleset's boundaries, on it and just either side.
BOUNDARY_SUFFIX = "+boundaries"


def spaces_of(ruleset: Ruleset) -> dict[str, str]:
    """The ruleset's exhaustive spaces, and where it names boundaries, each with them."""
    spaces = dict(ruleset.exhaustive_spaces())
    if ruleset.supports(Capability.BOUNDARIES):
        for name, what in list(spaces.items()):
            spaces[name + BOUNDARY_SUFFIX] = (f"{what}; after each scene, the scene moved onto each of the ruleset's "
                                              "boundaries, on it and just either side")
    return spaces


def shard_scenes(ruleset: Ruleset, shard: Shard) -> Iterator[tuple[Any, Any, int]]:
    """The scenes of a shard, with their weights (boundary scenes after each scene of a
    ``+boundaries`` space)."""
    if shard.space.endswith(BOUNDARY_SUFFIX):
        from .kit.boundary import with_boundaries
        base = shard.space[:-len(BOUNDARY_SUFFIX)]
        return with_boundaries(ruleset.boundaries(), ruleset.exhaustive_shard(base, shard.index, shard.count))
    return ruleset.exhaustive_shard(shard.space, shard.index, shard.count)


@dataclass(frozen=True)
class Shard:
    ruleset: str
    space: str
    index: int
    count: int


@dataclass(frozen=True)
class ShardResult:
    index: int
    scenes: int  # scenes enumerated (one per class in a space reduced by symmetry)
    raw_scenes: int  # the scenes of the unreduced space they stand for
    counts: Mapping[str, tuple[int, int]]  # fingerprint -> (scenes, unreduced scenes) showing it
    first: Mapping[str, tuple[int, bool]]  # fingerprint -> (position in the shard, visible) of its example
    seconds: float
    examples: Mapping[str, Finding] = field(default_factory=dict, compare=False)  # not recorded

    def line(self) -> str:
        return json.dumps({"shard": self.index, "scenes": self.scenes, "raw_scenes": self.raw_scenes,
                           "seconds": round(self.seconds, 3),
                           "counts": {k: list(v) for k, v in sorted(self.counts.items())},
                           "first": {k: list(v) for k, v in sorted(self.first.items())}}, sort_keys=True)


def run_shard(shard: Shard, ruleset: Ruleset | None = None) -> ShardResult:
    """Enumerate and analyse one shard. A worker on a cluster finds the ruleset through the
    registry; local workers inherit it."""
    from .explore import analyse
    if ruleset is None:
        from . import registry
        ruleset = registry.get(shard.ruleset)
    start = time.perf_counter()
    counts: dict[str, list[int]] = {}
    first: dict[str, tuple[int, bool]] = {}
    examples: dict[str, Finding] = {}
    scenes = raw = 0
    for position, (before, actions, weight) in enumerate(shard_scenes(ruleset, shard)):
        scenes += 1
        raw += weight
        for fingerprint, finding in analyse(ruleset, before, actions).items():
            tally = counts.setdefault(fingerprint, [0, 0])
            tally[0] += 1
            tally[1] += weight
            if fingerprint not in first or (finding.visible and not first[fingerprint][1]):
                first[fingerprint] = (position, finding.visible)
                examples[fingerprint] = finding
    return ShardResult(shard.index, scenes, raw, {k: (v[0], v[1]) for k, v in counts.items()}, first,
                       time.perf_counter() - start, examples)


def example_at(ruleset: Ruleset, shard: Shard, position: int, fingerprint: str) -> Finding | None:
    """The finding ``fingerprint`` of the scene at ``position`` of ``shard``, enumerated again."""
    from .explore import analyse
    for before, actions, _ in islice(shard_scenes(ruleset, shard), position, position + 1):
        return analyse(ruleset, before, actions).get(fingerprint)
    return None


# --- the results file ----------------------------------------------------------------------

def _header(ruleset: str, space: str, shards: int) -> dict[str, Any]:
    return {"results": RESULTS_FORMAT, "version": 1, "ruleset": ruleset, "space": space, "shards": shards}


def read_results(path: Path, ruleset: str, space: str, shards: int | None) -> tuple[int, dict[int, ShardResult]]:
    """(shard count, finished shards) of a results file, validated: a located error for
    anything that is not a results file of this ruleset and space."""
    def fail(message: str, line: int | None = None, where: str | None = None) -> CaseError:
        return CaseError(message, Location(str(path), line, None, where))

    try:
        size = path.stat().st_size
    except OSError as error:
        raise fail(f"cannot read the results file ({error.strerror})") from None
    if size > MAX_RESULTS_BYTES:
        raise fail(f"the results file is {size:,} bytes, more than any run writes ({MAX_RESULTS_BYTES:,})")
    try:
        with path.open("rb") as handle:
            raw_lines = handle.read().split(b"\n")
    except OSError as error:
        raise fail(f"cannot read the results file ({error.strerror})") from None
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    elif raw_lines and (len(raw_lines) > 1 or _torn_header(raw_lines[0])):
        raw_lines.pop()  # a last line cut short by an interrupted write: that shard runs again
        if not raw_lines:
            return shards or DEFAULT_SHARDS, {}
    if not raw_lines:
        raise fail("the results file is empty; remove it to start afresh")
    records = []
    for number, raw in enumerate(raw_lines, 1):
        if len(raw) > MAX_LINE_BYTES:
            raise fail(f"line of {len(raw):,} bytes, longer than any shard's record", number)
        try:
            record = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise fail(f"not JSON ({getattr(error, 'msg', error)})", number) from None
        if not isinstance(record, dict):
            raise fail("a line must be a JSON object", number)
        records.append(record)
    header = records[0]
    if header.get("results") != RESULTS_FORMAT:
        raise fail(f"not an exhaustive results file (its first line has no \"results\": \"{RESULTS_FORMAT}\"); "
                   "give a new file name, or the file of an earlier run to resume it", 1, "results")
    for key, wanted in (("version", 1), ("ruleset", ruleset), ("space", space)):
        if header.get(key) != wanted:
            raise fail(f"the file records {key} {header.get(key)!r}, this run is {key} {wanted!r}", 1, key)
    count = header.get("shards")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_SHARDS:
        raise fail(f"shards must be a whole number from 1 to {MAX_SHARDS:,}", 1, "shards")
    if shards is not None and shards != count:
        raise fail(f"the file records a run in {count} shards, this run asks for {shards}; give --shards {count} "
                   "or a new results file", 1, "shards")
    done: dict[int, ShardResult] = {}
    for number, record in enumerate(records[1:], 2):
        result = _shard_record(record, count, lambda message, where, number=number: fail(message, number, where))
        if result.index in done:
            raise fail(f"shard {result.index} is recorded twice", number, "shard")
        done[result.index] = result
    return count, done


def _torn_header(raw: bytes) -> bool:
    """Whether ``raw`` is the start of a header line that a crash cut short."""
    start = b'{"results": '
    return raw.startswith(start) or start.startswith(raw)


def complete_length(path: Path) -> int:
    """The bytes of ``path`` up to the end of its last complete line: what is kept of a results
    file before new records are appended, so that a torn last line is cut away, not continued."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        position = size
        while position > 0:
            step = min(position, 1 << 16)
            handle.seek(position - step)
            block = handle.read(step)
            newline = block.rfind(b"\n")
            if newline >= 0:
                return position - step + newline + 1
            position -= step
    return 0


class _Recorder:
    """Appends finished shards to a results file. A write that fails (a full disk) is said
    once, on stderr; the file is cut back to its last complete line and the run goes on
    without recording, so the file can still resume what it holds."""

    def __init__(self, path: Path, header: Mapping[str, Any] | None) -> None:
        self.path = path
        try:
            kept = complete_length(path) if path.exists() else 0
            if header is not None:
                kept = 0
            self.handle: IO[str] | None = path.open("a", encoding="utf-8")
            self.handle.truncate(kept)
        except OSError as error:
            raise CaseError(write_failure(error, "results file"), Location(str(path))) from None
        self.kept = kept
        if header is not None:
            self.add(json.dumps(header, sort_keys=True))

    def add(self, line: str) -> None:
        if self.handle is None:
            return
        try:
            self.handle.write(line + "\n")
            self.handle.flush()
            self.kept = self.handle.tell()
        except OSError as error:
            print(f"error: {self.path}: {write_failure(error, 'results file')}; the run goes on without "
                  "recording shards, and the file resumes what it holds", file=sys.stderr, flush=True)
            self.close()

    def close(self) -> None:
        handle, self.handle = self.handle, None
        if handle is None:
            return
        try:
            handle.close()
        except OSError:
            pass
        try:
            os.truncate(self.path, self.kept)
        except OSError:
            pass


def _shard_record(record: Mapping[str, Any], count: int, fail: Any) -> ShardResult:
    def whole(name: str, low: int, high: int | None = None) -> int:
        value = record.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None
                                                                                    and value > high):
            raise fail(f"{name} must be a whole number from {low}" + (f" to {high}" if high is not None else ""),
                       name)
        return value

    index = whole("shard", 0, count - 1)
    scenes, raw = whole("scenes", 0), whole("raw_scenes", 0)
    seconds = record.get("seconds")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds < 0:
        raise fail("seconds must be a number, 0 or more", "seconds")
    counts, first = record.get("counts"), record.get("first")
    if not isinstance(counts, dict) or not isinstance(first, dict) or set(counts) != set(first):
        raise fail("counts and first must be objects with the same finding fingerprints", "counts")
    tallies: dict[str, tuple[int, int]] = {}
    positions: dict[str, tuple[int, bool]] = {}
    for fingerprint, tally in counts.items():
        if (not isinstance(tally, list) or len(tally) != 2 or not all(isinstance(n, int) and not isinstance(n, bool)
                                                                     and n >= 0 for n in tally)
                or tally[0] > scenes or tally[1] > raw):
            raise fail(f"counts of {fingerprint!r} must be [scenes, unreduced scenes], within the shard's", "counts")
        where = first[fingerprint]
        if (not isinstance(where, list) or len(where) != 2 or not isinstance(where[0], int)
                or isinstance(where[0], bool) or not 0 <= where[0] < scenes or not isinstance(where[1], bool)):
            raise fail(f"first of {fingerprint!r} must be [position in the shard, visible]", "first")
        tallies[fingerprint] = (tally[0], tally[1])
        positions[fingerprint] = (where[0], where[1])
    return ShardResult(index, scenes, raw, tallies, positions, float(seconds))


# --- the run -------------------------------------------------------------------------------

@dataclass
class ExhaustiveResult:
    """What an exhaustive run found: per fingerprint, the scenes that show it and one example."""

    space: str
    counts: dict[str, int]  # fingerprint -> number of scenes that show it
    examples: dict[str, Finding]  # fingerprint -> its example: a visible one first, then the earliest
    scenes: int
    seconds: float
    workers: int
    # A space reduced by symmetry enumerates one scene per class: the unreduced figures.
    raw_scenes: int = 0
    raw_counts: dict[str, int] = field(default_factory=dict)
    shards: int = 1
    resumed: int = 0  # shards read from a results file instead of run
    first_seen: dict[str, float] = field(default_factory=dict)  # fingerprint -> seconds to its first shard
    shard_seconds: float = 0.0  # time the shards took, summed over workers


def run_space(ruleset: Ruleset, space: str, execution: Execution = IN_PROCESS, *, shards: int | None = None,
              results: Path | None = None, progress: bool = True,
              only: tuple[int, ...] | None = None) -> ExhaustiveResult:
    """Every shard of ``space`` analysed on ``execution`` and merged, order-independently.
    With ``results``, shards recorded there are not run again and new ones are appended as
    they finish. ``only`` runs just those shard indices (to sample a space too large to run)."""
    start = time.perf_counter()
    if shards is not None and not 1 <= shards <= MAX_SHARDS:
        raise CaseError(f"--shards must be from 1 to {MAX_SHARDS:,}", Location(None, None, None, "--shards"))
    done: dict[int, ShardResult] = {}
    if results is not None and results.exists():
        shards, done = read_results(results, ruleset.key, space, shards)
    count = shards or DEFAULT_SHARDS
    resumed = len(done)
    wanted = [i for i in (only if only is not None else range(count)) if i not in done]
    jobs = [Shard(ruleset.key, space, i, count) for i in wanted]
    worker = partial(run_shard, ruleset=None if execution.scheduler else ruleset)
    recorder = None
    if results is not None:
        recorder = _Recorder(results, None if done else _header(ruleset.key, space, count))
    first_seen: dict[str, float] = {}
    meter = Progress(f"exhaustive {ruleset.key} {space}", len(done) + len(jobs), unit="shards",
                     noted="finding classes") if progress else None
    if meter is not None:
        meter.done = meter.resumed = len(done)
    try:
        for _, result in map_as_completed(worker, jobs, execution):
            done[result.index] = result
            now = time.perf_counter() - start
            for fingerprint in result.counts:
                first_seen.setdefault(fingerprint, now)
            if recorder is not None:
                recorder.add(result.line())
            if meter is not None:
                meter.advance(1, noted=len(first_seen))
    finally:
        if recorder is not None:
            recorder.close()
        if meter is not None:
            meter.close()
    return _merge(ruleset, space, count, done, resumed, first_seen, time.perf_counter() - start,
                  execution.worker_count)


def _merge(ruleset: Ruleset, space: str, count: int, done: Mapping[int, ShardResult], resumed: int,
           first_seen: dict[str, float], seconds: float, workers: int) -> ExhaustiveResult:
    counts: dict[str, int] = {}
    raw_counts: dict[str, int] = {}
    best: dict[str, tuple[bool, int, int]] = {}  # fingerprint -> (hidden, shard, position): smallest wins
    for index in sorted(done):
        result = done[index]
        for fingerprint, (scenes, raw) in result.counts.items():
            counts[fingerprint] = counts.get(fingerprint, 0) + scenes
            raw_counts[fingerprint] = raw_counts.get(fingerprint, 0) + raw
            position, visible = result.first[fingerprint]
            key = (not visible, index, position)
            if fingerprint not in best or key < best[fingerprint]:
                best[fingerprint] = key
    examples: dict[str, Finding] = {}
    for fingerprint in sorted(best):
        _, index, position = best[fingerprint]
        example = done[index].examples.get(fingerprint) or example_at(
            ruleset, Shard(ruleset.key, space, index, count), position, fingerprint)
        if example is None:
            raise CaseError(f"the results file says shard {index} shows {fingerprint} at scene {position}, but "
                            "that scene does not show it now (did the ruleset change?); start a new results file",
                            Location(None, None, None, "--results"))
        examples[fingerprint] = example
    for fingerprint in counts:
        first_seen.setdefault(fingerprint, 0.0)  # found in a resumed shard
    return ExhaustiveResult(space, dict(sorted(counts.items())), examples, sum(r.scenes for r in done.values()),
                            seconds, workers, sum(r.raw_scenes for r in done.values()),
                            dict(sorted(raw_counts.items())), count, resumed, dict(sorted(first_seen.items())),
                            sum(r.seconds for r in done.values()))


def exhaustive(ruleset: Ruleset, *, space: str | None = None, workers: int | None = None,
               execution: Execution | None = None, shards: int | None = None, results: Path | None = None,
               progress: bool = True) -> ExhaustiveResult:
    """Analyse every scene of one of the ruleset's bounded spaces (its first by default), in
    shards over ``execution`` (every local core by default), resuming from ``results``."""
    from .errors import UnsupportedError, did_you_mean

    ruleset.require(Capability.EXHAUSTIVE, "exhaustive enumeration")
    spaces = list(spaces_of(ruleset))
    space = space or spaces[0]
    if space not in spaces:
        raise UnsupportedError(f"ruleset {ruleset.key!r} has no exhaustive space {space!r}; "
                               f"{did_you_mean(space, spaces)}")
    execution = execution or Execution(workers)
    return run_space(ruleset, space, execution, shards=shards, results=results, progress=progress)
