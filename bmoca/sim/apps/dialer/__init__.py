"""Phone (`com.android.dialer`, the AOSP Dialer) with the in-call screen.

- `app.py`: the main screen (tabs, search) and the dialpad, the app;
- `lists.py`: Favorites, Recents, Contacts and search results;
- `calls.py`: the call in progress as Telecom keeps it, and its log lines;
- `incall.py`: InCallUI's screen and Telecom's `UserCallActivity` (`TelecomApp`).
"""
