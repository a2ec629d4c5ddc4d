"""`python -m boardwright` runs the command line."""
from boardwright.cli.main import main

raise SystemExit(main())
