import sys

from .exit import INTERRUPTED, exit_with

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while Python was still starting: no traceback for that either
    command = next((word for word in sys.argv[1:] if word in ("build", "serve", "export")), None)
    left = "; build/ is left as it was" if command else ""
    print(f"rulepress: interrupted{left}", file=sys.stderr)
    exit_with(INTERRUPTED)

exit_with(main())
