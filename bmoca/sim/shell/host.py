"""What the shell may touch of the phone: the narrow interface a `Session` is given.

The shell reaches the system services, the file system and the settings through
`system`; input, the frame and snapshots through the few methods below. `SimDevice`
implements it; the shell never imports the device (it is the layer above).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL import Image

    from bmoca.device.contract import Key
    from bmoca.sim.system.server import SystemServer
    from bmoca.sim.system.windows import Frame


class Phone(Protocol):
    @property
    def server(self) -> SystemServer: ...

    @property
    def frame(self) -> Frame: ...

    def tap(self, x: int, y: int) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...

    def press(self, key: str | Key) -> None: ...

    def input_text(self, text: str) -> None: ...

    def dump_hierarchy(self) -> str: ...

    def screenshot_image(self) -> Image.Image: ...

    def restart_framework(self) -> None: ...

    def restore_bytes(self, blob: bytes) -> None: ...
