"""Calculator (`com.google.android.calculator`).

- `formula.py`: the formula as the display holds it, and its evaluation;
- `app.py`: the display and keypads, and the app.
"""
