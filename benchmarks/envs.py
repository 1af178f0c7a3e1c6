#!/usr/bin/env python3
"""Environment steps per second: impulse2d.envs against gymnasium[box2d].

For each environment, in one run: Gymnasium's original (Box2D 2.3 through
pybox2d) as a single env through ``gym.make``; ours through ``gym.make``; and
our vector env (``gym.make_vec(..., vectorization_mode="vector_entry_point")``)
with 1, 2 and N worker threads. Random actions (drawn before timing), episodes
reset when they end. Prints a Markdown table (steps per second, higher is
better; ratios against Gymnasium's single env).

    python benchmarks/envs.py [--steps 5000] [--num-envs 16] [--envs LunarLander,BipedalWalker]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import gymnasium as gym

import impulse2d.envs  # noqa: F401  (registers impulse2d/*)

ENVS = {
    "LunarLander": ("LunarLander-v3", "impulse2d/LunarLander-v0", {}),
    "LunarLanderContinuous": ("LunarLander-v3", "impulse2d/LunarLander-v0", {"continuous": True}),
    "BipedalWalker": ("BipedalWalker-v3", "impulse2d/BipedalWalker-v0", {}),
    "BipedalWalkerHardcore": ("BipedalWalker-v3", "impulse2d/BipedalWalker-v0", {"hardcore": True}),
    "CarRacing": ("CarRacing-v3", "impulse2d/CarRacing-v0", {}),
}


def single_rate(env_id: str, kwargs: dict, steps: int, seed: int = 0) -> float:
    env = gym.make(env_id, **kwargs)
    env.action_space.seed(seed)
    actions = [env.action_space.sample() for _ in range(steps)]
    env.reset(seed=seed)
    start = time.perf_counter()
    for a in actions:
        _, _, terminated, truncated, _ = env.step(a)
        if terminated or truncated:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def vector_rate(env_id: str, kwargs: dict, steps: int, num_envs: int, workers: int, seed: int = 0) -> float:
    venv = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", workers=workers, **kwargs)
    venv.action_space.seed(seed)
    iterations = max(1, steps // num_envs)
    actions = [venv.action_space.sample() for _ in range(iterations)]
    venv.reset(seed=seed)
    start = time.perf_counter()
    for a in actions:
        venv.step(a)
    elapsed = time.perf_counter() - start
    venv.close()
    return iterations * num_envs / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5000, help="env steps per measurement")
    parser.add_argument("--num-envs", type=int, default=16, help="environments in a vector env")
    parser.add_argument("--envs", default="LunarLander,LunarLanderContinuous,BipedalWalker,BipedalWalkerHardcore,CarRacing")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    worker_counts = sorted({1, 2, cores})

    print(f"# {platform.processor() or platform.machine()}, {cores} cores, Python {platform.python_version()}, "
          f"gymnasium {gym.__version__}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"# {args.steps} steps per measurement, vector envs of {args.num_envs}")
    header = ["env", "Gymnasium (pybox2d)", "ours, single", "ratio"]
    header += [f"ours, vector {w} worker{'s' if w > 1 else ''}" for w in worker_counts]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name in args.envs.split(","):
        theirs_id, ours_id, kwargs = ENVS[name]
        if ours_id not in gym.registry:
            print(f"| {name} | | not registered in impulse2d.envs | | " + " | " * len(worker_counts))
            continue
        try:
            theirs = single_rate(theirs_id, kwargs, args.steps)
        except Exception as e:  # gymnasium[box2d] missing
            theirs = float("nan")
            print(f"# {theirs_id}: {type(e).__name__}: {e}")
        ours = single_rate(ours_id, kwargs, args.steps)
        row = [name, f"{theirs:,.0f}", f"{ours:,.0f}", f"{ours / theirs:.1f}×"]
        for w in worker_counts:
            row.append(f"{vector_rate(ours_id, kwargs, args.steps * 2, args.num_envs, w):,.0f}")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
