//! Joint scenes: a pendulum, Solver2D's ball and chain, a plank bridge, a
//! ragdoll pile, a car on wheel joints, and Box2D v3's joint grid and spinner
//! benchmarks.
//!
//! Scenes with a ground put its surface at `y = 0`; the pendulum and the
//! chain hang from static bodies above it, the joint grid from static discs
//! at y = 0, as in Box2D.
//!
//! # References
//! - E. Catto, *Solver2D* (2024): ball and chain, bridge, ragdolls.
//! - E. Catto, Box2D v3 `shared/benchmarks.c` (joint grid, spinner) and the
//!   car and ragdoll samples.

use impulse2d::collision::{Capsule, Circle, make_box, make_rounded_box, make_square};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyId, BodyType, ChainDef, Filter, JointDef, JointId, Result, RevoluteJointDef, Rot,
    ShapeDef, Transform, Vec2, WheelJointDef, World,
};

use crate::common::{hinge, motorised};
use crate::{Builder, Scene, flat_ground};

/// The builders of the joint scenes of the registry, by short name, with
/// their default parameters.
pub(crate) const BUILDERS: &[(&str, Builder)] = &[
    ("pendulum", |world| {
        let p = pendulum(world, 1.0, 0.1)?;
        Ok(Scene::still(p.pivot, vec![p.bob], Some(p.bob)))
    }),
    ("ball_and_chain", |world| {
        let c = ball_and_chain(world, 40, 50.0)?;
        let mut bodies = c.links.clone();
        bodies.push(c.ball);
        Ok(Scene::still(c.pivot, bodies, Some(c.ball)))
    }),
    ("bridge", |world| {
        let b = bridge(world, 40)?;
        let mut bodies = b.planks.clone();
        bodies.extend_from_slice(&b.loads);
        let focus = b.planks.get(b.planks.len() / 2).copied();
        Ok(Scene::still(b.ground, bodies, focus))
    }),
    ("ragdolls", |world| {
        let ground = flat_ground(world, 20.0)?;
        let mut bodies = Vec::new();
        for i in 0..10 {
            bodies.extend(ragdoll_pile_member(world, i)?.bones);
        }
        Ok(Scene::focus_first(ground, bodies))
    }),
    ("car", |world| {
        let c = car(world)?;
        let bodies = vec![c.chassis, c.rear_wheel, c.front_wheel];
        Ok(Scene::still(c.ground, bodies, Some(c.chassis)))
    }),
    ("joint_grid", |world| joint_grid(world, JOINT_GRID_SIZE)),
    ("spinner", |world| spinner(world, SPINNER_BODY_COUNT)),
];

fn dynamic_body(world: &mut World, position: Vec2) -> Result<BodyId> {
    world.create_body(&BodyDef::dynamic(to_pos(position)))
}

fn circle(radius: f32) -> Circle {
    Circle {
        center: Vec2::ZERO,
        radius,
    }
}

/// A revolute joint between two bodies at the given local anchors.
pub(crate) fn pin(
    world: &mut World,
    a: BodyId,
    b: BodyId,
    anchor_a: Vec2,
    anchor_b: Vec2,
) -> Result<JointId> {
    world.create_revolute_joint(&hinge(a, b, anchor_a, anchor_b))
}

/// The pendulum scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Pendulum {
    /// The static pivot body, at (0, 10).
    pub pivot: BodyId,
    /// The bob: a 0.05 m disc of density 100.
    pub bob: BodyId,
    /// The revolute joint.
    pub joint: JointId,
}

