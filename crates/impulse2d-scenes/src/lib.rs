//! Scenes for Impulse2D, built through the engine's public API only.
//!
//! Each scene has a builder function with its parameters that returns the ids
//! a test needs (the ground, the bodies, the body to watch). The registry
//! ([`list`] and [`build`]) builds every scene with its default parameters by
//! name, for the command-line tool, the testbed and the benchmarks.
//!
//! All scenes put the ground surface at `y = 0` and use SI units (m, kg, s).
//! The stacking scenes follow Solver2D's test set; the benchmark scenes follow
//! Box2D v3's `shared/benchmarks.c`.

pub mod joints;

use impulse2d::collision::{Circle, Segment, make_box, make_offset_box};
use impulse2d::debug_draw::{DebugDraw, DrawOptions};
use impulse2d::pos::{to_pos, to_vec2};
use impulse2d::{BodyDef, BodyId, HexColor, Pos, Result, Rot, ShapeDef, Vec2, World};

mod one_way_platform;
pub use one_way_platform::{
    OneWayPlatform, PLATFORM_TOP, one_way_contact_enabled, one_way_platform,
};
pub mod benchmarks;
mod common;
pub mod demos;
pub mod far;
pub mod human;
pub mod json;
pub mod physics;
pub mod platformer;
pub mod rain;
pub mod sensors;
pub mod solver2d;

/// A registry entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneInfo {
    /// Group name, for menus (`"stacking"`, `"benchmark"`, …).
    pub category: &'static str,
    /// Scene name, unique across categories.
    pub name: &'static str,
    /// One line saying what the scene shows.
    pub description: &'static str,
}

/// What a scene does between steps: spawn and destroy bodies (rain), read
/// the last step's events and act on them (sensors), drive something.
///
/// Whoever steps a scene's world (tests, the command-line tool, the testbed,
/// the benchmarks) calls [`SceneScript::before_step`] before every
/// [`World::step`], with the number of steps taken so far.
pub trait SceneScript: Send {
    /// Runs before the world's step number `step` (0 before the first step).
    /// The world's event buffers still hold the previous step's events.
    fn before_step(&mut self, world: &mut World, step: u64) -> Result<()>;

    /// One line about the script's state for a viewer (counts, say); empty
    /// by default.
    fn status(&self) -> String {
        String::new()
    }

    /// A viewer's keyboard input for a scene with a player (the platformer):
    /// from the first call on, the player follows it instead of its track.
    /// Ignored by scenes without a player.
    fn player_input(&mut self, _input: PlayerInput) {}

    /// The player's capsule (world frame, metres), for a viewer to draw: it is
    /// not a body of the world. `None` for scenes without a player.
    fn player(&self) -> Option<impulse2d::collision::Capsule> {
        None
    }
}

/// What a player presses (see [`SceneScript::player_input`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerInput {
    /// Run direction and amount, −1 (left) to 1 (right).
    pub move_x: f32,
    /// Jump (taken when the player stands on the ground).
    pub jump: bool,
}

/// What [`build`] returns: the ground, the dynamic bodies in creation order,
/// the body worth watching (the top of a stack, the block on a ramp …) and,
/// for scenes that change over time, their per-step script.
pub struct Scene {
    /// The static ground body.
    pub ground: BodyId,
    /// Dynamic bodies in creation order (for a scripted scene, those that
    /// exist after building).
    pub bodies: Vec<BodyId>,
    /// The body a test or viewer should follow, if any.
    pub focus: Option<BodyId>,
    /// The script to call before every step, if the scene has one.
    pub script: Option<Box<dyn SceneScript>>,
}

impl Scene {
    /// A scene without a script.
    pub(crate) fn still(ground: BodyId, bodies: Vec<BodyId>, focus: Option<BodyId>) -> Scene {
        Scene {
            ground,
            bodies,
            focus,
            script: None,
        }
    }

    /// A scene without a script that follows its last body.
    pub(crate) fn focus_last(ground: BodyId, bodies: Vec<BodyId>) -> Scene {
        let focus = bodies.last().copied();
        Scene::still(ground, bodies, focus)
    }

    /// A scene without a script that follows its first body.
    pub(crate) fn focus_first(ground: BodyId, bodies: Vec<BodyId>) -> Scene {
        let focus = bodies.first().copied();
        Scene::still(ground, bodies, focus)
    }

