#!/usr/bin/env python3
"""Times two builds of impulse2d-compare against each other, interleaved by process.

Build A is the default build (no RUSTFLAGS: Impulse2D picks its SIMD path at run time;
Box2D in its default SSE2 build), build B the forced x86-64-v3 build (RUSTFLAGS
"-C target-cpu=x86-64-v3"; Box2D with AVX2). Each repeat runs every scene once in
each binary (order alternating between repeats), each run timing Impulse2D and Box2D
interleaved in one process; the figures are medians over repeats of thread CPU
ms/step. scripts/compare-builds.sh builds the two binaries and calls this.

Beside the ratio of medians it prints two statistics that resist a virtual machine's
slow swings (whole seconds of a slower or faster host): the median over repeats of the
paired ratio (A and B timed back to back in the same repeat), and the ratio of the
fastest A run to the fastest B run. Timing a binary against a copy of itself
(A = B) shows how far these figures move on identical code.

    compare_builds.py A_BIN B_BIN [--repeats N] [--steps N] [--scenes a,b] [--json FILE]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SCENES = ["joint_grid", "large_pyramid", "many_pyramids", "rain", "smash", "spinner", "tumbler"]


def run(binary, scene, steps, engines, out_dir):
    cmd = [binary, "--scenes", scene, "--engines", engines, "--steps", str(steps),
           "--rounds", "1", "--clock", "cpu", "--json", "--out", out_dir]
    result = subprocess.run(cmd, check=True, capture_output=True, text=True)
    data = json.loads(result.stdout)
    figures = {}
    for engine in data["scenes"][0]["engines"]:
        figures[engine["engine"]] = engine["median_cpu_ms_per_step"]
    notes = {e["name"]: e["note"] for e in data["engines"]}
    return figures, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--scenes", default=",".join(SCENES))
    parser.add_argument("--engines", default="impulse2d,box2d",
                        help="impulse2d,box2d (default) or impulse2d alone")
    parser.add_argument("--json")
    args = parser.parse_args()
    scenes = [s for s in args.scenes.split(",") if s]
    samples = {(s, build, engine): [] for s in scenes for build in "ab"
               for engine in ("Impulse2D", "Box2D")}
    notes = {}
    with tempfile.TemporaryDirectory() as out_dir:
        for repeat in range(args.repeats):
            for scene in scenes:
                order = [("a", args.a), ("b", args.b)]
                if repeat % 2 == 1:
                    order.reverse()
                for build, binary in order:
                    figures, build_notes = run(binary, scene, args.steps, args.engines, out_dir)
                    notes[build] = build_notes
                    for engine, ms in figures.items():
                        samples[(scene, build, engine)].append(ms)
                print(f"repeat {repeat + 1}/{args.repeats}: {scene} done", file=sys.stderr)

    med = {k: statistics.median(v) for k, v in samples.items() if v}
    robust = {}
    for s in scenes:
        a, b = samples[(s, "a", "Impulse2D")], samples[(s, "b", "Impulse2D")]
        robust[s] = (statistics.median(x / y for x, y in zip(a, b)), min(a) / min(b))
    box2d = "box2d" in args.engines
    if box2d:
        print("| scene | ours default (ms) | ours x86-64-v3 (ms) | ours default / v3 | "
              "Box2D SSE2 (ms) | Box2D AVX2 (ms) | Box2D SSE2 / AVX2 | "
              "ours default / Box2D SSE2 | ours default / Box2D AVX2 | ours v3 / Box2D AVX2 |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    else:
        print("| scene | ours default (ms) | ours x86-64-v3 (ms) | ours default / v3 | "
              "median of paired ratios | fastest runs | spread of default runs (max/min) |")
        print("|---|---|---|---|---|---|---|")
    rows = []
    for s in scenes:
        oa, ob = med[(s, "a", "Impulse2D")], med[(s, "b", "Impulse2D")]
        spread = max(samples[(s, "a", "Impulse2D")]) / min(samples[(s, "a", "Impulse2D")])
        if not box2d:
            rows.append({"scene": s, "ours_default": oa, "ours_v3": ob,
                         "ours_default_spread": spread, "paired_ratio": robust[s][0],
                         "fastest_ratio": robust[s][1],
                         "samples": {f"{b}/Impulse2D": samples[(s, b, "Impulse2D")]
                                     for b in "ab"}})
            print(f"| {s} | {oa:.3f} | {ob:.3f} | {oa / ob:.3f} | {robust[s][0]:.3f} | "
                  f"{robust[s][1]:.3f} | {spread:.3f} |")
            continue
        ba, bb = med[(s, "a", "Box2D")], med[(s, "b", "Box2D")]
        rows.append({"scene": s, "ours_default": oa, "ours_v3": ob, "box2d_sse2": ba,
                     "box2d_avx2": bb, "ours_default_spread": spread,
                     "paired_ratio": robust[s][0], "fastest_ratio": robust[s][1],
                     "samples": {f"{b}/{e}": samples[(s, b, e)] for b in "ab"
                                 for e in ("Impulse2D", "Box2D")}})
        print(f"| {s} | {oa:.3f} | {ob:.3f} | {oa / ob:.3f} | {ba:.3f} | {bb:.3f} | "
              f"{ba / bb:.3f} | {oa / ba:.2f} | {oa / bb:.2f} | {ob / bb:.2f} | "
              f"{robust[s][0]:.3f} | {robust[s][1]:.3f} |")
    print()
    for build, label in (("a", "A (default build)"), ("b", "B (x86-64-v3 build)")):
        for engine, note in notes.get(build, {}).items():
            print(f"- {label}, {engine}: {note}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"repeats": args.repeats, "steps": args.steps, "rows": rows,
                       "notes": notes, "loadavg": os.getloadavg()}, f, indent=1)


if __name__ == "__main__":
    main()