/// A disc held `length` m below a pivot at (0, 10) by a revolute joint (a
/// rigid massless arm), released at `angle` radians from the vertical.
pub fn pendulum(world: &mut World, length: f32, angle: f32) -> Result<Pendulum> {
    let pivot_position = Vec2::new(0.0, 10.0);
    let pivot = world.create_body(&BodyDef {
        position: to_pos(pivot_position),
        ..BodyDef::default()
    })?;
    let arm = Rot::from_angle(angle).rotate(Vec2::new(0.0, -length));
    let bob = world.create_body(&BodyDef {
        enable_sleep: false,
        ..BodyDef::dynamic(to_pos(pivot_position + arm))
    })?;
    let shape = ShapeDef {
        density: 100.0,
        ..ShapeDef::default()
    };
    world.create_circle_shape(bob, &shape, &circle(0.05))?;
    let joint = pin(world, pivot, bob, Vec2::ZERO, -arm)?;
    Ok(Pendulum { pivot, bob, joint })
}

/// The ball-and-chain scene.
#[derive(Clone, Debug, PartialEq)]
pub struct BallAndChain {
    /// The static pivot body, at (0, 30).
    pub pivot: BodyId,
    /// The links from the pivot out.
    pub links: Vec<BodyId>,
    /// The heavy ball at the end.
    pub ball: BodyId,
    /// The joints from the pivot out (one more than links).
    pub joints: Vec<JointId>,
}

/// `links` capsules 0.5 m from joint to joint (radius 0.125 m, density 1),
/// laid level from a pivot at (0, 30), with a 0.5 m ball `mass_ratio` times as
/// heavy as a link hung at the end by its rim. Joints have 2 N·m of friction.
pub fn ball_and_chain(world: &mut World, links: usize, mass_ratio: f32) -> Result<BallAndChain> {
    let (half, radius, ball_radius) = (0.25f32, 0.125f32, 0.5f32);
    let pi = impulse2d::math::PI;
    let link_mass = 4.0 * half * radius + pi * radius * radius;
    let pivot_position = Vec2::new(0.0, 30.0);
    let pivot = world.create_body(&BodyDef {
        position: to_pos(pivot_position),
        ..BodyDef::default()
    })?;
    let capsule = Capsule {
        center1: Vec2::new(-half, 0.0),
        center2: Vec2::new(half, 0.0),
        radius,
    };
    // A joint with friction from `previous`'s anchor to `back` metres behind `b`'s centre.
    let friction = |world: &mut World, (a, anchor_a): (BodyId, Vec2), b, back: f32| {
        let joint = hinge(a, b, anchor_a, Vec2::new(-back, 0.0));
        world.create_revolute_joint(&motorised(joint, 0.0, 2.0))
    };
    let mut chain = BallAndChain {
        pivot,
        links: Vec::with_capacity(links),
        ball: pivot,
        joints: Vec::with_capacity(links + 1),
    };
    let mut previous = (pivot, Vec2::ZERO);
    for i in 0..links {
        let link = dynamic_body(
            world,
            pivot_position + Vec2::new(half * (2 * i + 1) as f32, 0.0),
        )?;
        world.create_capsule_shape(link, &ShapeDef::default(), &capsule)?;
        chain.joints.push(friction(world, previous, link, half)?);
        chain.links.push(link);
        previous = (link, Vec2::new(half, 0.0));
    }
    let ball_x = 2.0 * half * links as f32 + ball_radius;
    let ball = dynamic_body(world, pivot_position + Vec2::new(ball_x, 0.0))?;
    let shape = ShapeDef {
        density: mass_ratio * link_mass / (pi * ball_radius * ball_radius),
        ..ShapeDef::default()
    };
    world.create_circle_shape(ball, &shape, &circle(ball_radius))?;
    chain
        .joints
        .push(friction(world, previous, ball, ball_radius)?);
    chain.ball = ball;
    Ok(chain)
}

/// The bridge scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Bridge {
    /// The ground, with the two abutments the bridge hangs from.
    pub ground: BodyId,
    /// The planks from left to right.
    pub planks: Vec<BodyId>,
    /// The boxes dropped on the bridge.
    pub loads: Vec<BodyId>,
}

