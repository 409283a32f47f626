"""Pixel Launcher (`com.google.android.apps.nexuslauncher`).

- `app.py`: the home screen read from `launcher.db` (`bmoca.formats.launcher_db`), the
  app drawer and Overview;
- `grid.py`: the device profile (grid, icon sizes) for the display;
- `popup.py`: the floating menus: an app icon's shortcuts popup (the shortcuts come from
  `bmoca.sim.apps.shortcuts`) and Overview's task menu.
"""
