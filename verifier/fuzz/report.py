"""The fuzz report: report.json, report.md, and a case file and a diagram per group."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from ..adapter.protocol import as_answered, with_places
from ..case import dump_case, dump_yaml
from ..explore import reading_label
from ..findings import slug
from ..output import json_mark, write_bytes, write_text
from ..ruleset import Outcome, Ruleset
from .compare import departure_clauses, difference
from .reference import outcome_data
from .result import Divergence, DivergenceGroup, FuzzResult, Group, SceneProblem


@dataclass(frozen=True)
class WrittenGroup:
    group: Group
    case_file: Path
    diagram: Path | None  # None where the answer could not be drawn (``undrawn`` says why)
    reference: Outcome
    undrawn: str = ""


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f} %" if whole else "-"


def _case_text(result: FuzzResult, name: str, title: str, note: str, comment: str, before: Any, actions: Any,
               reference: Outcome, theirs: Sequence[tuple[str, Any, Outcome]]) -> str:
    """A case file (status derived) whose expectation is the reference's under the best
    reading; the implementation's answers (label, scene, outcome) follow as comments."""
    ruleset = result.ruleset
    best = result.readings[result.best]
    before_data, actions_data = ruleset.case_data(before, actions)
    clauses = sorted(reference.clauses_used()) or [c.id for c in ruleset.clauses][:1]
    first = ruleset.clause(clauses[0]).source
    pins = {p: o for p, o in best.items() if o != ruleset.default_reading[p]}
    data: dict[str, Any] = {
        "id": name, "title": title, "ruleset": ruleset.key, "status": "derived",
        "source": {"seed": first.seed, "section": first.section, "example": "found by verifier fuzz"},
        "clauses": clauses,
    }
    if pins:
        data["readings"] = pins
    data["note"] = (f"{note} The expectation is the reference's under the reading that explains most scenes "
                    f"({reading_label(best, ruleset.default_reading)}); the implementation ({result.implementation}) "
                    f"answered as in the comments at the end.")
    data["before"] = before_data
    data["actions"] = actions_data
    data["expect"] = ruleset.expect_data(before, reference)
    text = dump_case(data, comment=f"generator: verifier fuzz; {comment}")
    for label, scene, outcome in theirs:
        try:
            answer = dump_yaml({"expect": ruleset.expect_data(scene, outcome)})
        except Exception:  # an outcome the ruleset cannot restate as an expectation
            answer = json.dumps(outcome_data(ruleset, outcome), indent=1) + "\n"
        text += f"# {label}:\n" + "".join(f"# {line}\n" for line in answer.splitlines())
    return text


def _differs(group: Group) -> str:
    return group.fingerprint.rsplit(":", 1)[-1].replace("+", ", ")


def _clear_old(folder: Path) -> None:
    """Remove the case files and diagrams an earlier run wrote here (and only those)."""
    from ..output import refusal
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.suffix in (".yaml", ".png") and path.is_file() and refusal(path, "fuzz finding") is None:
            path.unlink()


def _summary(ruleset: Ruleset, before: Any, outcome: Outcome) -> str:
    """The ruleset's sentence for an outcome; a refusal says what refused it."""
    return str(outcome.refusal) if outcome.refusal is not None else ruleset.summarise(before, outcome)


def _not_reported(outcome: Outcome) -> str:
    return f" ({', '.join(sorted(outcome.unreported))}: not reported)" if outcome.unreported else ""


def _as_drawn(ruleset: Ruleset, before: Any, answer: Outcome, reference: Outcome,
              reading: Mapping[str, str]) -> Outcome:
    """An implementation's answer as its panel draws it: the answer itself (its own tool,
    attempts, areas and events, as read from its JSON), under the reading it is compared
    under, with the places of its events from the reference's."""
    return with_places(replace(answer, reading=answer.reading or reading), reference)


def _reference_panel(ruleset: Ruleset, before: Any, reference: Outcome, answer: Outcome) -> Outcome:
    """The reference as an answer would carry it (``as_answered``), with the parts the answer
    leaves out marked so: drawn from the same footing as the answer, in the same layout."""
    return with_places(replace(as_answered(ruleset, before, reference), unreported=answer.unreported), reference)