/// `planks` planks of 1 m × 0.25 m (density 20) pinned end to end between
/// two points 10 m above the ground, with a little joint friction, and
/// eight 1 m boxes dropped on the middle.
///
/// The bridge starts taut, so it can only sag by stretching its soft joints.
/// Its joints form a chain between the abutments, solved as one system
/// (`impulse2d`'s joint trees), so the loaded bridge sags by about 0.1 m;
/// solved row by row, as Box2D does, each joint stretched by tension /
/// (effective mass · ω²) and the sag grew as the 4/3 power of the plank
/// count: about 3 m for 40 planks, some 25 m (through the ground) for 160.
pub fn bridge(world: &mut World, planks: usize) -> Result<Bridge> {
    let length = planks as f32;
    let ground = flat_ground(world, 0.5 * length + 10.0)?;
    let (x0, y) = (-0.5 * length, 10.0);
    let plank_shape = ShapeDef {
        density: 20.0,
        ..ShapeDef::default()
    };
    let plank = make_box(0.5, 0.125)?;
    let mut bridge = Bridge {
        ground,
        planks: Vec::with_capacity(planks),
        loads: Vec::new(),
    };
    let mut previous = (ground, Vec2::new(x0, y));
    for i in 0..planks {
        let body = dynamic_body(world, Vec2::new(x0 + 0.5 + i as f32, y))?;
        world.create_polygon_shape(body, &plank_shape, &plank)?;
        let joint = hinge(previous.0, body, previous.1, Vec2::new(-0.5, 0.0));
        world.create_revolute_joint(&motorised(joint, 0.0, 200.0))?;
        bridge.planks.push(body);
        previous = (body, Vec2::new(0.5, 0.0));
    }
    pin(
        world,
        previous.0,
        ground,
        previous.1,
        Vec2::new(x0 + length, y),
    )?;
    let load = make_box(0.5, 0.5)?;
    for i in 0..8 {
        let body = dynamic_body(world, Vec2::new(-4.0 + i as f32, y + 3.0 + (i % 2) as f32))?;
        world.create_polygon_shape(body, &ShapeDef::default(), &load)?;
        bridge.loads.push(body);
    }
    Ok(bridge)
}

/// A ragdoll's bones and joints.
#[derive(Clone, Debug, PartialEq)]
pub struct Ragdoll {
    /// Torso, head, left thigh, left shin, right thigh, right shin, left
    /// upper arm, left forearm, right upper arm, right forearm.
    pub bones: Vec<BodyId>,
    /// The nine joints, each from a bone's parent to the bone.
    pub joints: Vec<JointId>,
}

/// One bone: centre, capsule half length (zero for the circular head) and
/// radius, parent index and the joint with its angle limits, all for a
/// ragdoll standing with its feet at the origin.
type Bone = ((f32, f32), f32, f32, usize, (f32, f32), (f32, f32));

const NO_PARENT: usize = usize::MAX;

const BONES: [Bone; 10] = [
    ((0.0, 1.2), 0.2, 0.14, NO_PARENT, (0.0, 0.0), (0.0, 0.0)),
    ((0.0, 1.72), 0.0, 0.12, 0, (0.0, 1.56), (-0.3, 0.3)),
    ((-0.08, 0.7), 0.16, 0.07, 0, (-0.08, 0.93), (-0.6, 1.6)),
    ((-0.08, 0.25), 0.15, 0.06, 2, (-0.08, 0.47), (-2.0, 0.0)),
    ((0.08, 0.7), 0.16, 0.07, 0, (0.08, 0.93), (-0.6, 1.6)),
    ((0.08, 0.25), 0.15, 0.06, 4, (0.08, 0.47), (-2.0, 0.0)),
    ((-0.22, 1.25), 0.13, 0.05, 0, (-0.22, 1.45), (-1.5, 1.5)),
    ((-0.22, 0.87), 0.13, 0.045, 6, (-0.22, 1.06), (-2.0, 0.0)),
    ((0.22, 1.25), 0.13, 0.05, 0, (0.22, 1.45), (-1.5, 1.5)),
    ((0.22, 0.87), 0.13, 0.045, 8, (0.22, 1.06), (-2.0, 0.0)),
];

