#!/usr/bin/env python3
"""Evolution strategies on ``impulse2d/LunarLander-v0``, spread over Ray actors.

Antithetic Gaussian perturbations, centred-rank fitness shaping, Adam (or
plain SGD), a one-hidden-layer ``tanh`` numpy policy (``--hidden 0``: linear).
Each Ray actor owns one vector environment of ``--envs-per-worker`` worlds
stepped in Rust; candidate ``j`` of an iteration always plays the same
environment seed, so a run is reproducible from ``--seed`` bit for bit
whatever ``--workers`` is.

Writes ``<out>.csv`` (one row per iteration: the batch's mean and best return,
the current policy's mean return on the validation seeds, steps, wall time),
``<out>.png`` (the learning curve; matplotlib if installed, else a plain
plot of our own), ``<out>.npy`` (the final parameters) and prints the final
policy's mean return on held-out seeds beside the zero policy's.

    python examples/es_lunar_lander.py                       # local 2-CPU cluster
    python examples/es_lunar_lander.py --workers 4 --address auto   # an existing cluster
    python examples/es_lunar_lander.py --workers 0           # no Ray, in-process

Seeds: iteration ``i`` trains on environment seeds ``seed * 1_000_003 + i *
pairs + j``; validation uses ``VALIDATION_SEED + j`` and the final check
``HELD_OUT_SEED + j``, seeds no training episode plays.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import struct
import sys
import time
import zlib

import numpy as np

from impulse2d.distributed import MLPPolicy, RolloutPool, RolloutWorker, es_train

VALIDATION_SEED = 1_000_000_000
HELD_OUT_SEED = 2_000_000_000


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])

    def optional_limit(flag, kind, help_text):
        """A limit that is off (None) unless given."""
        p.add_argument(flag, type=kind, default=None, help=help_text)

    p.add_argument("--env", default="impulse2d/LunarLander-v0", help="gymnasium id (default %(default)s)")
    p.add_argument("--iterations", type=int, default=300, help="ES iterations (default %(default)s)")
    p.add_argument("--pairs", type=int, default=32, help="antithetic pairs per iteration (default %(default)s)")
    p.add_argument("--sigma", type=float, default=0.1, help="perturbation scale (default %(default)s)")
    p.add_argument("--lr", type=float, default=0.03, help="learning rate (default %(default)s)")
    p.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    p.add_argument("--weight-decay", type=float, default=0.005, help="L2 pull toward 0 (default %(default)s)")
    p.add_argument("--hidden", type=int, default=16, help="hidden units, 0 for linear (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="run seed, 0..999 (default %(default)s)")
    optional_limit("--max-episode-steps", int, "training episode limit (default: the environment's, 1000); validation and held-out use the environment's")
    p.add_argument("--workers", type=int, default=2, help="Ray actors; 0 = no Ray, in-process (default %(default)s)")
    p.add_argument("--envs-per-worker", type=int, default=16, help="worlds per actor (default %(default)s)")
    p.add_argument("--threads", type=int, default=1, help="Rust threads (and Ray CPUs) per actor (default %(default)s)")
    p.add_argument("--address", default=None, help="an existing Ray cluster ('auto', 'ray://host:10001'); default: start a local one")
    p.add_argument("--eval-every", type=int, default=5, help="validate the policy every N iterations (default %(default)s)")
    p.add_argument("--eval-episodes", type=int, default=16, help="validation episodes (default %(default)s)")
    p.add_argument("--held-out", type=int, default=10, help="held-out episodes at the end (default %(default)s)")
    optional_limit("--max-minutes", float, "stop after the first validation past this many minutes (the run then depends on the machine's speed)")
    p.add_argument("--keep", choices=("best", "last"), default="best", help="final policy: best validated or last")
    p.add_argument("--out", default="es_lunar_lander", help="output path prefix for .csv/.png/.npy (default %(default)s)")
    p.add_argument(
        "--evaluate",
        metavar="NPY",
        default=None,
        help="no training: the held-out check of saved parameters (an .npy this script wrote)",
    )
    p.add_argument("--no-plot", action="store_true", help="write no PNG")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if not 0 <= args.seed < 1000:
        p.error("--seed must be in 0..999 (training seeds stay below the validation seeds)")
    for name in ("iterations", "pairs", "envs_per_worker", "threads", "eval_every", "eval_episodes", "held_out"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.workers < 0 or args.hidden < 0 or not (args.sigma > 0 and args.lr > 0 and args.weight_decay >= 0):
        p.error("--workers/--hidden must be >= 0, --sigma/--lr > 0, --weight-decay >= 0")
    return args


class Progress:
    """A one-line progress bar on stderr (a line every tenth of the run when
    stderr is not a terminal)."""

    def __init__(self, total: int, enabled: bool = True):
        self.total, self.enabled = total, enabled
        self.tty = sys.stderr.isatty()
        self.t0 = time.perf_counter()

    def update(self, done: int, text: str) -> None:
        if not self.enabled:
            return
        if not self.tty and done != self.total and done % max(1, self.total // 10):
            return
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / done * (self.total - done) if done else 0.0
        bar = "#" * (30 * done // self.total)
        line = f"[{bar:<30}] {done}/{self.total} {elapsed:6.0f}s eta {eta:5.0f}s {text}"
        sys.stderr.write(("\r" + line) if self.tty else line + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\n")


def start_ray(args):
    """Ray connected: to ``--address``, to an already initialised session, or
    to a new local cluster bound to loopback. Returns (ray, whether we started
    it, so must shut it down)."""
    import ray

    if ray.is_initialized():
        return ray, False
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(
            num_cpus=args.workers * args.threads,
            include_dashboard=False,
            _node_ip_address="127.0.0.1",
            log_to_driver=False,
        )
    return ray, True


def run(args) -> dict:
    """The training run; returns its results (also written to the files)."""
    env_kwargs = {} if args.max_episode_steps is None else {"max_episode_steps": args.max_episode_steps}
    policy_spec = {"hidden": (args.hidden,) if args.hidden else ()}
    ray = pool = trainer = None
    shutdown = False
    # Validation and the held-out check run in-process on the full-length environment.
    checker = RolloutWorker(args.env, min(args.eval_episodes, 16), 1, None, policy_spec)
    try:
        if args.workers == 0:
            trainer = RolloutWorker(args.env, args.envs_per_worker, args.threads, env_kwargs, policy_spec)
            evaluate_fn, policy = trainer.evaluate, trainer.policy
        else:
            ray, shutdown = start_ray(args)
            pool = RolloutPool(args.env, args.workers, args.envs_per_worker, args.threads, env_kwargs, policy_spec)
            evaluate_fn, policy = pool.evaluate, pool.policy
        return _train(args, evaluate_fn, policy, checker)
    finally:
        checker.close()
        if pool is not None:
            pool.close()
        if trainer is not None:
            trainer.close()
        if shutdown:
            ray.shutdown()


def _train(args, evaluate_fn, policy: MLPPolicy, checker: RolloutWorker) -> dict:
    def validate(theta: np.ndarray, seed: int, n: int) -> float:
        returns, _ = checker.evaluate(np.repeat(theta[None, :], n, axis=0), seed)
        return float(returns.mean())

    theta0 = policy.initial(args.seed)
    zero_validation = validate(np.zeros_like(theta0), VALIDATION_SEED, args.eval_episodes)
    start_validation = validate(theta0, VALIDATION_SEED, args.eval_episodes)
    rows: list[dict] = []
    best = {"validation": start_validation, "theta": theta0.copy(), "iteration": 0}
    state = {"steps": 0, "t0": time.perf_counter()}
    bar = Progress(args.iterations, not args.quiet)
    # The CSV grows a row per iteration and the kept parameters are saved as
    # they improve, so a long run stopped early leaves its results so far.
    out = open(args.out + ".csv", "w", newline="")
    table = csv.DictWriter(out, FIELDS)
    table.writeheader()

    def on_iteration(i: int, theta: np.ndarray, returns: np.ndarray, steps: np.ndarray) -> None:
        state["steps"] += int(steps.sum())
        it = i + 1
        val = math.nan
        if it % args.eval_every == 0 or it == args.iterations:
            val = validate(theta, VALIDATION_SEED, args.eval_episodes)
            if val > best["validation"] or args.keep == "last":
                best.update(validation=val, theta=theta.copy(), iteration=it)
                np.save(args.out + ".npy", theta)
        row = {
            "iteration": it,
            "batch_mean": float(returns.mean()),
            "batch_max": float(returns.max()),
            "validation_mean": val,
            "env_steps": state["steps"],
            "wall_s": round(time.perf_counter() - state["t0"], 3),
        }
        rows.append(row)
        table.writerow({k: ("" if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()})
        out.flush()
        bar.update(it, f"batch {returns.mean():8.1f}  validation {best['validation']:7.1f} (best)")
        # A time limit ends the run after a validation, so the last row has one.
        return args.max_minutes is not None and row["wall_s"] > 60 * args.max_minutes and not math.isnan(val)

    try:
        _, curve = es_train(
            evaluate_fn,
            policy.num_params,
            args.iterations,
            args.pairs,
            args.seed,
            args.sigma,
            args.lr,
            optimizer=args.optimizer,
            weight_decay=args.weight_decay,
            theta=theta0,
            callback=on_iteration,
        )
    finally:
        out.close()
        bar.close()
    wall = time.perf_counter() - state["t0"]
    theta = best["theta"]
    held_out, held_steps = checker.evaluate(np.repeat(theta[None, :], args.held_out, axis=0), HELD_OUT_SEED)
    zero_held_out, _ = checker.evaluate(np.zeros((args.held_out, policy.num_params)), HELD_OUT_SEED)

    np.save(args.out + ".npy", theta)
    if not args.no_plot:
        _plot(args.out + ".png", rows, zero_validation)
    result = {
        "curve": curve,
        "rows": rows,
        "theta": theta,
        "kept_iteration": best["iteration"],
        "zero_validation": zero_validation,
        "start_validation": start_validation,
        "best_validation": best["validation"],
        "held_out": held_out,
        "held_out_steps": held_steps,
        "zero_held_out": zero_held_out,
        "env_steps": state["steps"],
        "wall_s": wall,
    }
    print(
        f"{len(rows)} iterations, {state['steps']} env steps in {wall:.0f} s; "
        f"policy of iteration {best['iteration']}: validation {best['validation']:.1f} "
        f"(zero policy {zero_validation:.1f}); held-out mean return {held_out.mean():.1f} "
        f"over {args.held_out} seeds (min {held_out.min():.1f}; zero policy {zero_held_out.mean():.1f})"
    )
    return result


FIELDS = ["iteration", "batch_mean", "batch_max", "validation_mean", "env_steps", "wall_s"]


def _plot(path: str, rows: list[dict], zero: float) -> None:
    it = [r["iteration"] for r in rows]
    batch = [r["batch_mean"] for r in rows]
    val = [(r["iteration"], r["validation_mean"]) for r in rows if not math.isnan(r["validation_mean"])]
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        _plain_plot(path, it, batch, val, zero)
        return
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.plot(it, batch, color="#9bb7d4", lw=1, label="batch mean (perturbed policies)")
    if val:
        ax.plot(*zip(*val), color="#c0392b", lw=2, marker=".", label="policy, validation seeds")
    ax.axhline(zero, color="gray", ls=":", label="zero policy")
    ax.axhline(200, color="green", ls="--", label="solved (200)")
    ax.set_xlabel("iteration")
    ax.set_ylabel("episode return")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _plain_plot(path, it, batch, val, zero, width=640, height=400) -> None:
    """The learning curve as a PNG without matplotlib: batch mean in light
    blue, validation in red, the zero policy grey, 200 green; no text."""
    pix = bytearray(b"\xff" * (width * height * 3))
    ys = batch + [v for _, v in val] + [zero, 200.0]
    lo, hi = min(ys), max(ys)
    hi = hi if hi > lo else lo + 1.0
    m = 30
    x_max = max(it[-1], 2) if it else 2

    def to_px(x, y):
        return (m + (x - 1) * (width - 2 * m) / (x_max - 1), height - m - (y - lo) * (height - 2 * m) / (hi - lo))

    def dot(x, y, c):
        if 0 <= x < width and 0 <= y < height:
            i = (y * width + x) * 3
            pix[i : i + 3] = c

    def line(p, q, c, dash=False):
        (x0, y0), (x1, y1) = p, q
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for s in range(n + 1):
            if dash and (s // 6) % 2:
                continue
            t = s / n
            dot(round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t), c)

    black, grey, green, blue, red = b"\0\0\0", b"\x80\x80\x80", b"\0\x90\0", b"\x9b\xb7\xd4", b"\xc0\x39\x2b"
    line((m, m), (m, height - m), black)
    line((m, height - m), (width - m, height - m), black)
    for y, c in ((zero, grey), (200.0, green)):
        line(to_px(1, y), to_px(x_max, y), c, dash=True)
    for series, c in ((list(zip(it, batch)), blue), (val, red)):
        for a, b in zip(series, series[1:]):
            line(to_px(*a), to_px(*b), c)
    raw = b"".join(b"\0" + bytes(pix[r * width * 3 : (r + 1) * width * 3]) for r in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def held_out_check(args) -> dict:
    """``--evaluate``: saved parameters and the zero policy on the held-out seeds."""
    policy_spec = {"hidden": (args.hidden,) if args.hidden else ()}
    checker = RolloutWorker(args.env, min(args.held_out, 16), 1, None, policy_spec)
    try:
        theta = np.load(args.evaluate)
        params = np.repeat(np.asarray(theta, dtype=np.float64)[None, :], args.held_out, axis=0)
        returns, steps = checker.evaluate(params, HELD_OUT_SEED)
        zero, _ = checker.evaluate(checker.policy.zeros(args.held_out), HELD_OUT_SEED)
    finally:
        checker.close()
    print(f"held-out seeds {HELD_OUT_SEED}..{HELD_OUT_SEED + args.held_out - 1}:")
    print("returns", " ".join(f"{r:.1f}" for r in returns), "steps", " ".join(str(s) for s in steps))
    print(f"mean return {returns.mean():.1f} (min {returns.min():.1f}); zero policy {zero.mean():.1f}")
    return {"held_out": returns, "held_out_steps": steps, "zero_held_out": zero}


def main(argv=None) -> dict:
    args = parse_args(argv)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    return held_out_check(args) if args.evaluate else run(args)


if __name__ == "__main__":
    main()
