//! Every engine builds each benchmark scene the same way (equal body, shape and joint
//! counts, matching the description's own totals), and each engine's stability figure is
//! sane after a few steps. Tiny sizes, few steps: this runs in CI.

use impulse2d_compare::box2d::{self, Box2d};
use impulse2d_compare::desc::{Action, BodyState, Geometry, Kind, SceneDesc};
use impulse2d_compare::engine::{Counts, Engine, RunConfig, advance};
use impulse2d_compare::ours::Impulse2d;
use impulse2d_compare::rapier::Rapier;
use impulse2d_compare::scenes::{
    RAIN_ROW_SPACING, RainSize, SMALL_PYRAMID_BASE, SUB_STEPS, Scene, Size, TIME_STEP, joint_grid,
    large_pyramid, many_pyramids, pyramid_box_count, rain, smash, spinner, tumbler,
};
use impulse2d_compare::stability::measure;

const STEPS: u32 = 60;

fn engines() -> Vec<Box<dyn Engine>> {
    vec![Box::new(Box2d), Box::new(Rapier), Box::new(Impulse2d)]
}

/// Counts the description itself implies for the bodies and joints alive after `steps`
/// steps (independent of any engine).
fn expected_counts(scene: &SceneDesc, steps: u32) -> Counts {
    let mut alive = vec![false; scene.bodies.len()];
    let mut joint_alive = vec![false; scene.joints.len()];
    for key in scene.initial_bodies.clone() {
        alive[key] = true;
    }
    for j in scene.initial_joints.clone() {
        joint_alive[j] = true;
    }
    for step in 0..steps {
        for action in scene.actions(step) {
            let (batch, on) = match action {
                Action::Spawn(b) => (b, true),
                Action::Despawn(b) => (b, false),
            };
            let batch = &scene.batches[batch];
            for key in batch.bodies.clone() {
                alive[key] = on;
            }
            for j in batch.joints.clone() {
                joint_alive[j] = on;
            }
        }
    }
    Counts {
        bodies: alive.iter().filter(|a| **a).count(),
        shapes: scene
            .bodies
            .iter()
            .zip(&alive)
            .filter(|(_, a)| **a)
            .flat_map(|(b, _)| b.shapes.iter().map(|s| s.geometry.shape_count()))
            .sum(),
        joints: joint_alive.iter().filter(|a| **a).count(),
    }
}

#[test]
fn box2d_is_built_without_asserts() {
    assert!(
        !box2d::asserts_enabled(),
        "Box2D was compiled with asserts (no -DNDEBUG); C flags seen: `{}`",
        box2d::BUILD_CFLAGS
    );
}

#[test]
fn every_engine_builds_every_scene_alike_and_stays_stable() {
    let mut ran_per_scene = Vec::new();
    for kind in Scene::ALL {
        let scene = kind.build(Size::Tiny);
        let mut ran = 0;
        for engine in engines() {
            if let Some(reason) = engine.unsupported(&scene) {
                eprintln!("{} skips {}: {reason}", engine.name(), scene.name);
                continue;
            }
            ran += 1;
            let mut sim = engine.build(&scene, RunConfig::default());
            assert_eq!(
                sim.counts(),
                expected_counts(&scene, 0),
                "{} / {}: counts right after building",
                scene.name,
                engine.name()
            );
            for step in 0..STEPS {
                advance(sim.as_mut(), &scene, step, TIME_STEP, SUB_STEPS);
            }
            assert_eq!(
                sim.counts(),
                expected_counts(&scene, STEPS),
                "{} / {}: counts after {STEPS} steps",
                scene.name,
                engine.name()
            );
            let figure = measure(&scene, &sim.body_states());
            assert!(
                figure.is_sane(),
                "{} / {}: {} = {} outside {:?}",
                scene.name,
                engine.name(),
                figure.label,
                figure.value,
                figure.sane
            );
        }
        ran_per_scene.push((kind, ran));
    }
    // Every engine runs every scene: a scene an engine skips would silently drop out of
    // the comparison.
    for (kind, ran) in ran_per_scene {
        assert_eq!(
            ran,
            engines().len(),
            "{}: only {ran} engine(s) ran",
            kind.name()
        );
    }
}

