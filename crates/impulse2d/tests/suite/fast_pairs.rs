//! Fast bodies against fast bodies (issue 17): bodies marked as bullets never
//! pass through each other, nor through a thin free plate, whatever the
//! fraction of a step at which they meet. Box2D's figures for the same setups
//! are printed by the `box2d_*` tests (`--nocapture`).

use crate::build;

use boxdd_sys::ffi as c;
use impulse2d::collision::{Circle, make_box};
use impulse2d::{BodyDef, BodyId, BodyType, Vec2, World};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;
/// Start offsets tried, spread over one step's travel.
const OFFSETS: usize = 64;
/// Half the size of the crossing boxes, and the crossing balls' radius, m:
/// each shape holds a disc of this radius about its centre at any rotation.
const HALF: f32 = 0.05;
/// Speed of each crossing body, m/s.
const SPEED: f32 = 200.0;
/// Steps each case runs (0.5 s: the pairs meet within the first two).
const STEPS: usize = 30;

fn zero_g() -> World {
    build::world_with_gravity(Vec2::ZERO)
}

fn body(world: &mut World, x: f32, y: f32, vx: f32, bullet: bool) -> BodyId {
    world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(vx, 0.0),
            is_bullet: bullet,
            ..build::def(BodyType::Dynamic, Vec2::new(x, y))
        })
        .unwrap()
}

