"""A virtual file system with Android's paths; files hold real bytes."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

EXTERNAL = "/storage/emulated/0"
_ALIASES = ("/sdcard", "/storage/self/primary", "/mnt/sdcard")

STANDARD_DIRS = (
    "/", "/data", "/data/data", "/data/user_de", "/data/user_de/0", "/data/system",
    "/data/system/users", "/data/system/users/0", "/data/local", "/data/local/tmp",
    "/system", "/system/bin", "/system/app", "/system/priv-app", "/vendor", "/proc", "/dev",
    "/storage", "/storage/emulated", "/storage/self", EXTERNAL,
    *(f"{EXTERNAL}/{d}" for d in ("Alarms", "DCIM", "Download", "Movies", "Music",
                                   "Notifications", "Pictures", "Podcasts", "Ringtones")),
)


class FsError(OSError):
    """A file-system error with Android's wording (`No such file or directory`, ...)."""


def normalize(path: str) -> str:
    if not path.startswith("/"):
        path = "/" + path
    path = posixpath.normpath(path)
    if path.startswith("//"):
        path = path[1:]
    for alias in _ALIASES:
        if path == alias or path.startswith(alias + "/"):
            return EXTERNAL + path[len(alias):]
    return path


@dataclass
class VirtualFS:
    files: dict[str, bytes] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=lambda: set(STANDARD_DIRS))

    def exists(self, path: str) -> bool:
        path = normalize(path)
        return path in self.files or path in self.dirs

    def is_dir(self, path: str) -> bool:
        return normalize(path) in self.dirs

    def read(self, path: str) -> bytes:
        path = normalize(path)
        if path in self.dirs:
            raise FsError(f"{path}: Is a directory")
        try:
            return self.files[path]
        except KeyError:
            raise FsError(f"{path}: No such file or directory") from None

    def write(self, path: str, data: bytes, make_parents: bool = True) -> None:
        path = normalize(path)
        if path in self.dirs:
            raise FsError(f"{path}: Is a directory")
        parent = posixpath.dirname(path)
        if parent not in self.dirs:
            if not make_parents:
                raise FsError(f"{parent}: No such file or directory")
            self.mkdir(parent)
        self.files[path] = bytes(data)

    def mkdir(self, path: str) -> None:
        path = normalize(path)
        if path in self.files:
            raise FsError(f"{path}: Not a directory")
        while path not in self.dirs:
            self.dirs.add(path)
            path = posixpath.dirname(path)

    def remove(self, path: str, recursive: bool = False) -> None:
        path = normalize(path)
        if path in self.files:
            del self.files[path]
            return
        if path not in self.dirs:
            raise FsError(f"{path}: No such file or directory")
        inside = [p for p in list(self.files) + list(self.dirs) if p.startswith(path + "/")]
        if inside and not recursive:
            raise FsError(f"{path}: Directory not empty")
        for p in inside:
            self.files.pop(p, None)
            self.dirs.discard(p)
        self.dirs.discard(path)

    def listdir(self, path: str) -> list[str]:
        path = normalize(path)
        if path in self.files:
            return [posixpath.basename(path)]
        if path not in self.dirs:
            raise FsError(f"{path}: No such file or directory")
        prefix = path.rstrip("/") + "/"
        names = {p[len(prefix):].split("/", 1)[0]
                 for p in list(self.files) + list(self.dirs)
                 if p.startswith(prefix) and p != path}
        return sorted(names)
