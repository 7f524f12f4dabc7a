"""`python -m device.cli`: the houston command."""

from device.cli import main

raise SystemExit(main())
