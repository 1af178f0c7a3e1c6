// The web testbed: the shared scenes (the same Rust code as the native
// testbed and command-line tool, compiled to WebAssembly) drawn on a canvas
// from the engine's debug drawing, with mouse dragging, pause/step, drawing
// toggles and the step's profile.
//
// URL parameters: ?scene=NAME picks a scene; &frames=N steps N frames, then
// pauses and marks <body data-done="N"> (the browser test in CI uses it).
import init, { World, BodyType, DrawFlags } from '../pkg/index.js';

const $ = (id) => document.getElementById(id);
const canvas = $('canvas');
const ctx = canvas.getContext('2d');
const params = new URLSearchParams(location.search);
const frameLimit = params.has('frames') ? Number(params.get('frames')) : Infinity;

const DT = 1 / 60;
const SUBSTEPS = 4;
const DRAG_HERTZ = 5;
const DRAG_DAMPING = 0.7;
const DRAG_FORCE_PER_WEIGHT = 1000;

const state = {
  world: null,
  scene: params.get('scene') ?? 'pyramid',
  running: true,
  stepOnce: false,
  frames: 0,
  flags: DrawFlags.Shapes | DrawFlags.Joints,
  // Camera: world point at the canvas centre and pixels per metre.
  center: { x: 0, y: 5 },
  scale: 20,
  drag: null, // { joint, handle }
  pan: null, // last mouse position while panning
  profile: {}, // running means, ms
};

function fail(message) {
  $('status').textContent = message;
  document.body.dataset.error = message;
  console.error(message);
}

function fitCamera() {
  const b = state.world.viewBounds();
  const rect = canvas.getBoundingClientRect();
  if (b.length !== 4 || rect.width === 0) return;
  const w = Math.max(b[2] - b[0], 1), h = Math.max(b[3] - b[1], 1);
  state.scale = 0.9 * Math.min(rect.width / w, rect.height / h);
  state.center = { x: 0.5 * (b[0] + b[2]), y: 0.5 * (b[1] + b[3]) };
}

function loadScene(name) {
  endDrag();
  if (state.world) state.world.free();
  state.world = World.fromScene(name);
  state.scene = name;
  state.frames = 0;
  state.profile = {};
  $('scene').value = name;
  $('desc').textContent = World.sceneDescription(name) ?? '';
  fitCamera();
}

// --- view transforms -------------------------------------------------------

function toScreen(x, y) {
  const rect = canvas.getBoundingClientRect();
  return [rect.width / 2 + (x - state.center.x) * state.scale, rect.height / 2 - (y - state.center.y) * state.scale];
}

function toWorld(px, py) {
  const rect = canvas.getBoundingClientRect();
  return { x: state.center.x + (px - rect.width / 2) / state.scale, y: state.center.y - (py - rect.height / 2) / state.scale };
}

function viewBox() {
  const rect = canvas.getBoundingClientRect();
  const a = toWorld(0, rect.height), b = toWorld(rect.width, 0);
  return [a.x, a.y, b.x, b.y];
}

// --- drawing ---------------------------------------------------------------

const hex = (c) => '#' + (c | 0).toString(16).padStart(6, '0');

