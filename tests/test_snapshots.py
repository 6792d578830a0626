"""The snapshot store compares decoded pixels and never overwrites unasked."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT
from PIL import Image

from verifier.snapshots import SnapshotStore, compare_pixels, decode, png_bytes


def image(colour="white", size=(20, 10)):
    return Image.new("RGB", size, colour)


def test_same_pixels_in_different_png_encodings_match(tmp_path):
    store = SnapshotStore(tmp_path / "snaps", tmp_path / "fail")
    path = store.path_for("ypp", "c1")
    path.parent.mkdir(parents=True)
    image().save(path, format="PNG", compress_level=1)  # other bytes, same pixels
    assert path.read_bytes() != png_bytes(image())
    assert store.check("ypp", "c1", image()).status == "match"


def test_missing_snapshot_is_reported_not_written(tmp_path):
    store = SnapshotStore(tmp_path / "snaps", tmp_path / "fail")
    result = store.check("ypp", "c1", image())
    assert result.status == "missing" and not result.ok
    assert not store.path_for("ypp", "c1").exists()
    assert "--update-snapshots" in result.message
    assert result.artifacts[0].exists()


def test_mismatch_writes_expected_actual_diff_and_keeps_snapshot(tmp_path):
    store = SnapshotStore(tmp_path / "snaps", tmp_path / "fail")
    store.check("ypp", "c1", image(), update=True)
    stored = store.path_for("ypp", "c1").read_bytes()
    changed = image()
    changed.putpixel((3, 4), (0, 0, 0))
    result = store.check("ypp", "c1", changed)
    assert result.status == "mismatch"
    assert "1 pixels differ inside box (3, 4, 4, 5)" in result.message
    names = sorted(p.name for p in result.artifacts)
    assert names == ["c1.actual.png", "c1.diff.png", "c1.expected.png"]
    for artifact in result.artifacts:
        assert str(artifact) in result.message
    assert store.path_for("ypp", "c1").read_bytes() == stored
    diff = decode((tmp_path / "fail" / "ypp" / "c1.diff.png").read_bytes())
    assert diff.getpixel((3, 4))[:3] == (230, 0, 180)


def test_update_replaces_only_when_asked(tmp_path):
    store = SnapshotStore(tmp_path / "snaps", tmp_path / "fail")
    store.check("ypp", "c1", image(), update=True)
    result = store.check("ypp", "c1", image("black"), update=True)
    assert result.status == "written"
    assert compare_pixels(decode(store.path_for("ypp", "c1").read_bytes()), image("black")).same


def test_size_change_is_a_mismatch(tmp_path):
    assert "size differs" in compare_pixels(image(), image(size=(21, 10))).message


def test_unused_snapshots_are_listed(tmp_path):
    store = SnapshotStore(tmp_path / "snaps", tmp_path / "fail")
    store.check("ypp", "kept", image(), update=True)
    store.check("ypp", "gone", image(), update=True)
    assert [p.name for p in store.unused({("ypp", "kept")})] == ["gone.png"]


# --- unused snapshots under pytest (the plugin, run in-process with pytester) ----------------------

pytest_plugins = ["pytester"]

CASE = Path(__file__).resolve().parent.parent / "cases" / "ypp" / "move-1a-forward.yaml"


def _project(pytester) -> Path:
    """A project with one case, its snapshot, and a snapshot that no case names."""
    import shutil
    root = pytester.path
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "cases" / "ypp").mkdir(parents=True)
    shutil.copy(CASE, root / "cases" / "ypp" / CASE.name)
    (root / "snapshots" / "ypp").mkdir(parents=True)
    shutil.copy(ROOT / "snapshots" / "ypp" / "ypp-move-1a-forward.png", root / "snapshots" / "ypp")
    shutil.copy(ROOT / "snapshots" / "ypp" / "ypp-move-1a-forward.png", root / "snapshots" / "ypp" / "ypp-gone.png")
    return root


def test_the_plugin_fails_a_run_that_leaves_a_snapshot_no_case_names(pytester):
    root = _project(pytester)
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", "cases")
    gone = root / "snapshots" / "ypp" / "ypp-gone.png"
    assert done.ret == 1
    assert f"verifier: unused snapshot {gone}: no case has this id (run 'pytest --snapshot-update' to delete it)" \
        in done.outlines
    assert gone.exists()


def test_the_plugin_says_nothing_of_snapshots_when_only_some_cases_ran(pytester):
    root = _project(pytester)
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", f"cases/ypp/{CASE.name}")
    assert done.ret == 0 and not any("unused snapshot" in line for line in done.outlines)
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", "cases", "-k", "nothing-matches-this")
    assert not any("unused snapshot" in line for line in done.outlines)
    assert (root / "snapshots" / "ypp" / "ypp-gone.png").exists()


def test_an_update_deletes_unused_snapshots(pytester):
    root = _project(pytester)
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", "cases", "--snapshot-update")
    gone = root / "snapshots" / "ypp" / "ypp-gone.png"
    assert done.ret == 0 and f"verifier: deleted unused snapshot {gone}" in done.outlines
    assert not gone.exists() and (root / "snapshots" / "ypp" / "ypp-move-1a-forward.png").exists()


def test_without_syrupy_the_advice_names_the_plugins_own_option(pytester):
    root = _project(pytester)
    (root / "snapshots" / "ypp" / "ypp-move-1a-forward.png").unlink()
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:syrupy", "cases")
    out = "\n".join(done.outlines)
    assert done.ret == 1
    assert "Run 'pytest --verifier-update-snapshots' to store it" in out
    assert "--snapshot-update" not in out


def test_the_syrupy_extension_reports_its_unused_snapshots_too(pytester):
    root = _project(pytester)
    pytester.makepyfile(test_pictures=f"""
        from pathlib import Path
        from verifier.case import load_case
        from verifier.syrupy_png import diagram_extension

        def test_picture(snapshot):
            case = load_case({str(root / "cases" / "ypp" / CASE.name)!r})
            outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
            image = case.ruleset.draw(case.before, case.actions, outcome, title=case.title)
            extension = diagram_extension(case.ruleset.key, case.id)
            extension.snapshot_root = Path({str(root / "snapshots")!r})
            assert snapshot.use_extension(extension) == image
    """)
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", "test_pictures.py")
    assert done.ret == 1
    assert any(line.startswith("verifier: unused snapshot") and "ypp-gone.png" in line for line in done.outlines)
