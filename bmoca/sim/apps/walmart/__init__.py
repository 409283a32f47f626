"""Walmart (`com.walmart.android`): the splash, then the root activity's bottom navigation
(Shop, My Items, Search, Services, Account), department pages, the cart and the store map.

`catalog.py` holds the fixed catalogue (departments, subcategories, products); `app.py` the
screens and the app.
"""
