"""Maps (`com.google.android.apps.maps`): `app.py` holds MapsActivity, a procedurally drawn
map under the "Search here" box that focuses a text field."""
