"""The snapshot store compares decoded pixels and never overwrites unasked."""

from __future__ import annotations

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
