import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while Python was still starting: no traceback for that either
    print("rulepress: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
