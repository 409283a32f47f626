"""What Overview's cards show: each recent task's screen as it was left.

Android 10 keeps a TaskSnapshot of a task's window when it leaves the foreground and draws
it, scaled down, on the task's card. A task in the background does not change on screen,
so drawing its top activity now, from its state, gives that same picture (its dialog
included, the status and navigation bars not: they belong to System UI).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from bmoca.sim.apps.base import Context
from bmoca.sim.frame import decorated, dialog_holder
from bmoca.sim.render.text import layout_metrics
from bmoca.sim.system.windows import NAV_BAR_DP, STATUS_BAR_DP, Frame, Window
from bmoca.sim.ui.layout import Layout, ScrollState

if TYPE_CHECKING:
    from bmoca.sim.system.server import SystemServer


def task_frame(system: SystemServer, task_id: int) -> Frame | None:
    """The task's top activity (and its dialog) laid out on the whole screen; None for a
    task that is gone or has no activity."""
    task = next((t for t in system.state.am.recents if t.id == task_id), None)
    record = task.top if task is not None else None
    if record is None:
        return None
    ctx = Context(system, record.package, record)
    layout = Layout(system.density, system.font_scale, ctx.rtl,
                    *layout_metrics(system.locale))
    width, height = system.screen_px()
    sb, nb = layout.px(STATUS_BAR_DP), layout.px(NAV_BAR_DP)
    box = (0, 0, width, height)
    root = decorated(record, record.activity.build(ctx), layout, sb, nb)
    # the task's own scroll state is read, never written: layout fills a copy's extents
    scroll = ScrollState(dict(record.scroll.offsets), dict(record.scroll.extents))
    layout.run(root, box, scroll)
    windows = [Window("app", package=record.package, root=root, box=box, record=record,
                      scroll=scroll, laid_out=root)]
    dialog = record.activity.dialog(ctx)
    if dialog is not None:
        app_box = box if record.activity.fullscreen else (0, sb, width, height - nb)
        holder = dialog_holder(record, dialog, layout, app_box)
        layout.run(holder, app_box, ScrollState())
        windows.append(Window("dialog", package=record.package, root=dialog,
                              box=dialog.bounds, record=record, laid_out=holder,
                              dim=not record.activity.popup_dialog))
    return Frame(windows, layout, None, sb, nb)


def task_image(system: SystemServer, task_id: int, size: tuple[int, int]) -> Image.Image | None:
    """The task's snapshot scaled to `size`: the screen between the bars."""
    from bmoca.sim.render.painter import Painter

    frame_ = task_frame(system, task_id)
    if frame_ is None or size[0] <= 0 or size[1] <= 0:
        return None
    width, height = system.screen_px()
    screen = Painter().paint(system, frame_, (width, height))
    top, bottom = frame_.status_bar_px, height - frame_.nav_bar_px
    return screen.crop((0, top, width, bottom)).resize(size, Image.BILINEAR)
