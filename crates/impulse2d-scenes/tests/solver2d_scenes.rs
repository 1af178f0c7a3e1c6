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
    // `tests/corner_rest.rs`. Here: it does come to rest, within 20 s.
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
        assert!(angle(&world, t).abs() < 0.01, "triangle tipped");
    }
    // The 20 m box lies flat on the two tips: without softness its centre
    // would be 1 + 10 = 11 m up.
    let expected = 11.0 - base_depth - tip_depth;
    let p = world.body(big).unwrap().position();
    assert!(p.x.abs() < 0.1, "box slid to {p:?}");
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

/// The stretch the soft joints settle at: each of the 31 joints of a
/// vertical chain is a spring of stiffness (m/2)·ω² (two links of mass m
/// pulled along their axis, no lever arm) at the joint stiffness (60 Hz),
/// loaded by the weight below it; the springs add up in series.
fn model_stretch(end_mass_ratio: f32) -> f32 {
    let def = WorldDef::default();
    let links = 30;
    let m = 1.0; // the link mass cancels out
    let k = soft_stiffness(0.5 * m, def.joint_hertz);
    (0..=links)
        .map(|i| (end_mass_ratio * m + (links - i) as f32 * m) * -def.gravity.y / k)
        .sum()
}

#[test]
fn stretched_chain_stretches_as_much_as_its_soft_joints_allow() {
    // With a light end (10 links' mass) the chain settles at the model's
    // stretch: 0.11 m of 30.5 m.
    let light = model_stretch(10.0);
    let (_, _, last) = chain_stretch(10.0, 600);
    assert!(
        (last - light).abs() < 0.15 * light,
        "settled stretch {last} m, model {light} m"
    );

    // The registry's heavy end (100 links' mass) loads the joints about five
    // times more: 0.49 m. Released unstretched, the end bounces about that
    // stretch (the joints' damping acts at their own 60 Hz, not at the
    // heavy end's slow bounce), at most twice as far.
    let heavy = model_stretch(100.0);
    let (worst, mean, _) = chain_stretch(100.0, 600);
    assert!(
        worst < 2.2 * heavy,
        "the chain stretched {worst} m, model bounce {} m",
        2.0 * heavy
    );
    assert!(
        (mean - heavy).abs() < 0.3 * heavy,
        "mean stretch {mean} m, model {heavy} m"
    );
    // Even at its worst the chain keeps within 4 % of its 30.5 m.
    assert!(worst < 0.04 * 30.5);
}
