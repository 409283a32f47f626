"""The Google app (`com.google.android.googlequicksearchbox`): `home.py` holds the screen its
launcher icon and the search pill's "G" open (Discover and the bottom bar), `app.py` the
query entry the search pill and the search box open, and the app; `model.py` what both
share (names, the search intent, the search history)."""
