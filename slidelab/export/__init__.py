"""Exporters that turn rendered puzzle states into files (animated GIF solutions)."""
