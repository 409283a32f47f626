"""System UI (`com.android.systemui`).

- `app.py`: the status bar, the 3-button navigation bar, the brightness dialog.
"""