/// A 1.8 m ragdoll of ten capsule bones (density 1) with limited joints and
/// 0.05 N·m of joint friction, placed by `transform` (feet at its origin).
/// Its bones do not collide with each other: they share the negative
/// collision group `group`.
pub fn ragdoll(world: &mut World, transform: Transform, group: i32) -> Result<Ragdoll> {
    let shape = ShapeDef {
        filter: Filter {
            group_index: group,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    let mut ragdoll = Ragdoll {
        bones: Vec::with_capacity(BONES.len()),
        joints: Vec::with_capacity(BONES.len() - 1),
    };
    for &((x, y), half, radius, parent, (jx, jy), (lower, upper)) in &BONES {
        let center = Vec2::new(x, y);
        let body = world.create_body(&BodyDef {
            rotation: transform.q,
            ..BodyDef::dynamic(to_pos(transform.apply(center)))
        })?;
        if half == 0.0 {
            world.create_circle_shape(body, &shape, &circle(radius))?;
        } else {
            let capsule = Capsule {
                center1: Vec2::new(0.0, -half),
                center2: Vec2::new(0.0, half),
                radius,
            };
            world.create_capsule_shape(body, &shape, &capsule)?;
        }
        if parent != NO_PARENT {
            let (px, py) = BONES[parent].0;
            let joint = Vec2::new(jx, jy);
            let anchor_a = joint - Vec2::new(px, py);
            let joint = world.create_revolute_joint(&RevoluteJointDef {
                enable_limit: true,
                lower_angle: lower,
                upper_angle: upper,
                enable_motor: true,
                max_motor_torque: 0.05,
                ..hinge(ragdoll.bones[parent], body, anchor_a, joint - center)
            })?;
            ragdoll.joints.push(joint);
        }
        ragdoll.bones.push(body);
    }
    Ok(ragdoll)
}

/// Ragdoll number `i` of the pile: lying on its side, alternately facing
/// left and right, 0.7 m above the previous one.
pub fn ragdoll_pile_member(world: &mut World, i: usize) -> Result<Ragdoll> {
    let side = if i.is_multiple_of(2) { 1.0 } else { -1.0 };
    let transform = Transform::new(
        Vec2::new(-0.9 * side, 0.4 + 0.7 * i as f32),
        Rot::from_angle(-side * 0.5 * impulse2d::math::PI),
    );
    ragdoll(world, transform, -(i as i32) - 1)
}

/// The car scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Car {
    /// The ground with its bumps.
    pub ground: BodyId,
    /// The 2.5 m × 0.5 m chassis.
    pub chassis: BodyId,
    /// The driven rear wheel (0.4 m radius).
    pub rear_wheel: BodyId,
    /// The front wheel.
    pub front_wheel: BodyId,
    /// The rear and front wheel joints.
    pub joints: [JointId; 2],
}

/// A car (chassis density 2, wheels density 2 with friction 1.5) on 5 Hz,
/// ζ = 0.7 wheel joints with ±0.25 m of travel, the rear wheel driven at
/// −20 rad/s with at most 5 N·m, on a ground with eight 0.2 m bumps every 4 m
/// from x = 10.
pub fn car(world: &mut World) -> Result<Car> {
    let ground = flat_ground(world, 100.0)?;
    for k in 0..8 {
        let bump = Circle {
            center: Vec2::new(10.0 + 4.0 * k as f32, -0.1),
            radius: 0.3,
        };
        world.create_circle_shape(ground, &ShapeDef::default(), &bump)?;
    }
    let chassis = dynamic_body(world, Vec2::new(0.0, 1.0))?;
    let body_shape = ShapeDef {
        density: 2.0,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(chassis, &body_shape, &make_box(1.25, 0.25)?)?;
    let wheel_shape = ShapeDef {
        density: 2.0,
        friction: 1.5,
        ..ShapeDef::default()
    };
    let mut wheels = [chassis; 2];
    let mut joints = Vec::with_capacity(2);
    for (k, (x, driven)) in [(-0.9f32, true), (0.9, false)].into_iter().enumerate() {
        let wheel = dynamic_body(world, Vec2::new(x, 0.4))?;
        world.create_circle_shape(wheel, &wheel_shape, &circle(0.4))?;
        joints.push(world.create_wheel_joint(&WheelJointDef {
            base: JointDef {
                body_a: chassis,
                body_b: wheel,
                local_anchor_a: Vec2::new(x, -0.6),
                ..JointDef::default()
            },
            local_axis_a: Vec2::Y,
            hertz: 5.0,
            damping_ratio: 0.7,
            enable_limit: true,
            lower_translation: -0.25,
            upper_translation: 0.25,
            enable_motor: driven,
            motor_speed: -20.0,
            max_motor_torque: 5.0,
            ..WheelJointDef::default()
        })?);
        wheels[k] = wheel;
    }
    Ok(Car {
        ground,
        chassis,
        rear_wheel: wheels[0],
        front_wheel: wheels[1],
        joints: [joints[0], joints[1]],
    })
}

/// Side of Box2D's joint grid, discs.
pub const JOINT_GRID_SIZE: usize = 100;
/// Radius of the joint grid's discs, metres (1 m apart).
pub const JOINT_GRID_DISC_RADIUS: f32 = 0.4;

/// Where disc (`column`, `row`) of the joint grid is, metres: `column` m to
/// the right of the origin and `row` m below it.
pub fn joint_grid_position(column: usize, row: usize) -> Vec2 {
    Vec2::new(column as f32, -(row as f32))
}

/// Whether disc (`column`, `row`) of an `n` × `n` joint grid is one of the
/// seven static discs it hangs from: the top row's middle seven.
pub fn joint_grid_is_anchor(n: usize, column: usize, row: usize) -> bool {
    row == 0 && column + 3 >= n / 2 && column <= n / 2 + 3
}

/// Box2D's joint grid benchmark: `n × n` discs (radius 0.4 m) 1 m apart
/// ([`joint_grid_position`]), each pinned to the discs above and to the left,
/// hanging from seven static discs in the middle of the top row (at y = 0);
/// discs do not collide with each other. Sleeping is turned off. The scene's
/// ground is the first static disc.
pub fn joint_grid(world: &mut World, n: usize) -> Result<Scene> {
    world.enable_sleeping(false);
    let shape = ShapeDef {
        filter: Filter {
            category_bits: 2,
            // Box2D writes `~2u`: every bit of the low 32 but category 2.
            mask_bits: u64::from(!2u32),
            group_index: 0,
        },
        ..ShapeDef::default()
    };
    let mut grid: Vec<BodyId> = Vec::with_capacity(n * n);
    let mut bodies = Vec::with_capacity(n * n);
    let mut ground = None;
    for k in 0..n {
        for i in 0..n {
            let fixed = joint_grid_is_anchor(n, k, i);
            let body = world.create_body(&BodyDef {
                body_type: if fixed {
                    BodyType::Static
                } else {
                    BodyType::Dynamic
                },
                position: to_pos(joint_grid_position(k, i)),
                ..BodyDef::default()
            })?;
            world.create_circle_shape(body, &shape, &circle(JOINT_GRID_DISC_RADIUS))?;
            if i > 0 {
                pin(
                    world,
                    grid[grid.len() - 1],
                    body,
                    Vec2::new(0.0, -0.5),
                    Vec2::new(0.0, 0.5),
                )?;
            }
            if k > 0 {
                pin(
                    world,
                    grid[grid.len() - n],
                    body,
                    Vec2::new(0.5, 0.0),
                    Vec2::new(-0.5, 0.0),
                )?;
            }
            if fixed {
                ground.get_or_insert(body);
            } else {
                bodies.push(body);
            }
            grid.push(body);
        }
    }
    let ground = ground.ok_or(impulse2d::Error::InvalidOperation(
        "the joint grid needs n >= 4",
    ))?;
    Ok(Scene::still(ground, bodies, grid.last().copied()))
}

/// Centre of the spinner's ring, where its blade turns, metres.
pub const SPINNER_CENTER: Vec2 = Vec2::new(0.0, 32.0);
/// Radius of the spinner's ring, metres.
pub const SPINNER_RADIUS: f32 = 40.0;
/// Points (and segments) of the spinner's looped chain.
pub const SPINNER_POINT_COUNT: usize = 360;
/// Friction of the ring and of the loose bodies.
pub const SPINNER_FRICTION: f32 = 0.1;
/// Where the blade's centre and hinge are, metres (20 m below the ring's centre).
pub const SPINNER_BLADE_POSITION: Vec2 = Vec2::new(0.0, 12.0);
/// The blade's half-width, half-length and rounding radius, metres.
pub const SPINNER_BLADE: (f32, f32, f32) = (0.4, 20.0, 0.2);
/// The blade motor's speed, rad/s.
pub const SPINNER_MOTOR_SPEED: f32 = 5.0;
/// The most torque the blade motor applies, N·m: unlimited, as in Box2D.
pub const SPINNER_MAX_MOTOR_TORQUE: f32 = f32::MAX;
/// Loose bodies in Box2D's release benchmark.
pub const SPINNER_BODY_COUNT: usize = 2 * 3038;
/// Distance between neighbouring loose bodies at the start, metres.
pub const SPINNER_BODY_SPACING: f32 = 0.5;
/// Density of the loose bodies, kg/m².
pub const SPINNER_BODY_DENSITY: f32 = 0.25;
/// Restitution of the loose bodies.
pub const SPINNER_BODY_RESTITUTION: f32 = 0.1;

/// The spinner ring's points, clockwise from the rightmost one (so that the
/// one-sided segments face inwards), each one turned from the last by a
/// fixed rotation as Box2D builds them.
pub fn spinner_ring_points() -> Vec<Vec2> {
    let step = Rot::from_angle(-2.0 * impulse2d::math::PI / SPINNER_POINT_COUNT as f32);
    let mut p = Vec2::new(SPINNER_RADIUS, 0.0);
    let mut points = Vec::with_capacity(SPINNER_POINT_COUNT);
    for _ in 0..SPINNER_POINT_COUNT {
        points.push(SPINNER_CENTER + p);
        p = step.rotate(p);
    }
    points
}

/// Where the spinner's `count` loose bodies start: rows from (−23, 2) m,
/// [`SPINNER_BODY_SPACING`] apart, a new row once x reaches 23 m.
pub fn spinner_body_positions(count: usize) -> Vec<Vec2> {
    let (mut x, mut y) = (-23.0f32, 2.0f32);
    let mut positions = Vec::with_capacity(count);
    for _ in 0..count {
        positions.push(Vec2::new(x, y));
        x += SPINNER_BODY_SPACING;
        if x >= 23.0 {
            x = -23.0;
            y += SPINNER_BODY_SPACING;
        }
    }
    positions
}

/// Box2D's spinner benchmark: a ring of radius 40 m centred at (0, 32) (a
/// looped chain of 360 segments, friction 0.1), a 40 m rounded blade hinged
/// at (0, 12) and driven at 5 rad/s with unlimited torque, and `count`
/// capsules, discs and squares in turn (density 0.25, friction 0.1,
/// restitution 0.1) at [`spinner_body_positions`]. The scene's bodies are the
/// blade, then the loose bodies.
pub fn spinner(world: &mut World, count: usize) -> Result<Scene> {
    let ground = world.create_body(&BodyDef::default())?;
    world.create_chain(
        ground,
        &ChainDef {
            points: spinner_ring_points(),
            is_loop: true,
            friction: SPINNER_FRICTION,
            ..ChainDef::default()
        },
    )?;

    let blade = world.create_body(&BodyDef {
        enable_sleep: false,
        ..BodyDef::dynamic(to_pos(SPINNER_BLADE_POSITION))
    })?;
    let slippery = ShapeDef {
        friction: 0.0,
        ..ShapeDef::default()
    };
    let (hx, hy, radius) = SPINNER_BLADE;
    world.create_polygon_shape(blade, &slippery, &make_rounded_box(hx, hy, radius)?)?;
    let axle = hinge(ground, blade, SPINNER_BLADE_POSITION, Vec2::ZERO);
    world.create_revolute_joint(&motorised(
        axle,
        SPINNER_MOTOR_SPEED,
        SPINNER_MAX_MOTOR_TORQUE,
    ))?;

    let capsule = Capsule {
        center1: Vec2::new(-0.25, 0.0),
        center2: Vec2::new(0.25, 0.0),
        radius: 0.25,
    };
    let square = make_square(0.35)?;
    let shape = ShapeDef {
        density: SPINNER_BODY_DENSITY,
        friction: SPINNER_FRICTION,
        restitution: SPINNER_BODY_RESTITUTION,
        ..ShapeDef::default()
    };
    let mut bodies = vec![blade];
    for (i, p) in spinner_body_positions(count).into_iter().enumerate() {
        let body = dynamic_body(world, p)?;
        match i % 3 {
            0 => world.create_capsule_shape(body, &shape, &capsule)?,
            1 => world.create_circle_shape(body, &shape, &circle(0.35))?,
            _ => world.create_polygon_shape(body, &shape, &square)?,
        };
        bodies.push(body);
    }
    Ok(Scene::still(ground, bodies, Some(blade)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use impulse2d::WorldDef;

    fn world() -> World {
        World::new(&WorldDef::default()).unwrap()
    }

    #[test]
    fn counts_match_the_descriptions() {
        let mut w = world();
        let chain = ball_and_chain(&mut w, 40, 50.0).unwrap();
        assert_eq!((chain.links.len(), chain.joints.len()), (40, 41));
        let ratio = w.body(chain.ball).unwrap().mass() / w.body(chain.links[0]).unwrap().mass();
        assert!((ratio - 50.0).abs() < 0.5, "mass ratio {ratio}");

        let mut w = world();
        let b = bridge(&mut w, 40).unwrap();
        assert_eq!((b.planks.len(), w.joint_count()), (40, 41));

        let mut w = world();
        let scene = joint_grid(&mut w, 100).unwrap();
        assert_eq!(scene.bodies.len(), 100 * 100 - 7);
        assert_eq!(w.joint_count(), 2 * 100 * 99);

        let mut w = world();
        let r = ragdoll(&mut w, Transform::IDENTITY, -1).unwrap();
        assert_eq!((r.bones.len(), r.joints.len()), (10, 9));
    }

    #[test]
    fn joint_anchors_coincide_when_built() {
        // Every joint of every scene starts assembled (ring and blade aside,
        // which have no gap either).
        for name in ["pendulum", "ball_and_chain", "bridge", "ragdolls", "car"] {
            let mut w = world();
            let scene = crate::build(name, &mut w).unwrap();
            for &body in &scene.bodies {
                for joint in w.body_joints(body).unwrap() {
                    let (a, b) = w.joint(joint).unwrap().world_anchors();
                    assert!(
                        (a - b).length() < 1e-4,
                        "{name}: joint gap {}",
                        (a - b).length()
                    );
                }
            }
        }
    }

    #[test]
    fn spinner_blade_turns_under_its_motor() {
        let mut w = world();
        let scene = spinner(&mut w, SPINNER_BODY_COUNT).unwrap();
        assert_eq!(scene.bodies.len(), 1 + 6076);
        let blade = scene.focus.unwrap();
        for _ in 0..10 {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        w.validate().unwrap();
        // With unlimited torque the motor holds the blade at its 5 rad/s; the
        // contacts, solved after it in each substep, nudge it by less than 1 %.
        let spin = w.body(blade).unwrap().angular_velocity();
        assert!(
            (spin - SPINNER_MOTOR_SPEED).abs() < 0.05,
            "blade spin {spin}"
        );
    }
}
