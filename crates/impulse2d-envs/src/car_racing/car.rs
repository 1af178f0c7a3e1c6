//! The car, as Gymnasium's `car_dynamics.Car`: a hull of four polygons and
//! four wheels, each a small body on a revolute joint (motor and ±0.4 rad
//! limit) at its corner of the hull. The tyre model is not Box2D's friction:
//! each step every wheel works out its spin `ω` (engine power over wheel
//! inertia, brakes), the slip between its rolling speed `ω·r` and its ground
//! speed forward and sideways, and pushes its body with a force along that
//! slip, capped by a friction limit (lower off the road). Rear-wheel drive;
//! the front wheels steer through their joint motors.

use std::collections::VecDeque;

use super::sign;

use impulse2d::collision::{compute_hull, make_polygon};
use impulse2d::{
    BodyDef, BodyId, BodyType, Filter, JointDef, JointId, Result, RevoluteJointDef, Rot, ShapeDef,
    ShapeId, Vec2, World,
};

/// Size of the car's design units, m per unit.
pub const SIZE: f64 = 0.02;
/// Engine power, W.
pub const ENGINE_POWER: f64 = 100_000_000.0 * SIZE * SIZE;
/// Wheel moment of inertia in the tyre model, kg·m².
pub const WHEEL_MOMENT_OF_INERTIA: f64 = 4000.0 * SIZE * SIZE;
/// Largest tyre force on the road, N (60 % of it on grass).
pub const FRICTION_LIMIT: f64 = 1_000_000.0 * SIZE * SIZE;
/// Wheel radius, design units.
pub const WHEEL_R: f64 = 27.0;
/// Wheel half-width, design units.
pub const WHEEL_W: f64 = 14.0;
/// Wheel centres on the hull, design units: front left, front right, rear
/// left, rear right.
pub const WHEELPOS: [(f64, f64); 4] = [(-55.0, 80.0), (55.0, 80.0), (-55.0, -82.0), (55.0, -82.0)];
/// The hull's four polygons, design units.
pub const HULL_POLYS: [&[(f64, f64)]; 4] = [
    &[(-60.0, 130.0), (60.0, 130.0), (60.0, 110.0), (-60.0, 110.0)],
    &[(-15.0, 120.0), (15.0, 120.0), (20.0, 20.0), (-20.0, 20.0)],
    &[
        (25.0, 20.0),
        (50.0, -10.0),
        (50.0, -40.0),
        (20.0, -90.0),
        (-20.0, -90.0),
        (-50.0, -40.0),
        (-50.0, -10.0),
        (-25.0, 20.0),
    ],
    &[
        (-50.0, -120.0),
        (50.0, -120.0),
        (50.0, -90.0),
        (-50.0, -90.0),
    ],
];
/// Hull colour, RGB.
pub const HULL_COLOR: [u8; 3] = [204, 0, 0];
/// Wheel colour, RGB.
pub const WHEEL_COLOR: [u8; 3] = [0, 0, 0];
/// The turning stripe on a wheel, RGB.
pub const WHEEL_WHITE: [u8; 3] = [77, 77, 77];
/// Skid marks on grass, RGB (on the road they are [`WHEEL_COLOR`]).
pub const MUD_COLOR: [u8; 3] = [102, 102, 0];
/// Stiffness asked of the wheel joints, Hz (the engine caps it at a quarter
/// of the substep rate).
pub const JOINT_HERTZ: f32 = 1000.0;
/// Skid marks kept (oldest dropped first).
pub const MAX_PARTICLES: usize = 30;

/// A skid mark: a polyline in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Particle {
    /// RGB colour.
    pub color: [u8; 3],
    /// Points, m.
    pub poly: Vec<[f64; 2]>,
    /// Whether it was made on grass.
    pub grass: bool,
    id: u64,
}

/// One wheel: its body and joint, and the tyre model's state.
#[derive(Clone, Debug)]
pub struct Wheel {
    /// The wheel's body.
    pub body: BodyId,
    /// Its polygon.
    pub shape: ShapeId,
    /// The revolute joint to the hull.
    pub joint: JointId,
    /// Throttle, 0–1 (rear wheels only).
    pub gas: f64,
    /// Brake, 0–1 (≥ 0.9 locks the wheel).
    pub brake: f64,
    /// Target steering angle, rad (front wheels only).
    pub steer: f64,
    /// Rotation of the wheel about its axle, rad (drawn as a stripe).
    pub phase: f64,
    /// Spin about the axle, rad/s.
    pub omega: f64,
    /// Number of road tiles under the wheel.
    pub tiles: u32,
    skid_start: Option<[f64; 2]>,
    skid_particle: Option<SkidMark>,
}

