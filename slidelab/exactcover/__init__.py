"""Exact cover by dancing links: problems, Knuth's DLX files, kernels and a resumable search."""
