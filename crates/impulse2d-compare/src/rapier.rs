//! Rapier (`rapier2d`) with its default integration parameters (4 solver iterations,
//! which are its substeps), single-threaded (no `parallel` feature).
//!
//! Where the scenes need Box2D semantics, they are mapped onto Rapier's own features:
//! friction mixes by geometric mean and restitution by maximum (Box2D's rules); Box2D's
//! negative filter groups become a contact-pair hook; hinges do not let their two bodies
//! collide (Box2D's default). Known differences are listed in [`RAPIER_NOTES`].

use crate::desc::{Action, BodyState, Filter, Geometry, Kind, SceneDesc, V2};
use crate::engine::{Counts, Engine, RunConfig, SceneBuilder, Simulation};
use rapier2d::dynamics::{CoefficientCombineRule, GenericJoint, RevoluteJointBuilder};
use rapier2d::geometry::{ColliderHandle, Group, InteractionGroups, InteractionTestMode};
use rapier2d::math::{Pose, Vector};
use rapier2d::pipeline::{ActiveHooks, PairFilterContext, PhysicsHooks, PhysicsWorld};
use rapier2d::prelude::{
    ColliderBuilder, ImpulseJointHandle, RigidBodyBuilder, RigidBodyHandle, SharedShape,
    SolverFlags,
};

/// How the Rapier scenes differ from Box2D's, printed with the results.
pub const RAPIER_NOTES: &str = "Rapier: default IntegrationParameters (4 solver iterations), \
no CCD (its default), its own sleep thresholds; ragdoll joint friction is not modelled (a \
Rapier revolute has one motor, used for the spring); chain loop = one polyline collider \
(counted per segment).";

/// Rapier through `rapier2d`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rapier;

impl Engine for Rapier {
    fn name(&self) -> &'static str {
        "Rapier"
    }

    fn note(&self) -> Option<String> {
        Some("rapier2d 0.36, single-threaded".to_owned())
    }

    fn unsupported(&self, _scene: &SceneDesc) -> Option<String> {
        None
    }

    fn build(&self, scene: &SceneDesc, config: RunConfig) -> Box<dyn Simulation> {
        // Threads would need rapier's `parallel` feature; one thread for now.
        let _ = config;
        Box::new(RapierSim::new(scene))
    }
}

fn vec(p: V2) -> Vector {
    Vector::new(p[0], p[1])
}

fn groups(f: Filter) -> InteractionGroups {
    InteractionGroups::new(
        Group::from_bits_retain(f.category),
        Group::from_bits_retain(f.mask),
        InteractionTestMode::And,
    )
}

/// Rejects pairs of colliders sharing a negative group (Box2D's `groupIndex` rule). The
/// group is stored in the collider's user data.
struct GroupFilter;

fn group_of(user_data: u128) -> i32 {
    user_data as u32 as i32
}

impl PhysicsHooks for GroupFilter {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        let c1 = &context.colliders[context.collider1];
        let c2 = &context.colliders[context.collider2];
        let (g1, g2) = (group_of(c1.user_data), group_of(c2.user_data));
        if g1 == g2 && g1 < 0 {
            return None;
        }
        // Replacing the default filter means re-applying its rule: two bodies that cannot
        // move never collide.
        let dynamic =
            |body: Option<RigidBodyHandle>| body.is_some_and(|h| context.bodies[h].is_dynamic());
        if !dynamic(context.rigid_body1) && !dynamic(context.rigid_body2) {
            return None;
        }
        Some(SolverFlags::COMPUTE_RIGID_IMPULSES)
    }
}

struct RapierSim {
    scene: SceneDesc,
    world: PhysicsWorld,
    bodies: Vec<Option<RigidBodyHandle>>,
    joints: Vec<Option<ImpulseJointHandle>>,
    /// Shapes per collider as Box2D counts them (a polyline counts per segment).
    shapes_per_collider: Vec<(ColliderHandle, usize)>,
    hooks: GroupFilter,
    /// The last save: the `PhysicsWorld` through serde and bincode.
    #[cfg(feature = "rapier-serde")]
    saved: Vec<u8>,
}

