"""Gboard (`com.google.android.inputmethod.latin`): the soft keyboard window.

- `app.py`: the key layouts (letters, symbols, number pad) and the app.
"""
