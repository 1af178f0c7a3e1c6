// One run, side by side in node: ms/step of Box2D's large pyramid and joint
// grid benchmarks in our wasm build, in rapier.js (@dimforge/rapier2d-compat,
// its wasm inside) and in our native build (the impulse2d command-line tool).
// 1/60 s steps; ours with 4 substeps, Rapier with 4 solver iterations (its
// substeps), single-threaded everywhere. The same scene layouts as
// crates/impulse2d-scenes (benchmarks.rs, joints.rs) and the Rapier mapping of
// crates/impulse2d-compare (friction 0.6, joints without contacts).
//
// Usage (after scripts/web.sh build and `npm ci` here):
//   node bench.mjs [STEPS]     (default 500, Box2D's count for both scenes)
// IMPULSE2D_CLI: the native binary (default target/release/impulse2d).
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import RAPIER from '@dimforge/rapier2d-compat';
import init, { World } from '../pkg/index.js';

const steps = Number(process.argv[2] ?? 500);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = process.env.IMPULSE2D_CLI ?? `${root}target/release/impulse2d`;
const DT = 1 / 60;

await init();
await RAPIER.init();

/** Mean ms per step of `step()` over `steps` steps: wall clock and this
 * process's CPU time (user + system; the step is single-threaded). */
function time(step) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) step();
  const wall = (performance.now() - t0) / steps;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 / steps };
}

function oursWasm(scene) {
  const world = World.fromScene(scene);
  const ms = time(() => world.step(DT, 4));
  world.free();
  return ms;
}

/** The native CLI's mean wall ms/step, and its CPU ms/step: the child's CPU
 * time (bash `times`) for `steps` steps minus that for 1 step (the build). */
function native(scene, simd) {
  const run = (n) => execFileSync('bash', ['-c', `"$0" run "$1" --steps "$2" --simd "$3" --json; times`, cli, scene, String(n), simd], { encoding: 'utf8' });
  const childCpu = (out) => {
    const line = out.trim().split('\n').at(-1); // children: "XmY.YYYs XmZ.ZZZs"
    return line.split(' ').reduce((sum, t) => { const [m, sec] = t.replace('s', '').split('m'); return sum + 60 * Number(m) + Number(sec); }, 0);
  };
  const full = run(steps);
  const one = run(1);
  const wall = JSON.parse(full.slice(0, full.lastIndexOf('}') + 1)).mean_ms;
  return { wall, cpu: (1000 * (childCpu(full) - childCpu(one))) / (steps - 1) };
}

function rapierWorld() {
  const world = new RAPIER.World({ x: 0, y: -10 });
  world.numSolverIterations = 4;
  world.timestep = DT;
  return world;
}

/** Box2D's default material: density 1, friction 0.6 (every shape has the
 * same, so Rapier's average equals Box2D's geometric mean), no restitution. */
function collider(desc) {
  return desc.setDensity(1).setFriction(0.6).setFrictionCombineRule(RAPIER.CoefficientCombineRule.Average).setRestitution(0);
}

/** Box2D's large pyramid: base 100, 1 m boxes on a 200 m × 2 m ground box, sleep off. */
function rapierPyramid(base = 100) {
  const world = rapierWorld();
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -1));
  world.createCollider(collider(RAPIER.ColliderDesc.cuboid(100, 1)), ground);
  const a = 0.5;
  for (let row = 0; row < base; row++) {
    const y = (2 * row + 1) * a;
    for (let column = row; column < base; column++) {
      const x = (row + 1) * a + 2 * (column - row) * a - a * base;
      const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, y).setCanSleep(false));
      world.createCollider(collider(RAPIER.ColliderDesc.cuboid(a, a)), body);
    }
  }
  return world;
}

/** Box2D's joint grid: 100 × 100 discs (r 0.4) 1 m apart pinned to the discs
 * above and to the left, hanging from the top row's middle seven; discs do not
 * collide with each other; sleep off. */
function rapierJointGrid(n = 100) {
  const world = rapierWorld();
  // Membership 2, filter every group but 2 (Box2D's category 2, mask ~2).
  const groups = (0x0002 << 16) | 0xfffd;
  const grid = [];
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) {
      const fixed = i === 0 && k + 3 >= n / 2 && k <= n / 2 + 3;
      const desc = (fixed ? RAPIER.RigidBodyDesc.fixed() : RAPIER.RigidBodyDesc.dynamic()).setTranslation(k, -i).setCanSleep(false);
      const body = world.createRigidBody(desc);
      world.createCollider(collider(RAPIER.ColliderDesc.ball(0.4)).setCollisionGroups(groups), body);
      if (i > 0) pin(world, grid[grid.length - 1], body, { x: 0, y: -0.5 }, { x: 0, y: 0.5 });
      if (k > 0) pin(world, grid[grid.length - n], body, { x: 0.5, y: 0 }, { x: -0.5, y: 0 });
      grid.push(body);
    }
  }
  return world;
}

function pin(world, a, b, anchorA, anchorB) {
  const joint = world.createImpulseJoint(RAPIER.JointData.revolute(anchorA, anchorB), a, b, true);
  joint.setContactsEnabled(false);
}

function rapier(build) {
  const world = build();
  const ms = time(() => world.step());
  world.free();
  return ms;
}

const rows = [
  ['large_pyramid', () => rapier(rapierPyramid)],
  ['joint_grid', () => rapier(rapierJointGrid)],
];
const f = (t) => `${t.wall.toFixed(2)} (${t.cpu.toFixed(2)})`;
console.log(`${steps} steps per scene, 1/60 s, single-threaded; node ${process.version}, ${cpus()[0].model}`);
console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log('ms/step, wall (CPU)');
console.log('| scene | ours, wasm in node | rapier.js in node | ours, native (AVX2 path) | ours, native (baseline SSE2 path) | wasm / native AVX2 (CPU) | rapier.js / ours wasm (CPU) |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [scene, runRapier] of rows) {
  const w = oursWasm(scene);
  const r = runRapier();
  const n = native(scene, 'avx2');
  const b = native(scene, 'baseline');
  console.log(`| ${scene} | ${f(w)} | ${f(r)} | ${f(n)} | ${f(b)} | ${(w.cpu / n.cpu).toFixed(2)} | ${(r.cpu / w.cpu).toFixed(2)} |`);
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
