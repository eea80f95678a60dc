"""`python -m slidelab` runs the `slidelab` command."""

from slidelab.cli import main

raise SystemExit(main())