/// The skid mark a wheel is drawing: which, on what, how many points.
#[derive(Clone, Copy, Debug)]
struct SkidMark {
    id: u64,
    grass: bool,
    len: usize,
}

/// The car: hull, wheels and skid marks.
#[derive(Clone, Debug)]
pub struct Car {
    /// The hull's body.
    pub hull: BodyId,
    /// The hull's polygons.
    pub hull_shapes: [ShapeId; 4],
    /// Front left, front right, rear left, rear right.
    pub wheels: [Wheel; 4],
    /// Skid marks, oldest first.
    pub particles: VecDeque<Particle>,
    next_particle: u64,
}

fn polygon(points: &[(f64, f64)], scale: f64) -> Result<impulse2d::collision::Polygon> {
    let pts: Vec<Vec2> = points
        .iter()
        .map(|&(x, y)| Vec2::new((x * scale) as f32, (y * scale) as f32))
        .collect();
    make_polygon(&compute_hull(&pts)?, 0.0)
}

/// The wheel's rectangle, design units.
pub fn wheel_poly() -> [(f64, f64); 4] {
    [
        (-WHEEL_W, WHEEL_R),
        (WHEEL_W, WHEEL_R),
        (WHEEL_W, -WHEEL_R),
        (-WHEEL_W, -WHEEL_R),
    ]
}

