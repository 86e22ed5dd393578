"""The settings of the test run: the site's own (``bummerl.settings``), with debug asked
for by name, as a developer does (``DJANGO_DEBUG=1``): the known development key and
static files without a manifest. A test that needs production settings starts a process
of its own with ``DJANGO_DEBUG=0`` and a secret key (``tests/serving.py``)."""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from bummerl.settings import *  # noqa: E402, F403
