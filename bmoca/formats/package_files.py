"""A package's data files, found without importing `importlib.resources`.

`importlib.resources.files(package)` gives a `pathlib.Path` to the package's directory when
the package is a directory of files, as the installed and the editable package both are;
importing it also imports `zipfile` (5 ms of every cold start, for seven lookups). `files`
gives that same path from the package's spec, and asks `importlib.resources` for anything
else (a zipped or namespace package), so what a caller reads is the same either way.
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from importlib.machinery import SourceFileLoader, SourcelessFileLoader
from pathlib import Path
from typing import Any


def files(package: str) -> Any:
    """`importlib.resources.files(package)`: a `Path` for a package on disk."""
    module = sys.modules.get(package) or importlib.import_module(package)
    spec = module.__spec__
    if (spec is not None and spec.origin and spec.submodule_search_locations is not None
            and type(spec.loader) in (SourceFileLoader, SourcelessFileLoader)):
        return Path(spec.origin).parent
    from importlib import resources

    return resources.files(package)


@cache
def init_source(package: str) -> bytes:
    """A package's `__init__.py` (where it keeps its version), found and read without
    importing the package: what a cache entry made with the package depends on, asked at
    a cold start that then has no need of the package itself. Empty when not installed."""
    import importlib.util

    spec = importlib.util.find_spec(package)  # the imported module's spec, if imported
    try:
        return Path(spec.origin).read_bytes() if spec is not None and spec.origin else b""
    except OSError:
        return b""
