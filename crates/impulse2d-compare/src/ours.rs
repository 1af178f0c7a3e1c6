//! Impulse2D, this project's engine, through its public world API.

use crate::desc::{Action, BodyState, Filter, Geometry, Kind, SceneDesc, V2};
use crate::engine::{Counts, Engine, RunConfig, SaveKind, SceneBuilder, Simulation, StepProfile};
use impulse2d::collision::{Capsule, Circle, Segment, compute_hull, make_polygon};
use impulse2d::{
    BodyDef, BodyId, BodyType, ChainDef, JointDef, RevoluteJointDef, Rot, ShapeDef, SimdPath, Vec2,
    World, WorldDef,
};

/// Impulse2D.
#[derive(Clone, Copy, Debug, Default)]
pub struct Impulse2d;

impl Engine for Impulse2d {
    fn name(&self) -> &'static str {
        crate::report::OURS
    }

    fn note(&self) -> Option<String> {
        Some(format!(
            "impulse2d (this workspace), compiled for {}, SIMD path {} (`--simd {}`), on \
             `--threads` workers",
            compiled_for(),
            simd_path(),
            simd_setting()
        ))
    }

    fn unsupported(&self, _scene: &SceneDesc) -> Option<String> {
        None
    }

    fn build(&self, scene: &SceneDesc, config: RunConfig) -> Box<dyn Simulation> {
        Box::new(OurSim::new(scene, config.threads))
    }
}

/// The instruction set this binary was compiled for: the baseline of the target, or
/// x86-64-v3 when built with `-C target-cpu=x86-64-v3` (or a CPU that has AVX2).
pub fn compiled_for() -> &'static str {
    if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
        "x86-64 with AVX2 (a -C target-cpu build)"
    } else if cfg!(target_arch = "x86_64") {
        "baseline x86-64 (the default build)"
    } else {
        std::env::consts::ARCH
    }
}

/// The SIMD path every Impulse2D world of this run takes (`--simd`, default `auto`).
static SIMD: std::sync::OnceLock<SimdPath> = std::sync::OnceLock::new();

/// Sets the SIMD path worlds are made with; `Err` when this CPU cannot run it.
pub fn set_simd(simd: SimdPath) -> Result<(), String> {
    simd.resolve().map_err(|e| e.to_string())?;
    SIMD.set(simd)
        .map_err(|_| "the SIMD path is already set".to_owned())
}

fn simd_setting() -> SimdPath {
    SIMD.get().copied().unwrap_or_default()
}

/// The path the worlds of this run take (the setting resolved on this CPU).
pub fn simd_path() -> String {
    simd_setting()
        .resolve()
        .map_or_else(|e| e.to_string(), |p| p.to_string())
}

fn v(p: V2) -> Vec2 {
    Vec2::new(p[0], p[1])
}

impl From<Filter> for impulse2d::Filter {
    fn from(f: Filter) -> Self {
        Self {
            category_bits: u64::from(f.category),
            mask_bits: f.mask_bits(),
            group_index: f.group,
        }
    }
}

struct OurSim {
    scene: SceneDesc,
    world: World,
    bodies: Vec<Option<BodyId>>,
    snapshot: Option<impulse2d::Snapshot>,
    rollback: impulse2d::RollbackState,
    rollback_compact: impulse2d::RollbackState,
}

impl OurSim {
    fn new(scene: &SceneDesc, threads: usize) -> Self {
        let def = WorldDef {
            worker_count: threads.clamp(1, impulse2d::MAX_WORKERS),
            gravity: v(scene.gravity),
            enable_sleep: scene.enable_sleep,
            simd: simd_setting(),
            ..Default::default()
        };
        let world = World::new(&def).expect("valid world def");
        let mut sim = Self {
            scene: scene.clone(),
            world,
            bodies: vec![None; scene.bodies.len()],
            snapshot: None,
            rollback: impulse2d::RollbackState::new(),
            rollback_compact: impulse2d::RollbackState::compact(),
        };
        sim.create_initial();
        sim
    }
}

impl SceneBuilder for OurSim {
    fn create_body(&mut self, key: usize) {
        let desc = &self.scene.bodies[key];
        let def = BodyDef {
            body_type: match desc.kind {
                Kind::Static => BodyType::Static,
                Kind::Kinematic => BodyType::Kinematic,
                Kind::Dynamic => BodyType::Dynamic,
            },
            position: v(desc.position),
            rotation: Rot::from_angle(desc.angle),
            linear_velocity: v(desc.linear_velocity),
            angular_velocity: desc.angular_velocity,
            linear_damping: desc.linear_damping,
            sleep_threshold: desc.sleep_threshold,
            enable_sleep: desc.enable_sleep,
            is_awake: desc.awake,
            ..Default::default()
        };
        let name = &self.scene.name;
        let body = self
            .world
            .create_body(&def)
            .unwrap_or_else(|e| panic!("{name}: body {key}: {e}"));
        for shape in &desc.shapes {
            let sd = ShapeDef {
                density: shape.density,
                friction: shape.friction,
                restitution: shape.restitution,
                filter: shape.filter.into(),
                ..Default::default()
            };
            let created = match &shape.geometry {
                Geometry::Circle { center, radius } => Circle::new(v(*center), *radius)
                    .and_then(|circle| self.world.create_circle_shape(body, &sd, &circle))
                    .map(drop),
                Geometry::Capsule {
                    center1,
                    center2,
                    radius,
                } => Capsule::new(v(*center1), v(*center2), *radius)
                    .and_then(|capsule| self.world.create_capsule_shape(body, &sd, &capsule))
                    .map(drop),
                Geometry::Polygon { vertices, radius } => {
                    let points: Vec<Vec2> = vertices.iter().map(|p| v(*p)).collect();
                    compute_hull(&points)
                        .and_then(|hull| make_polygon(&hull, *radius))
                        .and_then(|polygon| self.world.create_polygon_shape(body, &sd, &polygon))
                        .map(drop)
                }
                Geometry::Segment { point1, point2 } => Segment::new(v(*point1), v(*point2))
                    .and_then(|segment| self.world.create_segment_shape(body, &sd, &segment))
                    .map(drop),
                Geometry::ChainLoop { points } => {
                    let chain = ChainDef {
                        points: points.iter().map(|p| v(*p)).collect(),
                        is_loop: true,
                        friction: shape.friction,
                        restitution: shape.restitution,
                        filter: shape.filter.into(),
                        ..Default::default()
                    };
                    self.world.create_chain(body, &chain).map(drop)
                }
            };
            created.unwrap_or_else(|e| panic!("{name}: shape on body {key}: {e}"));
        }
        self.bodies[key] = Some(body);
    }

