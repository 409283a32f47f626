"""YouTube (`com.google.android.youtube`): `app.py` holds Shell$HomeActivity (the top bar,
the pivot bar, the account menu), Settings and the smart-pairing PairWithTvActivity;
`feed.py` the videos and their cards (a grid on a tablet); `search.py` the search page's
suggestions and results."""
