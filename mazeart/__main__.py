"""``python -m mazeart`` and the ``mazeart`` command: the command line, Ctrl-C guarded from the
first moment (the handlers go in before the heavy imports, so an early Ctrl-C is one line too)."""

import sys

from mazeart._signals import guarded


def run() -> int:
    """The ``mazeart`` console script."""

    def start() -> int:
        from mazeart.cli import main

        status = main()
        try:  # what is still buffered, now: a full disk or a closed pipe is said here, once
            sys.stdout.flush()
        except OSError as exc:
            _quiet_stdout()
            if status == 0 and exc.errno == 32:  # EPIPE: the reader went away (| head), quiet
                status = 1
            elif status == 0:
                print(f"mazeart: error: cannot write to standard output: {exc.strerror or exc}",
                      file=sys.stderr)  # fmt: skip
                status = 2
        return status

    return guarded(start)


def _quiet_stdout() -> None:
    """Point standard output at nothing, so the interpreter's own flush at exit has
    nothing left to fail on (and prints no second message)."""
    import os

    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no standard output to point anywhere
        pass


if __name__ == "__main__":
    sys.exit(run())
