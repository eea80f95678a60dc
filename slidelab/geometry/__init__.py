"""Qt-free view data: what to draw (frames, colours), computed from the models for the GUI."""
