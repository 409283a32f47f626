"""Instagram (`com.instagram.android`): a logged-in account's home feed, search grid, reels
and profile behind the tab bar (`feed_tab`, `search_tab`, `clips_tab`, `profile_tab`).

`content.py` holds our own made-up accounts and posts and draws their pictures from a few
colours (nothing is downloaded); `app.py` the screens and the app.
"""
