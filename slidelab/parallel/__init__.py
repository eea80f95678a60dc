"""Big searches cut into subproblems: run on local processes or a Dask cluster, journaled."""
