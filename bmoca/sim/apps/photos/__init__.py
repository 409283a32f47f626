"""Photos (`com.google.android.apps.photos`): `app.py` holds HomeActivity (the photos grid
from the storage's DCIM and Pictures, the Library tab) and TrashPhotosActivity."""
