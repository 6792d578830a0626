"""Every bundled case: the reference resolver gives the expected outcome, and
together the cases exercise every clause of every ruleset."""

from __future__ import annotations

import pytest
from conftest import CASES, case_files, case_param

from verifier import registry
from verifier.case import collect, dump_case, load_case, load_case_text, write_case
from verifier.runner import RunOptions, check_case


@pytest.mark.parametrize("path", [case_param(p) for p in case_files()])
def test_case_resolves_as_documented(path):
    case = load_case(path)
    result = check_case(case, RunOptions(draw=False))
    assert result.status == "passed", "\n".join(str(p) for p in result.problems)


@pytest.mark.parametrize("key", registry.names())
def test_every_clause_is_exercised_by_some_case(key):
    ruleset = registry.get(key)
    used = set()
    for path in case_files():
        case = load_case(path)
        if case.ruleset is ruleset:
            used |= ruleset.resolve(case.before, case.actions, case.readings).clauses_used()
    missing = [c for c in ruleset.clause_ids if c not in used]
    assert not missing, f"no case applies these {key} clauses: {missing}"


@pytest.mark.parametrize("key", registry.names())
def test_every_reading_option_is_pinned_by_some_case(key):
    ruleset = registry.get(key)
    pinned = set()
    for path in case_files():
        case = load_case(path)
        if case.ruleset is ruleset:
            pinned |= {(k, v) for k, v in case.readings.items()}
    missing = [(p.name, o) for p in ruleset.reading_points for o in p.options if (p.name, o) not in pinned]
    assert not missing, f"no case runs under these readings: {missing}"


def test_case_ids_are_unique_and_prefixed():
    ids = {}
    for path in case_files():
        case = load_case(path)
        assert case.id.startswith(case.ruleset.key + "-"), path
        assert case.id not in ids, f"{path} reuses the id of {ids.get(case.id)}"
        ids[case.id] = path


# --- the one writer of case files: what it writes loads back to the same values ----------------------

@pytest.mark.parametrize("key", registry.names())
def test_every_bundled_case_written_again_loads_to_the_same_values(key, tmp_path):
    """load -> dump_case -> load, for every bundled case of the ruleset: the file's own fields,
    and the scene restated by the ruleset (case_data), both give the same values."""
    ruleset = registry.get(key)
    cases = [load_case(path) for path in case_files() if path.parent.name == key]
    assert cases
    for case in cases:
        written = write_case(tmp_path / f"{case.id}.yaml", case.doc.data, comment=f"written again from {case.path}")
        again = load_case(written)
        assert (again.id, again.readings, again.clauses, again.status) == (case.id, case.readings, case.clauses,
                                                                          case.status)
        assert (again.before, again.actions, again.expect, again.outcomes) == \
            (case.before, case.actions, case.expect, case.outcomes), case.path
        before, actions = ruleset.case_data(case.before, case.actions)
        restated = load_case_text(dump_case({**case.doc.data, "before": before, "actions": actions}), case.path)
        assert (restated.before, restated.actions, restated.expect) == (case.before, case.actions, case.expect)


def test_dump_case_writes_the_fields_in_the_usual_order_under_its_comment():
    text = dump_case({"actions": [], "id": "x", "title": "T", "ruleset": "ypp"}, comment="made by a test\nline two")
    assert text.splitlines()[:4] == ["# made by a test", "# line two", "id: x", "title: T"]
    assert text.index("ruleset:") < text.index("actions:")


def test_dump_case_refuses_a_field_no_case_file_has():
    with pytest.raises(ValueError, match="a case file has no field 'colour'"):
        dump_case({"id": "x", "colour": "blue"})


def test_write_case_never_overwrites(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("kept\n")
    with pytest.raises(FileExistsError):
        write_case(path, {"id": "x"})
    assert path.read_text() == "kept\n"


# --- the one collector --------------------------------------------------------------------------------

BUMP = CASES / "ypp" / "move-1b-equal-class-bump.yaml"
REPEATED = "case id 'ypp-move-1b-equal-class-bump' is already used by {first}; ids name snapshots and must be unique"


def _two_with_one_id(tmp_path):
    folder = tmp_path / "cases"
    folder.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (folder / name).write_text(BUMP.read_text())
    (folder / "c.yaml").write_text("ruleset: ypp\n")
    return folder


def test_collect_gives_a_case_or_a_located_failure_per_file_in_file_order(tmp_path):
    folder = _two_with_one_id(tmp_path)
    collection = collect([folder])
    assert [type(e).__name__ for e in collection.entries] == ["Case", "LoadFailure", "LoadFailure"]
    repeated, broken = collection.failures
    assert repeated.file == str(folder / "b.yaml")
    assert [e.message for e in repeated.errors] == [REPEATED.format(first=folder / "a.yaml")]
    assert repeated.errors[0].location.line == 1
    assert broken.file == str(folder / "c.yaml") and broken.errors
    assert [c.id for c in collection.cases] == ["ypp-move-1b-equal-class-bump"]


def test_every_caller_words_a_repeated_id_alike(tmp_path):
    """check (in process and on workers, collected first or each file checked as it is loaded), check --impl,
    export and the docs all word a repeated id as collect() does."""
    from verifier.adapter import check_implementation, open_implementation
    from verifier.errors import CaseErrors
    from verifier.execute import Execution
    from verifier.export import export_cases
    from verifier.runner import check_files, check_paths
    folder = _two_with_one_id(tmp_path)
    expected = REPEATED.format(first=folder / "a.yaml")
    for execution in (Execution(1), Execution(2)):
        for check in (check_paths, check_files):
            results = list(check([folder], RunOptions(draw=False), execution))
            assert [r.status for r in results] == ["passed", "failed", "failed"]
            assert results[1].problems[0].message == expected
            assert results[0].case is not None and results[1].case is None
    impl = open_implementation("python:verifier.adapters.reference:handle")
    assert check_implementation([folder], impl, draw=False)[1].problems[0].message == expected
    with pytest.raises(CaseErrors) as raised:
        export_cases([folder])
    assert expected in [e.message for e in raised.value.errors]


def test_collect_names_a_path_that_does_not_exist(tmp_path):
    from verifier.errors import CaseError
    with pytest.raises(CaseError, match="no such file or folder"):
        collect([tmp_path / "nowhere"])
