"""``python -m generator.examples.host ROOT CHANNELS``: the walled host's process (``walled.main``).

Python's cyclic collector is off while the host imports the engine and loads the project: it would walk the
objects those make, again and again as they are made, for nothing (they all live as long as the host): some
milliseconds of each host's start, and a check starts one host per project. ``walled.main`` freezes what they
made (gc.freeze's recipe for a process that forks: the confined children leave it out of their collections) and
turns the collector on before it runs anything asked.
"""

import gc
import sys

gc.disable()

from .walled import main  # noqa: E402 - imported with the collector off

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
