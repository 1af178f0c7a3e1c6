//! Measured outcomes of Solver2D's high mass ratio 3 and stretched chain
//! scenes, through the public API. The expected numbers come from each
//! scene's geometry.

use impulse2d::{World, WorldDef};
use impulse2d_scenes::solver2d::{
    CHAIN_END_RADIUS, CHAIN_LINK_LENGTH, high_mass_ratio_3, stretched_chain,
};

const DT: f32 = 1.0 / 60.0;

fn angle(world: &World, body: impulse2d::BodyId) -> f32 {
    let q = world.body(body).unwrap().transform().q;
    impulse2d::math::atan2(q.s, q.c)
}

/// Stiffness of a soft constraint row acting on effective mass `mass` (kg)
/// at `hertz`: k = m·ω², N/m. Under a steady load W the row settles with an
/// error of W / k (the soft step's spring does not integrate the error away).
fn soft_stiffness(mass: f32, hertz: f32) -> f32 {
    let omega = 2.0 * std::f32::consts::PI * hertz;
    mass * omega * omega
}

#[test]
fn high_mass_ratio_3_box_rests_on_the_triangle_tips() {
    let def = WorldDef::default();
    let mut world = World::new(&def).unwrap();
    let scene = high_mass_ratio_3(&mut world).unwrap();
    let [left, right, big] = scene.bodies[..] else {
        panic!("three bodies expected");
    };
    // 400 kg on 0.5 kg triangles: the ratio the scene is about.
    let m = world.body(left).unwrap().mass();
    let big_mass = world.body(big).unwrap().mass();
    assert!((m - 0.5).abs() < 1e-5 && (big_mass - 400.0).abs() < 1e-2);
    // The box sways on the triangles for a few seconds before it sleeps; how
    // soon, compared with Box2D on the same setup, is checked in impulse2d's
    // `tests/suite/corner_rest.rs`. Here: it does come to rest, within 20 s.
    for _ in 0..1200 {
        world.step(DT, 4).unwrap();
        if world.counters().awake_body_count == 0 {
            break;
        }
    }
    world.validate().unwrap();
    assert_eq!(
        world.counters().awake_body_count,
        0,
        "the stack came to rest"
    );

    // Where it settles, from the soft contact model. Each triangle carries
    // half the box, W = 200 kg · g.
    let g = -def.gravity.y;
    let w = 0.5 * big_mass * g;
    // The tip pushes into the box through one contact point whose effective
    // mass is the triangle's (the box is 800 times heavier), at the contact
    // stiffness (30 Hz).
    let tip_depth = w / soft_stiffness(m, def.contact_hertz);
    // The base stands on the static ground at twice that stiffness, on two
    // corner points solved one after the other, each W / 2 on the mass seen
    // at the corner: 1 / (1/m + r_x² / I), r_x = 0.5 m, I = m · (1 + 1.25 +
    // 1.25) / 36 (a triangle's inertia from its squared sides).
    let inertia = m * 3.5 / 36.0;
    let corner_mass = 1.0 / (1.0 / m + 0.25 / inertia);
    let base_depth = 0.5 * (w + m * g) / soft_stiffness(corner_mass, 2.0 * def.contact_hertz);
    for (t, x) in [(left, -9.0), (right, 9.0)] {
        let p = world.body(t).unwrap().position();
        assert!((p.x - x).abs() < 0.05, "triangle slid to {p:?}");
        assert!(
            (p.y + base_depth).abs() < 0.3 * base_depth,
            "triangle base at {} m, model {} m",
            p.y,
            -base_depth
        );
        // (The triangles rock under the box and lean as they stop, by
        // 0.02-0.03 rad in Box2D v3.2 too, whose contact friction acts in
        // the relax pass only: tests/suite/corner_rest.rs in impulse2d compares
        // the angles with Box2D's.)
        let a = angle(&world, t);
        assert!(a.abs() < 0.05, "triangle tipped {a} rad, at {p:?}");
    }
    // The 20 m box lies flat on the two tips: without softness its centre
    // would be 1 + 10 = 11 m up.
    let expected = 11.0 - base_depth - tip_depth;
    let p = world.body(big).unwrap().position();
    // (It slides some 0.12 m before it stops, as in Box2D v3.2:
    // tests/suite/corner_rest.rs in impulse2d compares.)
    assert!(p.x.abs() < 0.2, "box slid to {p:?}");
    assert!(
        (p.y - expected).abs() < 0.2 * (11.0 - expected),
        "box centre at {} m, model {expected} m",
        p.y
    );
    assert!(angle(&world, big).abs() < 0.005, "box tilted");
}

