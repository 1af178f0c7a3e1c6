//! Box2D v3 (upstream C through `boxdd-sys`, built with `simd-avx2` unless this crate's
//! `box2d-avx2` feature is off).
//!
//! Box2D is only a fair reference when compiled as shipped, without its assertions.
//! `boxdd-sys`'s build script does not define `NDEBUG`; the workspace's
//! `.cargo/config.toml` adds it through `CFLAGS_x86_64_unknown_linux_gnu`. [`asserts_enabled`]
//! checks the library actually linked, at run time.

use crate::desc::{Action, BodyDesc, BodyState, Filter, Geometry, JointDesc, Kind, SceneDesc, V2};
use crate::engine::{Counts, Engine, RunConfig, SaveKind, SceneBuilder, Simulation, StepProfile};
use boxdd_sys::ffi;
use std::os::raw::{c_char, c_int};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Box2D v3 through `boxdd-sys`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Box2d;

/// C flags seen by this crate's build script (the ones `cc` passes when compiling Box2D).
pub const BUILD_CFLAGS: &str = env!("IMPULSE2D_COMPARE_CFLAGS");

static ASSERTS_FIRED: AtomicUsize = AtomicUsize::new(0);
static PROBE: Mutex<Option<bool>> = Mutex::new(None);

unsafe extern "C" fn count_assert(
    _condition: *const c_char,
    _file: *const c_char,
    _line: c_int,
) -> c_int {
    ASSERTS_FIRED.fetch_add(1, Ordering::SeqCst);
    0 // keep going, never break into a debugger
}

/// True when the linked Box2D was compiled with its `B2_ASSERT`s (no `NDEBUG`): it then runs
/// slower than Box2D as shipped and its timings must not be reported as Box2D's.
///
/// Probes once by installing a counting assert handler and making a box with a negative
/// half-width, which only an assert-enabled build notices.
pub fn asserts_enabled() -> bool {
    let mut probe = PROBE.lock().unwrap_or_else(|e| e.into_inner());
    *probe.get_or_insert_with(|| {
        let before = ASSERTS_FIRED.load(Ordering::SeqCst);
        // SAFETY: the handler is a plain function that only bumps an atomic; b2MakeBox
        // returns a polygon by value whatever its input.
        unsafe {
            ffi::b2SetAssertFcn(Some(count_assert));
            let _ = ffi::b2MakeBox(-1.0, -1.0);
        }
        ASSERTS_FIRED.load(Ordering::SeqCst) > before
    })
}

/// Whether the C library was built with AVX2 (this crate's `box2d-avx2` feature, which
/// turns on boxdd-sys's `simd-avx2`) and the CPU has it.
pub fn avx2_active() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cfg!(feature = "box2d-avx2") && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Which SIMD build of Box2D is linked: `"AVX2"` (feature `box2d-avx2`, the default) or
/// `"SSE2"` (Box2D's default x64 build, `--no-default-features`).
pub fn simd_build() -> &'static str {
    if cfg!(feature = "box2d-avx2") {
        "AVX2"
    } else {
        "SSE2"
    }
}

impl Engine for Box2d {
    fn name(&self) -> &'static str {
        if asserts_enabled() {
            "Box2D (ASSERTS ON)"
        } else {
            "Box2D"
        }
    }

    fn note(&self) -> Option<String> {
        let version = unsafe { ffi::b2GetVersion() };
        let asserts = if asserts_enabled() {
            "ASSERTS ON (built without NDEBUG: slower than shipped Box2D)"
        } else {
            "NDEBUG"
        };
        let simd = match (simd_build(), avx2_active()) {
            ("AVX2", false) => "AVX2 build, but no AVX2 on this CPU",
            ("AVX2", true) => "AVX2 build (simd-avx2)",
            _ => "SSE2 build (Box2D's default)",
        };
        Some(format!(
            "Box2D {}.{}.{} (boxdd-sys 0.6, upstream {}), {simd}, {asserts}, C flags from \
             the environment: `{BUILD_CFLAGS}`, one worker per thread",
            version.major,
            version.minor,
            version.revision,
            &boxdd_sys::UPSTREAM_SHA[..boxdd_sys::UPSTREAM_SHA.len().min(10)]
        ))
    }

    fn unsupported(&self, _scene: &SceneDesc) -> Option<String> {
        None
    }

    fn build(&self, scene: &SceneDesc, config: RunConfig) -> Box<dyn Simulation> {
        Box::new(Box2dSim::new(scene, config))
    }
}

fn v(p: V2) -> ffi::b2Vec2 {
    ffi::b2Vec2 { x: p[0], y: p[1] }
}

fn rot(angle: f32) -> ffi::b2Rot {
    let (s, c) = angle.sin_cos();
    ffi::b2Rot { c, s }
}

