"""Calculator (`com.google.android.calculator`).

- `app.py`: the formula, its evaluator, the display and keypads, the app.
"""