    /// Calls the scene's script, if any, before step number `step`.
    pub fn before_step(&mut self, world: &mut World, step: u64) -> Result<()> {
        match self.script.as_mut() {
            Some(script) => script.before_step(world, step),
            None => Ok(()),
        }
    }

    /// Runs the script, then steps the world once: what every runner of a
    /// scene does per step. `step` counts the steps taken so far.
    pub fn step(
        &mut self,
        world: &mut World,
        step: u64,
        time_step: f32,
        substeps: u32,
    ) -> Result<()> {
        self.before_step(world, step)?;
        world.step(time_step, substeps)
    }

    /// The script's status line (empty without a script).
    pub fn status(&self) -> String {
        self.script.as_ref().map(|s| s.status()).unwrap_or_default()
    }

    /// The player's capsule (world frame, metres), for scenes with a player
    /// (see [`SceneScript::player`]).
    pub fn player(&self) -> Option<impulse2d::collision::Capsule> {
        self.script.as_ref()?.player()
    }

    /// Draws the world and, over it, the player's capsule (it is not a body
    /// of the world) filled in [`PLAYER_COLOR`].
    pub fn draw(&self, world: &World, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        world.draw(draw, options);
        if let Some(c) = self.player() {
            draw.draw_solid_capsule(c.center1, c.center2, c.radius, PLAYER_COLOR);
        }
    }
}

/// The colour viewers fill the player's capsule with.
pub const PLAYER_COLOR: HexColor = HexColor::ORANGE;

impl std::fmt::Debug for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("ground", &self.ground)
            .field("bodies", &self.bodies.len())
            .field("focus", &self.focus)
            .field("script", &self.script.is_some())
            .finish()
    }
}

/// Why [`build`] failed.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    /// No scene has this name.
    UnknownScene(String),
    /// The engine rejected a call (a bug in the scene).
    Engine(impulse2d::Error),
    /// [`build_at`] cannot move this scene: its script places things at the origin.
    NotMovable(String),
}

impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SceneError::UnknownScene(name) => write!(f, "unknown scene {name:?}"),
            SceneError::Engine(e) => write!(f, "engine error: {e}"),
            SceneError::NotMovable(name) => write!(
                f,
                "scene {name:?} has a script and cannot be built away from the origin"
            ),
        }
    }
}

impl std::error::Error for SceneError {}

impl From<impulse2d::Error> for SceneError {
    fn from(e: impulse2d::Error) -> Self {
        SceneError::Engine(e)
    }
}

const SCENES: &[SceneInfo] = &[
    SceneInfo {
        category: "stacking",
        name: "single_box",
        description: "one 1 m box resting on the ground",
    },
    SceneInfo {
        category: "stacking",
        name: "vertical_stack",
        description: "ten 1 m boxes stacked in a column",
    },
    SceneInfo {
        category: "stacking",
        name: "pyramid",
        description: "a pyramid of 1 m boxes with a base of 20",
    },
    SceneInfo {
        category: "stacking",
        name: "high_mass_ratio",
        description: "a box 100 times denser dropped on a pyramid of base 10",
    },
    SceneInfo {
        category: "stacking",
        name: "overlap_recovery",
        description: "a pyramid of base 4 created with 25% overlap",
    },
    SceneInfo {
        category: "contact",
        name: "friction_ramp",
        description: "blocks with friction 0, 0.2, 0.5 and 0.8 on a 30° ramp",
    },
    SceneInfo {
        category: "contact",
        name: "restitution",
        description: "balls with restitution 0 to 1 dropped from 2 m",
    },
    SceneInfo {
        category: "contact",
        name: "zero_gravity_collision",
        description: "two spinning boxes colliding without gravity",
    },
    SceneInfo {
        category: "events",
        name: "one_way_platform",
        description: "a box jumps up through a one-way platform and lands on it (pre-solve)",
    },
    SceneInfo {
        category: "events",
        name: "sensors",
        description: "balls rolling through a sensor gate that counts them, then sent back by a second sensor",
    },
    SceneInfo {
        category: "benchmark",
        name: "large_pyramid",
        description: "Box2D's large pyramid: base 100, 5050 boxes, sleep off",
    },
    SceneInfo {
        category: "character",
        name: "platformer",
        description: "a character controller runs a course: steps, ramps, a crest, a steep slope, a conveyor, boxes, one-way and moving platforms",
    },
    // Joint scenes (see `joints.rs`).
    SceneInfo {
        category: "joints",
        name: "pendulum",
        description: "a disc on a 1 m revolute arm released at 0.1 rad",
    },
    SceneInfo {
        category: "joints",
        name: "ball_and_chain",
        description: "40 capsule links with a ball 50 times heavier, released level",
    },
    SceneInfo {
        category: "joints",
        name: "bridge",
        description: "a 40-plank revolute bridge with boxes dropped on it",
    },
    SceneInfo {
        category: "joints",
        name: "ragdolls",
        description: "ten ragdolls of ten bones dropped in a pile",
    },
    SceneInfo {
        category: "joints",
        name: "car",
        description: "a car on sprung, driven wheel joints over bumps",
    },
    SceneInfo {
        category: "benchmark",
        name: "joint_grid",
        description: "Box2D's joint grid: 100 x 100 discs pinned to their neighbours, sleep off",
    },
    SceneInfo {
        category: "benchmark",
        name: "rain",
        description: "Box2D's rain: columns of ragdoll groups falling on five ground rows, replaced round robin",
    },
    SceneInfo {
        category: "benchmark",
        name: "spinner",
        description: "Box2D's spinner: a motorised blade stirring 6076 bodies in a ring",
    },
];

