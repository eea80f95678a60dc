"""The sliding-block workbench."""