#[test]
fn descriptions_have_box2d_sizes() {
    // Pyramid of base b: b(b+1)/2 boxes plus the ground; top box centre at b − 1/2 m.
    let pyramid = large_pyramid(100);
    assert_eq!(pyramid.initial_bodies.len(), 5050 + 1);
    assert_eq!(pyramid.bodies.last().unwrap().position[1], 99.5);
    // Joint grid n × n: n(n−1) vertical plus n(n−1) horizontal hinges, 7 anchors.
    let grid = joint_grid(100);
    assert_eq!(grid.joints.len(), 2 * 100 * 99);
    let statics = grid
        .bodies
        .iter()
        .filter(|b| b.kind == Kind::Static)
        .count();
    assert_eq!(statics, 7);
    // Many pyramids: 400 pyramids of 55 boxes; one ground body with 20 segments.
    let many = Scene::ManyPyramids.build(Size::Full);
    assert_eq!(many.bodies.len(), 1 + 400 * 55);
    assert_eq!(many.bodies[0].shapes.len(), 20);
    // Rain: 5 rows × 501 ground boxes; 5 × 40 groups of 5 ragdolls of 11 bodies.
    let r = rain(RainSize::FULL);
    assert_eq!(r.bodies[0].shapes.len(), 5 * 501);
    assert_eq!(r.batches.len(), 200);
    assert_eq!(r.bodies.len(), 1 + 200 * 5 * 11);
    assert_eq!(r.joints.len(), 200 * 5 * 10);
    // Smash 120 × 80, spinner 6,076 + ground + blade, tumbler 45².
    assert_eq!(Scene::Smash.build(Size::Full).bodies.len(), 1 + 9600);
    assert_eq!(Scene::Spinner.build(Size::Full).bodies.len(), 2 + 6076);
    assert_eq!(Scene::Tumbler.build(Size::Full).bodies.len(), 2 + 2025);
}

#[test]
fn rain_schedule_fills_then_replaces_columns() {
    let r = rain(RainSize::FULL);
    let schedule = r.schedule.unwrap();
    // Firing k (step 8k) spawns column k in each of the 5 rows while k < 40.
    assert_eq!(
        r.actions(8 * 3),
        (0..5)
            .map(|row| Action::Spawn(row * 40 + 3))
            .collect::<Vec<_>>()
    );
    assert!(r.actions(8 * 3 + 1).is_empty());
    // Firing 40 + c replaces column c % 40.
    let replace = r.actions(8 * (40 + 41));
    assert_eq!(replace.len(), 10);
    assert_eq!(replace[0], Action::Despawn(1));
    assert_eq!(replace[1], Action::Spawn(1));
    assert_eq!(schedule.period, 8);
}