fn filter(f: Filter) -> ffi::b2Filter {
    ffi::b2Filter {
        categoryBits: f.category as u64,
        maskBits: f.mask_bits(),
        groupIndex: f.group,
    }
}

struct Box2dSim {
    scene: SceneDesc,
    world: ffi::b2WorldId,
    bodies: Vec<Option<ffi::b2BodyId>>,
    /// The last `b2World_Snapshot` image.
    saved: Vec<u8>,
}

impl Box2dSim {
    fn new(scene: &SceneDesc, config: RunConfig) -> Self {
        // SAFETY: plain FFI calls on a fresh world with defs from Box2D's default functions.
        let world = unsafe {
            let mut def = ffi::b2DefaultWorldDef();
            def.gravity = v(scene.gravity);
            def.workerCount = config.threads.max(1) as c_int;
            let world = ffi::b2CreateWorld(&def);
            ffi::b2World_EnableSleeping(world, scene.enable_sleep);
            world
        };
        let mut sim = Self {
            scene: scene.clone(),
            world,
            bodies: vec![None; scene.bodies.len()],
            saved: Vec::new(),
        };
        sim.create_initial();
        sim
    }
}

impl SceneBuilder for Box2dSim {
    fn create_body(&mut self, key: usize) {
        let desc: &BodyDesc = &self.scene.bodies[key];
        // SAFETY: every pointer passed lives across the call; ids come from this world.
        let id = unsafe {
            let mut def = ffi::b2DefaultBodyDef();
            def.type_ = match desc.kind {
                Kind::Static => ffi::b2BodyType_b2_staticBody,
                Kind::Kinematic => ffi::b2BodyType_b2_kinematicBody,
                Kind::Dynamic => ffi::b2BodyType_b2_dynamicBody,
            };
            def.position = v(desc.position);
            def.rotation = rot(desc.angle);
            def.linearVelocity = v(desc.linear_velocity);
            def.angularVelocity = desc.angular_velocity;
            def.linearDamping = desc.linear_damping;
            def.isAwake = desc.awake;
            def.enableSleep = desc.enable_sleep;
            def.sleepThreshold = desc.sleep_threshold;
            let body = ffi::b2CreateBody(self.world, &def);
            for shape in &desc.shapes {
                let mut sd = ffi::b2DefaultShapeDef();
                sd.density = shape.density;
                sd.material.friction = shape.friction;
                sd.material.restitution = shape.restitution;
                sd.filter = filter(shape.filter);
                match &shape.geometry {
                    Geometry::Circle { center, radius } => {
                        let circle = ffi::b2Circle {
                            center: v(*center),
                            radius: *radius,
                        };
                        ffi::b2CreateCircleShape(body, &sd, &circle);
                    }
                    Geometry::Capsule {
                        center1,
                        center2,
                        radius,
                    } => {
                        let capsule = ffi::b2Capsule {
                            center1: v(*center1),
                            center2: v(*center2),
                            radius: *radius,
                        };
                        ffi::b2CreateCapsuleShape(body, &sd, &capsule);
                    }
                    Geometry::Polygon { vertices, radius } => {
                        let points: Vec<ffi::b2Vec2> = vertices.iter().map(|p| v(*p)).collect();
                        let hull = ffi::b2ComputeHull(points.as_ptr(), points.len() as c_int);
                        assert!(
                            hull.count > 0,
                            "degenerate polygon in scene {}",
                            self.scene.name
                        );
                        let polygon = ffi::b2MakePolygon(&hull, *radius);
                        ffi::b2CreatePolygonShape(body, &sd, &polygon);
                    }
                    Geometry::Segment { point1, point2 } => {
                        let segment = ffi::b2Segment {
                            point1: v(*point1),
                            point2: v(*point2),
                        };
                        ffi::b2CreateSegmentShape(body, &sd, &segment);
                    }
                    Geometry::ChainLoop { points } => {
                        let points: Vec<ffi::b2Vec2> = points.iter().map(|p| v(*p)).collect();
                        let mut material = ffi::b2DefaultSurfaceMaterial();
                        material.friction = shape.friction;
                        material.restitution = shape.restitution;
                        let mut chain = ffi::b2DefaultChainDef();
                        chain.points = points.as_ptr();
                        chain.count = points.len() as c_int;
                        chain.materials = &material;
                        chain.materialCount = 1;
                        chain.filter = filter(shape.filter);
                        chain.isLoop = true;
                        ffi::b2CreateChain(body, &chain);
                    }
                }
            }
            body
        };
        self.bodies[key] = Some(id);
    }

