"""``python -m mazeart`` and the ``mazeart`` command: the command line, Ctrl-C guarded from the
first moment (the handlers go in before the heavy imports, so an early Ctrl-C is one line too)."""

import sys

from mazeart._signals import guarded


def run() -> int:
    """The ``mazeart`` console script."""

    def start() -> int:
        from mazeart.cli import main

        return main()

    return guarded(start)


if __name__ == "__main__":
    sys.exit(run())
