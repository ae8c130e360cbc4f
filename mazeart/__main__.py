"""``python -m mazeart`` runs the command line."""

import sys

from mazeart.cli import main

sys.exit(main())