/// Every scene in the registry.
pub fn list() -> &'static [SceneInfo] {
    static ALL: std::sync::LazyLock<Vec<SceneInfo>> = std::sync::LazyLock::new(|| {
        [
            SCENES,
            solver2d::SCENES,
            benchmarks::SCENES,
            demos::SCENES,
            far::SCENES,
            physics::SCENES,
        ]
        .concat()
    });
    &ALL
}

/// Builds one scene of the registry, with its default parameters, into a world.
pub(crate) type Builder = fn(&mut World) -> Result<Scene>;

/// The builders of this file's scenes, by name.
const BUILDERS: &[(&str, Builder)] = &[
    ("single_box", |world| {
        let s = single_box(world)?;
        Ok(Scene::still(s.ground, vec![s.body], Some(s.body)))
    }),
    ("vertical_stack", |world| {
        Ok(vertical_stack(world, 10)?.into_scene())
    }),
    ("pyramid", |world| Ok(pyramid(world, 20, 0.5)?.into_scene())),
    ("large_pyramid", |world| {
        Ok(large_pyramid(world)?.into_scene())
    }),
    ("high_mass_ratio", |world| {
        let s = high_mass_ratio(world, 100.0)?;
        let mut bodies = s.pyramid.boxes.clone();
        bodies.push(s.heavy);
        Ok(Scene::still(s.pyramid.ground, bodies, Some(s.heavy)))
    }),
    ("overlap_recovery", |world| {
        Ok(overlap_recovery(world, 4, 0.25)?.into_scene())
    }),
    ("friction_ramp", |world| {
        let mut bodies = Vec::new();
        let mut ground = None;
        for (k, friction) in [0.0, 0.2, 0.5, 0.8].into_iter().enumerate() {
            let r = friction_ramp_at(world, 30.0, friction, Vec2::new(0.0, 12.0 * k as f32))?;
            ground.get_or_insert(r.ramp);
            bodies.push(r.block);
        }
        Ok(Scene::focus_last(ground.expect("four ramps"), bodies))
    }),
    ("restitution", |world| {
        let ground = flat_ground(world, 40.0)?;
        let mut bodies = Vec::new();
        for k in 0..=5 {
            let e = 0.2 * k as f32;
            let x = -10.0 + 4.0 * k as f32;
            bodies.push(ball(world, Vec2::new(x, 2.5), 0.5, e)?);
        }
        Ok(Scene::focus_last(ground, bodies))
    }),
    ("zero_gravity_collision", |world| {
        world.set_gravity(Vec2::ZERO)?;
        let s = zero_gravity_collision(world)?;
        Ok(Scene::still(s.ground, vec![s.a, s.b], Some(s.a)))
    }),
    ("one_way_platform", |world| {
        let s = one_way_platform(world, 9.0)?;
        Ok(Scene::still(s.ground, vec![s.body], Some(s.body)))
    }),
    ("sensors", |world| {
        Ok(sensors::sensors(world, 5)?.into_scene())
    }),
    ("platformer", platformer::scene),
    ("rain", |world| {
        Ok(rain::rain(world, rain::RainLayout::FULL)?.into_scene())
    }),
];

