"""Snapshot files: names confined to their directory, and data that cannot run code on load.

In memory a snapshot is a plain pickle of the system state (fast, and it never leaves the
process). On disk it is a checked file: a header, a digest of the payload, and a pickle
that is read by an unpickler which resolves only the simulator's own state classes. A
planted or edited file that refers to anything else (`os.system`, `builtins.eval`, a
class of another package) is refused before that name is even imported, so loading a
snapshot from disk can rebuild phone state and nothing more.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import pickle
import re
import sys
from pathlib import Path

from bmoca.device.contract import InvalidInput

MAGIC = b"BMOCA-SNAPSHOT 1\n"
SUFFIX = ".snapshot"
_DIGEST = 32
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+=-]{0,127}")
"""`+` and `=` too: derived configurations' ids (`train_env_000+locale=ar-EG`) name the
snapshots of their base state."""
_STATE_PACKAGES = ("bmoca.sim.system.", "bmoca.sim.apps.", "bmoca.sim.ui.", "bmoca.formats.")
"""Modules whose classes a snapshot may hold: the phone's state, never its tools."""
_SAFE_GLOBALS = {("collections", "deque"), ("collections", "OrderedDict"),
                 ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "bytearray"),
                 # plain values an app's state may hold (Calendar's open day): rebuilt
                 # from their fields, they run nothing
                 ("datetime", "date"), ("datetime", "time"), ("datetime", "datetime"),
                 ("datetime", "timedelta"), ("datetime", "timezone")}


def check_name(name: object) -> str:
    """A snapshot name that stays inside its directory: letters, digits, `_.+=-`, no `..`."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or ".." in name:
        raise InvalidInput(f"bad snapshot name {name!r}: use 1-128 letters, digits, '_', '.', "
                           "'+', '=' or '-', starting with a letter or digit (no '/', no '..')")
    return name


def path_for(directory: Path, name: str) -> Path:
    """Where snapshot `name` lives in `directory` (always directly inside it)."""
    return directory / f"{check_name(name)}{SUFFIX}"


def encode(blob: bytes, magic: bytes = MAGIC) -> bytes:
    """A state pickle as file content: header, digest, payload."""
    return magic + hashlib.blake2b(blob, digest_size=_DIGEST).digest() + blob


def decode(data: bytes, where: str, magic: bytes = MAGIC,
           kind: str = "bmoca snapshot file") -> object:
    """The state in a snapshot file (or another checked blob whose header is `magic`), or
    InvalidInput saying why it is not one."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidInput(f"{where} is not a {kind}: bytes expected, got {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(magic):
        raise InvalidInput(f"{where} is not a {kind} (no {magic[:-1].decode()} "
                           "header; files from before version 1 must be saved again)")
    digest, blob = data[len(magic):len(magic) + _DIGEST], data[len(magic) + _DIGEST:]
    if hashlib.blake2b(blob, digest_size=_DIGEST).digest() != digest:
        raise InvalidInput(f"{where} is damaged: its digest does not match its content")
    return loads(blob, where)


def loads(blob: bytes, where: str) -> object:
    """A pickle read by the unpickler that resolves only state classes, or InvalidInput."""
    try:
        return _StateUnpickler(io.BytesIO(blob)).load()
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - any malformed payload is a bad file, nothing more
        raise InvalidInput(f"{where} is damaged: {type(exc).__name__}: {exc}") from None


class _StateUnpickler(pickle.Unpickler):
    """Resolves only classes defined in the simulator's state modules."""

    def find_class(self, module: str, name: str) -> type:
        if (module, name) in _SAFE_GLOBALS:
            return super().find_class(module, name)
        if not module.startswith(_STATE_PACKAGES) or "." in name:
            raise InvalidInput(f"refers to {module}.{name}, which is not phone state")
        if module not in sys.modules:
            importlib.import_module(module)  # a state module: importing it runs only our code
        value = getattr(sys.modules[module], name, None)
        if not isinstance(value, type) or value.__module__ != module:
            raise InvalidInput(f"refers to {module}.{name}, which is not a state class")
        return value
