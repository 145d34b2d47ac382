"""The rules of Azul and Azul: Summer Pavilion, in pure Python (no Django).

- ``common``: errors, drawing tiles, the outcome, the ``Game`` protocol.
- ``classic``: classic Azul, coloured and grey wall (``docs/rules/azul.md``).
- ``pavilion``: Azul: Summer Pavilion, both sides (``docs/rules/summer-pavilion.md``).
- ``record``: game records (``docs/record.md``): export, import, replay, random games.
- ``bots``: computer players, easy, medium and strong, for every variant (issue #16).

Run ``python -m games.engine --help`` for the ``replay``, ``random`` and ``suggest``
commands.

Importing the package imports both families, which register their game classes
with ``variants`` (the registry of plain data that they import, not the reverse).
"""

from . import classic as classic
from . import pavilion as pavilion
