"""Clock (`com.google.android.deskclock`, Google Clock 6.x).

- `app.py`: the tabs (Alarm, Clock, Timer, Stopwatch), alarm cards, the screen saver, the app;
- `api.py`: HandleApiCalls (SET_ALARM, SET_TIMER) and HandleShortcuts (the stopwatch shortcut);
- `model.py`: alarms, instances, stopwatch and timer, and the log lines their changes write;
- `picker.py`: the framework time picker (dial and keyboard modes);
- `alarms_db.py`: `alarms.db` in DeskClock's real schema (what the alarm tasks read).
"""
