"""The Google app (`com.google.android.googlequicksearchbox`), as far as the phone's search
needs it: `app.py` holds its query-entry screen, which the home screen's search pill opens."""
