//! Motion without resting contact: free fall against the integrator's exact
//! discrete solution, momentum in a free collision, and determinism.

use crate::build;

use impulse2d::{BodyDef, BodyType, Vec2, World, WorldDef};

const DT: f32 = 1.0 / 60.0;
const SUB_STEPS: u32 = 4;

/// `x` as `f64`: a world coordinate is `f32` in the default build, `f64`
/// with `large-world`.
fn to_f64(x: impl Into<f64>) -> f64 {
    x.into()
}

fn step_checked(world: &mut World, steps: usize) {
    for i in 0..steps {
        world.step(DT, SUB_STEPS).unwrap();
        if let Err(e) = world.validate() {
            panic!("invalid world after step {i}: {e}");
        }
    }
}

/// Semi-implicit Euler over substeps `h`: `v_k = v₀ − k·g·h` and
/// `y_k = y₀ + h·Σ_{i=1..k} v_i = y₀ + k·h·v₀ − g·h²·k(k+1)/2`.
/// After 1 s (k = 240, h = 1/240 s, g = 10 m/s²) the drop is
/// `10·241/480 = 5.0208333 m`, which exceeds the continuous `½·g·t² = 5 m` by
/// exactly the integrator's first-order error `g·h·t/2 = 0.0208333 m`.
#[test]
fn free_fall_matches_the_discrete_analytic_solution() {
    let mut world = build::world();
    let y0 = 100.0f32;
    let v0 = 2.0f32;
    let body = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(0.0, v0),
            ..build::def(BodyType::Dynamic, Vec2::new(0.0, y0))
        })
        .unwrap();
    build::add_circle(&mut world, body, 0.25);

    step_checked(&mut world, 60);

    let (g, h, k) = (10.0f64, 1.0f64 / 240.0, 240.0f64);
    let y_exact = y0 as f64 + k * h * v0 as f64 - g * h * h * k * (k + 1.0) / 2.0;
    let v_exact = v0 as f64 - k * g * h;
    let p = world.body(body).unwrap().position();
    let v = world.body(body).unwrap().linear_velocity();
    assert!(
        (to_f64(p.y) - y_exact).abs() < 2e-4,
        "y {} vs {}",
        p.y,
        y_exact
    );
    assert!(
        (v.y as f64 - v_exact).abs() < 1e-4,
        "v {} vs {}",
        v.y,
        v_exact
    );
    assert_eq!(p.x, 0.0);

    // Against the continuous solution the error is the known g·h·t/2.
    let y_continuous = y0 as f64 + v0 as f64 - 0.5 * g;
    let integrator_error = g * h * 1.0 / 2.0;
    assert!((y_continuous - to_f64(p.y) - integrator_error).abs() < 2e-4);
}

/// Two free boxes collide off-centre without gravity: contact impulses are
/// equal and opposite, so linear momentum is conserved up to `f32` rounding.
/// (Angular momentum is not exactly conserved by the soft step: impulses act
/// at anchors fixed at the start of the step while the bodies move during its
/// substeps.)
#[test]
fn momentum_is_conserved_in_a_free_collision() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let scene = impulse2d_scenes::zero_gravity_collision(&mut world).unwrap();
    let bodies = [scene.a, scene.b];

    let momentum = |world: &World| {
        let mut p = Vec2::ZERO;
        let mut scale = 0.0f64;
        for &b in &bodies {
            let m = world.body(b).unwrap().mass();
            let v = world.body(b).unwrap().linear_velocity();
            p += v * m;
            scale += (m * v.length()) as f64;
        }
        (p, scale)
    };

    let (p0, scale) = momentum(&world);
    // Masses: A is 1 m² at 1 kg/m², B is 0.5 m² at 2 kg/m²; both 1 kg.
    assert!((world.body(scene.a).unwrap().mass() - 1.0).abs() < 1e-6);
    assert!((world.body(scene.b).unwrap().mass() - 1.0).abs() < 1e-6);
    assert!((p0 - Vec2::new(1.0, 0.0)).length() < 1e-6);
    let v_a0 = world.body(scene.a).unwrap().linear_velocity();
    step_checked(&mut world, 120);
    let (p1, _) = momentum(&world);

    // The collision happened: A was stopped or thrown back.
    let v_a1 = world.body(scene.a).unwrap().linear_velocity();
    assert!(
        (v_a1 - v_a0).length() > 1.0,
        "no collision: {v_a0:?} -> {v_a1:?}"
    );

    let dp = (p1 - p0).length() as f64;
    assert!(dp / scale < 1e-4, "linear momentum {p0:?} -> {p1:?}");
}

fn run_pyramid_transforms() -> Vec<build::PoseBits> {
    run_pyramid_transforms_on(1)
}

fn run_pyramid_transforms_on(worker_count: usize) -> Vec<build::PoseBits> {
    let mut world = World::new(&WorldDef {
        worker_count,
        ..WorldDef::default()
    })
    .unwrap();
    let p = impulse2d_scenes::pyramid(&mut world, 10, 0.5).unwrap();
    // Knock the top off-centre so the run is not symmetric and trivial.
    world
        .body_mut(p.top)
        .unwrap()
        .apply_linear_impulse_to_center(Vec2::new(3.0, 0.0), true)
        .unwrap();
    step_checked(&mut world, 240);
    p.boxes
        .iter()
        .map(|&b| world.body(b).unwrap().transform().to_bits())
        .collect()
}

#[test]
fn two_runs_are_bit_identical() {
    let a = run_pyramid_transforms();
    let b = run_pyramid_transforms();
    assert_eq!(a.len(), 55);
    assert_eq!(a, b);
}

#[test]
fn runs_on_2_and_4_threads_are_bit_identical_to_one() {
    let one = run_pyramid_transforms();
    for workers in [2, 4] {
        assert_eq!(run_pyramid_transforms_on(workers), one, "{workers} workers");
    }
}

/// `BodyDef::allow_fast_rotation` lifts the angular speed cap of `MAX_ROTATION`
/// per time step (π/4 rad per 1/60 s step: 15π = 47.12 rad/s, as Box2D) and must
/// survive sleep: a body put to sleep and woken keeps its flags. At
/// 1,000 rad/s with no gravity, no damping and no contact, one step leaves a fast
/// rotator at exactly 1,000 rad/s, while an ordinary body is capped at 47.12 rad/s.
#[test]
fn fast_rotation_survives_sleep_and_wake() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let make = |world: &mut World, x: f32, fast: bool| {
        let body = world
            .create_body(&BodyDef {
                allow_fast_rotation: fast,
                ..build::def(BodyType::Dynamic, Vec2::new(x, 0.0))
            })
            .unwrap();
        build::add_circle(world, body, 0.5);
        body
    };
    let fast = make(&mut world, 0.0, true);
    let slow = make(&mut world, 10.0, false);
    for body in [fast, slow] {
        world.body_mut(body).unwrap().set_awake(false);
        assert!(!world.body(body).unwrap().is_awake());
        world.body_mut(body).unwrap().set_awake(true);
        world
            .body_mut(body)
            .unwrap()
            .set_angular_velocity(1000.0)
            .unwrap();
    }
    world.step(DT, SUB_STEPS).unwrap();
    world.validate().unwrap();
    assert_eq!(world.body(fast).unwrap().angular_velocity(), 1000.0);
    let capped = world.body(slow).unwrap().angular_velocity();
    assert!(
        (capped - 15.0 * std::f32::consts::PI).abs() < 1.0e-3,
        "{capped}"
    );
}