/// Largest, mean and last stretch (distance from the pivot to the end disc
/// minus the rest length) over `steps` steps.
fn chain_stretch(end_mass_ratio: f32, steps: usize) -> (f32, f32, f32) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let links = 30;
    let chain = stretched_chain(&mut world, links, end_mass_ratio).unwrap();
    assert_eq!(chain.joints.len(), links + 1);
    let link_mass = world.body(chain.links[0]).unwrap().mass();
    let ratio = world.body(chain.end).unwrap().mass() / link_mass;
    assert!((ratio - end_mass_ratio).abs() < 1e-3 * end_mass_ratio);
    let rest = chain.rest_length();
    assert_eq!(rest, links as f32 * CHAIN_LINK_LENGTH + CHAIN_END_RADIUS);
    let pivot = world.body(chain.pivot).unwrap().position();
    let start = world.body(chain.end).unwrap().position();
    assert!(((pivot - start).length() - rest).abs() < 1e-4);

    let (mut worst, mut sum, mut last) = (0.0f32, 0.0f32, 0.0f32);
    for _ in 0..steps {
        world.step(DT, 4).unwrap();
        let end = world.body(chain.end).unwrap().position();
        last = (end - pivot).length() - rest;
        worst = worst.max(last);
        sum += last;
        assert!(end.x.abs() < 1e-3, "the chain swung sideways: {end:?}");
    }
    world.validate().unwrap();
    (worst, sum / steps as f32, last)
}

/// The stretch the joints settle at. The chain's revolute joints link its
/// bodies without a loop, so they are solved together (`joint/tree.rs`):
/// their soft springs have stiffness `ω² K⁻¹` as a whole (`K = J M⁻¹ Jᵀ` of
/// the chain), and under tensions `T` they settle at `K T / ω²`. Hanging
/// straight, joint `i` holds the weight below it, so `T_i − T_{i+1}` is the
/// weight of the body between them, and row `i` of `K T` is
/// `(T_i − T_{i−1}) / m_{i−1} + (T_i − T_{i+1}) / m_i = −g + g = 0` for every
/// joint but the top one (no body above it: `g`). The chain stretches by
/// `g / ω²` whatever hangs from it: 0.07 mm at 60 Hz (row by row it was the
/// sum of the weights over each joint's own stiffness, 0.11 m and 0.49 m).
fn model_stretch() -> f32 {
    let def = WorldDef::default();
    let omega = 2.0 * std::f32::consts::PI * def.joint_hertz;
    -def.gravity.y / (omega * omega)
}

#[test]
fn stretched_chain_stretches_as_little_as_its_joint_tree_allows() {
    // A light end (10 links' mass) and the registry's heavy one (100):
    // released unstretched, the chain takes the model's stretch at once and
    // keeps it, within two rounding steps of the pivot's height (33.5 m).
    let model = model_stretch();
    let rounding = 2.0 * 33.5 * f32::EPSILON;
    for ratio in [10.0, 100.0] {
        let (worst, mean, last) = chain_stretch(ratio, 600);
        eprintln!(
            "end mass ratio {ratio}: worst {worst:e} m, mean {mean:e} m, last {last:e} m, model {model:e} m"
        );
        for (what, stretch) in [("worst", worst), ("mean", mean), ("settled", last)] {
            assert!(
                (stretch - model).abs() < rounding,
                "end mass ratio {ratio}: {what} stretch {stretch} m, model {model} m"
            );
        }
    }
}
