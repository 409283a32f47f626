"""Pixel primitives of the simulated phone: shaped text, Material Symbols, app icons."""
