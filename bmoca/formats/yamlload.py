"""YAML for the package's data files: libyaml's C parser where PyYAML has it, and what it
built kept in the data cache.

The configurations, tasks and string tables are read at every cold start; the pure-Python
parser took most of it (507 ms against 36 ms). The C parser builds the same objects (the
constructors are PyYAML's Python ones either way); when a text is not valid YAML it is
parsed again with the pure-Python loader, so the error message names the same place in
the same words as before.

Even with the C parser, PyYAML's constructors were a tenth of a cold start, so what a text
parses to is kept in the data cache (`bmoca.formats.cachedir`, `BMOCA_DATA_CACHE`) as
`marshal` data, named by the text, the loader (its classes and their modules' source) and
the versions of PyYAML and Python, and read back as equal objects of the same types.
Only plain data is kept (a text with dates, which marshal cannot hold, is parsed every
time); like pickle it is trusted as the user's own files are, but unlike pickle loading
it runs no code.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from bmoca.formats import cachedir

FastSafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The safe loader to subclass: C-parsed where libyaml is there, else pure Python."""

_FORMAT = f"yaml-marshal-1\0{yaml.__version__}\0{sys.version_info[:2]}\0{marshal.version}"
"""What every entry depends on besides its text and loader."""


def load(text: str, fast: type = FastSafeLoader, slow: type = yaml.SafeLoader, *,
         cached: bool = False) -> Any:
    """`text` parsed with `fast`; on a YAML error, the error `slow` (its pure-Python twin)
    raises. `cached` (the package's own data files, read at every cold start; not a user's
    files, which would fill the cache with every version of them): from the data cache
    when an earlier process parsed the same text."""
    path = cachedir.entry("yaml", _loader_key(fast) + text.encode("utf-8", "surrogatepass")
                          ) if cached else None
    if path is not None:
        data = cachedir.read(path)
        if data is not None:
            try:
                return marshal.loads(data)
            except (EOFError, ValueError, TypeError):
                pass  # an entry of another marshal: parse it again
    value = parse(text, fast, slow)
    if path is not None:
        try:
            data = marshal.dumps(value)
        except ValueError:  # a date or another type marshal does not hold: not kept
            return value
        cachedir.write(path, data)
    return value


def parse(text: str, fast: type = FastSafeLoader, slow: type = yaml.SafeLoader) -> Any:
    """`text` parsed with `fast`, without the cache; on a YAML error, `slow`'s error."""
    try:
        return yaml.load(text, Loader=fast)  # noqa: S506 - fast and slow are safe loaders
    except yaml.YAMLError:
        if fast is slow:
            raise
        return yaml.load(text, Loader=slow)  # noqa: S506 - raises the reference message


@cache
def _loader_key(loader: type) -> bytes:
    """The loader's part of an entry's name: its classes, and the source of every module
    outside PyYAML that defines one of them (their constructors are there)."""
    digest = hashlib.sha256(_FORMAT.encode())
    for cls in loader.__mro__:
        digest.update(f"\0{cls.__module__}.{cls.__qualname__}".encode())
        module = sys.modules.get(cls.__module__)
        source = getattr(module, "__file__", None)
        if source and cls.__module__.partition(".")[0] not in ("yaml", "_yaml", "builtins"):
            digest.update(Path(source).read_bytes())
    return digest.digest()
