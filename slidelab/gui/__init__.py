"""The desktop app: everything that imports Qt lives here and nowhere else."""
