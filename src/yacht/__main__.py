"""``python -m yacht`` runs the ``yacht`` command."""

import sys

from yacht.cli import main

sys.exit(main())