def _draw(ruleset: Ruleset, group: Group, labels: tuple[str, str, str], reference: Outcome, title: str) -> Any:
    """Before, the reference and the implementation's answer, in one picture (one frame and
    extent for all three)."""
    actual = _as_drawn(ruleset, group.before, group.actual, reference, group.reading or reference.reading)
    if actual.refusal is not None and actual.after is None:  # a refused answer sends no state: nothing moved
        actual = replace(actual, after=ruleset.unchanged(group.before, group.actions))
    expected = (reference if reference.refusal is not None else
                _reference_panel(ruleset, group.before, reference, group.actual))
    label = labels[2] + _not_reported(group.actual)
    attempts = [(label, actual), (f"{label} (events not drawn: no place known)",
                                  replace(actual, events=tuple(e for e in actual.events if e.at is not None)))]
    for i, (words, outcome) in enumerate(attempts):
        try:
            return ruleset.draw_readings(group.before, group.actions,
                                         [(labels[0], None), (labels[1], expected), (words, outcome)], title=title)
        except Exception:  # an answer the ruleset's drawing cannot place; try with less of it
            if i == len(attempts) - 1:
                raise
    raise AssertionError("unreachable")


def write_groups(result: FuzzResult, out: Path, force: bool = False) -> list[WrittenGroup]:
    """One case file and one diagram per group of disagreements and of scenes another
    reading explains, under ``out/findings``."""

    ruleset = result.ruleset
    best = result.readings[result.best]
    best_label = reading_label(best, ruleset.default_reading)
    _clear_old(out / "findings")
    written = []
    numbered = list(enumerate(result.groups, 1)) + list(enumerate(result.mixed, 1))
    for i, group in numbered:
        reference = ruleset.resolve(group.before, group.actions, best)
        if group.kind == "mixed":
            name = slug(f"{ruleset.key}-fuzz-mixed-{i}-{group.fingerprint}")
            title = f"An implementation follows {group.fingerprint} here, and {best_label} in most scenes"
            note = (f"Minimal scene the implementation answers as the reading {group.fingerprint} does, while it "
                    f"answers most scenes as {best_label} does: it follows different readings in different "
                    "situations.")
            labels = ("before", "reference, best reading", f"implementation (as {group.fingerprint})")
        else:
            situation = re.sub(r"\([^)]*\)", "", group.fingerprint.split(":")[0])  # "hit(_,*)" -> "hit"
            name = slug(f"{ruleset.key}-fuzz-{i}-{situation}-{_differs(group).replace('*', 'each')}")
            title = f"The implementation departs from every reading; its outcome differs in {_differs(group)}"
            note = "Minimal scene where the implementation gives an outcome that no reading of the rule gives."
            labels = ("before", "reference, best reading", "implementation")
        case_file, diagram = out / "findings" / f"{name}.yaml", out / "findings" / f"{name}.png"
        text = _case_text(result, name, title, note, f"{group.kind}, fingerprint {group.fingerprint}", group.before,
                          group.actions, reference, [("The implementation's outcome", group.before, group.actual)])
        write_text(case_file, text, "fuzz case file", force)
        drawn, undrawn = _write_diagram(diagram, partial(_draw, ruleset, group, labels, reference, title), force)
        written.append(WrittenGroup(group, case_file, drawn, reference, undrawn))
    return written


@dataclass(frozen=True)
class WrittenDivergence:
    group: DivergenceGroup
    case_file: Path
    diagram: Path | None
    undrawn: str = ""

    @property
    def divergence(self) -> Divergence:
        return self.group.example


def _stack(images: Sequence[Any]) -> Any:
    from PIL import Image
    gap = 16
    width = max(i.width for i in images)
    height = sum(i.height for i in images) + gap * (len(images) - 1)
    sheet = Image.new("RGB", (width, height), "white")
    y = 0
    for image in images:
        sheet.paste(image, (0, y))
        y += image.height + gap
    return sheet