#[test]
fn stability_figures_catch_collapse_explosion_and_nan() {
    let states_of = |scene: &SceneDesc| -> Vec<Option<BodyState>> {
        scene
            .bodies
            .iter()
            .map(|b| {
                Some(BodyState {
                    position: b.position,
                    angle: b.angle,
                    linear_velocity: b.linear_velocity,
                    angular_velocity: b.angular_velocity,
                })
            })
            .collect()
    };

    let pyramid = large_pyramid(10);
    let mut states = states_of(&pyramid);
    assert!(measure(&pyramid, &states).is_sane());
    assert_eq!(measure(&pyramid, &states).value, 1.0);
    // A pyramid whose top fell to half height has collapsed.
    let top = states.len() - 1;
    states[top].as_mut().unwrap().position[1] *= 0.5;
    assert!(!measure(&pyramid, &states).is_sane());
    // Any non-finite body poisons the figure.
    states[top].as_mut().unwrap().position[1] = f32::NAN;
    assert!(measure(&pyramid, &states).value.is_nan());

    // Smash: doubling every speed quadruples the kinetic energy.
    let smash = Scene::Smash.build(Size::Tiny);
    let mut states = states_of(&smash);
    assert_eq!(measure(&smash, &states).value, 1.0);
    for s in states.iter_mut().flatten() {
        s.linear_velocity = [2.0 * s.linear_velocity[0], 2.0 * s.linear_velocity[1]];
    }
    let exploded = measure(&smash, &states);
    assert!((exploded.value - 4.0).abs() < 1e-9);
    assert!(!exploded.is_sane());

    // Joint grid: moving one disc 1.5 m to the right opens a 1.5 m gap at both its hinges.
    let grid = joint_grid(4);
    let mut states = states_of(&grid);
    assert!(measure(&grid, &states).value < 1e-6);
    states[15].as_mut().unwrap().position[0] += 1.5;
    let gap = measure(&grid, &states).value;
    assert!((gap - 1.5).abs() < 1e-5, "gap {gap}");
    assert!(!measure(&grid, &states).is_sane());

    // Tumbler: a box thrown out of the drum is counted out.
    let drum = Scene::Tumbler.build(Size::Tiny);
    let mut states = states_of(&drum);
    assert_eq!(measure(&drum, &states).value, 1.0);
    let n = states.len() - 2;
    for s in states.iter_mut().skip(2).take(n / 2) {
        s.as_mut().unwrap().position = [0.0, 40.0];
    }
    assert!(!measure(&drum, &states).is_sane());
}

/// The scene registry's rain (`impulse2d-scenes`, run by the command-line tool and the
/// testbed) and this crate's rain, run in Impulse2D by the side-by-side harness, are one
/// simulation: both follow `RainLayout::firing`, so before every step they hold the same
/// groups with the same counts, and since both create the same bodies and joints in the
/// same order, every ragdoll bone is in the same place to the bit.
#[test]
fn the_registry_rain_and_the_compared_rain_are_the_same_simulation() {
    use impulse2d_scenes::SceneScript;
    // Groups that live long enough to land (a 40 m fall takes 2.8 s, 170 steps) before
    // their column is replaced at step 400.
    let layout = RainSize {
        period: 200,
        columns: 2,
        ..RainSize::TINY
    };
    let desc = rain(layout);
    let steps = 401;
    let mut world = impulse2d::World::new(&impulse2d::WorldDef::default()).unwrap();
    let mut registry = impulse2d_scenes::rain::rain(&mut world, layout).unwrap();
    let mut compared = Impulse2d.build(&desc, RunConfig::default());
    let mut replaced = 0;
    for step in 0..steps {
        registry
            .script
            .before_step(&mut world, u64::from(step))
            .unwrap();
        for action in desc.actions(step) {
            replaced += usize::from(matches!(action, Action::Despawn(_)));
            compared.apply(action);
        }
        let c = world.counters();
        let got = Counts {
            bodies: c.body_count,
            shapes: c.shape_count,
            joints: world.joint_count(),
        };
        assert_eq!(got, expected_counts(&desc, step + 1), "before step {step}");
        assert_eq!(got, compared.counts(), "before step {step}");

        let states = compared.body_states();
        for (index, group) in registry.script.groups().iter().enumerate() {
            let keys = desc.batches[index].bodies.clone();
            let Some(group) = group else {
                assert!(
                    keys.clone().all(|k| states[k].is_none()),
                    "group {index} before step {step}: only in the compared rain"
                );
                continue;
            };
            let bones: Vec<_> = group.iter().flat_map(|h| &h.bones).collect();
            assert_eq!(bones.len(), keys.len());
            for (bone, key) in bones.into_iter().zip(keys) {
                let want = states[key].unwrap_or_else(|| {
                    panic!("group {index} before step {step}: only in the registry")
                });
                let p = world.body(*bone).unwrap().position();
                let angle = world.body(*bone).unwrap().rotation().angle();
                assert_eq!(
                    ([p.x, p.y], angle),
                    (want.position, want.angle),
                    "body {key} before step {step}"
                );
            }
        }
        if step == 399 {
            // Every ragdoll has landed on its row (ground top 0.25 m above the row).
            for (index, group) in registry.script.groups().iter().enumerate() {
                let row_y = RAIN_ROW_SPACING * (index / layout.columns) as f32;
                let lowest = group
                    .iter()
                    .flatten()
                    .flat_map(|h| &h.bones)
                    .map(|b| world.body(*b).unwrap().position().y - row_y)
                    .fold(f32::INFINITY, f32::min);
                assert!(lowest < 1.0, "group {index}: lowest bone {lowest} m up");
            }
        }
        world.step(TIME_STEP, SUB_STEPS).unwrap();
        compared.step(TIME_STEP, SUB_STEPS);
    }
    // Row by row, the first column's groups were replaced once (step 400).
    assert_eq!(
        replaced,
        layout.rows * (steps as usize / layout.period as usize + 1 - layout.columns)
    );
}

