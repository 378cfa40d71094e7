import sys

from carto_core.entry import main

sys.exit(main())
