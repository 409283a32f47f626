"""What Maps' map shows: the streets, water, parks and places around the phone's location.

The emulator's default fix (and B-MoCA's image's) is the Googleplex in Mountain View, so the
map is a stylised Mountain View around it: a grid of streets under their real names, US-101
across it, Permanente Creek, Shoreline Lake and a few parks, and places of the kinds the
category chips find. Positions are in map units from the "my location" dot at the map's centre
(x to the east, y to the south; `mapdraw.ZOOM` dp each), so a larger screen shows more of
the same town.

Map labels are the place's own names: real Maps writes US street names in Latin letters in
every UI language, so the map's content does not depend on the locale (the chrome around it
does).
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Street:
    name: str
    kind: str
    """"minor" (white, 3.5 dp), "local" (white, 5 dp), "arterial" (white, 8 dp) or "highway" (yellow, 11 dp)."""
    path: tuple[Point, ...]


@dataclass(frozen=True)
class Place:
    name: str
    category: str
    """A key of `CATEGORIES` (or "park", "landmark")."""
    at: Point
    address: str


@dataclass(frozen=True)
class Category:
    key: str
    icon: str
    """Material Symbols glyph (the chip's and the place pin's)."""
    color: tuple[int, int, int]
    """Maps' colour for the kind of place: orange food, blue shops, pink lodging."""
    words: tuple[str, ...]
    """English words of a search that find this kind of place."""


FOOD = (242, 153, 0)
SHOP = (26, 115, 232)
LODGING = (224, 98, 146)
HEALTH = (234, 67, 53)
PARK = (52, 168, 83)
LANDMARK = (18, 181, 203)

CATEGORIES: tuple[Category, ...] = (
    Category("restaurants", "restaurant", FOOD, ("restaurant", "food", "pizza", "sushi",
                                                  "dinner", "lunch", "taqueria", "bistro")),
    Category("gas", "local_gas_station", SHOP, ("gas", "fuel", "petrol")),
    Category("groceries", "local_grocery_store", SHOP, ("grocer", "supermarket", "market")),
    Category("coffee", "local_cafe", FOOD, ("coffee", "cafe", "café", "espresso")),
    Category("takeout", "takeout_dining", FOOD, ("takeout", "take-out", "delivery")),
    Category("hotels", "hotel", LODGING, ("hotel", "lodging", "motel", "inn")),
    Category("pharmacies", "local_pharmacy", HEALTH, ("pharmac", "drugstore", "chemist")),
)
"""The chips under the search bar, start to end, as the 2020-21 app orders them."""


def category(key: str) -> Category | None:
    for c in CATEGORIES:
        if c.key == key:
            return c
    return None


_H = "local"
_A = "arterial"
STREETS: tuple[Street, ...] = (
    # east-west
    Street("Charleston Rd", _A, ((-1000, -430), (1000, -430))),
    Street("Amphitheatre Pkwy", _A, ((-1000, -250), (-200, -250), (120, -280), (1000, -280))),
    Street("Garcia Ave", _H, ((-1000, -110), (1000, -110))),
    Street("Crittenden Ln", _H, ((-1000, 40), (1000, 40))),
    Street("Terra Bella Ave", _H, ((-1000, 170), (1000, 170))),
    Street("Plymouth St", _H, ((-1000, 300), (1000, 300))),
    Street("Middlefield Rd", _A, ((-1000, 470), (1000, 470))),
    Street("Montecito Ave", _H, ((-1000, 620), (1000, 620))),
    Street("Latham St", _H, ((-1000, 780), (1000, 780))),
    # north-south
    Street("San Antonio Rd", _A, ((-640, -1000), (-640, 1000))),
    Street("Rengstorff Ave", _A, ((-470, -1000), (-470, 1000))),
    Street("Huff Ave", _H, ((-320, -1000), (-320, 1000))),
    Street("Joaquin Rd", _H, ((-170, -1000), (-170, 1000))),
    Street("Shoreline Blvd", _A, ((70, -1000), (70, 1000))),
    Street("Landings Dr", _H, ((230, -1000), (230, 1000))),
    Street("Stierlin Ct", _H, ((380, -1000), (380, 1000))),
    Street("Moffett Blvd", _A, ((560, -1000), (560, 1000))),
    Street("Bayshore Pkwy", _H, ((720, -1000), (720, 1000))),
    *(Street(name, "minor", ((-1000, y), (1000, y)))
      for name, y in (("Alta Ave", -180), ("Sierra Vista Ave", -35), ("Mercy St", 105),
                      ("Villa St", 235), ("Dana St", 385), ("Hope St", 545),
                      ("Evelyn Ave", 700), ("Armand Dr", -360), ("Spring St", -700),
                      ("Bryant St", -800), ("Sandra Ct", 880), ("Castro St", -900))),
    *(Street(name, "minor", ((x, -1000), (x, 1000)))
      for name, x in (("Independence Ave", -555), ("Alvin St", -395), ("Franklin St", -245),
                      ("Bush St", -50), ("Calderon Ave", 150), ("Oak St", 305),
                      ("Pettis Ave", 470), ("Stevens Ave", 640), ("Tyrella Ave", 800),
                      ("Reed Ave", -800), ("Mariposa Ave", -900), ("Ortega Ave", 900))),
    # the freeway, across the grid
    Street("US-101", "highway", ((-1000, 420), (-300, 360), (300, 230), (1000, 150))),
)