/// The scene registry's tumbler and this crate's description are one scene: the same
/// bodies in the same order at the same places with the same masses, and one motorised
/// hinge with the same motor.
#[test]
fn the_registry_tumbler_agrees_with_the_description() {
    let grid = 6;
    let desc = tumbler(grid);
    let mut world = impulse2d::World::new(&impulse2d::WorldDef::default()).unwrap();
    let built = impulse2d_scenes::benchmarks::tumbler(&mut world, grid).unwrap();
    let c = world.counters();
    let got = Counts {
        bodies: c.body_count,
        shapes: c.shape_count,
        joints: world.joint_count(),
    };
    assert_eq!(got, expected_counts(&desc, 0));
    let mut ids = vec![built.ground, built.drum];
    ids.extend(&built.boxes);
    assert_eq!(ids.len(), desc.bodies.len());
    for (key, (id, body)) in ids.iter().zip(&desc.bodies).enumerate() {
        let p = world.body(*id).unwrap().position();
        assert_eq!([p.x, p.y], body.position, "body {key}");
        if body.kind == Kind::Dynamic {
            let mass = world.body(*id).unwrap().mass();
            assert!(
                (mass - body.mass()).abs() <= 1e-4 * mass,
                "body {key}: mass {mass}, description {}",
                body.mass()
            );
        }
    }
    let def = world.joint(built.hinge).unwrap().revolute().unwrap().def();
    let joint = &desc.joints[0];
    let motor = joint.motor.unwrap();
    assert!(def.enable_motor);
    assert_eq!(
        (def.motor_speed, def.max_motor_torque),
        (motor.speed, motor.max_torque)
    );
    let anchor_a = def.base.local_anchor_a;
    assert_eq!([anchor_a.x, anchor_a.y], joint.local_anchor_a);
}

/// In every engine the tumbler is a dynamic drum that its hinge motor turns at 25°/s
/// about a pivot that stays put.
#[test]
fn every_engine_turns_the_tumbler_with_its_motor() {
    let scene = Scene::Tumbler.build(Size::Tiny);
    let speed = scene.joints[0].motor.unwrap().speed;
    assert!((speed - 25f32.to_radians()).abs() < 1e-6);
    for engine in engines() {
        let mut sim = engine.build(&scene, RunConfig::default());
        for step in 0..STEPS {
            advance(sim.as_mut(), &scene, step, TIME_STEP, SUB_STEPS);
        }
        let drum = sim.body_states()[1].unwrap();
        assert!(
            (drum.angular_velocity - speed).abs() < 0.02 * speed,
            "{}: drum spins at {} rad/s",
            engine.name(),
            drum.angular_velocity
        );
        let [x, y] = drum.position;
        assert!(
            x.hypot(y - 10.0) < 0.01,
            "{}: drum centre moved to {:?}",
            engine.name(),
            drum.position
        );
    }
}

