"""Compiled kernels written once for every grid.

A kernel walks a grid through a *topology*, a small array (the square grid)
or tuple (a neighbour table) that numba specialises on: each kind of topology
compiles its own machine code from the one source, so the square grid keeps
the speed of a kernel written for it alone (see :mod:`mazeart._kernels.topology`).

- :mod:`~mazeart._kernels.topology`: the square and graph topologies and the
  questions a kernel asks of them (a cell's neighbours, opening a passage).
- :mod:`~mazeart._kernels.carve`: the graph generators (backtracker, Prim's,
  Kruskal's, Wilson's, Aldous-Broder, hunt-and-kill, growing tree).
- :mod:`~mazeart._kernels.paths`: the solvers (breadth-first search and the path
  back, A*, dead-end filling, the random depth-first search, the wall follower).
"""