CREEK: tuple[Point, ...] = ((-560, -1000), (-520, -500), (-400, -120), (-360, 400),
                            (-420, 1000))
"""Permanente Creek, 14 dp wide."""
LAKE: tuple[Point, ...] = ((-1000, -1000), (1000, -1000), (1000, -640), (500, -600),
                           (200, -660), (-200, -590), (-700, -620), (-1000, -580))
"""Shoreline Lake and the bay, north of Charleston Rd."""
PARKS: tuple[tuple[float, float, float, float], ...] = (
    (-170, -430, 70, -280),     # Charleston Park
    (-470, 170, -320, 300),     # Rengstorff Park
    (380, 300, 560, 470),       # Eagle Park
    (-1000, -580, 1000, -470),  # Shoreline Park, along the water
)
"""Boxes (left, top, right, bottom), drawn under the streets."""

PLACES: tuple[Place, ...] = (
    Place("Googleplex", "landmark", (150, -190), "1600 Amphitheatre Pkwy"),
    Place("Shoreline Amphitheatre", "landmark", (-60, -520), "1 Amphitheatre Pkwy"),
    Place("Charleston Park", "park", (-50, -355), "1500 Charleston Rd"),
    Place("Rengstorff Park", "park", (-395, 235), "201 S Rengstorff Ave"),
    Place("Garcia Taqueria", "restaurants", (-240, -60), "120 Garcia Ave"),
    Place("Landings Bistro", "restaurants", (300, 100), "455 Landings Dr"),
    Place("Terra Bella Pizza", "restaurants", (-100, 230), "88 Terra Bella Ave"),
    Place("Crittenden Café", "coffee", (150, -20), "900 Crittenden Ln"),
    Place("Shoreline Coffee Roasters", "coffee", (-250, 110), "310 Huff Ave"),
    Place("Shoreline Gas", "gas", (-20, 90), "1010 Shoreline Blvd"),
    Place("Middlefield Market", "groceries", (140, 400), "700 Middlefield Rd"),
    Place("Bayshore Hotel", "hotels", (470, -60), "2000 Landings Dr"),
    Place("Plymouth Pharmacy", "pharmacies", (300, 360), "150 Plymouth St"),
    Place("Wok & Go Takeout", "takeout", (-560, 60), "60 Rengstorff Ave"),
    Place("Moffett Inn", "hotels", (640, 240), "340 Moffett Blvd"),
)
"""Places the map labels and searches find (names of our own)."""

AREA = "Mountain View"
"""The town the map shows ("Latest in Mountain View")."""


def places_for(query: str) -> list[Place]:
    """Places a search finds: those whose name holds a word of it, or whose category one of
    its words names ("coffee shops in paris" finds the cafés)."""
    words = [w for w in query.lower().split() if len(w) > 2]
    found = []
    for place in PLACES:
        cat = category(place.category)
        keys = cat.words if cat else ()
        name = place.name.lower()
        if any(w in name or any(k in w or w in k for k in keys) for w in words):
            found.append(place)
    return found
