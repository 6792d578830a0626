"""A ruleset from outside verifier/ works with every command, and the core does not know it.

``discs`` (tests/plugins/verifier_discs) is registered only through entry-point metadata
(tests/plugins/verifier_discs-0.1.dist-info). Each command runs as its own process with
tests/plugins on PYTHONPATH, as it would for a ruleset installed with pip."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import PLUGINS, ROOT

from verifier import registry

CASES = PLUGINS / "cases"
SNAPSHOTS = PLUGINS / "snapshots"


@pytest.fixture
def verifier(plugin_rulesets, tmp_path):
    """Run ``verifier ARGS...`` in a fresh process, in tmp_path, with discs registered."""
    def run(*args: str, code: int = 0) -> str:
        done = subprocess.run([sys.executable, "-m", "verifier.cli", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == code, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout
    return run


def test_the_registry_sees_discs_only_while_it_is_registered(plugin_rulesets):
    assert "discs" in registry.names()
    assert registry.get("discs").key == "discs"


def test_the_registry_does_not_see_discs_otherwise():
    assert "discs" not in registry.names()


def test_the_core_has_no_mention_of_it():
    """Nothing under verifier/, nor the package's own metadata, names the test ruleset."""
    named = re.compile(r"verifier_discs|tests/plugins|[\"']discs[\"']")
    files = [p for p in sorted((ROOT / "verifier").rglob("*")) if p.is_file() and p.suffix != ".pyc"]
    for path in files + [ROOT / "pyproject.toml"]:
        found = named.search(path.read_text(encoding="utf-8", errors="replace"))
        assert found is None, f"{path.relative_to(ROOT)} mentions the test ruleset: {found.group()}"


def test_check_passes_its_cases_against_its_snapshots(verifier, tmp_path):
    out = verifier("check", "--snapshots", str(SNAPSHOTS), "--json", str(tmp_path / "r.json"), str(CASES))
    assert out.strip().splitlines()[-1] == f"{len(list(CASES.rglob('*.yaml')))} passed, 0 failed"
    assert "discs    slide.block" in out
    report = json.loads((tmp_path / "r.json").read_text())
    assert {c["ruleset"] for c in report["cases"]} == {"discs"}
    assert all(c["snapshot"]["status"] == "match" for c in report["cases"])


def test_check_another_implementation_through_the_adapter_protocol(verifier):
    out = verifier("check", "--impl", f"{sys.executable} -m verifier.adapters.reference", "--snapshots",
                   str(SNAPSHOTS), str(CASES))
    assert out.strip().splitlines()[-1] == "4 passed, 0 failed"


def test_check_reports_a_wrong_expectation_with_its_line(verifier, tmp_path):
    text = (CASES / "discs" / "run-into.yaml").read_text().replace("{at: [4, 2]}", "{at: [5, 2]}")
    (tmp_path / "wrong.yaml").write_text(text)
    out = verifier("check", "--no-draw", "wrong.yaml", code=1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "[5, 2]" in row)
    assert f"wrong.yaml:{line}:" in out and "striker should end at [5, 2] but ends at [4, 2]" in out


def test_a_scene_that_cannot_exist_is_a_located_error(verifier, tmp_path):
    text = (CASES / "discs" / "run-into.yaml").read_text().replace("at: [6, 2]", "at: [2.5, 2]")
    (tmp_path / "overlap.yaml").write_text(text)
    out = verifier("check", "--no-draw", "overlap.yaml", code=1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "[2.5, 2]" in row)
    assert f"overlap.yaml:{line}:" in out and "discs 'striker' and 'target' overlap" in out


def test_show_prints_the_provenance(verifier):
    out = verifier("show", str(CASES / "discs" / "brush-past.yaml"))
    assert "reading: touch=passes" in out
    assert "slider: [1, 1] -> [7, 1]" in out and "reading touch=passes" in out
    assert "matches the case's expectation" in out
    out = verifier("show", str(CASES / "discs" / "brush-past.yaml"), "--reading", "touch=stops")
    assert "slider: [1, 1] -> [4, 1]" in out and "slider runs into post" in out
    assert "differs from the case's expectation" in out


