"""Files (`com.android.documentsui`, AOSP's DocumentsUI as the Android 10 image ships it).

`app.py` holds the launcher alias's trampoline and `FilesActivity`; `picker.py` the system
file picker `PickActivity` that other apps start for a result (Snapseed's "Open from
device"); `browser.py` what both share (the current root and folders, the roots drawer, the
toolbar, the `DirectoryFragment` line); `roots.py` what each root lists from the shared
storage, with the providers' `content://` URIs, and the file a URI names.
"""
