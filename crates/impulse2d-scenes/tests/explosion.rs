//! The explosion demo goes off through `World::explode`: its boxes get the
//! velocities the explosion's definition gives them, worked out by hand.

use impulse2d::{Vec2, World, WorldDef};
use impulse2d_scenes::SceneScript;
use impulse2d_scenes::demos::{
    EXPLOSION, EXPLOSION_BOX_HALF, EXPLOSION_RINGS, EXPLOSION_STEP, explosion,
};

const DT: f32 = 1.0 / 60.0;

#[test]
fn the_blast_pushes_near_boxes_out_and_leaves_far_ones_alone() {
    // The numbers below are worked from these settings.
    assert_eq!(EXPLOSION.position, Vec2::new(0.0, 6.0));
    assert_eq!((EXPLOSION.radius, EXPLOSION.falloff), (3.0, 2.0));
    assert_eq!(EXPLOSION.impulse_per_length, 2.0);
    assert_eq!(EXPLOSION_RINGS, [3.0, 4.5, 6.0]);
    assert_eq!(EXPLOSION_BOX_HALF, 0.25);
    // Each 0.5 m box (0.25 kg) faces the centre, so the blast sees 0.5 m of
    // it and hits the middle of its inner face, a half-size nearer than its
    // centre:
    // - inner ring, face 2.75 m away, inside the 3 m radius: the whole
    //   2 N·s/m × 0.5 m = 1 N·s, so 4 m/s outwards;
    // - middle ring, face 4.25 m away, 1.25 m into the 2 m falloff band:
    //   1 N·s × (5 − 4.25) / 2 = 0.375 N·s, so 1.5 m/s;
    // - outer ring, face 5.75 m away, beyond 3 + 2 m: nothing.
    let expected_speeds = [4.0, 1.5, 0.0];

    let mut world = World::new(&WorldDef::default()).unwrap();
    let mut scene = explosion(&mut world, 32).unwrap();
    for step in 0..EXPLOSION_STEP {
        scene.script.before_step(&mut world, step).unwrap();
        world.step(DT, 4).unwrap();
    }
    assert!(!scene.script.exploded());
    let all = || scene.rings.iter().flatten();
    for &b in all() {
        assert_eq!(world.body(b).unwrap().linear_velocity(), Vec2::ZERO);
    }
    let outer_before: Vec<_> = scene.rings[2]
        .iter()
        .map(|&b| world.body(b).unwrap().transform())
        .collect();

    scene
        .script
        .before_step(&mut world, EXPLOSION_STEP)
        .unwrap();
    assert!(scene.script.exploded());
    for (ring, want) in scene.rings.iter().zip(expected_speeds) {
        for &b in ring {
            let outward = (world.body(b).unwrap().position() - EXPLOSION.position).normalize();
            let v = world.body(b).unwrap().linear_velocity();
            assert!(
                (v - want * outward).length() < 1e-4,
                "box at {:?}: velocity {v:?}, expected {want} m/s outwards",
                world.body(b).unwrap().position()
            );
            // Pushed through its centre of mass: no spin.
            assert!(world.body(b).unwrap().angular_velocity().abs() < 1e-3);
        }
    }

    // A step later the outer ring has not moved at all; the inner ring has
    // moved out by 4 m/s × 1/60 s.
    scene
        .script
        .before_step(&mut world, EXPLOSION_STEP)
        .unwrap();
    world.step(DT, 4).unwrap();
    for (&b, before) in scene.rings[2].iter().zip(&outer_before) {
        assert_eq!(world.body(b).unwrap().transform(), *before);
        assert_eq!(world.body(b).unwrap().linear_velocity(), Vec2::ZERO);
        assert_eq!(world.body(b).unwrap().angular_velocity(), 0.0);
    }
    for &b in &scene.rings[0] {
        let r = (world.body(b).unwrap().position() - EXPLOSION.position).length();
        assert!((r - (3.0 + 4.0 * DT)).abs() < 1e-3, "inner box at {r} m");
    }
    world.validate().unwrap();

    // The script goes off only once.
    let v = world.body(scene.rings[0][0]).unwrap().linear_velocity();
    scene
        .script
        .before_step(&mut world, EXPLOSION_STEP + 1)
        .unwrap();
    assert_eq!(world.body(scene.rings[0][0]).unwrap().linear_velocity(), v);
}
