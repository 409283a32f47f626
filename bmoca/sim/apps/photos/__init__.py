"""Photos (`com.google.android.apps.photos`): `app.py` holds HomeActivity (bars, tabs,
selection) and TrashPhotosActivity; `grid.py` the storage's photos by day in a square grid;
`library.py` the Library tab."""