def test_render_writes_a_png(verifier, tmp_path):
    out = verifier("render", str(CASES / "discs" / "clash.yaml"), "-o", "clash.png")
    assert out.startswith("wrote clash.png")
    assert (tmp_path / "clash.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_clauses_lists_clauses_readings_and_capabilities(verifier):
    out = verifier("clauses", "discs")
    for clause in ("table.fit", "slide.move", "slide.block", "slide.edge", "turn.clash"):
        assert clause in out
    assert "tests/plugins/README.md, Discs / Sliding" in out
    assert "touch:" in out and "stops (default):" in out and "passes:" in out
    assert "capabilities: benchmarks, exhaustive, findings, interchange, page-notes, scene-text, search" in out
    assert "pairs:" in out


def test_export_gives_its_cases_as_json(verifier):
    data = json.loads(verifier("export", "--format", "json", str(CASES)))
    assert [c["id"] for c in data["cases"]] == sorted(c["id"] for c in data["cases"])
    assert {c["ruleset"] for c in data["cases"]} == {"discs"} and len(data["cases"]) == 4
    assert all(c["checkable"] for c in data["cases"])


def test_explore_writes_its_report_and_findings(verifier, tmp_path):
    out = verifier("explore", "discs", "--budget", "3600", "--max-examples", "50", "--exhaustive", "--out", "ex",
                   "--cases", str(CASES))
    assert "recall of the search" in out
    report = json.loads((tmp_path / "ex" / "report.json").read_text())
    assert report["ruleset"] == "discs"
    kinds = {f["kind"] for f in report["findings"]}
    assert {"gap", "divergence"} <= kinds, kinds  # the touch reading: "runs into" says nothing of brushing
    assert (tmp_path / "ex" / "report.md").read_text().strip()
    for finding in report["findings"]:
        assert (tmp_path / "ex" / finding["diagram"]).is_file()
    # Each finding is a case file that loads and is open.
    out = verifier("check", "--no-draw", "ex/findings")
    assert out.strip().splitlines()[-1].endswith(f"{len(report['findings'])} open")


def test_docs_builds_its_page(verifier, tmp_path):
    out = verifier("docs", "--out", "site", "--cases", str(CASES), "--ruleset", "discs", "--examples", "20",
                   "--findings", "no-findings")
    assert "discs: 5 clauses, 4 cases" in out
    page = (tmp_path / "site" / "discs" / "index.html").read_text()
    assert "slide.block" in page and "How to read the pictures" in page
    assert "discs" in (tmp_path / "site" / "index.html").read_text()


def test_bench_lists_and_runs_its_suite(verifier, tmp_path):
    assert "discs.turn" in verifier("bench", "--list")
    out = verifier("bench", "--suite", "discs.turn", "--quick", "--repeats", "1", "--json", "bench.json")
    assert "one turn of    100 discs" in out
    figures = json.loads((tmp_path / "bench.json").read_text())["suites"]["discs.turn"]
    assert [row["discs"] for row in figures["turns"]] == [100, 1000]


def test_the_shipped_contract_suite_runs_on_it_with_one_command(plugin_rulesets, tmp_path):
    """As another package would run it: pytest with --verifier-contract, nothing of this repository's tests."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--verifier-contract",
                           "discs", "--verifier-contract-cases", str(CASES)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    cases = len(list((CASES / "discs").glob("*.yaml")))
    # Seven tests per case (the drawing one on all four: fewer than its sample), five per ruleset.
    assert done.stdout.strip().splitlines()[-1].startswith(f"{7 * cases + 5} passed"), done.stdout[-2000:]


def test_the_shipped_contract_suite_names_an_unknown_ruleset(plugin_rulesets, tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--verifier-contract",
                           "dics"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "ERROR: --verifier-contract: unknown ruleset 'dics'; did you mean 'discs'?" in done.stderr, done.stderr