/// Checks that `world`, freshly built by a scene of the registry, holds the scene
/// `desc` describes: the same gravity and the same bodies in creation order (type,
/// position and velocity to the bit, awake and sleep flags, mass, shape count and
/// materials), plus `extra_statics` shapeless static bodies created after them, and every
/// joint between the same bodies at the same anchors with the same motor.
fn assert_registry_agrees(desc: &SceneDesc, world: &impulse2d::World, extra_statics: usize) {
    use impulse2d::{BodyType, ShapeGeometry};
    let name = &desc.name;
    let c = world.counters();
    let want = expected_counts(desc, 0);
    assert_eq!(
        (c.body_count, c.shape_count, world.joint_count()),
        (want.bodies + extra_statics, want.shapes, want.joints),
        "{name}: bodies, shapes, joints"
    );
    let g = world.gravity();
    assert_eq!([g.x, g.y], desc.gravity, "{name}: gravity");
    let ids: Vec<_> = world.body_ids().collect();
    for (key, (&id, body)) in ids.iter().zip(&desc.bodies).enumerate() {
        let kind = match world.body(id).unwrap().body_type() {
            BodyType::Static => Kind::Static,
            BodyType::Kinematic => Kind::Kinematic,
            BodyType::Dynamic => Kind::Dynamic,
        };
        assert_eq!(kind, body.kind, "{name}: body {key} type");
        let p = world.body(id).unwrap().position();
        let v = world.body(id).unwrap().linear_velocity();
        assert_eq!(
            (
                [p.x, p.y],
                world.body(id).unwrap().rotation().angle(),
                [v.x, v.y],
                world.body(id).unwrap().angular_velocity()
            ),
            (
                body.position,
                body.angle,
                body.linear_velocity,
                body.angular_velocity
            ),
            "{name}: body {key} placement and velocity"
        );
        assert_eq!(
            world.body(id).unwrap().is_sleep_enabled(),
            body.enable_sleep,
            "{name}: body {key} sleep flag"
        );
        if body.kind == Kind::Dynamic {
            assert_eq!(
                world.body(id).unwrap().is_awake(),
                body.awake,
                "{name}: body {key} awake"
            );
            let mass = world.body(id).unwrap().mass();
            assert!(
                (mass - body.mass()).abs() <= 1e-4 * mass,
                "{name}: body {key}: mass {mass}, description {}",
                body.mass()
            );
        }
        let shapes = world.body(id).unwrap().shapes();
        let count: usize = body.shapes.iter().map(|s| s.geometry.shape_count()).sum();
        assert_eq!(shapes.len(), count, "{name}: body {key} shapes");
        for shape in shapes {
            let filter = world.shape(shape).unwrap().filter();
            let material = (
                world.shape(shape).unwrap().density(),
                world.shape(shape).unwrap().friction(),
                world.shape(shape).unwrap().restitution(),
                filter.category_bits,
                filter.mask_bits,
                filter.group_index,
            );
            let described = body.shapes.iter().any(|s| {
                let mask = if s.filter.mask == u32::MAX {
                    u64::MAX
                } else {
                    u64::from(s.filter.mask)
                };
                // A chain's segments carry no density of their own.
                let density = match s.geometry {
                    Geometry::ChainLoop { .. } => material.0,
                    _ => s.density,
                };
                material
                    == (
                        density,
                        s.friction,
                        s.restitution,
                        u64::from(s.filter.category),
                        mask,
                        s.filter.group,
                    )
            });
            assert!(described, "{name}: body {key}: shape material {material:?}");
            if let ShapeGeometry::ChainSegment(segment) = world.shape(shape).unwrap().geometry() {
                let start = segment.segment.point1;
                let on_a_loop = body.shapes.iter().any(|s| match &s.geometry {
                    Geometry::ChainLoop { points } => points.contains(&[start.x, start.y]),
                    _ => false,
                });
                assert!(on_a_loop, "{name}: body {key}: chain point {start:?}");
            }
        }
    }
    for &id in &ids[desc.bodies.len()..] {
        assert_eq!(world.body(id).unwrap().body_type(), BodyType::Static);
        assert!(world.body(id).unwrap().shapes().is_empty());
    }
    for (index, joint) in desc.joints.iter().enumerate() {
        let (a, b) = (ids[joint.body_a], ids[joint.body_b]);
        let found = world
            .body_joints(b)
            .unwrap()
            .into_iter()
            .filter(|&j| {
                let joint = world.joint(j).unwrap();
                joint.body_a() == a && joint.body_b() == b
            })
            .map(|j| world.joint(j).unwrap().revolute().unwrap().def())
            .find(|def| {
                let (la, lb) = (def.base.local_anchor_a, def.base.local_anchor_b);
                [la.x, la.y] == joint.local_anchor_a && [lb.x, lb.y] == joint.local_anchor_b
            });
        let def = found.unwrap_or_else(|| panic!("{name}: joint {index} not in the registry"));
        let motor = def
            .enable_motor
            .then_some((def.motor_speed, def.max_motor_torque));
        assert_eq!(
            motor,
            joint.motor.map(|m| (m.speed, m.max_torque)),
            "{name}: joint {index} motor"
        );
        let limits = def
            .enable_limit
            .then_some([def.lower_angle, def.upper_angle]);
        assert_eq!(limits, joint.limits, "{name}: joint {index} limits");
        assert_eq!(
            def.enable_spring,
            joint.spring.is_some(),
            "{name}: joint {index} spring"
        );
    }
}

