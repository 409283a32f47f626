"""Cheap fingerprints and checkpoints of the system state.

Pickling the whole `SystemState` (about 340 KB, nearly all of it file bytes) twice per
shell command and twice per env step was a third of an XML step. File contents are
immutable `bytes`, so a file that is the same object as last time needs neither copying
nor hashing again: a checkpoint keeps references to them, and a fingerprint hashes each
file once per new content and each log line once. Everything else in the state is small
and is still pickled, so both tell exactly the changes the full pickle told.
"""

from __future__ import annotations

import copy
import copyreg
import hashlib
import io
import itertools
import operator
import pickle
from typing import Any

from bmoca.sim.system.server import SystemState

_PROTOCOL = pickle.HIGHEST_PROTOCOL


class _Reducers(dict):
    """A pickler's dispatch table that gives a plain object (attributes in `__dict__`, no
    pickling hooks of its own) the reduction `object.__reduce_ex__` would give it, without
    the half dozen attribute lookups that find no hook: a third off pickling the state's
    dataclasses, the same bytes. Anything else reduces as it would without the table."""

    def __missing__(self, cls: type):
        if issubclass(cls, type):  # a class with a metaclass: the pickler saves it by name
            raise KeyError(cls)
        if _plain(cls):
            newobj = copyreg.__newobj__

            def reduce(obj: Any, cls: type = cls) -> tuple:
                return newobj, (cls,), obj.__dict__ or None
        else:
            reduce = copyreg.dispatch_table.get(cls) or operator.methodcaller(
                "__reduce_ex__", _PROTOCOL)
        self[cls] = reduce
        return reduce


def _plain(cls: type) -> bool:
    if issubclass(cls, (list, dict, set, tuple)) or cls in copyreg.dispatch_table:
        return False
    hooks = (cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
             and cls.__getstate__ is object.__getstate__
             and not hasattr(cls, "__getnewargs_ex__") and not hasattr(cls, "__getnewargs__"))
    return hooks and "__dict__" in dir(cls) and not any(
        "__slots__" in vars(base) for base in cls.__mro__[:-1])


_REDUCERS = _Reducers()


def dumps(obj: Any) -> bytes:
    """`pickle.dumps(obj, HIGHEST_PROTOCOL)`, byte for byte, faster for the state's objects."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, _PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.dump(obj)
    return out.getvalue()


def _value_dumps(obj: Any) -> bytes:
    """A pickle of `obj` that depends only on its values, not on which objects it shares:
    no memo (a restored state shares fewer strings than the live one did, since unpickling
    interns attribute names, and code that assigns an equal literal shares one more), so
    equal states fingerprint equally however they came about. A cyclic structure (none in
    the state today) falls back to the memo pickle."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, _PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.fast = True
    try:
        pickler.dump(obj)
    except ValueError:
        return dumps(obj)
    return out.getvalue()


