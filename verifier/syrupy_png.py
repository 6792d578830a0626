"""A syrupy extension that keeps one PNG per case in the top-level ``snapshots/``
folder and compares decoded pixels rather than PNG bytes.

Usage in a test::

    def test_diagram(snapshot, case):
        image = case.ruleset.draw(...)
        assert snapshot(extension_class=diagram_extension(case.ruleset.key, case.id)) == image
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image
from syrupy.extensions.single_file import SingleFileSnapshotExtension
from syrupy.location import PyTestLocation
from syrupy.types import SerializedData, SnapshotIndex

from .pytest_plugin import COMPARED
from .snapshots import DEFAULT_FAILURE_DIR, SnapshotStore, compare_pixels, decode, png_bytes, recorded_digest

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class CaseDiagramExtension(SingleFileSnapshotExtension):
    file_extension = "png"
    snapshot_root: Path = PROJECT_ROOT / "snapshots"
    failure_root: Path = PROJECT_ROOT / DEFAULT_FAILURE_DIR
    ruleset: str = ""
    case_id: str = ""

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(cls.snapshot_root / cls.ruleset)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.dirname(test_location=test_location)

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation, index: SnapshotIndex = 0) -> str:
        return cls.case_id

    @classmethod
    def get_file_basename(cls, *, test_location: PyTestLocation, index: SnapshotIndex) -> str:
        return cls.case_id

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        return Path(snapshot_location).parent == cls.snapshot_root / cls.ruleset

    def owns_snapshot_collection(self, *, filepath: str, test_location: PyTestLocation) -> bool:
        return filepath.endswith(".png") and Path(filepath).parent == self.snapshot_root / self.ruleset

    def serialize(self, data: Any, **kwargs: Any) -> SerializedData:
        COMPARED.append((self.snapshot_root, self.ruleset, self.case_id))  # so the plugin can tell unused ones
        if isinstance(data, Image.Image):
            return png_bytes(data, digest=True)
        return super().serialize(data, **kwargs)

    def matches(self, *, serialized_data: Any, snapshot_data: Any) -> bool:
        try:
            recorded = recorded_digest(snapshot_data)
            if recorded is not None and recorded == recorded_digest(serialized_data):
                return True
            return compare_pixels(decode(snapshot_data), decode(serialized_data)).same
        except Exception:
            return False

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        store = SnapshotStore(self.snapshot_root, self.failure_root)
        actual = decode(serialized_data)
        try:
            expected = decode(snapshot_data)
        except Exception as exc:
            yield f"cannot decode the stored snapshot: {exc}"
            expected = None
        diff = compare_pixels(expected, actual) if expected is not None else None
        if diff is not None:
            yield f"diagram of {self.case_id} differs from {store.path_for(self.ruleset, self.case_id)}: {diff.message}"
        for path in store.write_failure(self.ruleset, self.case_id, expected, actual):
            yield f"  wrote {path}"
        yield "run 'pytest --snapshot-update' if the new drawing is right"


def diagram_extension(ruleset: str, case_id: str) -> type[CaseDiagramExtension]:
    """An extension class bound to one case's snapshot file."""
    name = "Diagram_" + "".join(ch if ch.isalnum() else "_" for ch in f"{ruleset}_{case_id}")
    return type(name, (CaseDiagramExtension,), {"ruleset": ruleset, "case_id": case_id})
