"""Maps (`com.google.android.apps.maps`): `app.py` holds MapsActivity; `world.py` what the
map shows, `mapdraw.py` how it is drawn (and cached), `explore.py` the chrome over it and
`search.py` the search page and results."""
