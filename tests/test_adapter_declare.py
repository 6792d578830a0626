"""What an implementation declares in its hello (the outcome parts it reports, the
readings it follows), per-round states, the listing-order check, failure pictures,
known-failure fingerprints and the order of GitHub annotations, each shown with a toy
adapter from tests/impls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CASES, ROOT
from PIL import Image, ImageChops

from verifier.adapter import InProcessImplementation, case_request, check_implementation
from verifier.adapter.declare import Declaration, read_capabilities
from verifier.case import load_case
from verifier.cli import main
from verifier.known_failures import load_known_failures
from verifier.report import annotations_markdown, comparison_notes, github_annotations
from verifier.runner import ProblemKind, Status

pytest_plugins = ["pytester"]

IMPLS = Path(__file__).parent / "impls"
YPP = CASES / "ypp"


@pytest.fixture(autouse=True)
def toys(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(IMPLS))
    monkeypatch.delenv("VERIFIER_TOY_EAST", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def through(spec, paths=(YPP,), **options):
    impl = InProcessImplementation(f"python:{spec}:handle", 10.0)
    return {r.id: r for r in check_implementation(list(paths), impl, **options)}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- what the hello declares ---------------------------------------------------------

def test_a_positions_only_implementation_is_compared_on_positions_and_told_so(capsys):
    results = through("positions_only")
    assert {r.status for r in results.values()} == {Status.PASSED}
    bump = results["ypp-move-1b-equal-class-bump"]  # expects a bump and a push, which are not reported
    assert load_case(YPP / "move-1b-equal-class-bump.yaml").expect.events
    assert bump.not_compared == ("events", "damage", "states")
    notes = comparison_notes(list(results.values()))
    assert f"not compared: events, in {len(results)} of {len(results)} compared cases" in notes[0]


RAM = sorted(YPP.glob("ram-*.yaml"))


@pytest.mark.parametrize("mode, status", [("none", Status.PASSED), ("double", Status.FAILED),
                                          ("totals-only", Status.ERRORED)])
def test_ram_damage_is_compared_only_in_answers_that_carry_it(monkeypatch, mode, status):
    # An implementation written before damage was in the protocol still passes the cases
    # that expect damage, and is told that damage was not compared; one that reports it is
    # held to it; totals that are not the events' sums are a malformed answer.
    monkeypatch.setenv("VERIFIER_TOY_DAMAGE", mode)
    assert RAM and all(load_case(path).expect.damage for path in RAM)
    results = through("ram_damage", RAM)
    assert {r.status for r in results.values()} == {status}
    for result in results.values():
        if mode == "none":
            assert "damage" in result.not_compared
        elif mode == "double":
            assert "damage" not in result.not_compared
            assert any(p.location.field.startswith("expect.damage") for p in result.problems
                       if p.kind is ProblemKind.MISMATCH)
        else:
            assert "but its events' damage sums to 0" in result.problems[0].message


def test_positions_that_differ_still_fail_and_only_on_positions(monkeypatch, tmp_path):
    monkeypatch.setenv("VERIFIER_TOY_EAST", "1")
    result = through("positions_only", [YPP / "move-1b-equal-class-bump.yaml"], failures=tmp_path)[
        "ypp-move-1b-equal-class-bump"]
    assert result.status == Status.FAILED
    mismatches = [p for p in result.problems if p.kind is ProblemKind.MISMATCH]
    assert mismatches and all(p.location.field.startswith("expect.ships") for p in mismatches)
    details = [p.message for p in result.problems if p.kind is ProblemKind.DETAIL]
    assert "provenance of Haughty Sawfish: reference r1 token.forward, r1 move.1b, r1 bump.2, r1 ram.1; " \
           "implementation not reported" in details


def test_failure_pictures_line_up_and_the_diff_marks_only_the_ships(monkeypatch, tmp_path):
    monkeypatch.setenv("VERIFIER_TOY_EAST", "1")
    through("positions_only", [YPP / "move-1b-equal-class-bump.yaml"], failures=tmp_path)
    folder = tmp_path / "impl" / "ypp"
    expected = Image.open(folder / "ypp-move-1b-equal-class-bump.expected.png").convert("RGB")
    actual = Image.open(folder / "ypp-move-1b-equal-class-bump.actual.png").convert("RGB")
    assert expected.size == actual.size
    left, top, right, bottom = ImageChops.difference(expected, actual).getbbox()
    # Title, reading line, the "before" panel and the legend are the same: only the "after" board differs.
    width = expected.width
    assert top > 80 and left > width * 0.3 and right < width * 0.65, (left, top, right, bottom)


def test_the_picture_of_unreported_events_says_so_instead_of_nothing(monkeypatch):
    from dataclasses import replace

    from verifier.rulesets.ypp import draw
    case = load_case(YPP / "move-2a-no-collision.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    assert not outcome.events
    texts = []
    real = draw.vd.LegendEntry
    monkeypatch.setattr(draw.vd, "LegendEntry", lambda *a, **k: texts.append(a[1:]) or real(*a, **k))
    case.ruleset.draw(case.before, case.actions, outcome)
    assert ("nothing: no collisions, bumps or stops",) in texts
    texts.clear()
    case.ruleset.draw(case.before, case.actions, replace(outcome, unreported=frozenset({"events"})))
    assert not any("nothing" in t[0] for t in texts)
    assert ("not compared:", "the implementation does not report collisions, bumps or stops, so none are drawn") \
        in texts


def test_requests_name_the_reading_points_the_outcome_depends_on():
    # bump decides where the ships go; ram_value and ram_unit, what the collision costs.
    assert case_request(load_case(YPP / "bump-4-larger-turner-class-first.yaml"))["depends_on"] == [
        "bump", "ram_value", "ram_unit"]
    assert case_request(load_case(YPP / "move-1a-forward.yaml"))["depends_on"] == []


def test_another_reading_is_compared_under_that_reading_or_skipped_where_the_case_pins_it():
    results = through("positions_motion_first")
    counts = {s: sum(r.status == s for r in results.values()) for s in Status}
    assert counts[Status.FAILED] == counts[Status.ERRORED] == 0
    under = {i for i, r in results.items() if r.compared_under}
    assert "ypp-bump-4-larger-turner-class-first" in under  # unpinned, but its outcome hangs on bump
    assert all("bump=motion-first" in results[i].compared_under for i in under)
    skipped = {i: r.reason for i, r in results.items() if r.status == Status.SKIPPED}
    assert skipped["ypp-chain-forward-blocked"] == (
        "the case pins vacate=blocked, which its outcome depends on; the implementation follows vacate=follow")
    # bump=turn-first is pinned here, but under motion-first only the events differ, which
    # this implementation does not report: compared, not skipped.
    assert results["ypp-bump-1-larger-turner-turn-first"].status == Status.PASSED
    # Every skip is a pinned reading the implementation does not follow; nothing comparable is skipped.
    for case_id in skipped:
        case = load_case(next(p for p in YPP.glob("*.yaml") if load_case(p).id == case_id))
        assert case.pinned and all(case.readings[p] != case.ruleset.default_reading[p] or p == "bump"
                                   for p in case.pinned)
    # bump=motion-first, the case's own pin, is the implementation's reading: compared with its expectation.
    assert results["ypp-bump-2-motion-first-larger-forward"].status == Status.PASSED
    assert not results["ypp-bump-2-motion-first-larger-forward"].compared_under


def test_without_a_declaration_the_same_answers_fail_as_before(tmp_path, monkeypatch):
    """The same toy with its declaration taken out: every part compared (optional parts, such as
    damage, where the answer carries them), every reading as requested."""
    module = tmp_path / "undeclared_toy.py"
    module.write_text("from positions_motion_first import handle as toy\n\n"
                      "def handle(message):\n"
                      "    answer = toy(message)\n"
                      "    if answer.get('type') == 'hello':\n"
                      "        answer = {k: v for k, v in answer.items() if k != 'capabilities'}\n"
                      "    return answer\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    results = through("undeclared_toy")
    failed = {i for i, r in results.items() if r.status == Status.FAILED}
    assert len(failed) == 47 and not any(r.compared_under for r in results.values())
    assert {r.not_compared for r in results.values()} == {("damage", "states")}  # optional, and absent


@pytest.mark.parametrize(("declared", "words"), [
    ({"ypp": {"follows": {"bump": "sideways"}}}, "capabilities.ypp.follows.bump: no option 'sideways'"),
    ({"ypp": {"reports": ["events"]}}, "capabilities.ypp.reports: every ypp answer reports ships"),
    ({"ypp": {"reports": ["ships", "hull"]}}, "capabilities.ypp.reports: ypp has no outcome part 'hull'"),
    ({"yp": {"reports": ["ships"]}}, "capabilities.yp: there is no ruleset 'yp'"),
])
def test_a_declaration_that_cannot_be_used_is_named(declared, words):
    found, problem = read_capabilities({"type": "hello", "capabilities": declared})
    assert found == {} and problem is not None and problem.startswith(words), problem


def test_a_declaration_reads_unlisted_points_at_their_defaults_and_as_requested_as_asked():
    from verifier import registry
    ypp = registry.get("ypp")
    asked = ypp.reading({"vacate": "blocked", "push_blocked": "literal"})
    reading = Declaration(follows={"bump": "turn-first", "vacate": "as-requested"}).reading(ypp, asked)
    assert dict(reading) == {**ypp.default_reading, "bump": "turn-first", "vacate": "blocked"}
    assert Declaration().reading(ypp, asked) == asked


# --- states ---------------------------------------------------------------------------

def test_reported_states_name_the_first_round_that_differs_and_the_clauses_applied_there():
    results = through("round_states")
    failed = {i: r for i, r in results.items() if r.status == Status.FAILED}
    assert set(failed) == {"ypp-turn-four-rounds", "ypp-whirl-four-rounds-return", "ypp-ram-sums-over-rounds",
                           "ypp-wind-versus-whirl-ii-four-rounds"}
    states = [p for p in failed["ypp-turn-four-rounds"].problems if "states first differ" in p.message]
    assert len(states) == 1
    message = states[0].message
    assert message.startswith("the states first differ at r2 move step 1: Haughty Sawfish.at is [2, 3], "
                              "the reference has [1, 3]")
    assert "The reference applied in round 2: Haughty Sawfish: token.turn, move.1a" in message
    assert states[0].key.startswith("states r2 move step 1: ")


def test_the_reference_adapter_reports_states_and_they_agree_everywhere():
    impl = InProcessImplementation("python:verifier.adapters.reference:handle", 10.0)
    results = check_implementation([YPP], impl, draw=False)
    assert {r.status for r in results} == {Status.PASSED}


# --- listing order ----------------------------------------------------------------------

def test_check_order_flags_an_answer_that_depends_on_listing_order():
    plain = through("fuzz_listing_order", draw=False)
    checked = through("fuzz_listing_order", draw=False, check_order=True)
    flagged = {i for i, r in checked.items()
               if any("depends on the order the pieces are listed in" in p.message for p in r.problems)}
    assert flagged
    assert any(plain[i].status == Status.PASSED for i in flagged)  # right in one order, wrong in the other
    reference = through("positions_only", draw=False, check_order=True)
    assert {r.status for r in reference.values()} == {Status.PASSED}


# --- known failures with fingerprints ------------------------------------------------------

def test_a_written_known_failure_list_holds_until_the_implementation_regresses(capsys, monkeypatch, tmp_path):
    listed = tmp_path / "known.txt"
    code, out, _ = run(capsys, "check", YPP, "--impl", "python:regressing:handle", "--no-draw", "--no-table",
                       "--write-known-failures", listed)
    assert code == 1
    known = load_known_failures(listed)
    assert len(known.reasons) == 7 and f"wrote {listed}: 7 known failures" in out
    assert known.differs["ypp-move-1b-larger-class-push"] == (
        "ships.Haughty Sawfish.at = [2, 4]", "states r1 move step 1: Haughty Sawfish.at = [2, 4]")

    code, out, _ = run(capsys, "check", YPP, "--impl", "python:regressing:handle", "--no-draw", "--no-table",
                       "--known-failures", listed)
    assert code == 0 and out.splitlines()[-1] == "49 passed, 0 failed, 7 xfailed"

    monkeypatch.setenv("VERIFIER_TOY_EAST", "1")  # every ship one tile further east
    code, out, _ = run(capsys, "check", YPP, "--impl", "python:regressing:handle", "--no-draw", "--no-table",
                       "--known-failures", listed)
    assert code == 1
    assert out.splitlines()[-1] == "0 passed, 56 failed"
    line = known.lines["ypp-move-1b-larger-class-push"]
    assert (f"fails differently from the way line {line} of {listed} records: now also differs at: "
            "ships.Haughty Sawfish.at = [3, 4]; ships.Self-Centered Blowfish.at = [3, 2]") in out
    assert "no longer differs at: ships.Haughty Sawfish.at = [2, 4]" in out


def test_writing_a_known_failure_list_never_replaces_a_file_the_verifier_did_not_write(capsys, tmp_path):
    mine = tmp_path / "known.txt"
    mine.write_text("ypp-move-1a-forward: my own notes\n")
    code, _, err = run(capsys, "check", YPP / "move-1b-larger-class-push.yaml", "--impl", "python:regressing:handle",
                       "--no-draw", "--write-known-failures", mine)
    assert code == 2 and "was not written by the verifier" in err
    assert mine.read_text() == "ypp-move-1a-forward: my own notes\n"
    code, _, _ = run(capsys, "check", YPP / "move-1b-larger-class-push.yaml", "--impl", "python:regressing:handle",
                     "--no-draw", "--write-known-failures", mine, "--force")
    assert code == 1 and load_known_failures(mine).reasons == {
        "ypp-move-1b-larger-class-push": "Haughty Sawfish should end at [2, 3] but ends at [2, 4]"}
    code, _, _ = run(capsys, "check", YPP / "move-1b-larger-class-push.yaml", "--impl", "python:regressing:handle",
                     "--no-draw", "--write-known-failures", mine)  # its own file: replaced without --force
    assert code == 1


def test_known_failure_lists_old_and_new_forms_read_the_same(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text("ypp-a: first\n# a comment\nypp-b: second\n")
    assert load_known_failures(old).differs == {}
    new = tmp_path / "new.txt"
    new.write_text("ypp-a: first\n  differs: ships.A.at\n  differs: events[0]\nypp-b: second\n")
    assert load_known_failures(new).differs == {"ypp-a": ("events[0]", "ships.A.at")}
    as_json = tmp_path / "new.json"
    as_json.write_text(json.dumps({"ypp-a": {"reason": "first", "differs": ["ships.A.at"]}, "ypp-b": "second"}))
    loaded = load_known_failures(as_json)
    assert loaded.reasons == {"ypp-a": "first", "ypp-b": "second"} and loaded.differs == {"ypp-a": ("ships.A.at",)}
    stray = tmp_path / "stray.txt"
    stray.write_text("  differs: ships.A.at\n")
    with pytest.raises(Exception, match="belongs under a 'CASE-ID: reason' line"):
        load_known_failures(stray)


# --- GitHub annotations --------------------------------------------------------------------

def test_github_annotations_put_real_differences_first_and_say_when_github_hides_some(monkeypatch, tmp_path):
    noted = list(through("positions_motion_first", draw=False).values())  # notices only, all passing
    monkeypatch.setenv("VERIFIER_TOY_EAST", "1")
    results = noted + list(through("regressing", draw=False).values())  # then 56 failing cases
    lines = github_annotations(results, summary_file=str(tmp_path / "summary.md"))
    assert lines[0].startswith("::warning title=more annotations than GitHub shows::")
    assert "the full list is in the step summary" in lines[0]
    kinds = [line.split(" ", 1)[0] for line in lines[1:]]
    assert kinds == sorted(kinds, key=lambda k: k != "::error")  # every error before every notice
    notices = [line for line in lines if line.startswith("::notice")]
    assert any("bump=motion-first" in line for line in notices)
    assert any("events not compared in 49 cases" in line for line in notices)
    assert lines[1].startswith("::error") and "should" in lines[1]
    table = annotations_markdown(results)
    assert table.count("\n| error |") == sum(k == "::error" for k in kinds)


def test_check_writes_every_annotation_to_the_step_summary(capsys, monkeypatch, tmp_path):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, _ = run(capsys, "check", YPP, "--impl", "python:positions_motion_first:handle", "--no-draw",
                       "--github")
    assert code == 0
    assert "  declares ypp: reports ships; follows bump=motion-first (other points: the defaults)" in out
    text = summary.read_text()
    assert "not compared: events, in 49 of 49 compared cases" in text
    assert "#### every annotation" in text and "| notice |" in text
    assert "::notice title=not compared%3A events::" in out


def test_under_pytest_a_known_failure_that_fails_differently_is_not_an_expected_failure(pytester, monkeypatch,
                                                                                        tmp_path):
    monkeypatch.chdir(ROOT)
    listed = tmp_path / "known.txt"
    case = "cases/ypp/move-1b-larger-class-push.yaml"
    listed.write_text("ypp-move-1b-larger-class-push: motion-first\n"
                      "  differs: ships.Haughty Sawfish.at = [2, 4]\n"
                      "  differs: states r1 move step 1: Haughty Sawfish.at = [2, 4]\n")
    args = ("--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), "-p", "no:cacheprovider", case, "-q",
            "--verifier-impl", "python:regressing:handle", "--verifier-no-draw", "--verifier-known-failures", listed)
    done = pytester.runpytest_inprocess(*map(str, args))
    assert done.ret == 0 and "1 xfailed" in done.outlines[-1]
    monkeypatch.setenv("VERIFIER_TOY_EAST", "1")
    done = pytester.runpytest_inprocess(*map(str, args))
    assert done.ret == 1 and "1 failed" in done.outlines[-1]
    assert any("fails differently from the way line 1" in line for line in done.outlines)


def test_states_sent_for_a_ruleset_without_states_are_ignored(tmp_path, monkeypatch):
    module = tmp_path / "extra_states_toy.py"
    module.write_text("from verifier.adapters.reference import handle as reference\n\n"
                      "def handle(message):\n"
                      "    answer = reference(message)\n"
                      "    if answer.get('type') == 'outcome':\n"
                      "        answer['outcome']['states'] = [{'round': 1, 'whatever': True}]\n"
                      "    return answer\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    results = through("extra_states_toy", [CASES / "scatter"], draw=False)
    assert results and {r.status for r in results.values()} <= {Status.PASSED, Status.OPEN}
