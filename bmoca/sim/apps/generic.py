"""Apps whose screens are not simulated yet: they install, launch with the real START and
Start proc lines, and show their top app bar over an empty content area."""

from __future__ import annotations

from bmoca.formats import apps as app_table
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.ui.view import MATCH, View, column, frame, text


class PlainActivity(Activity):
    def build(self, ctx: Context) -> View:
        theme = ctx.theme
        package = ctx.package
        return column(
            frame(text(ctx.t(f"app.{package}"), text_size=20, font_weight=500,
                       text_color=theme.text, gravity="start|center_vertical",
                       margin=(16, 0, 16, 0)),
                  cls="android.view.ViewGroup", id=f"{package}:id/toolbar", width=MATCH,
                  height=56, bg=theme.background, elevation=2),
            frame(cls="android.widget.FrameLayout", id=f"{package}:id/main_content",
                  width=MATCH, height=0, weight=1, bg=theme.background),
            width=MATCH, height=MATCH, bg=theme.background,
        )


def unimplemented(have: set[str]) -> list[app_table.AppInfo]:
    return [info for info in app_table.all_apps() if info.package not in have]


def app_for(info: app_table.AppInfo) -> App:
    """An App subclass for one package of the B-MoCA app table."""
    cls = type(f"App_{info.package.replace('.', '_')}", (App,), {
        "package": info.package, "label_key": f"app.{info.package}", "uid": info.uid,
        "activities": {info.activity: PlainActivity},
    })
    return cls()
