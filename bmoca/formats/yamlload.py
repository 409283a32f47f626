"""YAML for the package's data files: libyaml's C parser where PyYAML has it.

The configurations, tasks and string tables are read at every cold start; the pure-Python
parser took most of it (507 ms against 36 ms). The C parser builds the same objects (the
constructors are PyYAML's Python ones either way); when a text is not valid YAML it is
parsed again with the pure-Python loader, so the error message names the same place in
the same words as before.
"""

from __future__ import annotations

from typing import Any

import yaml

FastSafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The safe loader to subclass: C-parsed where libyaml is there, else pure Python."""


def load(text: str, fast: type = FastSafeLoader, slow: type = yaml.SafeLoader) -> Any:
    """`text` parsed with `fast`; on a YAML error, the error `slow` (its pure-Python twin) raises."""
    try:
        return yaml.load(text, Loader=fast)  # noqa: S506 - fast and slow are safe loaders
    except yaml.YAMLError:
        if fast is slow:
            raise
        return yaml.load(text, Loader=slow)  # noqa: S506 - raises the reference message