fn new_world() -> impulse2d::World {
    impulse2d::World::new(&impulse2d::WorldDef::default()).unwrap()
}

#[test]
fn the_registry_spinner_agrees_with_the_description() {
    let count = 150;
    let mut world = new_world();
    impulse2d_scenes::joints::spinner(&mut world, count).unwrap();
    assert_registry_agrees(&spinner(count), &world, 0);
    // Box2D's sizes: 6,076 bodies half a metre apart in a ring centred 32 m up.
    assert_eq!(impulse2d_scenes::joints::SPINNER_BODY_COUNT, 6076);
    let full = spinner(6076);
    assert_eq!(full.bodies[2].position, [-23.0, 2.0]);
    assert_eq!(full.bodies[3].position, [-22.5, 2.0]);
    assert_eq!(full.bodies[2 + 92].position, [-23.0, 2.5]);
    let Geometry::ChainLoop { points } = &full.bodies[0].shapes[0].geometry else {
        panic!("the spinner's ground is its ring");
    };
    assert_eq!(points[0], [40.0, 32.0]);
    // A quarter turn clockwise: the ring's bottom, on y = −8.
    assert!((points[90][0]).abs() < 1e-3 && (points[90][1] + 8.0).abs() < 1e-3);
    assert_eq!(full.joints[0].motor.unwrap().max_torque, f32::MAX);
}

#[test]
fn the_registry_large_pyramid_agrees_with_the_description() {
    let base = 12;
    let mut world = new_world();
    let built = impulse2d_scenes::benchmarks::large_pyramid(&mut world, base).unwrap();
    assert_eq!(built.boxes.len(), pyramid_box_count(base));
    let desc = large_pyramid(base);
    assert_eq!(desc.bodies[0].position, [0.0, -1.0]);
    assert_registry_agrees(&desc, &world, 0);
}

#[test]
fn the_registry_many_pyramids_agree_with_the_description() {
    let grid = 3;
    let mut world = new_world();
    impulse2d_scenes::benchmarks::many_pyramids(&mut world, grid, grid, SMALL_PYRAMID_BASE)
        .unwrap();
    assert_registry_agrees(&many_pyramids(grid), &world, 0);
}

#[test]
fn the_registry_joint_grid_agrees_with_the_description() {
    let n = 12;
    let mut world = new_world();
    impulse2d_scenes::joints::joint_grid(&mut world, n).unwrap();
    let desc = joint_grid(n);
    // Box2D hangs the grid from y = 0.
    assert_eq!(desc.bodies[n].position, [1.0, 0.0]);
    assert_registry_agrees(&desc, &world, 0);
}

#[test]
fn the_registry_smash_agrees_with_the_description() {
    let (columns, rows) = (9, 7);
    let mut world = new_world();
    impulse2d_scenes::benchmarks::smash(&mut world, columns, rows).unwrap();
    // The registry's shapeless static ground, which Box2D's smash has not, comes last.
    assert_registry_agrees(&smash((columns, rows)), &world, 1);
}
