"""Pixel Launcher (`com.google.android.apps.nexuslauncher`).

- `app.py`: the home screen read from `launcher.db` (`bmoca.formats.launcher_db`), the
  app drawer and Overview.
"""