def write_divergences(result: FuzzResult, out: Path, force: bool = False) -> list[WrittenDivergence]:
    """Per group of order-dependent answers (shrunk) and of changing answers, a case file
    and a diagram of the implementation's two answers."""

    ruleset = result.ruleset
    best = result.readings[result.best]
    written = []
    numbers = {"order": 0, "repeat": 0}
    for group in result.divergence_groups:
        d = group.example
        numbers[d.kind] += 1
        name = slug(f"{ruleset.key}-fuzz-{d.kind}-{numbers[d.kind]}")
        case_file, diagram = out / "findings" / f"{name}.yaml", out / "findings" / f"{name}.png"
        reference = ruleset.resolve(d.before, d.actions, best)
        if d.kind == "order":
            title = f"An implementation's answer depends on the order the pieces are listed in ({d.label})"
            note = f"Listing this scene's pieces in another order ({d.label}) changes the implementation's answer."
            theirs = [("The implementation's outcome, as listed here", d.before, d.first),
                      (f"Its outcome for the same scene after the {d.label} (names as sent)", d.second_before,
                       d.second)]

            def image(d: Divergence = d, reference: Outcome = reference, title: str = title) -> Any:
                top = ruleset.draw_readings(d.before, d.actions, [
                    ("before", None), ("reference, best reading", _reference_panel(ruleset, d.before, reference,
                                                                                   d.first)),
                    ("implementation, as listed" + _not_reported(d.first),
                     _as_drawn(ruleset, d.before, d.first, reference, best))], title=title)
                moved_reference = ruleset.resolve(d.second_before, d.second_actions, best)
                bottom = ruleset.draw_readings(d.second_before, d.second_actions, [
                    ("before, listed in another order", None),
                    ("implementation, listed in another order" + _not_reported(d.second),
                     _as_drawn(ruleset, d.second_before, d.second, moved_reference, best))],
                    title=f"The same scene after the {d.label}")
                return _stack([top, bottom])
        else:
            title = "An implementation answers the same scene differently when it is sent again"
            note = "The implementation was sent this scene twice and answered differently."
            theirs = [("The implementation's first outcome", d.before, d.first),
                      ("Its outcome when the scene was sent again", d.before, d.second)]

            def image(d: Divergence = d, reference: Outcome = reference, title: str = title) -> Any:
                return ruleset.draw_readings(d.before, d.actions, [
                    ("before", None), ("reference, best reading", _reference_panel(ruleset, d.before, reference,
                                                                                   d.first)),
                    ("implementation, first" + _not_reported(d.first),
                     _as_drawn(ruleset, d.before, d.first, reference, best)),
                    ("implementation, again" + _not_reported(d.second),
                     _as_drawn(ruleset, d.before, d.second, reference, best))], title=title)
        text = _case_text(result, name, title, note, f"{d.kind} divergence, fingerprint {group.fingerprint}",
                          d.before, d.actions, reference, theirs)
        write_text(case_file, text, "fuzz case file", force)
        drawn, undrawn = _write_diagram(diagram, image, force)
        written.append(WrittenDivergence(group, case_file, drawn, undrawn))
    return written


