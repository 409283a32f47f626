"""Settings (`com.android.settings`).

- `app.py`: the homepage, SubSettings pages, search, the language picker, the app;
- `pages.py`: the pages as data (titles, preferences, the settings they read and write).
"""