impl Car {
    /// Puts a car at rest at `(x, y)` heading `angle` (its forward axis is
    /// the body's +y axis turned by `angle`).
    ///
    /// Gymnasium places the wheel bodies at the unrotated offsets and lets
    /// the joints pull them to their corners during the first step; here they
    /// start at their corners (Box2D 2.3's 60 position iterations close that
    /// gap within the first step, a soft-step joint would take several).
    pub fn new(world: &mut World, angle: f64, x: f64, y: f64) -> Result<Car> {
        let rotation = Rot::from_angle(angle as f32);
        let position = Vec2::new(x as f32, y as f32);
        let hull = world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position,
            rotation,
            enable_sleep: false,
            ..Default::default()
        })?;
        let hull_def = ShapeDef {
            density: 1.0,
            friction: 0.2,
            ..Default::default()
        };
        let mut hull_shapes = [ShapeId::default(); 4];
        for (slot, poly) in hull_shapes.iter_mut().zip(HULL_POLYS) {
            *slot = world.create_polygon_shape(hull, &hull_def, &polygon(poly, SIZE)?)?;
        }
        let wheel_def = ShapeDef {
            density: 0.1,
            friction: 0.2,
            restitution: 0.0,
            filter: Filter {
                category_bits: 0x0020,
                mask_bits: 0x001,
                group_index: 0,
            },
            ..Default::default()
        };
        let wheel_polygon = polygon(&wheel_poly(), SIZE)?;
        let mut wheels = Vec::with_capacity(4);
        for &(wx, wy) in &WHEELPOS {
            let anchor = Vec2::new((wx * SIZE) as f32, (wy * SIZE) as f32);
            let body = world.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: position + rotation.rotate(anchor),
                rotation,
                enable_sleep: false,
                ..Default::default()
            })?;
            let shape = world.create_polygon_shape(body, &wheel_def, &wheel_polygon)?;
            let joint = world.create_revolute_joint(&RevoluteJointDef {
                base: JointDef {
                    body_a: hull,
                    body_b: body,
                    local_anchor_a: anchor,
                    local_anchor_b: Vec2::ZERO,
                    constraint_hertz: Some(JOINT_HERTZ),
                    ..Default::default()
                },
                enable_motor: true,
                enable_limit: true,
                max_motor_torque: (180.0 * 900.0 * SIZE * SIZE) as f32,
                motor_speed: 0.0,
                lower_angle: -0.4,
                upper_angle: 0.4,
                ..Default::default()
            })?;
            wheels.push(Wheel {
                body,
                shape,
                joint,
                gas: 0.0,
                brake: 0.0,
                steer: 0.0,
                phase: 0.0,
                omega: 0.0,
                tiles: 0,
                skid_start: None,
                skid_particle: None,
            });
        }
        let wheels: [Wheel; 4] = wheels.try_into().expect("four wheels");
        Ok(Car {
            hull,
            hull_shapes,
            wheels,
            particles: VecDeque::with_capacity(MAX_PARTICLES),
            next_particle: 0,
        })
    }

    /// Throttle for the rear wheels, clipped to `[0, 1]`; it rises by at
    /// most 0.1 per call and drops at once.
    pub fn gas(&mut self, gas: f64) {
        let gas = gas.clamp(0.0, 1.0);
        for w in &mut self.wheels[2..4] {
            let diff = (gas - w.gas).min(0.1);
            w.gas += diff;
        }
    }

    /// Brakes on all wheels, 0–1 (≥ 0.9 locks them; not clipped).
    pub fn brake(&mut self, brake: f64) {
        for w in &mut self.wheels {
            w.brake = brake;
        }
    }

    /// Target steering angle of the front wheels (the joint limit caps it at
    /// ±0.4 rad); the joint motors turn them towards it.
    pub fn steer(&mut self, steer: f64) {
        self.wheels[0].steer = steer;
        self.wheels[1].steer = steer;
    }

    /// Runs the tyre model for a step of `dt` seconds: sets each joint's
    /// motor speed and applies each wheel's tyre force (before the world
    /// steps).
    pub fn step(&mut self, world: &mut World, dt: f64) -> Result<()> {
        for i in 0..4 {
            let (steer, joint, body) = {
                let w = &self.wheels[i];
                (w.steer, w.joint, w.body)
            };
            // Steer each wheel.
            let angle = f64::from(world.joint(joint)?.revolute()?.angle());
            let dir = sign(steer - angle);
            let val = (steer - angle).abs();
            world
                .joint_mut(joint)?
                .motor()?
                .set_speed((dir * (50.0 * val).min(3.0)) as f32)?;

            let w = &mut self.wheels[i];
            // Road or grass.
            let grass = w.tiles == 0;
            let friction_limit = if grass {
                FRICTION_LIMIT * 0.6
            } else {
                FRICTION_LIMIT
            };

            let b = world.body(body)?;
            let forw = b.world_vector(Vec2::new(0.0, 1.0));
            let side = b.world_vector(Vec2::new(1.0, 0.0));
            let v = b.linear_velocity();
            let position = b.position();
            let (forw, side) = (
                [f64::from(forw.x), f64::from(forw.y)],
                [f64::from(side.x), f64::from(side.y)],
            );
            let v = [f64::from(v.x), f64::from(v.y)];
            let vf = forw[0] * v[0] + forw[1] * v[1]; // forward speed
            let vs = side[0] * v[0] + side[1] * v[1]; // side speed

            // Engine: power W = I·ω·dω/dt, with a small term so ω = 0 is fine.
            w.omega += dt * ENGINE_POWER * w.gas / WHEEL_MOMENT_OF_INERTIA / (w.omega.abs() + 5.0);
            if w.brake >= 0.9 {
                w.omega = 0.0;
            } else if w.brake > 0.0 {
                const BRAKE_FORCE: f64 = 15.0; // rad/s per step
                let dir = -sign(w.omega);
                let val = (BRAKE_FORCE * w.brake).min(w.omega.abs());
                w.omega += dir * val;
            }
            w.phase += w.omega * dt;

            let wheel_rad = WHEEL_R * SIZE;
            let vr = w.omega * wheel_rad; // rolling speed
            // Force along the speed difference; the factor damps the
            // oscillation a finite step would make (no effect on the limit).
            let mut f_force = (-vf + vr) * 205_000.0 * SIZE * SIZE;
            let mut p_force = -vs * 205_000.0 * SIZE * SIZE;
            let force = (f_force * f_force + p_force * p_force).sqrt();

            // Skid marks.
            let pos = [f64::from(position.x), f64::from(position.y)];
            if force.abs() > 2.0 * friction_limit {
                // A mark that has fallen out of the queue still takes its
                // points in Gymnasium (invisibly), so the wheel keeps count.
                let extended = match &mut w.skid_particle {
                    Some(mark) if mark.grass == grass && mark.len < 30 => {
                        mark.len += 1;
                        if let Some(p) = self.particles.iter_mut().find(|p| p.id == mark.id) {
                            p.poly.push(pos);
                        }
                        true
                    }
                    _ => false,
                };
                if !extended {
                    if let Some(start) = w.skid_start {
                        let id = self.next_particle;
                        self.next_particle += 1;
                        if self.particles.len() == MAX_PARTICLES {
                            self.particles.pop_front();
                        }
                        self.particles.push_back(Particle {
                            color: if grass { MUD_COLOR } else { WHEEL_COLOR },
                            poly: vec![start, pos],
                            grass,
                            id,
                        });
                        w.skid_particle = Some(SkidMark { id, grass, len: 2 });
                        w.skid_start = None;
                    } else {
                        w.skid_start = Some(pos);
                    }
                }
            } else {
                w.skid_start = None;
                w.skid_particle = None;
            }

            if force.abs() > friction_limit {
                f_force = f_force / force * friction_limit;
                p_force = p_force / force * friction_limit;
            }
            w.omega -= dt * f_force * wheel_rad / WHEEL_MOMENT_OF_INERTIA;

            let fx = p_force * side[0] + f_force * forw[0];
            let fy = p_force * side[1] + f_force * forw[1];
            world
                .body_mut(body)?
                .apply_force_to_center(Vec2::new(fx as f32, fy as f32), true)?;
        }
        Ok(())
    }
}
