"""``python -m generator.pool_process [TASKS,ANSWERS,...] [sites]``: the walled render process (``pool.main``).

Python's cyclic collector is off while it imports the renderers (Sphinx, docutils, WeasyPrint): it would walk
what those imports make, again and again as they are made, for nothing (a sixth of the process's start). This is
the recipe of ``gc.freeze``'s documentation for a process that forks: ``pool.main`` freezes what it imported just
before it forks the workers, and each worker turns the collector on again, so its collections leave the
renderers' modules out and its pages of them stay shared.
"""

import gc
import sys

gc.disable()

from .pool import main  # noqa: E402 - imported with the collector off

if __name__ == "__main__":
    sys.exit(main())
