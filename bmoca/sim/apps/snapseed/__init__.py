"""Snapseed (`com.niksoftware.snapseed` 2.20).

`app.py` the welcome trampoline and MainActivity (start screen, picker, editor tabs, the
Noir tool, the ⋮ menu), `settings.py` the Settings page and its dialogs, `model.py` the
preferences (Preferences.xml) and colours, `photo.py` the
photos on the storage and the looks and Noir styles applied to them.
"""
