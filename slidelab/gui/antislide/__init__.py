"""The antislide workbench."""
