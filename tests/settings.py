"""The tests' settings: the site's own, with ``DEBUG`` on as a local run has it.

``azulsite/settings.py`` fails safe (``DEBUG`` is off unless the environment turns
it on); the tests say ``DEBUG=true`` themselves, here, so ``pytest`` needs no
environment. A test that needs production settings runs ``manage.py`` with
``DEBUG=false`` in a child process (``tests/accounts/test_settings.py``).
"""

import os

os.environ.setdefault("DEBUG", "true")

from azulsite.settings import *  # noqa: E402, F403
