"""The store's catalogue: a small fixed set of departments, subcategories and products.

Like the real app's, this content comes from the store, not from the app's resources, so
it is shown in the store's language (English) whatever the phone's locale; only the app's
own labels (Shop, Cart, ...) are translated.
"""

from __future__ import annotations

DEPARTMENTS: dict[str, tuple[str, ...]] = {
    "Grocery": ("Fresh Produce", "Dairy & Eggs", "Meat & Seafood", "Bakery & Bread",
                "Pantry", "Snacks"),
    "Electronics": ("TVs", "Headphones", "Cell Phones", "Video Games"),
    "Home": ("Furniture", "Kitchen & Dining", "Bedding", "Storage"),
    "Clothing": ("Women", "Men", "Kids", "Shoes"),
    "Toys": ("Building Sets", "Dolls", "Outdoor Play", "Puzzles"),
    "Pharmacy & Health": ("Vitamins", "Cold & Flu", "First Aid"),
}

ICONS = {"Grocery": "nutrition", "Electronics": "devices", "Home": "chair",
         "Clothing": "apparel", "Toys": "toys", "Pharmacy & Health": "medication"}

PRODUCTS: dict[str, tuple[tuple[str, str], ...]] = {
    "Fresh Produce": (("Bananas, each", "$0.27"), ("Gala Apples, 3 lb bag", "$4.47"),
                      ("Baby Carrots, 1 lb", "$1.24")),
    "Dairy & Eggs": (("Great Value Large White Eggs, 12 count", "$2.92"),
                     ("Great Value 2% Milk, 1 gal", "$3.48")),
    "Snacks": (("Pretzel Twists, 16 oz", "$2.48"),),
}

TRENDING = ("paper towels", "air fryer", "laundry detergent", "ground coffee")


def products(category: str) -> tuple[tuple[str, str], ...]:
    return PRODUCTS.get(category, (("Great Value " + category, "$3.97"),))
