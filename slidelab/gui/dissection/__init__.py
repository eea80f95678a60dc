"""The dissection workbench."""