impl RapierSim {
    fn new(scene: &SceneDesc) -> Self {
        let mut world = PhysicsWorld::new();
        world.gravity = vec(scene.gravity);
        world.integration_parameters.num_solver_iterations = 4;
        let mut sim = Self {
            scene: scene.clone(),
            world,
            bodies: vec![None; scene.bodies.len()],
            joints: vec![None; scene.joints.len()],
            shapes_per_collider: Vec::new(),
            hooks: GroupFilter,
            #[cfg(feature = "rapier-serde")]
            saved: Vec::new(),
        };
        sim.create_initial();
        sim
    }
}

impl SceneBuilder for RapierSim {
    fn create_body(&mut self, key: usize) {
        let desc = &self.scene.bodies[key];
        let builder = match desc.kind {
            Kind::Static => RigidBodyBuilder::fixed(),
            Kind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
            Kind::Dynamic => RigidBodyBuilder::dynamic(),
        };
        let body = builder
            .translation(vec(desc.position))
            .rotation(desc.angle)
            .linvel(vec(desc.linear_velocity))
            .angvel(desc.angular_velocity)
            .linear_damping(desc.linear_damping)
            .can_sleep(desc.enable_sleep && self.scene.enable_sleep)
            .sleeping(!desc.awake)
            .build();
        let handle = self.world.bodies.insert(body);
        for shape in &desc.shapes {
            let (shared, offset, count) = collider_shape(&shape.geometry);
            let mut collider = ColliderBuilder::new(shared)
                .density(shape.density)
                .friction(shape.friction)
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution(shape.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .collision_groups(groups(shape.filter));
            if offset != [0.0, 0.0] {
                collider = collider.position(Pose::from_translation(vec(offset)));
            }
            if shape.filter.group != 0 {
                collider = collider
                    .user_data(shape.filter.group as u32 as u128)
                    .active_hooks(ActiveHooks::FILTER_CONTACT_PAIRS);
            }
            let collider_handle =
                self.world
                    .colliders
                    .insert_with_parent(collider, handle, &mut self.world.bodies);
            self.shapes_per_collider.push((collider_handle, count));
        }
        self.bodies[key] = Some(handle);
    }

    fn create_joint(&mut self, index: usize) {
        let joint = &self.scene.joints[index];
        let (Some(a), Some(b)) = (self.bodies[joint.body_a], self.bodies[joint.body_b]) else {
            panic!(
                "joint {index} of {} links a body that does not exist",
                self.scene.name
            );
        };
        let mut builder = RevoluteJointBuilder::new()
            .local_anchor1(vec(joint.local_anchor_a))
            .local_anchor2(vec(joint.local_anchor_b))
            .contacts_enabled(false);
        if let Some(limits) = joint.limits {
            builder = builder.limits(limits);
        }
        if let Some(spring) = joint.spring {
            // Rapier's acceleration-based motor is mass-independent, like Box2D's spring.
            let omega = 2.0 * std::f32::consts::PI * spring.hertz;
            builder =
                builder.motor_position(0.0, omega * omega, 2.0 * spring.damping_ratio * omega);
        } else if let Some(motor) = joint.motor {
            builder = builder
                .motor_velocity(motor.speed, MOTOR_VELOCITY_FACTOR)
                .motor_max_force(motor.max_torque);
        }
        let mut generic: GenericJoint = builder.build().into();
        if joint.reference_angle != 0.0 {
            generic.set_local_frame1(Pose::new(vec(joint.local_anchor_a), joint.reference_angle));
        }
        let handle = self.world.impulse_joints.insert(a, b, generic, true);
        self.joints[index] = Some(handle);
    }

    /// Removes the body with its colliders and joints; the caller drops the
    /// removed colliders' shape counts.
    fn destroy_body(&mut self, key: usize) {
        if let Some(handle) = self.bodies[key].take() {
            let w = &mut self.world;
            w.bodies.remove(
                handle,
                &mut w.islands,
                &mut w.colliders,
                &mut w.impulse_joints,
                &mut w.multibody_joints,
                &mut w.soft_bodies,
                true,
            );
        }
    }

    fn scene(&self) -> &SceneDesc {
        &self.scene
    }
}

/// Damping factor of Rapier's velocity motors (acceleration-based model): large enough that
/// the motor holds its target speed like Box2D's rigid motor.
const MOTOR_VELOCITY_FACTOR: f32 = 1.0e4;

/// Half-extents and centre if `vertices` are an axis-aligned box in Box2D's order.
fn as_box(vertices: &[V2]) -> Option<(f32, f32, V2)> {
    let [a, b, c, d] = vertices else {
        return None;
    };
    let aligned = a[1] == b[1] && b[0] == c[0] && c[1] == d[1] && d[0] == a[0];
    (aligned && b[0] > a[0] && c[1] > b[1]).then(|| {
        (
            0.5 * (b[0] - a[0]),
            0.5 * (c[1] - b[1]),
            [0.5 * (a[0] + b[0]), 0.5 * (b[1] + c[1])],
        )
    })
}

/// Rapier's shape for `geometry`, its offset from the body origin, and how many shapes Box2D
/// would count. Boxes become cuboids (Rapier's native box; its generic convex polygon
/// path let the pyramids jump) and circles balls, placed by the collider's position.
fn collider_shape(geometry: &Geometry) -> (SharedShape, V2, usize) {
    match geometry {
        Geometry::Circle { center, radius } => (SharedShape::ball(*radius), *center, 1),
        Geometry::Capsule {
            center1,
            center2,
            radius,
        } => (
            SharedShape::capsule(vec(*center1), vec(*center2), *radius),
            [0.0, 0.0],
            1,
        ),
        Geometry::Polygon { vertices, radius } => {
            if let Some((hx, hy, center)) = as_box(vertices) {
                let shape = if *radius > 0.0 {
                    SharedShape::round_cuboid(hx, hy, *radius)
                } else {
                    SharedShape::cuboid(hx, hy)
                };
                (shape, center, 1)
            } else {
                let points: Vec<Vector> = vertices.iter().map(|p| vec(*p)).collect();
                let shape = if *radius > 0.0 {
                    SharedShape::round_convex_polyline(points, *radius)
                } else {
                    SharedShape::convex_polyline(points)
                };
                (shape.expect("convex polygon"), [0.0, 0.0], 1)
            }
        }
        Geometry::Segment { point1, point2 } => (
            SharedShape::segment(vec(*point1), vec(*point2)),
            [0.0, 0.0],
            1,
        ),
        Geometry::ChainLoop { points } => {
            let vertices: Vec<Vector> = points.iter().map(|p| vec(*p)).collect();
            let n = vertices.len() as u32;
            let indices = (0..n).map(|i| [i, (i + 1) % n]).collect();
            (
                SharedShape::polyline(vertices, Some(indices)),
                [0.0, 0.0],
                n as usize,
            )
        }
    }
}

impl Simulation for RapierSim {
    fn step(&mut self, time_step: f32, sub_steps: u32) {
        self.world.integration_parameters.dt = time_step;
        self.world.integration_parameters.num_solver_iterations = sub_steps as usize;
        self.world.step_with_events(&self.hooks, &());
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Spawn(batch) => self.spawn(batch),
            Action::Despawn(batch) => {
                let batch = self.scene.batches[batch].clone();
                for index in batch.joints {
                    self.joints[index] = None;
                }
                for key in batch.bodies {
                    self.destroy_body(key);
                }
                let colliders = &self.world.colliders;
                self.shapes_per_collider
                    .retain(|(handle, _)| colliders.contains(*handle));
            }
        }
    }