function draw() {
  const dpr = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  if (canvas.width !== Math.round(rect.width * dpr) || canvas.height !== Math.round(rect.height * dpr)) {
    canvas.width = Math.round(rect.width * dpr);
    canvas.height = Math.round(rect.height * dpr);
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#1e1e24';
  ctx.fillRect(0, 0, rect.width, rect.height);
  const [x0, y0, x1, y1] = viewBox();
  const cmd = state.world.debugDraw(state.flags, x0, y0, x1, y1);
  const s = state.scale;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  // Starts a path along the segment cmd[j..j + 4] (two world points).
  const segmentPath = (j) => {
    const [ax, ay] = toScreen(cmd[j], cmd[j + 1]);
    const [bx, by] = toScreen(cmd[j + 2], cmd[j + 3]);
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
  };
  let i = 0;
  while (i < cmd.length) {
    const code = cmd[i], color = hex(cmd[i + 1]);
    i += 2;
    ctx.strokeStyle = color;
    ctx.fillStyle = color + '80';
    ctx.lineWidth = 1;
    switch (code) {
      case 1: case 2: {
        const n = cmd[i++];
        const radius = code === 2 ? cmd[i++] : 0;
        ctx.beginPath();
        for (let k = 0; k < n; k++) {
          const [px, py] = toScreen(cmd[i + 2 * k], cmd[i + 2 * k + 1]);
          if (k === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
        }
        ctx.closePath();
        i += 2 * n;
        if (code === 2) {
          ctx.fill();
          if (radius > 0) { ctx.lineWidth = 2 * radius * s; ctx.strokeStyle = color + '80'; ctx.stroke(); ctx.strokeStyle = color; ctx.lineWidth = 1; }
        }
        ctx.stroke();
        break;
      }
      case 3: case 4: {
        const [px, py] = toScreen(cmd[i], cmd[i + 1]);
        const r = cmd[i + 2] * s;
        ctx.beginPath();
        ctx.arc(px, py, Math.max(r, 0.5), 0, 2 * Math.PI);
        if (code === 4) {
          ctx.fill();
          ctx.stroke();
          ctx.beginPath();
          ctx.moveTo(px, py);
          ctx.lineTo(px + r * cmd[i + 3], py - r * cmd[i + 4]);
          i += 2;
        }
        ctx.stroke();
        i += 3;
        break;
      }
      case 5: {
        const r = cmd[i + 4] * s;
        segmentPath(i);
        ctx.lineWidth = Math.max(2 * r, 1);
        ctx.strokeStyle = color + '80';
        ctx.stroke();
        i += 5;
        break;
      }
      case 6: {
        segmentPath(i);
        ctx.stroke();
        i += 4;
        break;
      }
      case 7: {
        const [px, py] = toScreen(cmd[i], cmd[i + 1]);
        const size = cmd[i + 2];
        ctx.fillStyle = color;
        ctx.fillRect(px - size / 2, py - size / 2, size, size);
        i += 3;
        break;
      }
      default:
        fail(`unknown draw command ${code}`);
        return;
    }
  }
  if (state.drag && state.drag.target) {
    const [px, py] = toScreen(state.drag.target.x, state.drag.target.y);
    ctx.fillStyle = '#6cf';
    ctx.fillRect(px - 3, py - 3, 6, 6);
  }
}

// --- profile and counts ----------------------------------------------------

const STAGES = [
  ['step', 'step'], ['pairs', 'pairs'], ['collide', 'collide'], ['solve', 'solve'],
  ['prepareConstraints', '  prepare'], ['solveImpulses', '  solve'], ['relaxImpulses', '  relax'],
  ['finalizeBodies', '  finalize'], ['continuous', '  continuous'],
];

function updateProfile() {
  const p = state.world.profile();
  const k = 0.05; // exponential mean over about 20 steps
  for (const [key] of STAGES) {
    const v = p[key];
    state.profile[key] = state.profile[key] === undefined ? v : state.profile[key] + k * (v - state.profile[key]);
  }
}

function showText() {
  const w = state.world;
  $('counts').textContent = `step ${w.stepCount} · bodies ${w.bodyCount} (${w.awakeBodyCount} awake) · contacts ${w.contactCount}` +
    (w.sceneStatus() ? `\n${w.sceneStatus()}` : '');
  $('profile').textContent = 'ms per step (mean)\n' +
    STAGES.map(([key, label]) => `${label.padEnd(13)} ${(state.profile[key] ?? 0).toFixed(3)}`).join('\n');
}

// --- mouse -------------------------------------------------------------------

function mouseWorld(e) {
  const rect = canvas.getBoundingClientRect();
  return toWorld(e.clientX - rect.left, e.clientY - rect.top);
}

function beginDrag(p) {
  endDrag();
  const shapes = state.world.overlapPoint(p.x, p.y);
  const hit = shapes.map((s) => s.body()).find((b) => b.bodyType() === BodyType.Dynamic);
  if (!hit) return;
  const handle = state.world.createBody(BodyType.Static, p.x, p.y);
  const g = state.world.gravity();
  const weight = hit.mass() * Math.max(Math.hypot(g.x, g.y), 1);
  const joint = state.world.createMouseJoint(handle, hit, p.x, p.y, DRAG_HERTZ, DRAG_DAMPING, DRAG_FORCE_PER_WEIGHT * weight);
  hit.setAwake(true);
  state.drag = { joint, handle, target: p };
}

function moveDrag(p) {
  if (!state.drag) return;
  if (!state.drag.joint.isValid()) { endDrag(); return; }
  state.drag.target = p;
  state.drag.joint.setTarget(p.x, p.y);
}

function endDrag() {
  const d = state.drag;
  state.drag = null;
  if (d && state.world && d.handle.isValid()) state.world.destroyBody(d.handle); // takes the joint with it
}

canvas.addEventListener('contextmenu', (e) => e.preventDefault());
canvas.addEventListener('mousedown', (e) => {
  if (e.button === 0) beginDrag(mouseWorld(e));
  else state.pan = { x: e.clientX, y: e.clientY };
});
window.addEventListener('mousemove', (e) => {
  if (state.pan) {
    state.center.x -= (e.clientX - state.pan.x) / state.scale;
    state.center.y += (e.clientY - state.pan.y) / state.scale;
    state.pan = { x: e.clientX, y: e.clientY };
  } else if (state.drag) {
    moveDrag(mouseWorld(e));
  }
});
window.addEventListener('mouseup', () => { state.pan = null; endDrag(); });
canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const before = mouseWorld(e);
  state.scale *= Math.exp(-e.deltaY * 0.001);
  const after = mouseWorld(e);
  state.center.x += before.x - after.x;
  state.center.y += before.y - after.y;
}, { passive: false });