class Fingerprinter:
    """Digests of a state without its clock; keeps each file's digest while it is unchanged,
    and hashes only the log lines written since the last time."""

    def __init__(self) -> None:
        self._digests: dict[str, tuple[bytes, bytes]] = {}
        """path -> (the content it was computed for, its digest)."""
        self._log: tuple | None = None
        """(the entries deque, how many were hashed, the first and the last of them, the
        running hash): log entries are immutable and only appended, popped at the end or
        cleared, so an unchanged first and n-th entry mean the first n are unchanged."""

    def _log_digest(self, logs: Any) -> bytes:
        entries = logs.entries
        n = len(entries)
        cached = self._log
        if (cached is not None and cached[0] is entries and 0 < cached[1] <= n
                and entries[0] is cached[2] and entries[cached[1] - 1] is cached[3]):
            running, start = cached[4].copy(), cached[1]
        else:
            running, start = hashlib.blake2b(digest_size=16), 0
        for e in itertools.islice(entries, start, None):  # one line at a time: the same
            running.update(pickle.dumps(                     # hash however they were split
                (e.time_ms, e.pid, e.tid, e.priority, e.tag, e.message, e.buffer), _PROTOCOL))
        self._log = (entries, n, entries[0], entries[-1], running) if n else None
        return running.digest() + pickle.dumps((logs.capacity, logs.serial, entries.maxlen))

    def _file_digest(self, path: str, data: bytes) -> bytes:
        cached = self._digests.get(path)
        if cached is not None and cached[0] is data:
            return cached[1]
        digest = hashlib.blake2b(data, digest_size=16).digest()
        self._digests[path] = (data, digest)
        return digest

    def fingerprint(self, state: SystemState) -> bytes:
        """A digest of everything in `state` but the clock (every input advances it), by
        value: the directories sorted (a set's order depends on its history) and no
        object identities."""
        vfs = state.vfs
        files = [(path, self._file_digest(path, data)) for path, data in vfs.files.items()]
        if len(self._digests) > 2 * len(files) + 64:  # forget deleted files' contents
            self._digests = {p: self._digests[p] for p in vfs.files if p in self._digests}
        shallow = copy.copy(state)
        shallow.clock = None  # type: ignore[assignment]
        shallow.vfs = None  # type: ignore[assignment]
        shallow.logs = None  # type: ignore[assignment]
        blob = _value_dumps((shallow, files, sorted(vfs.dirs), self._log_digest(state.logs)))
        return hashlib.blake2b(blob, digest_size=16).digest()


class Checkpoint:
    """The state without its log buffers, as it was, to tell whether a command changed it
    and to put it back after a command that failed half-way."""

    def __init__(self, state: SystemState):
        self._blob = _without_files_and_logs(state)
        self._files = list(state.vfs.files.items())
        self._dirs = set(state.vfs.dirs)
        self._shape = _task_shape(state)

    def changed(self, state: SystemState) -> bool:
        vfs = state.vfs
        if _task_shape(state) != self._shape:  # a sure change: no second pickle needed
            return True
        return (_without_files_and_logs(state) != self._blob
                or list(vfs.files.items()) != self._files or vfs.dirs != self._dirs)

    def restore(self, logs: Any) -> SystemState:
        """A state as it was at the checkpoint, with today's `logs`."""
        state = pickle.loads(self._blob)
        state.logs = logs
        state.vfs = copy.copy(state.vfs)
        state.vfs.files = dict(self._files)
        state.vfs.dirs = set(self._dirs)
        return state


class StateImage:
    """A whole state kept to be loaded again and again (a configuration's snapshot, loaded at
    every reset): the small objects pickled, the file contents shared. File bytes are
    immutable, so a load copies none of them, and a fingerprinter that saw them before
    finds their digests by identity instead of hashing 350 KB again."""

    def __init__(self, state: SystemState):
        shallow = copy.copy(state)
        vfs = copy.copy(state.vfs)
        vfs.files = {}
        # a set pickles in its iteration order, which depends on the order its items came
        # in: rebuilt from its items in one order, an image is the same bytes however the
        # set grew (a state written with `EnvState.to_bytes` and read back writes the same)
        vfs.dirs = set(sorted(state.vfs.dirs))
        shallow.vfs = vfs
        self._blob = dumps(shallow)
        self._files = dict(state.vfs.files)

    def state(self) -> SystemState:
        """A new state, equal to the one imaged, that shares nothing mutable with it."""
        state = pickle.loads(self._blob)
        state.vfs.files = dict(self._files)
        return state


def _task_shape(state: SystemState) -> tuple:
    """Counts from the activity manager's state, which the checkpoint's pickle holds: when
    one differs the pickles differ too (a pickle loads back as an equal structure), so the
    state changed. `am start` pushes a record at every launch, and the back stack it grows
    made the pickle after the command the costlier half of the command."""
    am = state.am
    home = am.home
    return (am.next_task_id, am.next_pid, len(am.processes),
            -1 if home is None else len(home.records), [len(task.records) for task in am.recents])


def _without_files_and_logs(state: SystemState) -> bytes:
    shallow = copy.copy(state)
    shallow.logs = None  # type: ignore[assignment]
    vfs = copy.copy(state.vfs)
    vfs.files, vfs.dirs = {}, set()
    shallow.vfs = vfs
    return dumps(shallow)