def report_json(result: FuzzResult, written: Sequence[WrittenGroup], out: Path,
                divergences: Sequence[WrittenDivergence] = ()) -> dict[str, Any]:
    ruleset = result.ruleset
    default = ruleset.default_reading
    answered = len(result.answered)

    def reading_entry(i: int) -> dict[str, Any]:
        return {"reading": dict(result.readings[i]), "label": reading_label(result.readings[i], default),
                "explained": result.explained[i], "share": _share(result.explained[i], answered)}

    def group_entry(w: WrittenGroup) -> dict[str, Any]:
        g = w.group
        entry: dict[str, Any] = {"fingerprint": g.fingerprint, "points": list(g.points), "clauses": list(
            departure_clauses(ruleset, g.before, g.actions, w.reference, g.actual))} if g.kind != "mixed" else {
            "reading": dict(g.reading or {}), "label": g.fingerprint}
        return {**entry, "count": g.count, "scenes": g.scene_ids, "shrunk_from": g.shrunk_from,
                "boundary_visits": g.boundary_visits, "on_boundary": g.on_boundary or None,
                "decided_at": g.decided_at or None, "merged": g.merged,
                "shrink_tries": g.shrink_tries, "case": str(w.case_file.relative_to(out)),
                **_diagram_entry(w.diagram, w.undrawn, out), "reference": outcome_data(ruleset, w.reference),
                "implementation": outcome_data(ruleset, g.actual),
                "differences": list(difference(ruleset, g.before, g.actions, w.reference, g.actual))}

    def divergence_entry(w: WrittenDivergence) -> dict[str, Any]:
        g, d = w.group, w.divergence
        return {"fingerprint": g.fingerprint, "count": g.count, "scenes": g.scene_ids, "transform": d.label,
                "shrunk_from": g.shrunk_from, "boundary_visits": g.boundary_visits, "shrink_tries": d.shrink_tries,
                "case": str(w.case_file.relative_to(out)), **_diagram_entry(w.diagram, w.undrawn, out),
                "first": outcome_data(ruleset, d.first), "second": outcome_data(ruleset, d.second)}

    problem_counts: dict[str, int] = {}
    for p in result.problems:
        problem_counts[p.kind.value] = problem_counts.get(p.kind.value, 0) + 1
    return {
        "generator": json_mark("fuzz"), "ruleset": ruleset.key, "implementation": result.implementation,
        "seed": result.seed, "examples": result.examples, "budget_seconds": result.budget,
        "scenes": len(result.trials), "answered": answered, "stopped_by_budget": result.stopped_by_budget,
        "given_up": result.given_up or None,
        "readings": {"count": len(result.readings), "best": reading_entry(result.best),
                     "runner_up": reading_entry(result.runner_up) if result.runner_up is not None else None},
        "points": result.points,
        "mixed_readings": {
            "scenes": result.other_reading, "not_shrunk": result.mixed_not_shrunk,
            "groups": [group_entry(w) for w in written if w.group.kind == "mixed"],
        },
        "disagreements": {
            "not_explained_by_best": result.other_reading + result.unexplained,
            "explained_by_another_reading": result.other_reading,
            "explained_by_no_reading": result.unexplained,
            "not_shrunk": result.groups_not_shrunk,
            "groups": [group_entry(w) for w in written if w.group.kind != "mixed"],
        },
        **{kind: {"checked": checked, "differing": sum(d.kind == kind for d in result.divergences),
                  "groups": [divergence_entry(w) for w in divergences if w.divergence.kind == kind]}
           for kind, checked in (("order", result.order_checked), ("repeat", result.repeat_checked))},
        "divergences_not_grouped": result.divergences_not_shrunk,
        "boundaries": {**result.boundaries, "share_asked": result.boundary_share} if result.boundaries else None,
        "problems": {"counts": dict(sorted(problem_counts.items())), "reasons": _reasons(result.problems),
                     "scenes": [{"scene": p.scene, "kind": p.kind.value, "message": p.message}
                                for p in result.problems]},
    }


