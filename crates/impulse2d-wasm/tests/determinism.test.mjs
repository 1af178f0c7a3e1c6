// Cross-platform determinism: every shared scene is stepped natively (the
// impulse2d command-line tool, which prints World::state_hash()) and here in
// WebAssembly under node, and the hashes must be equal bit for bit. The
// native build runs its fastest SIMD path (AVX2 where the CPU has it); the
// wasm build runs the portable one.
//
// IMPULSE2D_CLI: the native binary (default target/release/impulse2d).
// IMPULSE2D_WEB_STEPS: steps per scene (default 100).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import init, { World } from '../pkg/index.js';

await init();

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = process.env.IMPULSE2D_CLI ?? `${root}target/release/impulse2d`;
const steps = Number(process.env.IMPULSE2D_WEB_STEPS ?? 100);

test('the native command-line tool is built', () => {
  assert.ok(existsSync(cli), `${cli} is missing: cargo build --release -p impulse2d-cli`);
});

for (const full of World.sceneNames()) {
  const name = full.split('/')[1];
  test(`${name}: ${steps} steps give the native state hash`, () => {
    const out = execFileSync(cli, ['run', name, '--steps', String(steps), '--json'], { encoding: 'utf8' });
    const native = JSON.parse(out).state_hash;
    const world = World.fromScene(name);
    for (let i = 0; i < steps; i++) world.step(1 / 60, 4);
    const wasm = world.stateHash();
    world.free();
    assert.match(native, /^[0-9a-f]{16}$/);
    assert.equal(wasm, native, `${name}: wasm ${wasm} vs native ${native}`);
  });
}
