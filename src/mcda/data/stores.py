"""Writing a Zarr store without losing what a user owns: recognition, one writer, staging, publishing.

Every writer of a store (:func:`mcda.store.to_zarr`, :func:`mcda.store.parquet_to_zarr`,
:func:`mcda.store.csv_to_zarr`) goes through :func:`publishing`:

- ``overwrite=True`` replaces only what is recognisably a store written by mcda
  (:func:`store_entries_not_ours` is empty): a folder holding anything else (``thesis/ch1.tex``)
  is refused, named, and left as it is;
- one writer per path: a second conversion to the same path is refused while the first runs
  (an advisory lock on a hidden file beside the store, released by the system when a process
  dies, so a killed writer never blocks the next);
- the store is written into a hidden staging folder beside ``path`` and published by renaming
  it to ``path`` only when it is complete (the completion mark, :data:`COMPLETE`, is written
  last). An interrupted writer (an error, SIGTERM, SIGKILL) leaves ``path`` as it was; its staging
  folder is removed by the next writer of that path.

A store without the completion mark that has the layout of one (written by an interrupted
writer of an older version, or copied in part) is a *half-written* store: opening it names it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path

__all__ = ["COMPLETE", "publishing", "store_entries_not_ours", "is_half_written", "missing_parts", "staging_folders"]

#: The root group's attribute written last, when every array of the store is complete.
COMPLETE = "mcda_complete"
#: What a store written by mcda holds at its top: zarr's metadata files and arrays (folders with a
#: ``.zarray``), nothing else.
_METADATA = {".zgroup", ".zattrs", ".zmetadata", "zarr.json"}


def _hidden(path: Path, what: str) -> Path:
    return path.parent / f".{path.name}.mcda-{what}"


def store_entries_not_ours(path) -> list[str]:
    """The entries at the top of ``path`` that no store written by mcda holds (empty: it is a store).

    A store is a folder with a ``.zgroup``, a ``score`` array, and otherwise only zarr metadata
    files and arrays. A file (not a folder) is named as itself.
    """
    path = Path(path)
    if not path.is_dir():
        return [path.name]
    entries = sorted(os.listdir(path))
    if ".zgroup" not in entries or not (path / "score" / ".zarray").is_file():
        return [e for e in entries if e not in _METADATA] or [".zgroup"]
    return [e for e in entries if e not in _METADATA and not (path / e / ".zarray").is_file()]


def _root_attrs(path: Path) -> dict:
    try:
        return json.loads((path / ".zattrs").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def is_half_written(path) -> bool:
    """Whether ``path`` has a store's layout but no completion mark while a writer's staging folder
    or lock shows a writer was there (an interrupted conversion of this version or a store of a
    version that marks completion)."""
    path = Path(path)
    if store_entries_not_ours(path) or _root_attrs(path).get(COMPLETE):
        return False
    return bool(staging_folders(path)) or _hidden(path, "lock").exists()


def missing_parts(path) -> list[str]:
    """What a Zarr store (format 2) at ``path`` lacks to be read whole: the root attributes (the
    card), the ``score`` array, its dimension names, a label array of each dimension, or (when a
    writer's staging folder or lock shows one was interrupted there) the completion mark. Empty for a
    whole store, and for a folder that is not a format-2 store (zarr names what it lacks)."""
    path = Path(path)
    if not (path / ".zgroup").is_file():
        return []
    missing = [name for name in (".zattrs", "score/.zarray", "score/.zattrs") if not (path / name).is_file()]
    try:
        dims = json.loads((path / "score" / ".zattrs").read_text(encoding="utf-8"))["_ARRAY_DIMENSIONS"]
    except (OSError, ValueError, KeyError, TypeError):
        dims = []
        if "score/.zattrs" not in missing:
            missing.append("score/.zattrs")
    missing += [f"{d}/.zarray" for d in dims if isinstance(d, str) and not (path / d / ".zarray").is_file()]
    if not missing and is_half_written(path):
        missing.append(f"the completion mark {COMPLETE} in .zattrs")
    return missing


def staging_folders(path) -> list[Path]:
    """The staging folders writers of ``path`` left behind (an interrupted writer's work)."""
    path = Path(path)
    prefix = f".{path.name}.mcda-staging-"
    if not path.parent.is_dir():
        return []
    return sorted(path.parent / e for e in os.listdir(path.parent) if e.startswith(prefix))


def _mark_complete(staging: Path) -> None:
    attrs = _root_attrs(staging)
    attrs[COMPLETE] = True
    (staging / ".zattrs").write_text(json.dumps(attrs, indent=4, sort_keys=True), encoding="utf-8")


def check_target(path, overwrite: bool) -> Path:
    """Refuse, before any work, a ``path`` that exists (without ``overwrite``) or that is not a store of mcda."""
    path = Path(path)
    if not path.exists():
        return path
    if not overwrite:
        raise FileExistsError(f"`path` {str(path)!r} already exists; pass overwrite=True to replace it")
    foreign = store_entries_not_ours(path)
    if foreign:
        shown = ", ".join(repr(e) for e in foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise FileExistsError(
            f"`path` {str(path)!r} is not a store written by mcda (it holds {shown}); overwrite=True replaces only "
            "such stores, so nothing was changed. Choose another path, or move that folder yourself.")
    return path


@contextlib.contextmanager
def publishing(path, *, overwrite: bool):
    """Yield the staging folder to write the store into; publish it at ``path`` when the block ends.

    Raises ``FileExistsError`` for a ``path`` that exists without ``overwrite``, or that is not a
    store written by mcda, and when another writer holds ``path``. On any error inside the block
    the staging folder is removed and ``path`` is left as it was.
    """
    import fcntl

    path = check_target(path, overwrite)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"`path` {str(path)!r}: the folder {str(path.parent)!r} does not exist")
    lock_path = _hidden(path, "lock")
    while True:
        lock = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            raise FileExistsError(f"`path` {str(path)!r} is being written by another process; wait for it to "
                                  "finish, or write to another path") from None
        try:  # the file locked is still the one at lock_path (a finishing writer unlinks it)
            if os.fstat(lock).st_ino == os.stat(lock_path).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(lock)
    staging = _hidden(path, f"staging-{os.getpid()}")
    try:
        for left in staging_folders(path):  # an interrupted writer's work: nobody else holds the path
            shutil.rmtree(left, ignore_errors=True)
        check_target(path, overwrite)  # (again, under the lock: another writer may have published meanwhile)
        try:
            yield staging
            _mark_complete(staging)
            if path.exists():
                old = _hidden(path, f"old-{os.getpid()}")
                os.rename(path, old)
                try:
                    os.rename(staging, path)
                except OSError:
                    os.rename(old, path)  # the store as it was
                    raise
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.rename(staging, path)
        except OSError as exc:
            if exc.errno is None or str(staging) not in f"{exc.filename} {exc.filename2}":
                raise
            # named by the user's path, not by the hidden folder it was staged in (which is removed)
            raise type(exc)(exc.errno, f"`path` {str(path)!r}: the store could not be written "
                                       f"({exc.strerror}); nothing was changed at {str(path)!r}") from exc
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
        with contextlib.suppress(OSError):
            os.unlink(lock_path)  # while still held: a writer that opened it before waits for nobody
        os.close(lock)