// --- controls ----------------------------------------------------------------

function setRunning(on) {
  state.running = on;
  $('pause').textContent = on ? 'Pause' : 'Run';
}

function buildControls() {
  const select = $('scene');
  let group = null, category = null;
  for (const full of World.sceneNames()) {
    const [cat, name] = full.split('/');
    if (cat !== category) {
      group = document.createElement('optgroup');
      group.label = category = cat;
      select.appendChild(group);
    }
    const opt = document.createElement('option');
    opt.value = name;
    opt.textContent = name;
    group.appendChild(opt);
  }
  select.addEventListener('change', () => loadScene(select.value));
  $('pause').addEventListener('click', () => setRunning(!state.running));
  $('step').addEventListener('click', () => { setRunning(false); state.stepOnce = true; });
  $('restart').addEventListener('click', () => loadScene(state.scene));
  const toggles = [
    ['Shapes', DrawFlags.Shapes], ['Joints', DrawFlags.Joints], ['Bounding boxes', DrawFlags.Aabbs],
    ['Contact points', DrawFlags.Contacts], ['Contact normals', DrawFlags.ContactNormals],
    ['Contact impulses', DrawFlags.ContactImpulses], ['Islands', DrawFlags.Islands],
    ['Graph colours', DrawFlags.GraphColors], ['Centres of mass', DrawFlags.Mass],
  ];
  for (const [label, bit] of toggles) {
    const l = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = (state.flags & bit) !== 0;
    box.addEventListener('change', () => { state.flags = box.checked ? state.flags | bit : state.flags & ~bit; });
    l.append(box, ' ', label);
    $('flags').appendChild(l);
  }
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') { e.preventDefault(); setRunning(!state.running); }
    else if (e.key === 's') { setRunning(false); state.stepOnce = true; }
    else if (e.key === 'r') loadScene(state.scene);
  });
}

// --- main loop -------------------------------------------------------------

function frame() {
  try {
    if (state.running || state.stepOnce) {
      state.world.step(DT, SUBSTEPS);
      state.stepOnce = false;
      state.frames++;
      updateProfile();
      if (state.frames >= frameLimit) {
        setRunning(false);
        document.body.dataset.done = String(state.frames);
      }
    }
    draw();
    showText();
  } catch (e) {
    fail(String(e && e.stack ? e.stack : e));
    return;
  }
  requestAnimationFrame(frame);
}

try {
  await init();
  buildControls();
  loadScene(state.scene);
  requestAnimationFrame(frame);
} catch (e) {
  fail(String(e && e.stack ? e.stack : e));
}
