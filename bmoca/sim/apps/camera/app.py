"""Camera (`com.android.camera2`, AOSP's Camera2 on the emulator image).

The launcher starts `com.android.camera.CameraLauncher`; its process starts with the
`Start proc <pid>:com.android.camera2/u0a83 for activity {com.android.camera2/
com.android.camera.CameraLauncher}` line (android10_ui_facts.md §1.2) that B-MoCA's task
reads, and it hands over to `com.android.camera.CameraActivity`. The viewfinder shows the
emulator's virtual scene drawn from plain shapes (no camera, no network); the shutter
(`shutter_button`) takes a picture and the mode switch (`mode_options_toggle`) changes
between photo and video.

A picture is saved as Camera2 saves it (`Storage.DIRECTORY`, `CameraUtil.ImageFileNamer`):
`/sdcard/DCIM/Camera/IMG_yyyyMMdd_HHmmss.jpg` at the phone's time, with `_1`, `_2`, ...
appended for further shots within the same second, so Photos and Files show it. In video
mode the shutter starts and stops a recording, which is not simulated (nothing is saved).
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, text

PACKAGE = "com.android.camera2"
DIRECTORY = "/storage/emulated/0/DCIM/Camera"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
"""A minimal JPEG (SOI, a JFIF header, EOI): the virtual scene is not encoded."""
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


def save_picture(ctx: Context) -> str:
    """Write a shot to DCIM/Camera under Camera2's name: `IMG_<date>_<time>`, and within
    the same second `_<n>` (ImageFileNamer keeps that count; here it is the first name not
    taken, the same for shots one after another)."""
    vfs = ctx.system.state.vfs
    stem = f"{DIRECTORY}/" + ctx.system.state.clock.datetime().strftime("IMG_%Y%m%d_%H%M%S")
    path, count = f"{stem}.jpg", 0
    while vfs.exists(path):
        count += 1
        path = f"{stem}_{count}.jpg"
    vfs.write(path, JPEG)
    return path


class CameraActivity(Activity):
    fullscreen = True

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.video = False
        self.shots = 0

    def _shutter(self, ctx: Context) -> None:
        self.shots += 1
        if not self.video:
            save_picture(ctx)

    def build(self, ctx: Context) -> View:
        t = ctx.t
        white = (255, 255, 255)
        mode = t("camera.video") if self.video else t("camera.photo")
        shutter = frame(icon("videocam" if self.video else "photo_camera", 32,
                             icon_color=(0, 0, 0), cls="", gravity="center"),
                        cls="android.widget.ImageButton", id=cid("shutter_button"),
                        desc=t("camera.shutter"), width=72, height=72, corner=36,
                        bg=(234, 67, 53) if self.video else white, clickable=True,
                        on_click=lambda: self._shutter(ctx), gravity="center")
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