/// Builds a scene by name (`"pyramid"` or `"stacking/pyramid"`) with its
/// default parameters into `world`.
pub fn build(name: &str, world: &mut World) -> std::result::Result<Scene, SceneError> {
    let short = name.rsplit('/').next().unwrap_or(name);
    let tables = [
        BUILDERS,
        joints::BUILDERS,
        solver2d::BUILDERS,
        benchmarks::BUILDERS,
        demos::BUILDERS,
        far::BUILDERS,
        physics::BUILDERS,
    ];
    let (_, builder) = tables
        .iter()
        .flat_map(|table| table.iter())
        .find(|(scene, _)| *scene == short)
        .ok_or_else(|| SceneError::UnknownScene(name.to_string()))?;
    Ok(builder(world)?)
}

/// Builds a scene by name (as [`build`]) with every body it creates moved by
/// `origin` (metres): the whole scene rigidly shifted, joints and shapes with
/// their bodies, so it behaves as at the origin up to the precision of `f32`
/// positions out there (a 7.8 mm grid at 100 km). Bodies created asleep are put
/// back to sleep after the move. `origin` zero is plain [`build`].
///
/// # Errors
/// As [`build`]; [`SceneError::NotMovable`] for a scene with a script (it
/// would keep acting at the origin); the world then holds the scene, at the
/// origin.
pub fn build_at(
    name: &str,
    world: &mut World,
    origin: Pos,
) -> std::result::Result<Scene, SceneError> {
    if origin == to_pos(Vec2::ZERO) {
        return build(name, world);
    }
    let before: std::collections::BTreeSet<BodyId> = world.body_ids().collect();
    let scene = build(name, world)?;
    if scene.script.is_some() {
        return Err(SceneError::NotMovable(name.to_string()));
    }
    let created: Vec<BodyId> = world.body_ids().filter(|id| !before.contains(id)).collect();
    for id in created {
        let mut body = world.body_mut(id)?;
        let (xf, awake) = (body.transform(), body.is_awake());
        body.set_transform(origin + to_vec2(xf.p), xf.q)?;
        if !awake {
            body.set_awake(false);
        }
    }
    Ok(scene)
}

/// A static ground box whose top is at `y = 0`, `half_width` metres each side.
pub fn flat_ground(world: &mut World, half_width: f32) -> Result<BodyId> {
    let ground = world.create_body(&BodyDef::default())?;
    let box_shape = make_offset_box(half_width, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY)?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &box_shape)?;
    Ok(ground)
}

fn dynamic_box(world: &mut World, position: Vec2, half: f32, density: f32) -> Result<BodyId> {
    let body = world.create_body(&BodyDef::dynamic(to_pos(position)))?;
    let shape = ShapeDef {
        density,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(body, &shape, &make_box(half, half)?)?;
    Ok(body)
}

/// A dynamic ball of `radius` m with the given restitution (density 1, friction 0.6).
pub fn ball(world: &mut World, position: Vec2, radius: f32, restitution: f32) -> Result<BodyId> {
    let body = world.create_body(&BodyDef::dynamic(to_pos(position)))?;
    let shape = ShapeDef {
        restitution,
        ..ShapeDef::default()
    };
    world.create_circle_shape(
        body,
        &shape,
        &Circle {
            center: Vec2::ZERO,
            radius,
        },
    )?;
    Ok(body)
}

/// The single-box scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SingleBox {
    /// Ground (top at y = 0).
    pub ground: BodyId,
    /// A 1 m box (density 1) resting with its centre at (0, 0.5).
    pub body: BodyId,
}

/// One 1 m box resting on the ground, centre at (0, 0.5).
pub fn single_box(world: &mut World) -> Result<SingleBox> {
    let ground = flat_ground(world, 20.0)?;
    let body = dynamic_box(world, Vec2::new(0.0, 0.5), 0.5, 1.0)?;
    Ok(SingleBox { ground, body })
}

/// A stack or pyramid of boxes.
#[derive(Clone, Debug, PartialEq)]
pub struct Pyramid {
    /// Ground (top at y = 0).
    pub ground: BodyId,
    /// Boxes from the bottom row up, left to right.
    pub boxes: Vec<BodyId>,
    /// The top box.
    pub top: BodyId,
}

impl Pyramid {
    fn into_scene(self) -> Scene {
        Scene::still(self.ground, self.boxes, Some(self.top))
    }
}

