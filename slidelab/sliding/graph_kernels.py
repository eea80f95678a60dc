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
