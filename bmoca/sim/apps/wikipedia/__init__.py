"""Wikipedia (`org.wikipedia`, the 2.7.50484 release B-MoCA installs).

`app.py` MainActivity (the Explore feed, Saved, Search, Edits, the More sheet, a card's
menu), `configure.py` ConfigureActivity (Customize the feed), `settings.py`
SettingsActivity with the App theme dialog (text size), `page.py` the article page,
`model.py` the preferences in `org.wikipedia_preferences.xml`, the feed cards and the
offline articles.
"""
