"""Writing what the commands make, without losing anything that was there.

Every file a command writes (a report, an export, a schema, a picture) carries a
mark of the verifier: ``"generator": "verifier ..."`` in JSON, a comment in XML,
a text chunk in PNG. A command replaces an existing file only when it bears that
mark; a case file, a snapshot, a known-failure list or anything else is refused
unless the user passes ``--force``. Links are never written through: a file is
written beside its target and moved into place, so a hard or symbolic link to a
case file cannot carry the new bytes into it.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .errors import CaseError, Location

GENERATOR = "verifier"
_HEAD = 4096  # bytes read to recognise a file the verifier wrote


def json_mark(command: str) -> str:
    """The value of the ``generator`` field of a JSON file that ``command`` writes."""
    return f"{GENERATOR} {command}"


def text_mark(command: str) -> str:
    """Words that mark a text file (a comment in XML, a ``$comment`` in a schema)."""
    return f"generator: {GENERATOR} {command}"


def _written_by_us(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD)
    except OSError:
        return False
    if head.startswith(b"\x89PNG"):
        return b"tEXtSoftware\x00" + GENERATOR.encode() in head
    text = head.decode("utf-8", errors="replace")
    return f'"generator": "{GENERATOR} ' in text or f"generator: {GENERATOR} " in text


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
    if not _written_by_us(path):
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
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str, what: str, force: bool = False) -> None:
    write_bytes(path, text.encode("utf-8"), what, force)
