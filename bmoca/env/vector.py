"""`FreeText` in gymnasium's shared memory, so `AsyncVectorEnv` works with its default
`shared_memory=True` for the `text` and `xml` observations.

Each environment's slot holds an 8-byte length and the UTF-8 bytes of its string (room
for `max_length` characters of up to 4 bytes). Reading gives a live view of the slots
rather than a copy, because `AsyncVectorEnv` reads shared memory once, when it is built,
and returns that same object after every step; a deep copy of the view (what the vector
env returns with its default `copy=True`) is a plain tuple of str, as `SyncVectorEnv`
gives.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

from bmoca.env.actions import FreeText

_HEADER = 8


def _slot(space: FreeText) -> int:
    return _HEADER + 4 * space.max_length


class SharedTexts(Sequence[str]):
    """The strings of n environments, decoded from shared memory when read."""

    def __init__(self, space: FreeText, memory: Any, n: int):
        self._memory, self._n, self._slot = memory, n, _slot(space)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if not -self._n <= index < self._n:
            raise IndexError(index)
        start = (index % self._n) * self._slot
        data = np.frombuffer(self._memory.get_obj(), dtype=np.uint8)
        length = int(data[start:start + _HEADER].view("<u8")[0])
        return bytes(data[start + _HEADER:start + _HEADER + length]).decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(self._n))

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # a view of changing memory

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@create_shared_memory.register(FreeText)
def _create(space: FreeText, n: int = 1, ctx: ModuleType = mp) -> Any:
    return ctx.Array("B", n * _slot(space))


@read_from_shared_memory.register(FreeText)
def _read(space: FreeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(space, shared_memory, n)


@write_to_shared_memory.register(FreeText)
def _write(space: FreeText, index: int, value: str, shared_memory: Any) -> None:
    encoded = value.encode("utf-8")
    slot = _slot(space)
    if len(encoded) > slot - _HEADER:
        raise ValueError(f"a {len(value)}-character string does not fit {space}")
    data = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8)
    start = index * slot
    data[start:start + _HEADER] = np.frombuffer(len(encoded).to_bytes(_HEADER, "little"),
                                                dtype=np.uint8)
    data[start + _HEADER:start + _HEADER + len(encoded)] = np.frombuffer(encoded, np.uint8)
