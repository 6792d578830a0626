"""Writing what the commands make, without losing anything that was there.

Every file a command writes (a report, an export, a schema, a picture) carries a
mark of the verifier (``"generator": "verifier ..."`` in JSON, a comment in XML, a
text chunk in PNG), for readers. What decides whether a command may replace a file
is not that mark, which anyone can type into a case file, but the verifier's own
record of what it wrote: the resolved path and SHA-256 of every file written here,
kept outside the project (``$VERIFIER_STATE_DIR``, else ``$XDG_STATE_HOME/verifier``,
else ``~/.local/state/verifier``). A file that is not in the record with its present
content (a case file, a snapshot, a known-failure list, a report edited since) is
refused unless the user passes ``--force``. Links are never written through: a file is
written beside its target and moved into place, so a hard or symbolic link to a
case file cannot carry the new bytes into it.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import CaseError, Location

GENERATOR = "verifier"
RECORD_NAME = "written.json"
RECORD_LIMIT = 20_000  # entries kept; the oldest are dropped first


def json_mark(command: str) -> str:
    """The value of the ``generator`` field of a JSON file that ``command`` writes."""
    return f"{GENERATOR} {command}"


def text_mark(command: str) -> str:
    """Words that mark a text file (a comment in XML, a ``$comment`` in a schema)."""
    return f"generator: {GENERATOR} {command}"


def state_dir() -> Path:
    """Where the verifier keeps its record of the files it wrote."""
    explicit = os.environ.get("VERIFIER_STATE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / GENERATOR


def _digest(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def _key(path: Path) -> str:
    return str(path.resolve())


@contextmanager
def _locked_record() -> Iterator[dict[str, str]]:
    """The record (resolved path -> SHA-256), read under a lock and written back on exit."""
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    record_path = folder / RECORD_NAME
    with open(folder / (RECORD_NAME + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = _read_record(record_path)
        before = dict(record)
        yield record
        if record != before:
            while len(record) > RECORD_LIMIT:
                del record[next(iter(record))]
            handle, temporary = tempfile.mkstemp(prefix=".written.", dir=folder)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    json.dump(record, out)
                os.replace(temporary, record_path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise


def _read_record(record_path: Path) -> dict[str, str]:
    try:
        data = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def remember(path: str | Path) -> None:
    """Add ``path``, as it is now, to the record of files the verifier wrote. A record that
    cannot be kept (no writable state folder) only means the file is not replaced later
    without ``--force``."""
    target = Path(path)
    digest = _digest(target)
    if digest is None:
        return
    try:
        with _locked_record() as record:
            record.pop(_key(target), None)  # re-inserted last: the newest entries are kept longest
            record[_key(target)] = digest
    except OSError:
        pass


def written_by_us(path: Path) -> bool:
    """Whether the record holds ``path`` with exactly its present content."""
    try:
        record = _read_record(state_dir() / RECORD_NAME)
    except OSError:
        return False
    expected = record.get(_key(path))
    return expected is not None and expected == _digest(path)


def refusal(path: Path, what: str) -> str | None:
    """Why writing ``what`` to ``path`` would lose something (without --force), or None."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return f"{path} is a link; refusing to write the {what} through it (pass --force to replace the link itself)"
    if stat.S_ISDIR(info.st_mode):
        return f"{path} is a folder; give a file name for the {what}"
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is not a regular file; refusing to write the {what} there"
    if info.st_nlink > 1:
        return (f"{path} has other names (hard links); refusing to replace it with the {what} "
                "(pass --force to write a new file under this name and leave the others alone)")
    if not written_by_us(path):
        return (f"{path} exists and was not written by the verifier (a case file, a snapshot, a known-failure "
                f"list or another file); refusing to replace it with the {what}; pass --force if you mean it")
    return None


def check_writable(path: str | Path, what: str, force: bool = False) -> None:
    """Raise a CaseError naming the path unless the command may write ``what`` there."""
    target = Path(path)
    problem = refusal(target, what)
    if problem and not (force and not target.is_dir()):
        raise CaseError(problem, Location(str(target)))


def write_bytes(path: str | Path, data: bytes, what: str, force: bool = False) -> None:
    """Write ``data`` to ``path`` as a new file moved into place (see the module's notes)."""
    target = Path(path)
    check_writable(target, what, force)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as error:
        raise CaseError(write_failure(error, what), Location(str(target))) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise CaseError(write_failure(error, what), Location(str(target))) from None
        raise
    remember(target)


def write_text(path: str | Path, text: str, what: str, force: bool = False) -> None:
    write_bytes(path, text.encode("utf-8"), what, force)


def write_failure(error: OSError, what: str) -> str:
    """One line for a write that failed: a full disk named as such."""
    if error.errno == errno.ENOSPC:
        return f"the disk is full: the {what} was not written (free some space and run again)"
    if error.errno == errno.EDQUOT:
        return f"the disk quota is used up: the {what} was not written"
    return f"cannot write the {what}: {error.strerror or error}"
