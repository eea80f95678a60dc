"""numba kernels over a whole configuration graph held as arrays: its components and the
distances from a set of sources (`slidelab.sliding.hardest`).

A graph is given by the ends of its edges (`parents[i]` -- `children[i]`, indices of
configurations), or, for the search, in compressed rows: the neighbours of node v are
`indices[indptr[v]:indptr[v + 1]]`.  Every move can be undone, so edges go both ways.
"""

from __future__ import annotations

import numpy as np

from slidelab.kernels import kernel


@kernel(cache=True, nogil=True)
def _root(parent, v):
    """The representative of v's set, halving the path on the way."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@kernel(cache=True, nogil=True)
def components(parents, children, label):
    """Number the connected components 0, 1, ... in order of their smallest node, into
    `label` (one entry per node); returns how many there are."""
    n = label.size
    parent = np.arange(n)
    for i in range(parents.size):
        a = _root(parent, parents[i])
        b = _root(parent, children[i])
        if a < b:
            parent[b] = a
        elif b < a:
            parent[a] = b
    count = 0
    for v in range(n):
        r = _root(parent, v)
        if r == v:
            label[v] = count
            count += 1
        else:
            label[v] = label[r]
    return count


@kernel(cache=True, nogil=True)
def distances_from(indptr, indices, sources, distance):
    """Breadth-first distances from the nodes of `sources` (all at 0) into `distance`, which
    holds -1 for every node the search never meets; returns the largest distance, or -1."""
    distance[:] = -1
    queue = np.empty(distance.size, np.int64)
    tail = 0
    for s in sources:
        if distance[s] < 0:
            distance[s] = 0
            queue[tail] = s
            tail += 1
    head = 0
    farthest = -1
    while head < tail:
        v = queue[head]
        head += 1
        farthest = distance[v]
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if distance[w] < 0:
                distance[w] = distance[v] + 1
                queue[tail] = w
                tail += 1
    return farthest


@kernel(cache=True, nogil=True)
def placements(opt_lo, opt_mask, opt_cell, same, out, count_only):
    """Every way to put one piece in each slot with no two overlapping, in order; returns
    how many there are, and unless `count_only` writes each one's anchors as a row of `out`
    (column s for slot s).

    Slot s offers options opt_lo[s]..opt_lo[s + 1]: option o covers the cells of
    `opt_mask[o]` (bits, in as many words as the board needs) from the anchor
    `opt_cell[o]`.  When `same[s]`, slot s offers the options of slot s - 1 (pieces
    that cannot be told apart) and takes a later one, so each set is met once.
    """
    slots = opt_lo.size - 1
    if slots == 0:
        return 1
    words = opt_mask.shape[1]
    taken = np.zeros((slots + 1, words), np.uint64)
    choice = np.empty(slots, np.int64)
    count = 0
    s = 0
    choice[0] = opt_lo[0] - 1
    while s >= 0:
        choice[s] += 1
        o = choice[s]
        if o >= opt_lo[s + 1]:
            s -= 1
            continue
        clash = False
        for w in range(words):
            if opt_mask[o, w] & taken[s, w]:
                clash = True
        if clash:
            continue
        for w in range(words):
            taken[s + 1, w] = taken[s, w] | opt_mask[o, w]
        if s + 1 < slots:
            s += 1
            if same[s]:
                choice[s] = choice[s - 1] - opt_lo[s - 1] + opt_lo[s]
            else:
                choice[s] = opt_lo[s] - 1
            continue
        if not count_only:
            for t in range(slots):
                out[count, t] = opt_cell[choice[t]]
        count += 1
    return count
