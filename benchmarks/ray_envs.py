#!/usr/bin/env python3
"""Environment steps per second through Ray actors beside the same vector env
in-process (issue 25).

Each configuration steps vector environments for a fixed number of steps
(autoresetting) under the policy the ES example trains (one hidden layer of 16
``tanh`` units, numpy, in Python), and reports environment steps per second of
wall time seen by the driver:

- in-process: one ``RolloutWorker`` (``--num-envs`` worlds, 1 Rust thread);
- Ray, 1 actor: the same worker as a Ray actor (``ray.get`` included);
- in-process, 2 threads: ``2 * --num-envs`` worlds on 2 Rust threads;
- Ray, 2 actors: two actors of ``--num-envs`` worlds each, in parallel.

    python benchmarks/ray_envs.py --steps 2000 --num-envs 16 --repeat 3

Needs ``ray`` and ``gymnasium``; starts a local 2-CPU Ray cluster on loopback.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from impulse2d.distributed import RolloutWorker

POLICY = {"hidden": (16,)}


def params_for(worker_policy, n: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    theta = worker_policy.initial(0)
    return theta[None, :] + 0.1 * rng.standard_normal((n, theta.size))


def best_rate(fn, repeat: int) -> float:
    """The best of ``repeat`` runs of ``fn`` (returning env steps), in steps/s."""
    rates = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        steps = fn()
        rates.append(steps / (time.perf_counter() - t0))
    return max(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", default="impulse2d/LunarLander-v0")
    ap.add_argument("--num-envs", type=int, default=16, help="worlds per actor (default %(default)s)")
    ap.add_argument("--steps", type=int, default=2000, help="vector steps per run (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration; the best counts")
    args = ap.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    n, steps = args.num_envs, args.steps
    rows = []

    local = RolloutWorker(args.env, n, 1, None, POLICY)
    p1 = params_for(local.policy, n)
    rows.append(("in-process, 1 thread", n, best_rate(lambda: local.run_steps(p1, 0, steps)[0], args.repeat)))
    local.close()
    local2 = RolloutWorker(args.env, 2 * n, 2, None, POLICY)
    p2 = params_for(local2.policy, 2 * n)
    rows.append(("in-process, 2 threads", 2 * n, best_rate(lambda: local2.run_steps(p2, 0, steps)[0], args.repeat)))
    local2.close()

    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    try:
        remote = ray.remote(num_cpus=1)(RolloutWorker)
        actors = [remote.remote(args.env, n, 1, None, POLICY) for _ in range(2)]
        ray.get([a.num_params.remote() for a in actors])
        # Warm up (first calls import numpy paths, etc.).
        ray.get([a.run_steps.remote(p1, 0, 10) for a in actors])

        def one():
            return ray.get(actors[0].run_steps.remote(p1, 0, steps))[0]

        def two():
            return sum(s for s, _ in ray.get([a.run_steps.remote(p1, 0, steps) for a in actors]))

        rows.append(("Ray, 1 actor x 1 thread", n, best_rate(one, args.repeat)))
        rows.append(("Ray, 2 actors x 1 thread", 2 * n, best_rate(two, args.repeat)))
        for a in actors:
            ray.kill(a)
    finally:
        ray.shutdown()

    load = os.getloadavg()
    print(f"{args.env}, {steps} vector steps per run, best of {args.repeat}; load average {load[0]:.1f}")
    print("| configuration | worlds | env steps/s |")
    print("|---|---|---|")
    for name, worlds, rate in rows:
        print(f"| {name} | {worlds} | {rate:,.0f} |")
    base = rows[0][2]
    ray1, ray2 = rows[2][2], rows[3][2]
    print(f"Ray overhead (1 actor vs in-process): {100 * (1 - ray1 / base):.1f} %")
    print(f"2 actors / 1 actor: {ray2 / ray1:.2f}x; 2 threads / 1 thread in-process: {rows[1][2] / base:.2f}x")


if __name__ == "__main__":
    main()
