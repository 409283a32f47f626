"""Chrome (`com.android.chrome`).

`app.py` the launcher alias and the tabbed browser (toolbar, app menu, tab switcher),
`pages.py` what the content area shows and Chrome's colours, `history.py` History's
activity, `web.py` the tabs, the history and the small offline web the phone can reach.
"""
