"""BurrTools interchange: `.xmpuzzle` files read, written, converted and solved as exact cover.

model.py (the puzzle as values), voxels.py (voxel strings), reader.py and
writer.py (the gzip-compressed XML), convert.py (polycube specs to puzzles),
packing.py (a problem as exact cover), assemblies.py (counting as BurrTools
does), command.py (the `slidelab polycube FILE.xmpuzzle` front end).
"""
