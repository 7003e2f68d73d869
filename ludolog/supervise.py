"""Run a Celery worker (or beat) and start it again whenever it exits: ``make worker``, ``make beat``.

    python -m ludolog.supervise worker --loglevel=info
    python -m ludolog.supervise beat --loglevel=info

Anything after the program's name goes to ``celery -A ludolog``. A worker that dies (killed, out of
memory, an unrecoverable error) would otherwise stop scoring until someone noticed; its tasks are
delivered again (``acks_late``) and the sweep queues what no task finished, so starting it again
is all it takes. A process that keeps dying at once is started again after a growing pause (1 s,
doubling up to 30 s). SIGTERM is passed on and ends the loop once the program has stopped; Ctrl-C
reaches the program from the terminal by itself, and ends the loop too.

On a host with a service manager, let it do this instead (systemd: ``Restart=always``, see
``ludolog/deploy/systemd/``): this loop is for machines without one, and for the tests.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

FIRST_PAUSE = 1.0
LONGEST_PAUSE = 30.0
# A run at least this long was healthy: the next restart comes after the first pause again.
STEADY_SECONDS = 60.0


def say(message: str) -> None:
    print(f"ludolog.supervise: {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        say("usage: python -m ludolog.supervise worker|beat [celery options]")
        return 2
    command = [sys.executable, "-m", "celery", "-A", "ludolog", *args]
    stopping = False
    child: subprocess.Popen | None = None

    def stop(signum: int, _frame) -> None:
        nonlocal stopping
        stopping = True
        # Ctrl-C already reached the whole process group: a second SIGINT would make a worker
        # abandon its tasks (cold shutdown).
        if signum == signal.SIGTERM and child is not None and child.poll() is None:
            child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    pause = FIRST_PAUSE
    while True:
        started = time.monotonic()
        child = subprocess.Popen(command)
        say(f"started celery {args[0]} (pid {child.pid})")
        code = child.wait()
        if stopping:
            return code
        ran = time.monotonic() - started
        pause = FIRST_PAUSE if ran >= STEADY_SECONDS else min(pause * 2, LONGEST_PAUSE)
        say(f"celery {args[0]} (pid {child.pid}) exited with {code} after {ran:.0f} s; "
            f"starting it again in {pause:.0f} s")
        deadline = time.monotonic() + pause
        while not stopping and time.monotonic() < deadline:
            time.sleep(0.1)
        if stopping:
            return code


if __name__ == "__main__":
    sys.exit(main())