    fn counts(&self) -> Counts {
        Counts {
            bodies: self.world.bodies.len(),
            shapes: self.shapes_per_collider.iter().map(|(_, n)| n).sum(),
            joints: self.world.impulse_joints.len(),
        }
    }

    fn body_states(&self) -> Vec<Option<BodyState>> {
        self.bodies
            .iter()
            .map(|handle| {
                handle.map(|h| {
                    let body = &self.world.bodies[h];
                    let p = body.translation();
                    let v = body.linvel();
                    BodyState {
                        position: [p.x, p.y],
                        angle: body.rotation().angle(),
                        linear_velocity: [v.x, v.y],
                        angular_velocity: body.angvel(),
                    }
                })
            })
            .collect()
    }

    #[cfg(feature = "rapier-serde")]
    fn save(&mut self, kind: crate::engine::SaveKind) -> Option<usize> {
        if kind != crate::engine::SaveKind::Full {
            return None;
        }
        self.saved.clear();
        bincode::serialize_into(&mut self.saved, &self.world).ok()?;
        Some(self.saved.len())
    }

    #[cfg(feature = "rapier-serde")]
    fn load(&mut self, kind: crate::engine::SaveKind) -> bool {
        if kind != crate::engine::SaveKind::Full {
            return false;
        }
        match bincode::deserialize::<PhysicsWorld>(&self.saved) {
            Ok(world) => {
                self.world = world;
                true
            }
            Err(_) => false,
        }
    }
}