/// `count` 1 m boxes in a column, just touching, the lowest resting on the ground.
pub fn vertical_stack(world: &mut World, count: usize) -> Result<Pyramid> {
    let ground = flat_ground(world, 20.0)?;
    let mut boxes = Vec::with_capacity(count);
    for i in 0..count {
        boxes.push(dynamic_box(
            world,
            Vec2::new(0.0, 0.5 + i as f32),
            0.5,
            1.0,
        )?);
    }
    let top = *boxes.last().expect("count >= 1");
    Ok(Pyramid { ground, boxes, top })
}

/// A pyramid of boxes of half-size `half` with `base` boxes in the bottom row,
/// every box just touching its neighbours, centred on x = 0.
pub fn pyramid(world: &mut World, base: usize, half: f32) -> Result<Pyramid> {
    let ground = flat_ground(world, 2.0 * half * base as f32 + 20.0)?;
    let boxes = pyramid_boxes(world, base, half, 1.0, 1.0)?;
    let top = *boxes.last().expect("base >= 1");
    Ok(Pyramid { ground, boxes, top })
}

/// The boxes of a pyramid with spacing `fraction · 2·half` (1 = touching,
/// less = overlapping). The top box gets `top_density`.
fn pyramid_boxes(
    world: &mut World,
    base: usize,
    half: f32,
    fraction: f32,
    top_density: f32,
) -> Result<Vec<BodyId>> {
    let step = 2.0 * half * fraction;
    let mut boxes = Vec::with_capacity(base * (base + 1) / 2);
    for row in 0..base {
        let y = half + step * row as f32;
        let count = base - row;
        let x0 = -0.5 * step * (count as f32 - 1.0);
        for k in 0..count {
            let density = if row + 1 == base { top_density } else { 1.0 };
            boxes.push(dynamic_box(
                world,
                Vec2::new(x0 + step * k as f32, y),
                half,
                density,
            )?);
        }
    }
    Ok(boxes)
}

/// Box2D's large pyramid benchmark: base 100 (5050 boxes of 1 m) on a ground
/// box 200 m wide, with sleeping turned off
/// ([`benchmarks::large_pyramid`] with [`benchmarks::LARGE_PYRAMID_BASE`]).
pub fn large_pyramid(world: &mut World) -> Result<Pyramid> {
    benchmarks::large_pyramid(world, benchmarks::LARGE_PYRAMID_BASE)
}

/// The high mass ratio scene.
#[derive(Clone, Debug, PartialEq)]
pub struct HighMassRatio {
    /// The light pyramid (its `top` is its highest light box).
    pub pyramid: Pyramid,
    /// The heavy box, starting 1 m above the pyramid's top box.
    pub heavy: BodyId,
}

/// A pyramid of base 10 of 2 m boxes (density 1) with a 2 m box `density_ratio`
/// times denser dropped from 1 m above its top (Solver2D's high mass ratio).
pub fn high_mass_ratio(world: &mut World, density_ratio: f32) -> Result<HighMassRatio> {
    let half = 1.0;
    let base = 10;
    let ground = flat_ground(world, 40.0)?;
    let boxes = pyramid_boxes(world, base - 1, half, 1.0, 1.0)?;
    let top = *boxes.last().expect("pyramid has boxes");
    let top_y = half + 2.0 * half * (base - 1) as f32;
    let heavy = dynamic_box(world, Vec2::new(0.0, top_y + 1.0), half, density_ratio)?;
    Ok(HighMassRatio {
        pyramid: Pyramid { ground, boxes, top },
        heavy,
    })
}

/// A pyramid of 1 m boxes with base `base`, created with neighbours
/// overlapping by `overlap` (0.25 = a quarter of a box) in x and y.
pub fn overlap_recovery(world: &mut World, base: usize, overlap: f32) -> Result<Pyramid> {
    let ground = flat_ground(world, 20.0)?;
    let boxes = pyramid_boxes(world, base, 0.5, 1.0 - overlap, 1.0)?;
    let top = *boxes.last().expect("base >= 1");
    Ok(Pyramid { ground, boxes, top })
}

/// A block on a ramp.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionRamp {
    /// The static ramp body.
    pub ramp: BodyId,
    /// The 1 m block resting on the ramp's surface.
    pub block: BodyId,
    /// Unit vector pointing down the ramp.
    pub downhill: Vec2,
}

