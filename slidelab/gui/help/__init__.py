"""The Help menu's windows: the user guide, the keyboard shortcuts and About."""
