"""Files (`com.android.documentsui`): the launcher alias's trampoline and `FilesActivity`.

The launcher starts the alias `.LauncherActivity`; its `onCreate` starts
`.files.FilesActivity` with `dat=//com.android.documentsui.launchControl#<millis>`, the
launcher's flags and the task label and icon as extras, and finishes: two START lines, the
second naming `.files.FilesActivity` (reference §1.1).

`FilesActivity` opens on Recent. The hamburger (`Show roots`) or a swipe from the start edge
opens the roots drawer (`drawer_roots` → `roots_list`, one `android:id/title` per root);
roots, folders, the `DirectoryFragment` line and BACK are `browser.Browser`'s. The same
package's `PickActivity` (`picker.py`) is the system file picker.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.files import browser, picker
from bmoca.sim.apps.files.browser import PACKAGE, Browser, colors, fid
from bmoca.sim.system.intent import ACTION_GET_CONTENT, ACTION_OPEN_DOCUMENT, Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, scroller

LAUNCHER = f"{PACKAGE}.LauncherActivity"
FILES = f"{PACKAGE}.files.FilesActivity"
LAUNCH_CONTROL = "//com.android.documentsui.launchControl"


# -- the launcher alias ---------------------------------------------------------------------


class LauncherActivity(Activity):
    """The launcher's entry: hands over to FilesActivity and finishes (never drawn)."""

    def on_create(self, ctx: Context) -> None:
        millis = ctx.system.state.clock.now_ms
        ctx.start_activity(Intent(
            data=f"{LAUNCH_CONTROL}#{millis}", flags=self.intent.flags,
            component=(PACKAGE, FILES),
            extras={"com.android.documentsui.taskLabel": ctx.t(f"app.{PACKAGE}"),
                    "com.android.documentsui.taskIcon": "ic_files"}))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH, bg=colors(ctx).background)


# -- the browser ------------------------------------------------------------------------------


class FilesActivity(Browser):
    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        documents = self.listing(ctx)
        listing = scroller(*(browser.list_row(ctx, c, d, lambda d=d: self.tap(ctx, d),
                                              lambda d=d: self.long_press(d),
                                              checked=d.uri in self.selected)
                             for d in documents),
                           key=f"files:{self.root_key}:{len(self.stack)}",
                           cls="androidx.recyclerview.widget.RecyclerView", id=fid("dir_list"),
                           width=MATCH, height=MATCH, padding=(0, 8, 0, 8)) \
            if documents else browser.empty_listing(ctx, c)
        directory = frame(listing, cls="android.widget.FrameLayout",
                          id=fid("container_directory"), width=MATCH, height=0, weight=1,
                          bg=c.background)
        screen = column(self.toolbar(ctx, c), directory, width=MATCH, height=MATCH,
                        bg=c.background)
        return self.with_drawer(ctx, c, screen)


class FilesApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10060
    activities = {LAUNCHER: LauncherActivity, FILES: FilesActivity,
                  picker.PICK: picker.PickActivity}
    intent_actions = {ACTION_OPEN_DOCUMENT: picker.PICK, ACTION_GET_CONTENT: picker.PICK}

    def initial_data(self) -> picker.PickerData:
        return picker.PickerData()
