"""Every square generator here against another checkout of mazeart, side by side in one run.

    git worktree add /tmp/before <commit>                 # the tree to compare against
    python benchmarks/bench_versus.py /tmp/before         # from the repository root
    python benchmarks/bench_versus.py /tmp/before --size 1000 --rounds 4 --repeat 5

Each round times both trees in turn, each in a fresh process that imports its own
package, with every kernel compiled (``MAZEART_JIT=always``; ``MAZEART_AOT=0`` for a
tree that still had kernels built ahead of time): every registered generator's function
(weights in, ``Maze`` out) and the whole ``generate()``, on an all-free ``size x size``
preset, best of ``--repeat`` calls after a warm-up. The table keeps each tree's best over
the rounds and prints the ratio now / before (the issue's bar: within 5 %).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

_PROBE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from mazeart import ALGORITHMS, generate
size, repeat = int(sys.argv[2]), int(sys.argv[3])
weights = np.zeros((size, size), np.int32)
out = {}
for name, spec in sorted(ALGORITHMS.items()):
    try:
        spec.func(weights, np.random.default_rng(0))
        generate(weights, algorithm=name, rng=0)
    except Exception:
        continue
    fn = whole = float("inf")
    for i in range(repeat):
        t = time.perf_counter()
        spec.func(weights, np.random.default_rng(i))
        fn = min(fn, time.perf_counter() - t)
        t = time.perf_counter()
        generate(weights, algorithm=name, rng=i)
        whole = min(whole, time.perf_counter() - t)
    out[name] = (fn, whole)
print(json.dumps(out))
"""


def probe(tree: Path, size: int, repeat: int) -> dict[str, tuple[float, float]]:
    env = {**os.environ, "MAZEART_AOT": "0", "MAZEART_JIT": "always"}
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tree), str(size), str(repeat)],
        capture_output=True, text=True, env=env, check=True, cwd=tree,
    )  # fmt: skip
    return json.loads(run.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("before", type=Path, help="the other checkout (its repository root)")
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    best: dict[str, dict[str, list[float]]] = {"before": {}, "now": {}}
    for _ in range(args.rounds):
        for label, tree in (("before", args.before.resolve()), ("now", HERE)):
            for name, times in probe(tree, args.size, args.repeat).items():
                kept = best[label].setdefault(name, [float("inf"), float("inf")])
                best[label][name] = [min(a, b) for a, b in zip(kept, times, strict=True)]
    n, rounds, repeat = args.size, args.rounds, args.repeat
    print(f"{n} x {n} free, best of {rounds} rounds x {repeat} calls (ms)")
    print(f"{'algorithm':16} {'before fn':>9} {'now fn':>9} {'ratio':>6} "
          f"{'before gen':>10} {'now gen':>9} {'ratio':>6}")  # fmt: skip
    for name in sorted(set(best["before"]) & set(best["now"])):
        (bf, bg), (nf, ng) = best["before"][name], best["now"][name]
        print(f"{name:16} {bf * 1e3:9.1f} {nf * 1e3:9.1f} {nf / bf:6.2f} "
              f"{bg * 1e3:10.1f} {ng * 1e3:9.1f} {ng / bg:6.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