/// A 40 m ramp inclined `angle_degrees`, with a 1 m block resting on it 10 m
/// up from the ramp's middle. Ramp and block both have friction `friction`
/// (so the mixed friction is `friction`).
pub fn friction_ramp(world: &mut World, angle_degrees: f32, friction: f32) -> Result<FrictionRamp> {
    friction_ramp_at(world, angle_degrees, friction, Vec2::ZERO)
}

fn friction_ramp_at(
    world: &mut World,
    angle_degrees: f32,
    friction: f32,
    origin: Vec2,
) -> Result<FrictionRamp> {
    let angle = angle_degrees * impulse2d::math::PI / 180.0;
    let q = Rot::from_angle(angle);
    let ramp = world.create_body(&BodyDef {
        position: to_pos(origin),
        rotation: q,
        ..BodyDef::default()
    })?;
    let material = ShapeDef {
        friction,
        ..ShapeDef::default()
    };
    // Surface along the local x axis at local y = 0; thickness below it.
    let slab = make_offset_box(20.0, 0.5, Vec2::new(0.0, -0.5), Rot::IDENTITY)?;
    world.create_polygon_shape(ramp, &material, &slab)?;
    let block_local = Vec2::new(10.0, 0.5);
    let block = world.create_body(&BodyDef {
        rotation: q,
        ..BodyDef::dynamic(to_pos(origin + q.rotate(block_local)))
    })?;
    world.create_polygon_shape(block, &material, &make_box(0.5, 0.5)?)?;
    Ok(FrictionRamp {
        ramp,
        block,
        downhill: -q.x_axis(),
    })
}

/// The zero-gravity collision scene.
#[derive(Clone, Debug, PartialEq)]
pub struct ZeroGravityCollision {
    /// A static segment far away (the scene needs no ground).
    pub ground: BodyId,
    /// A 1 m box moving right at 4 m/s and spinning at 1 rad/s.
    pub a: BodyId,
    /// A 1 m × 0.5 m box of density 2 moving left at 3 m/s, slightly higher.
    pub b: BodyId,
}

/// Two free boxes meeting off-centre. Call with gravity set to zero.
pub fn zero_gravity_collision(world: &mut World) -> Result<ZeroGravityCollision> {
    let ground = world.create_body(&BodyDef::default())?;
    world.create_segment_shape(
        ground,
        &ShapeDef::default(),
        &Segment::new(Vec2::new(-10.0, -50.0), Vec2::new(10.0, -50.0))?,
    )?;
    let a = world.create_body(&BodyDef {
        linear_velocity: Vec2::new(4.0, 0.0),
        angular_velocity: 1.0,
        ..BodyDef::dynamic(to_pos(Vec2::new(-3.0, 0.0)))
    })?;
    world.create_polygon_shape(a, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
    let b = world.create_body(&BodyDef {
        linear_velocity: Vec2::new(-3.0, 0.0),
        ..BodyDef::dynamic(to_pos(Vec2::new(3.0, 0.3)))
    })?;
    let dense = ShapeDef {
        density: 2.0,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(b, &dense, &make_box(0.5, 0.25)?)?;
    Ok(ZeroGravityCollision { ground, a, b })
}

#[cfg(test)]
mod tests {
    use super::*;
    use impulse2d::WorldDef;

    #[test]
    fn every_registered_scene_builds_and_steps() {
        for info in list() {
            let mut world = World::new(&WorldDef::default()).unwrap();
            let mut scene = build(&format!("{}/{}", info.category, info.name), &mut world)
                .unwrap_or_else(|e| panic!("{}: {e}", info.name));
            assert!(!scene.bodies.is_empty(), "{} has no bodies", info.name);
            if info.category != "benchmark" {
                scene.step(&mut world, 0, 1.0 / 60.0, 4).unwrap();
                world.validate().unwrap();
            }
        }
        let mut world = World::new(&WorldDef::default()).unwrap();
        assert!(matches!(
            build("no_such_scene", &mut world),
            Err(SceneError::UnknownScene(_))
        ));
    }

    #[test]
    fn pyramid_has_triangular_count_and_top_above_centre() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let p = pyramid(&mut world, 5, 0.5).unwrap();
        assert_eq!(p.boxes.len(), 15);
        let top = world.body(p.top).unwrap().position();
        assert!(top.x.abs() < 1e-6 && (top.y - 4.5).abs() < 1e-6);
    }
}