    fn create_joint(&mut self, index: usize) {
        let joint: &JointDesc = &self.scene.joints[index];
        let (Some(a), Some(b)) = (self.bodies[joint.body_a], self.bodies[joint.body_b]) else {
            panic!(
                "joint {index} of {} links a body that does not exist",
                self.scene.name
            );
        };
        // SAFETY: both bodies are alive in this world; the def lives across the call.
        unsafe {
            let mut def = ffi::b2DefaultRevoluteJointDef();
            def.base.bodyIdA = a;
            def.base.bodyIdB = b;
            def.base.localFrameA.p = v(joint.local_anchor_a);
            def.base.localFrameA.q = rot(joint.reference_angle);
            def.base.localFrameB.p = v(joint.local_anchor_b);
            let [limit, motor, spring] = joint.flat_parts();
            (def.enableLimit, def.lowerAngle, def.upperAngle) = limit;
            (def.enableMotor, def.motorSpeed, def.maxMotorTorque) = motor;
            (def.enableSpring, def.hertz, def.dampingRatio) = spring;
            ffi::b2CreateRevoluteJoint(self.world, &def);
        }
    }

    fn destroy_body(&mut self, key: usize) {
        if let Some(id) = self.bodies[key].take() {
            // SAFETY: the id is alive; destroying a body destroys its joints.
            unsafe { ffi::b2DestroyBody(id) };
        }
    }

    fn scene(&self) -> &SceneDesc {
        &self.scene
    }
}

impl Simulation for Box2dSim {
    fn step(&mut self, time_step: f32, sub_steps: u32) {
        // SAFETY: the world is alive until drop.
        unsafe { ffi::b2World_Step(self.world, time_step, sub_steps as c_int) };
    }

    fn profile(&self) -> Option<StepProfile> {
        // SAFETY: the world is alive.
        let p = unsafe { ffi::b2World_GetProfile(self.world) };
        // Box2D sweeps fast non-bullet bodies inside its finalize stage
        // (`transforms`); bullets are their own stage.
        let stages = [
            p.step,
            p.pairs,
            p.collide,
            p.solve,
            p.splitIslands,
            f32::NAN, // its tree rebuild is part of `pairs`
            // Its solver setup (constraint buffers, colour spans, stages) is
            // timed apart from its constraint stages; ours is part of our
            // preparation, so here it is added to both rows.
            p.constraints + p.solverSetup,
            p.prepareConstraints + p.solverSetup,
            p.integrateVelocities,
            p.warmStart,
            p.solveImpulses,
            p.integratePositions,
            p.relaxImpulses,
            p.applyRestitution,
            p.storeImpulses,
            p.transforms,
            p.bullets,
            p.refit,
            p.sleepIslands,
            p.sensors,
        ];
        Some(StepProfile {
            stages: stages.map(f64::from),
            parallel: None,
        })
    }

    fn apply(&mut self, action: Action) {
        self.act(action);
    }

    fn counts(&self) -> Counts {
        // SAFETY: the world is alive.
        let c = unsafe { ffi::b2World_GetCounters(self.world) };
        Counts {
            bodies: c.bodyCount as usize,
            shapes: c.shapeCount as usize,
            joints: c.jointCount as usize,
        }
    }

    fn body_states(&self) -> Vec<Option<BodyState>> {
        self.bodies
            .iter()
            .map(|id| {
                id.map(|id| {
                    // SAFETY: the id is alive in this world.
                    unsafe {
                        let p = ffi::b2Body_GetPosition(id);
                        let q = ffi::b2Body_GetRotation(id);
                        let lv = ffi::b2Body_GetLinearVelocity(id);
                        BodyState {
                            position: [p.x, p.y],
                            angle: q.s.atan2(q.c),
                            linear_velocity: [lv.x, lv.y],
                            angular_velocity: ffi::b2Body_GetAngularVelocity(id),
                        }
                    }
                })
            })
            .collect()
    }

    fn save(&mut self, kind: SaveKind) -> Option<usize> {
        if kind != SaveKind::Full {
            return None;
        }
        // SAFETY: the world is alive and between steps; the first call only asks the size
        // (null image), the second writes at most `capacity` bytes into `saved`.
        unsafe {
            let size = ffi::b2World_Snapshot(self.world, std::ptr::null_mut(), 0);
            if size <= 0 {
                return None;
            }
            self.saved.resize(size as usize, 0);
            let written = ffi::b2World_Snapshot(
                self.world,
                self.saved.as_mut_ptr(),
                self.saved.len() as c_int,
            );
            (written == size).then_some(size as usize)
        }
    }

    fn load(&mut self, kind: SaveKind) -> bool {
        // SAFETY: the world is alive and between steps; `saved` is an image Box2D wrote.
        kind == SaveKind::Full
            && !self.saved.is_empty()
            && unsafe {
                ffi::b2World_Restore(self.world, self.saved.as_ptr(), self.saved.len() as c_int)
            }
    }
}

impl Drop for Box2dSim {
    fn drop(&mut self) {
        // SAFETY: the world was created in `new` and is destroyed once.
        unsafe { ffi::b2DestroyWorld(self.world) };
    }
}
