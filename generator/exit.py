"""How the `rulepress` process ends: with the status its command returned, 130 after Ctrl-C included.

Kept apart from ``cli`` so ``python -m generator`` can end this way even when Ctrl-C stops it while it is
still importing ``cli``.
"""

import gc
import signal
import sys

INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
INTERNAL = 70  # EX_SOFTWARE: any failure that is the engine's, not the rules'


def exit_with(status: int):
    """End the process with ``status``. After Ctrl-C, SIGINT is blocked first: a Ctrl-C that landed in an
    extension module's start-up code (run with ``PyRun_String``) leaves CPython set to kill itself with SIGINT
    at exit, whatever caught it; blocked, that kill does nothing and the status stays 130, as the one line
    already printed says."""
    # The command is done: a Ctrl-C now changes nothing but would kill the teardown. CPython's finalization sets a
    # Python-handled SIGINT back to the default (it leaves an ignored one ignored), so a Ctrl-C landing while it
    # closes walled hosts and frees memory ended the process by the signal (status -2, no line said).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if status == INTERRUPTED:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    # Teardown ends with a full collection, which walks every object the command made only to find what the process
    # frees anyway as it ends (a tenth of a short command's time). Frozen, they are left out of it; the exit
    # functions (walled hosts closed, files flushed) run as before.
    gc.freeze()
    sys.exit(status)
