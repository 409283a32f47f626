"""Calendar (`com.google.android.calendar`): `app.py` holds AllInOneActivity, the month view
of the virtual clock's current month with today marked, and the create button."""
