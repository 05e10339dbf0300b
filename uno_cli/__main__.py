import sys

from uno_cli.main import main

sys.exit(main())
