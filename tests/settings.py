"""The settings of the test run: the site's own (``bummerl.settings``), with debug asked
for by name, as a developer does (``DJANGO_DEBUG=1``): the known development key and
static files without a manifest. A test that needs production settings starts a process
of its own with ``DJANGO_DEBUG=0`` and a secret key (``tests/serving.py``)."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("DJANGO_DEBUG", "1")
# Printouts are kept in a folder of this run's own, never in the project's.
os.environ.setdefault("BUMMERL_PRINT_CACHE", tempfile.mkdtemp(prefix="bummerl-printouts-"))
# Tasks run in the request that asks for them; tests/base/test_tasks.py starts a real worker.
os.environ.setdefault("BUMMERL_TASKS_SYNC", "1")

from bummerl.settings import *  # noqa: E402, F403

# The first run's one-time code (clubs.first_run) is kept in this run's own folder.
SETUP_CODE_FILE = Path(tempfile.mkdtemp(prefix="bummerl-setup-")) / "setup-code.json"
