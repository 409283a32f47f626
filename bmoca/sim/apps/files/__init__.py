"""Files (`com.android.documentsui`, AOSP's DocumentsUI as the Android 10 image ships it).

`app.py` holds the launcher alias's trampoline and `FilesActivity` (toolbar, roots drawer,
directory list); `roots.py` what each root lists from the shared storage, with the
providers' `content://` URIs that `DirectoryFragment` logs.
"""
