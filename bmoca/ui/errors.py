"""The one error the web UI answers with: an HTTP status and a one-line message.

Every bad request (an unknown task, a click outside the screen, a phone that was released)
becomes a `UiError`; the app turns it into `{"error": message}` with its status, which the
page shows. Nothing else reaches the browser, never a traceback.
"""

from __future__ import annotations


class UiError(Exception):
    """A request the UI cannot serve; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(" ".join(str(message).split()))
        self.status = status

    @property
    def message(self) -> str:
        return str(self)
