"""YouTube (`com.google.android.youtube`): `app.py` holds the home feed (Shell$HomeActivity)
with search and the account menu, Settings, and the smart-pairing PairWithTvActivity."""
