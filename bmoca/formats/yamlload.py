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

PyYAML itself is imported only when a text is parsed (importing it was 15 ms of every cold
start, whose texts all come from the cache): an entry is named by the loader's module and
name and the source of the module that defines it, and PyYAML by its `__init__.py`, read
rather than imported. A loader is given as its class or as "module:name", which is
looked up (and so defined, where a module defines its loaders on first use) only to parse.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import marshal
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from bmoca.formats import cachedir, package_files


def __getattr__(name: str) -> Any:
    """`FastSafeLoader`, defined when first asked for (it needs PyYAML)."""
    if name == "FastSafeLoader":
        value = globals()[name] = _fast_safe_loader()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _fast_safe_loader() -> type:
    """The safe loader with libyaml's parser where PyYAML has it, else the pure-Python one."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def defined_on_first_use(namespace: dict[str, Any], names: tuple[str, ...],
                         define: Callable[[], tuple]) -> Callable[[str], Any]:
    """A module's `__getattr__` that defines its PyYAML loader classes `names` (what
    `define` returns, in that order) when one is first asked for, so that importing the
    module imports no PyYAML."""
    def __getattr__(name: str) -> Any:
        if name in names:
            namespace.update(zip(names, define(), strict=True))
            return namespace[name]
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    return __getattr__


def yaml_error() -> type[Exception]:
    """`yaml.YAMLError` where PyYAML was imported; otherwise no text was parsed, so no
    error of it can have been raised (an exception class nothing raises)."""
    module = sys.modules.get("yaml")
    return module.YAMLError if module is not None else _NeverRaised


class _NeverRaised(Exception):
    """What `yaml_error` gives before PyYAML is imported."""


def load(text: str, fast: type | str | None = None, slow: type | str | None = None, *,
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


def parse(text: str, fast: type | str | None = None, slow: type | str | None = None) -> Any:
    """`text` parsed with `fast`, without the cache; on a YAML error, `slow`'s error."""
    import yaml

    fast_loader = _resolve(fast, "FastSafeLoader")
    slow_loader = _resolve(slow, "SafeLoader")
    try:
        return yaml.load(text, Loader=fast_loader)  # noqa: S506 - fast and slow are safe loaders
    except yaml.YAMLError:
        if fast_loader is slow_loader:
            raise
        return yaml.load(text, Loader=slow_loader)  # noqa: S506 - raises the reference message


def _resolve(loader: type | str | None, default: str) -> type:
    """The class a loader argument names (None: PyYAML's own `default`)."""
    if loader is None:
        import yaml

        return _fast_safe_loader() if default == "FastSafeLoader" else getattr(yaml, default)
    if isinstance(loader, str):
        module, _, name = loader.partition(":")
        return getattr(importlib.import_module(module), name)
    return loader


@cache
def _loader_key(loader: type | str | None) -> bytes:
    """The loader's part of an entry's name: what every entry depends on besides its text
    (PyYAML's `__init__.py`, which names its version; Python's and marshal's versions),
    the loader's module and name, and the source of that module (its constructors are
    there), read without importing PyYAML or defining the loader."""
    digest = hashlib.sha256(f"yaml-marshal-2\0{sys.version_info[:2]}\0{marshal.version}\0"
                            .encode())
    digest.update(package_files.init_source("yaml"))
    if loader is None:
        digest.update(b"\0default")
        return digest.digest()
    if isinstance(loader, str):
        module_name, _, name = loader.partition(":")
    else:
        module_name, name = loader.__module__, loader.__qualname__
    digest.update(f"\0{module_name}:{name}".encode())
    module = sys.modules.get(module_name)
    source = getattr(module, "__file__", None)
    if source:
        digest.update(Path(source).read_bytes())
    return digest.digest()
