"""Generated assets of the simulated phone (procedural wallpapers)."""
