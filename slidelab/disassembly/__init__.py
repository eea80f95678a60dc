"""Taking 3D assemblies apart by sliding pieces, as BurrTools' disassembler does.

The moves are the sliding-block family's superpiece moves in three dimensions:
the sets of pieces that can slide together are the ideals of the who-blocks-whom
digraph of each direction, and a set that can slide arbitrarily far separates.
"""