    fn create_joint(&mut self, index: usize) {
        let joint = &self.scene.joints[index];
        let name = &self.scene.name;
        let (Some(a), Some(b)) = (self.bodies[joint.body_a], self.bodies[joint.body_b]) else {
            panic!("{name}: joint {index} links a body that does not exist");
        };
        let [
            (enable_limit, lower_angle, upper_angle),
            (enable_motor, motor_speed, max_motor_torque),
            (enable_spring, hertz, damping_ratio),
        ] = joint.flat_parts();
        let def = RevoluteJointDef {
            base: JointDef {
                body_a: a,
                body_b: b,
                local_anchor_a: v(joint.local_anchor_a),
                local_anchor_b: v(joint.local_anchor_b),
                ..Default::default()
            },
            reference_angle: joint.reference_angle,
            enable_limit,
            lower_angle,
            upper_angle,
            enable_motor,
            motor_speed,
            max_motor_torque,
            enable_spring,
            hertz,
            damping_ratio,
            ..Default::default()
        };
        self.world
            .create_revolute_joint(&def)
            .unwrap_or_else(|e| panic!("{name}: joint {index}: {e}"));
    }

    fn destroy_body(&mut self, key: usize) {
        if let Some(id) = self.bodies[key].take() {
            self.world.destroy_body(id).expect("live body");
        }
    }

    fn scene(&self) -> &SceneDesc {
        &self.scene
    }
}

impl Simulation for OurSim {
    fn step(&mut self, time_step: f32, sub_steps: u32) {
        self.world
            .step(time_step, sub_steps)
            .expect("valid time step");
    }

    fn profile(&self) -> Option<StepProfile> {
        let p = self.world.profile();
        let constraints = p.prepare_constraints
            + p.integrate_velocities
            + p.warm_start
            + p.solve_impulses
            + p.integrate_positions
            + p.relax_impulses
            + p.restitution
            + p.store_impulses;
        let after_solve = p.step - p.pairs - p.collide - p.solve;
        let stages = [
            p.step,
            p.pairs,
            p.collide,
            p.solve,
            p.split_islands,
            p.rebuild_trees,
            constraints,
            p.prepare_constraints,
            p.integrate_velocities,
            p.warm_start,
            p.solve_impulses,
            p.integrate_positions,
            p.relax_impulses,
            p.restitution,
            p.store_impulses,
            p.finalize_bodies,
            p.continuous,
            p.enlarge_proxies,
            p.sleep_islands,
            after_solve.max(0.0),
        ];
        Some(StepProfile {
            stages: stages.map(f64::from),
            parallel: Some(f64::from(p.parallel)),
        })
    }

    fn apply(&mut self, action: Action) {
        self.act(action);
    }

    fn counts(&self) -> Counts {
        let c = self.world.counters();
        Counts {
            bodies: c.body_count,
            shapes: c.shape_count,
            joints: self.world.joint_count(),
        }
    }

    fn body_states(&self) -> Vec<Option<BodyState>> {
        self.bodies
            .iter()
            .map(|id| {
                id.map(|id| {
                    let p = self.world.body(id).expect("live body").position();
                    let q = self.world.body(id).expect("live body").rotation();
                    let lv = self.world.body(id).expect("live body").linear_velocity();
                    BodyState {
                        position: [p.x, p.y],
                        angle: q.angle(),
                        linear_velocity: [lv.x, lv.y],
                        angular_velocity: self
                            .world
                            .body(id)
                            .expect("live body")
                            .angular_velocity(),
                    }
                })
            })
            .collect()
    }

    fn save(&mut self, kind: SaveKind) -> Option<usize> {
        Some(match kind {
            SaveKind::Full => {
                let s = self.world.snapshot();
                let len = s.len();
                self.snapshot = Some(s);
                len
            }
            SaveKind::Rollback => {
                self.world.save_rollback(&mut self.rollback);
                self.rollback.byte_len()
            }
            SaveKind::RollbackCompact => {
                self.world.save_rollback(&mut self.rollback_compact);
                self.rollback_compact.byte_len()
            }
        })
    }

    fn rollback_breakdown(&mut self) -> Vec<(&'static str, f64)> {
        self.world.rollback_breakdown()
    }

    fn load(&mut self, kind: SaveKind) -> bool {
        match kind {
            SaveKind::Full => self
                .snapshot
                .as_ref()
                .is_some_and(|s| self.world.restore(s).is_ok()),
            SaveKind::Rollback => self.world.load_rollback(&self.rollback).is_ok(),
            SaveKind::RollbackCompact => self.world.load_rollback(&self.rollback_compact).is_ok(),
        }
    }
}