def _reasons(problems: Sequence[SceneProblem]) -> list[dict[str, Any]]:
    """The problems by kind and message (why scenes were skipped, refused or unreadable),
    the most frequent first."""
    counts: dict[tuple[str, str], int] = {}
    for p in problems:
        counts[(p.kind.value, p.message)] = counts.get((p.kind.value, p.message), 0) + 1
    return [{"kind": kind, "reason": message, "count": n}
            for (kind, message), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def timing(result: FuzzResult) -> dict[str, Any]:
    """Figures that change from run to run, and the number of workers, which must not change
    the rest: kept apart so that the rest of the report is the same for the same seed."""
    groups = [{"fingerprint": g.fingerprint, "first_seen_seconds": round(g.first_seen_seconds, 3),
               "shrink_seconds": round(g.shrink_seconds, 3)} for g in result.groups]
    return {"workers": result.workers, "seconds": round(result.seconds, 3), "implementation_calls": result.impl_calls,
            "implementation_seconds": round(result.impl_seconds, 3),
            "scenes_per_second": round(len(result.trials) / max(result.seconds, 1e-9), 1),
            "first_finding_seconds": None if result.first_finding_seconds is None
            else round(result.first_finding_seconds, 3), "groups": groups}


def verdict(result: FuzzResult) -> str:
    answered = len(result.answered)
    if not answered:
        return f"{result.compared_nothing} Nothing can be said about the reading it follows."
    best = result.explained[result.best]
    label = reading_label(result.readings[result.best], result.ruleset.default_reading)
    if best * 2 < answered:
        return (f"No reading explains this implementation: the best full reading ({label}) gives its answer in "
                f"only {best} of {answered} scenes ({_percent(best, answered)}).")
    return f"The implementation follows {label}: it explains {best} of {answered} scenes ({_percent(best, answered)})."


def _scene_yaml(ruleset: Ruleset, before: Any, actions: Any) -> list[str]:
    before_data, actions_data = ruleset.case_data(before, actions)
    return ["```yaml", dump_yaml({"before": before_data, "actions": actions_data}).rstrip(), "```", ""]


def _write_diagram(path: Path, draw: Callable[[], Any], force: bool) -> tuple[Path | None, str]:
    """The diagram drawn and written to ``path``; where the ruleset cannot draw the answer,
    no diagram and why, so that the finding is reported in words alone."""
    from ..snapshots import png_bytes
    try:
        image = draw()
    except Exception as exc:  # an answer the drawing cannot place must not lose the report
        return None, f"the answer could not be drawn ({type(exc).__name__}: {exc})"
    write_bytes(path, png_bytes(image, software=json_mark("fuzz")), "fuzz diagram", force)
    return path, ""


def _diagram_entry(diagram: Path | None, undrawn: str, out: Path) -> dict[str, Any]:
    return {"diagram": str(diagram.relative_to(out))} if diagram else {"diagram": None, "undrawn": undrawn}


def _picture(alt: str, diagram: Path | None, undrawn: str) -> str:
    return f"![{alt}]({_link(diagram)})" if diagram else f"(No picture: {undrawn}.)"


def _link(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _scene_list(ids: Sequence[str]) -> str:
    return ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")


def report_markdown(result: FuzzResult, data: Mapping[str, Any], written: Sequence[WrittenGroup],
                    divergences: Sequence[WrittenDivergence] = ()) -> str:
    ruleset = result.ruleset
    default = ruleset.default_reading
    best_label = reading_label(result.readings[result.best], default)
    answered = data["answered"]
    lines = [f"# Differential conformance: {ruleset.key} ({ruleset.title})", "",
             f"Implementation: {result.implementation}. Seed {result.seed}; {data['scenes']} generated scenes, "
             f"{answered} answered" + (" (stopped by the time budget)" if result.stopped_by_budget else "") + ".",
             "", f"**{verdict(result)}**", ""]
    if result.declared:
        lines += [f"Its hello declares {result.declared}; only the parts it reports are compared, and its "
                  "reading is inferred from them alone.", ""]
    if result.given_up:
        lines += [f"The run stopped early: {result.given_up}.", ""]
    d = data["disagreements"]
    order, repeat = data["order"], data["repeat"]
    lines += ["In short:", "",
              f"- {d['explained_by_no_reading']} scenes no reading explains, in {_count(len(d['groups']), 'group')};",
              f"- {d['explained_by_another_reading']} scenes explained by another reading than the best, in "
              f"{_count(len(data['mixed_readings']['groups']), 'group')};",
              f"- {order['differing']} answers that changed with the listing order, in "
              f"{_count(len(order['groups']), 'group')}, and {repeat['differing']} that changed when sent again, in "
              f"{_count(len(repeat['groups']), 'group')};",
              f"- {len(result.problems)} timeouts, crashes, malformed answers or refusals.", ""]
    lines += ["## Reading inference", "",
              f"Each scene was resolved by the reference under all {len(result.readings)} full readings; the "
              "implementation was told the default reading.", ""]
    best = data["readings"]["best"]
    lines.append(f"- Best full reading: {best['label']}, explaining {best['explained']} of {answered} scenes "
                 f"({_percent(best['explained'], answered)}).")
    runner = data["readings"]["runner_up"]
    if runner:
        lines.append(f"- Runner-up: {runner['label']}, explaining {runner['explained']} of {answered} scenes "
                     f"({_percent(runner['explained'], answered)}).")
    lines += ["", "Per reading point, around the best reading: the scenes where the point's options give "
              "different outcomes (informative), and the share of them the implementation answers like each "
              "option.", "", "| point | informative | option | matches | share |", "|---|---|---|---|---|"]
    for name, entry in data["points"].items():
        for option, figures in entry["options"].items():
            mark = " (default)" if option == entry["default"] else ""
            share = f"{100 * figures['share']:.1f} %" if figures["share"] is not None else "-"
            lines.append(f"| {name} | {entry['informative']} | {option}{mark} | {figures['matches']} | {share} |")

    mixed = [w for w in written if w.group.kind == "mixed"]
    m = data["mixed_readings"]
    lines += ["", "## Scenes another reading explains", ""]
    if not m["scenes"]:
        lines += [f"None: every scene a reading explains is explained by the best one ({best_label}).", ""]
    else:
        lines += [f"{m['scenes']} scenes are answered as another reading gives them, not as the best one does: "
                  "the implementation follows different readings in different situations. They are grouped by "
                  "the reading nearest the best that explains them (only the points where it departs from the "
                  "best are named)" + (f"; {m['not_shrunk']} scenes in further groups were counted but not shrunk"
                                       if m["not_shrunk"] else "") + ".", ""]
    for i, w in enumerate(mixed, 1):
        g = w.group
        lines += [f"### M{i}. {g.fingerprint} ({g.count} scene{'s' if g.count != 1 else ''})", "",
                  f"Scenes: {_scene_list(g.scene_ids)}. Shrunk from {g.shrunk_from} in {g.shrink_tries} tries "
                  f"while the same reading explains the answer.", "",
                  f"- reference ({best_label}): " + _summary(ruleset, g.before, w.reference),
                  f"- implementation (as {g.fingerprint}): " + _summary(ruleset, g.before, g.actual), "",
                  _picture("the scene before, the reference's outcome and the implementation's", w.diagram, w.undrawn),
                  "",
                  f"Minimal case: [{w.case_file.name}]({_link(w.case_file)})", ""]
        lines += _scene_yaml(ruleset, g.before, g.actions)

    disagreeing = [w for w in written if w.group.kind != "mixed"]
    lines += ["## Disagreements no reading explains", "",
              f"{d['explained_by_no_reading']} scenes get an answer no reading gives. They fall into "
              f"{_count(len(disagreeing), 'group')}"
              + (f"; {d['not_shrunk']} scenes in further groups were counted but not shrunk" if d["not_shrunk"]
                 else "") + ". A group's fingerprint reads `situation:parts`: where the two outcomes first differ (the "
              "first event the differing piece `*` takes part in, such as `hit(_,*)` for the second of its pieces, "
              "or the earliest event one outcome has and the other lacks), and the parts of the outcome that "
              "differ, compared with the ruleset's tolerance. Scenes are grouped by the fingerprint of their "
              "minimal scene.", ""]
    for i, (w, entry) in enumerate(zip(disagreeing, d["groups"]), 1):
        g = w.group
        lines += [f"### {i}. `{g.fingerprint}` ({g.count} scene{'s' if g.count != 1 else ''})", "",
                  f"Scenes: {_scene_list(g.scene_ids)}. Shrunk from {g.shrunk_from} in {g.shrink_tries} tries."
                  + (f" Where the outcomes first differ, the reference applies {', '.join(entry['clauses'])}."
                     if entry["clauses"] else "")
                  + (f" Reading points whose options change what differs: {', '.join(g.points)}." if g.points
                     else ""), "",
                  f"- reference ({best_label}): " + _summary(ruleset, g.before, w.reference),
                  "- implementation: " + _summary(ruleset, g.before, g.actual)]
        lines += [f"- {message}" for message in entry["differences"][:6]]
        lines += ["", _picture("the scene before, the reference's outcome and the implementation's", w.diagram,
                               w.undrawn),
                  "", f"Minimal case: [{w.case_file.name}]({_link(w.case_file)})", ""]
        lines += _scene_yaml(ruleset, g.before, g.actions)

    order_line = (f"- {order['checked']} scenes were sent again with their pieces listed in another order: "
                  f"{order['differing']} answers changed beyond the renaming, in "
                  f"{_count(len(order['groups']), 'group')}."
                  if order["checked"] else
                  f"- Order dependence was not checked: ruleset {ruleset.key!r} defines no reordering of its scenes "
                  "(Ruleset.transforms of kind order).")
    lines += ["## Order dependence and non-determinism", "", order_line,
              f"- {repeat['checked']} scenes were sent twice unchanged: {repeat['differing']} answers changed, in "
              f"{_count(len(repeat['groups']), 'group')}.", ""]
    if divergences:
        lines += ["An order group's fingerprint is the reordering and how each of the two answers departs from "
                  "the best reading (`reading P=O` where another reading gives it); a changing answer's is where "
                  "its two answers differ. An order group's example is shrunk while the reordering still changes "
                  "the answer; a changing answer is shown as first seen." +
                  (f" {data['divergences_not_grouped']} further answers were counted but not grouped."
                   if data["divergences_not_grouped"] else ""), ""]
    for i, wd in enumerate(divergences, 1):
        dg, dv = wd.group, wd.divergence
        what = "listing order" if dv.kind == "order" else "sent again"
        how = (f"shrunk from {dg.shrunk_from} in {dv.shrink_tries} tries" if dv.kind == "order"
               else f"from {dg.shrunk_from}")
        lines += [f"### D{i}. {what}: `{dg.fingerprint}` ({dg.count} scene{'s' if dg.count != 1 else ''})", "",
                  f"Scenes: {_scene_list(dg.scene_ids)}. Example {how}: "
                  f"[{wd.case_file.name}]({_link(wd.case_file)}).", "",
                  "- first answer: " + _summary(ruleset, dv.before, dv.first),
                  ("- listed in another order: " if dv.kind == "order" else "- sent again: ")
                  + _summary(ruleset, dv.second_before, dv.second), "",
                  _picture("the implementation's two answers", wd.diagram, wd.undrawn), ""]
        lines += _scene_yaml(ruleset, dv.before, dv.actions)
    lines += _boundary_lines(result, data)
    problems = data["problems"]
    lines += ["## Timeouts, crashes and malformed answers", ""]
    if not result.problems:
        lines += ["None.", ""]
    else:
        lines += [", ".join(f"{n} {k}" for k, n in problems["counts"].items()) + ". By reason:", "",
                  "| kind | reason | scenes |", "|---|---|---|"]
        lines += [f"| {r['kind']} | {r['reason'].replace('|', '/')[:200]} | {r['count']} |"
                  for r in problems["reasons"]]
        lines += ["", "| scene | kind | message |", "|---|---|---|"]
        for p in result.problems[:50]:
            lines.append(f"| {p.scene} | {p.kind} | {p.message.replace('|', '/')[:200]} |")
        if len(result.problems) > 50:
            lines.append(f"| ... | | {len(result.problems) - 50} more in report.json |")
        lines.append("")
    t = timing(result)
    lines += ["## Timing", "", f"{len(result.trials)} scenes in {t['seconds']} s ({t['scenes_per_second']} scenes/s), "
              f"{t['implementation_calls']} calls to the implementation ({t['implementation_seconds']} s in it); "
              f"the reference ran on {result.workers} worker{'s' if result.workers != 1 else ''}.", ""]
    return "\n".join(lines)


def _boundary_lines(result: FuzzResult, data: Mapping[str, Any]) -> list[str]:
    """The boundaries section: how often each boundary was visited, and which groups came from them."""
    from ..kit.boundary import boundaries_text

    if not result.boundaries:
        return []
    lines = ["## Boundaries", "", f"A share of {result.boundary_share:.0%} of the scenes was asked to be moved onto "
             f"the ruleset's boundaries (its contacts, ties and limits). " + boundaries_text(result.boundaries), ""]
    entries = [(f"M{i}", e) for i, e in enumerate(data["mixed_readings"]["groups"], 1)] + \
        [(str(i), e) for i, e in enumerate(data["disagreements"]["groups"], 1)] + \
        [(f"D{i}", e) for i, e in enumerate(data["order"]["groups"] + data["repeat"]["groups"], 1)]
    from_boundaries = [(name, e) for name, e in entries if e["boundary_visits"]]
    if not from_boundaries:
        return lines + ["No group has a scene built on a boundary.", ""]
    lines += ["Groups with scenes built on a boundary (decided by: the boundary across which the minimal scene's "
              "answer changes, with the groups found elsewhere on it merged in):", "",
              "| group | scenes | on boundaries | minimal scene on | decided by |", "|---|---|---|---|---|"]
    for name, e in from_boundaries:
        visits = ", ".join(f"{k}: {n}" for k, n in e["boundary_visits"].items())
        decided = e.get("decided_at") or "-"
        if e.get("merged"):
            decided += f" (merged: {'; '.join(e['merged'])})"
        lines.append(f"| {name} | {e['count']} | {visits} | {e.get('on_boundary') or '-'} | {decided} |")
    return lines + [""]


class WrittenReport(NamedTuple):
    json_path: Path
    md_path: Path
    data: dict[str, Any]  # report.json without its timing
    results: list[Any]  # the findings as case results (``case_results``), for --github and --junit


def write_report(result: FuzzResult, out: Path, force: bool = False) -> WrittenReport:
    written = write_groups(result, out, force)
    divergences = write_divergences(result, out, force)
    data = report_json(result, written, out, divergences)
    markdown = report_markdown(result, data, written, divergences)
    json_path, md_path = out / "report.json", out / "report.md"
    write_text(json_path, json.dumps({**data, "timing": timing(result)}, indent=2) + "\n", "fuzz report", force)
    write_text(md_path, f"<!-- generator: verifier fuzz -->\n{markdown}", "fuzz report", force)
    return WrittenReport(json_path, md_path, data, case_results(result, written, divergences, md_path))


# --- CI: the findings as case results, for the --github and --junit writers check uses ----------

def _loaded(case_file: Path) -> Any:
    """The case a finding was written as, so that annotations point into it; None where it
    cannot be read back (the finding is still reported, against the file)."""
    from ..case import load_case
    try:
        return load_case(case_file)
    except Exception:  # a case file the loader refuses must not lose the finding
        return None


def case_results(result: FuzzResult, written: Sequence[WrittenGroup], divergences: Sequence[WrittenDivergence],
                 report_file: Path) -> list[Any]:
    """One ``CaseResult`` per group, as ``check`` reports a case: a disagreement, an order
    dependence or a changing answer fails, against its case file (at its expectation); a
    group of scenes another reading explains passes with a notice naming the reading; a
    run that compared nothing or stopped early errors against ``report_file``."""
    from ..errors import Location
    from ..runner import CaseResult, Problem, Status
    from ..runner import ProblemKind as CaseProblem

    ruleset = result.ruleset
    best = reading_label(result.readings[result.best], ruleset.default_reading)
    found: list[CaseResult] = []

    def at(case: Any, file: Path) -> Location:
        return case.where(("expect",)) if case is not None else Location(str(file), None, None, None)

    def extra(case: Any, file: Path, diagram: Path | None, words: str) -> list[Problem]:
        notes = [Problem(words, at(case, file), CaseProblem.DETAIL)]
        if diagram is not None:
            notes.append(Problem(f"diagram: {diagram}", at(case, file), CaseProblem.ARTIFACTS))
        return notes

    for w in written:
        g = w.group
        case = _loaded(w.case_file)
        scenes = f"{g.count} scene{'s' if g.count != 1 else ''} ({_scene_list(g.scene_ids)})"
        if g.kind == "mixed":
            found.append(CaseResult(str(w.case_file), case, Status.PASSED, compared_under=(
                f"answered as the reading {g.fingerprint} gives it in {scenes}, while {best} explains most "
                "scenes")))
            continue
        words = difference(ruleset, g.before, g.actions, w.reference, g.actual) or (
            f"the outcome differs in {_differs(g)}",)
        shown = "; ".join(words[:6]) + (f"; and {len(words) - 6} more" if len(words) > 6 else "")
        problem = Problem(f"no reading gives the implementation's answer: {shown}", at(case, w.case_file),
                          CaseProblem.MISMATCH, g.fingerprint)
        found.append(CaseResult(str(w.case_file), case, Status.FAILED, (
            problem, *extra(case, w.case_file, w.diagram, f"fingerprint {g.fingerprint}; {scenes}"))))
    for wd in divergences:
        dg, dv = wd.group, wd.divergence
        case = _loaded(wd.case_file)
        what = (f"the answer changes when the pieces are listed in another order ({dv.label})" if dv.kind == "order"
                else "the answer changes when the same scene is sent again")
        scenes = f"{dg.count} scene{'s' if dg.count != 1 else ''} ({_scene_list(dg.scene_ids)})"
        found.append(CaseResult(str(wd.case_file), case, Status.FAILED, (
            Problem(f"{what}: {dg.fingerprint}", at(case, wd.case_file), CaseProblem.MISMATCH, dg.fingerprint),
            *extra(case, wd.case_file, wd.diagram, scenes))))
    stopped = result.compared_nothing or (f"the run stopped early: {result.given_up}" if result.given_up else "")
    if stopped:
        found.append(CaseResult(str(report_file), None, Status.ERRORED, (
            Problem(stopped, Location(str(report_file), None, None, None), CaseProblem.PROTOCOL),), reason=stopped))
    elif not any(r.failing for r in found):
        found.append(CaseResult(str(report_file), None, Status.PASSED))
    return found
