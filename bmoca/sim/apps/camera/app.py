"""Camera (`com.android.camera2`, AOSP's Camera2 on the emulator image).

The launcher starts `com.android.camera.CameraLauncher`; its process starts with the
`Start proc <pid>:com.android.camera2/u0a83 for activity {com.android.camera2/
com.android.camera.CameraLauncher}` line (android10_ui_facts.md §1.2) that B-MoCA's task
reads, and it hands over to `com.android.camera.CameraActivity`. The viewfinder shows the
emulator's virtual scene drawn from plain shapes (no camera, no network); the shutter
(`shutter_button`) counts the shots taken and the mode switch (`mode_options_toggle`)
changes between photo and video.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, text

PACKAGE = "com.android.camera2"
LAUNCHER = "com.android.camera.CameraLauncher"
CAMERA = "com.android.camera.CameraActivity"


def cid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


class CameraLauncher(Activity):
    """The launcher's activity: hands its intent to CameraActivity, never drawn."""

    def on_create(self, ctx: Context) -> None:
        ctx.start_activity(Intent(action=self.intent.action, flags=self.intent.flags,
                                  component=(PACKAGE, CAMERA)))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH, bg=(0, 0, 0))


def _viewfinder(ctx: Context) -> View:
    """The emulator's virtual scene: a wall, a floor and a few boxes, fixed in place."""
    boxes = [frame(width=w, height=h, bg=c, margin=(x, y, 0, 0), cls="")
             for x, y, w, h, c in ((40, 300, 120, 90, (193, 120, 72)),
                                   (200, 260, 90, 130, (72, 133, 193)),
                                   (120, 120, 140, 80, (220, 220, 210)))]
    return frame(frame(width=MATCH, height=220, bg=(120, 110, 100), margin=(0, 390, 0, 0),
                       cls=""), *boxes, cls="android.view.TextureView",
                 id=cid("preview_content"), width=MATCH, height=MATCH, bg=(170, 160, 150),
                 mirror=False)


class CameraActivity(Activity):
    fullscreen = True

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.video = False
        self.shots = 0

    def _shutter(self) -> None:
        self.shots += 1

    def build(self, ctx: Context) -> View:
        t = ctx.t
        white = (255, 255, 255)
        mode = t("camera.video") if self.video else t("camera.photo")
        shutter = frame(icon("videocam" if self.video else "photo_camera", 32,
                             icon_color=(0, 0, 0), cls="", gravity="center"),
                        cls="android.widget.ImageButton", id=cid("shutter_button"),
                        desc=t("camera.shutter"), width=72, height=72, corner=36,
                        bg=(234, 67, 53) if self.video else white, clickable=True,
                        on_click=self._shutter, gravity="center")
        switch = frame(icon("videocam" if not self.video else "photo_camera", 24,
                            icon_color=white, cls="", gravity="center"),
                       cls="android.widget.ImageButton", id=cid("mode_options_toggle"),
                       desc=t("camera.switch_mode"), width=48, height=48, clickable=True,
                       on_click=lambda: setattr(self, "video", not self.video),
                       gravity="center")
        bottom = column(text(mode, text_size=14, text_color=white, gravity="center",
                             id=cid("mode_name")),
                        row(frame(width=0, weight=1, height=1, cls=""), shutter,
                            frame(switch, width=0, weight=1, height=72, gravity="center"),
                            height=96, gravity="center_vertical"),
                        width=MATCH, bg=(0, 0, 0, 160), padding=(0, 8, 0, 48),
                        gravity="bottom", id=cid("bottom_bar"))
        return frame(_viewfinder(ctx), bottom, width=MATCH, height=MATCH, bg=(0, 0, 0),
                     id=cid("camera_app_root"))


class CameraApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10083
    activities = {LAUNCHER: CameraLauncher, CAMERA: CameraActivity}
