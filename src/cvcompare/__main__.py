"""``python -m cvcompare``: the ``cvcompare`` command line (:mod:`cvcompare.cli`)."""

from cvcompare.cli import main

raise SystemExit(main())
