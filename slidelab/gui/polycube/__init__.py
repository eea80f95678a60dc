"""The polycube workbench."""
