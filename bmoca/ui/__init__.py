"""`bmoca ui`: a local web page to play any task by hand, record human demonstrations and
browse evaluation runs (docs/ui.md).

One module per concept: `phone` (one person's phone and episode: gestures become the
benchmark's own actions), `sessions` (many phones at once, idle ones released), `recorder`
(human episodes into the demonstrations format), `runs` (the eval stores, read live),
`app` (the FastAPI application and its JSON errors), `static/` (the page). Importing this
package needs nothing beyond bmoca; `app` needs the `ui` extra (fastapi, uvicorn).
"""

from bmoca.ui.errors import UiError

__all__ = ["UiError"]