/// Two 0.1 m boxes (or balls of radius 0.05 m) at [`SPEED`] towards each
/// other along x, starting `2·(5 + offset)` m apart, their paths `dy` apart.
/// Returns the final (x_b − x_a, |y_b − y_a|) after [`STEPS`] steps.
///
/// Unmet, they would keep their velocities and cross within two steps, so
/// they end far apart with x_b − x_a < 0 and |Δy| = dy. Met, either they stay
/// in order (x_b − x_a > 0), or a glancing contact turned them aside: each
/// holds a disc of radius [`HALF`], so to change order they must have been at
/// least 2·HALF apart in y as their x crossed, and after the contact they
/// move apart, so |Δy| ≥ 2·HALF at the end. The pair passed through each
/// other exactly when x_b − x_a < 0 and |Δy| < 2·HALF (with dy < 2·HALF).
fn crossing(offset: f32, dy: f32, balls: bool, bullet: bool) -> (f32, f32) {
    let mut w = zero_g();
    let start = 5.0 + offset;
    let a = body(&mut w, -start, 0.0, SPEED, bullet);
    let b = body(&mut w, start, dy, -SPEED, bullet);
    for id in [a, b] {
        if balls {
            let circle = Circle::new(Vec2::ZERO, HALF).unwrap();
            w.create_circle_shape(id, &Default::default(), &circle)
                .unwrap();
        } else {
            w.create_polygon_shape(id, &Default::default(), &make_box(HALF, HALF).unwrap())
                .unwrap();
        }
    }
    for _ in 0..STEPS {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let d = w.body(b).unwrap().position() - w.body(a).unwrap().position();
    (d.x, d.y.abs())
}

fn passed_through((gap, dy): (f32, f32)) -> bool {
    gap < 0.0 && dy < 2.0 * HALF
}

/// Of the [`OFFSETS`] start offsets spread over one step's approach, how many
/// `run` (offset → final gap and |Δy|) passes through.
fn count_passed(run: impl Fn(f32) -> (f32, f32)) -> usize {
    let travel = 2.0 * SPEED * DT;
    (0..OFFSETS)
        .filter(|&k| passed_through(run(travel * k as f32 / OFFSETS as f32)))
        .count()
}

/// The crossing cases: boxes and balls, paths aligned or half a size apart.
const CASES: [(f32, bool); 4] = [(0.0, false), (HALF, false), (0.0, true), (HALF, true)];

#[test]
fn two_small_bullets_crossing_at_200_m_s_meet_at_any_offset() {
    // One step closes 2 × 200 / 60 = 6.7 m.
    let travel = 2.0 * SPEED * DT;
    for k in 0..OFFSETS {
        let offset = travel * k as f32 / OFFSETS as f32;
        for (dy, balls) in CASES {
            let end = crossing(offset, dy, balls, true);
            assert!(
                !passed_through(end),
                "offset {offset} m, dy {dy}, balls {balls}: passed through (end {end:?})"
            );
        }
    }
}

/// The same pairs not marked as bullets pass through each other (they are
/// swept against static shapes only), so the test above does test the sweep.
#[test]
fn unmarked_pairs_pass_through_each_other() {
    let passed = count_passed(|offset| crossing(offset, 0.0, false, false));
    println!("ours, not bullets: {passed} of {OFFSETS} offsets pass through");
    assert!(passed > 0);
}

/// The thin free plate: 2 cm thick, 1 m tall (density 1), its centre at x =
/// [`PLATE_X`], at rest; the ball bullet: radius [`HALF`], at
/// [`BALL_SPEED`] along x from `−offset`, `y` above the plate's centre.
const PLATE_X: f32 = 10.0;
const PLATE_HALF_THICKNESS: f32 = 0.01;
const PLATE_HALF_HEIGHT: f32 = 0.5;
const BALL_SPEED: f32 = 300.0;

/// What a run of the plate case saw: whether the plate ever moved, whether
/// the ball's centre was ever beyond the plate (x > 0 in its frame, within
/// its height) at a step's end while the plate had not moved yet, and the
/// deepest the ball's centre got into the plate's box grown by the ball's
/// radius at any step's end, metres (positive: inside).
#[derive(Debug)]
struct PlateRun {
    moved: bool,
    beyond_untouched: bool,
    deepest: f32,
}

impl PlateRun {
    fn new() -> PlateRun {
        PlateRun {
            moved: false,
            beyond_untouched: false,
            deepest: f32::MIN,
        }
    }

    /// Records a step's end: whether the plate has moved since the start,
    /// and the ball's centre in the plate's frame.
    fn record(&mut self, plate_moved: bool, local: Vec2) {
        self.moved |= plate_moved;
        if !self.moved && local.x > 0.0 && local.y.abs() < PLATE_HALF_HEIGHT {
            self.beyond_untouched = true;
        }
        self.deepest = self.deepest.max(depth(local));
    }
}

/// How deep the ball's centre `local` (plate frame) is inside the plate's
/// box grown by the ball's radius: the box the centre cannot enter while
/// ball and plate do not overlap.
fn depth(local: Vec2) -> f32 {
    let dx = PLATE_HALF_THICKNESS + HALF - local.x.abs();
    let dy = PLATE_HALF_HEIGHT + HALF - local.y.abs();
    dx.min(dy)
}

/// The ball did not pass through the plate: its path crosses the plate, so
/// the plate must have been hit (it moved); the ball never got beyond the
/// plate while the plate was untouched; and it never ended a step inside the
/// plate by more than the solver lets contacts overlap (a linear slop, 5 mm,
/// with a slop of margin). After the hit a glancing ball may go round the
/// spinning plate.
fn plate_held(run: &PlateRun) -> bool {
    run.moved && !run.beyond_untouched && run.deepest < 2.0 * 0.005
}

fn plate_ours(offset: f32, y: f32) -> PlateRun {
    let mut w = zero_g();
    let plate = body(&mut w, PLATE_X, 0.0, 0.0, false);
    let shape = make_box(PLATE_HALF_THICKNESS, PLATE_HALF_HEIGHT).unwrap();
    w.create_polygon_shape(plate, &Default::default(), &shape)
        .unwrap();
    let ball = body(&mut w, -offset, y, BALL_SPEED, true);
    let circle = Circle::new(Vec2::ZERO, HALF).unwrap();
    w.create_circle_shape(ball, &Default::default(), &circle)
        .unwrap();
    let start = w.body(plate).unwrap().transform();
    let mut run = PlateRun::new();
    for _ in 0..STEPS {
        w.step(DT, SUBSTEPS).unwrap();
        let xf = w.body(plate).unwrap().transform();
        let local = xf.apply_inv(w.body(ball).unwrap().position());
        run.record(xf != start, local);
    }
    run
}

/// The offsets tried and the heights of the ball's path: through the plate's
/// centre, and 0.3 m and 0.45 m up (a glancing hit that spins the plate).
fn plate_cases() -> impl Iterator<Item = (f32, f32)> {
    let travel = BALL_SPEED * DT;
    (0..OFFSETS).flat_map(move |k| {
        let offset = travel * k as f32 / OFFSETS as f32;
        [0.0, 0.3, 0.45].into_iter().map(move |y| (offset, y))
    })
}

#[test]
fn a_bullet_never_passes_a_thin_free_plate() {
    for (offset, y) in plate_cases() {
        let run = plate_ours(offset, y);
        assert!(
            plate_held(&run),
            "offset {offset} m, y {y} m: the ball passed the plate ({run:?})"
        );
    }
}

/// A fresh Box2D v3 world without gravity.
///
/// # Safety
/// Plain FFI calls; the caller destroys the world.
unsafe fn box2d_world() -> c::b2WorldId {
    // SAFETY: the caller's.
    unsafe {
        let mut def = c::b2DefaultWorldDef();
        def.gravity = c::b2Vec2 { x: 0.0, y: 0.0 };
        c::b2CreateWorld(&def)
    }
}

/// A dynamic Box2D body at (`x`, `y`) moving at `vx`.
///
/// # Safety
/// Plain FFI calls on a live world.
unsafe fn box2d_body(world: c::b2WorldId, x: f32, y: f32, vx: f32, bullet: bool) -> c::b2BodyId {
    // SAFETY: the caller's.
    unsafe {
        let mut bd = c::b2DefaultBodyDef();
        bd.type_ = c::b2BodyType_b2_dynamicBody;
        bd.position = c::b2Vec2 { x, y };
        bd.linearVelocity = c::b2Vec2 { x: vx, y: 0.0 };
        bd.isBullet = bullet;
        c::b2CreateBody(world, &bd)
    }
}

/// [`crossing`] in Box2D v3.
fn crossing_box2d(offset: f32, dy: f32, balls: bool) -> (f32, f32) {
    let start = 5.0 + offset;
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    unsafe {
        let world = box2d_world();
        let sd = c::b2DefaultShapeDef();
        let mut ids = Vec::new();
        for (x, y, v) in [(-start, 0.0, SPEED), (start, dy, -SPEED)] {
            let id = box2d_body(world, x, y, v, true);
            if balls {
                let circle = c::b2Circle {
                    center: c::b2Vec2 { x: 0.0, y: 0.0 },
                    radius: HALF,
                };
                c::b2CreateCircleShape(id, &sd, &circle);
            } else {
                c::b2CreatePolygonShape(id, &sd, &c::b2MakeBox(HALF, HALF));
            }
            ids.push(id);
        }
        for _ in 0..STEPS {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
        }
        let (pa, pb) = (c::b2Body_GetPosition(ids[0]), c::b2Body_GetPosition(ids[1]));
        c::b2DestroyWorld(world);
        (pb.x - pa.x, (pb.y - pa.y).abs())
    }
}

/// [`plate_ours`] in Box2D v3.
fn plate_box2d(offset: f32, y: f32) -> PlateRun {
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    unsafe {
        let world = box2d_world();
        let sd = c::b2DefaultShapeDef();
        let plate = box2d_body(world, PLATE_X, 0.0, 0.0, false);
        let shape = c::b2MakeBox(PLATE_HALF_THICKNESS, PLATE_HALF_HEIGHT);
        c::b2CreatePolygonShape(plate, &sd, &shape);
        let ball = box2d_body(world, -offset, y, BALL_SPEED, true);
        let circle = c::b2Circle {
            center: c::b2Vec2 { x: 0.0, y: 0.0 },
            radius: HALF,
        };
        c::b2CreateCircleShape(ball, &sd, &circle);
        let mut run = PlateRun::new();
        for _ in 0..STEPS {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
            let p = c::b2Body_GetPosition(plate);
            let q = c::b2Body_GetRotation(plate);
            let b = c::b2Body_GetPosition(ball);
            let d = Vec2::new(b.x - p.x, b.y - p.y);
            // The ball's centre in the plate's frame: rotate by −θ.
            let local = Vec2::new(q.c * d.x + q.s * d.y, -q.s * d.x + q.c * d.y);
            run.record(p.x != PLATE_X || p.y != 0.0 || q.s != 0.0, local);
        }
        c::b2DestroyWorld(world);
        run
    }
}

/// Box2D v3's figures for the same setups (printed with `--nocapture`):
/// bullets ignore each other there, so crossing bullets pass through.
#[test]
fn box2d_figures_for_the_same_setups() {
    for (dy, balls) in CASES {
        let passed = count_passed(|offset| crossing_box2d(offset, dy, balls));
        println!(
            "Box2D v3, crossing bullets (balls {balls}, dy {dy}): {passed} of {OFFSETS} offsets pass through"
        );
    }
    for height in [0.0, 0.3, 0.45] {
        let failed = plate_cases()
            .filter(|&(offset, y)| y == height && !plate_held(&plate_box2d(offset, y)))
            .count();
        println!(
            "Box2D v3, bullet at a free plate {height} m up: {failed} of {OFFSETS} runs pass it"
        );
    }
    let passed = count_passed(|offset| crossing_box2d(offset, 0.0, false));
    assert!(passed > 0, "Box2D's bullets ignore each other");
}
