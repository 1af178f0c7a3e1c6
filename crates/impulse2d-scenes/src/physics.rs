//! Scenes for physics no engine got right before (issue 17): a tile map
//! without ghost collisions, fast bodies against fast bodies, and stiff
//! joint chains (Solver2D's ball and chain, a pulled-apart chain).

use crate::joints::pin;
use crate::{Builder, Scene, SceneInfo};
use impulse2d::collision::{Capsule, Circle, make_box, make_offset_box};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, BodyType, JointId, Result, Rot, ShapeDef, Vec2, World};

/// The scenes of this file.
pub(crate) const SCENES: &[SceneInfo] = &[
    SceneInfo {
        category: "contact",
        name: "tile_map",
        description: "a box and a capsule sliding at 5 m/s without friction over 100 square tiles on one body, and over 100 tiles on separate bodies below",
    },
    SceneInfo {
        category: "contact",
        name: "fast_crossing",
        description: "bullets against bullets without gravity: two 0.1 m boxes crossing at 200 m/s each, a 5 cm ball at 300 m/s against a free 2 cm plate, two 5 cm balls crossing at 200 m/s each",
    },
    SceneInfo {
        category: "joints",
        name: "ball_and_chain_solver2d",
        description: "Solver2D's ball and chain: 40 one-metre capsule links and a radius-8 ball, density 20, released level",
    },
    SceneInfo {
        category: "joints",
        name: "chain_snap_back",
        description: "40 weightless one-metre links created with 1 m gaps between them, snapping back together",
    },
];

/// The builders of this file's scenes, by name, with their default parameters.
pub(crate) const BUILDERS: &[(&str, Builder)] = &[
    ("tile_map", |world| tile_map(world).map(TileMap::into_scene)),
    ("fast_crossing", fast_crossing),
    ("ball_and_chain_solver2d", |world| {
        heavy_chain(world, HEAVY_CHAIN_LINKS, 0.0, HEAVY_BALL_RADIUS, 1.0)
            .map(HeavyChain::into_scene)
    }),
    ("chain_snap_back", |world| {
        heavy_chain(world, HEAVY_CHAIN_LINKS, 1.0, 0.0, 0.0).map(HeavyChain::into_scene)
    }),
];

/// Tiles in a row of the `tile_map` scene.
pub const TILE_COUNT: usize = 100;
/// Side of a square tile, metres.
pub const TILE_SIZE: f32 = 1.0;
/// The sliders' starting speed, m/s.
pub const SLIDE_SPEED: f32 = 5.0;
/// Height of the lower floor's top, metres (the upper one's is 0).
pub const LOWER_FLOOR_Y: f32 = -4.0;

/// A row of `count` square static tiles of side [`TILE_SIZE`] from `x = 0`
/// rightwards, top at `top`: all on one static body (`one_body`) or one
/// static body each. Returns the bodies (one, or one per tile).
pub fn tile_floor(
    world: &mut World,
    count: usize,
    top: f32,
    one_body: bool,
) -> Result<Vec<BodyId>> {
    let half = 0.5 * TILE_SIZE;
    let mut bodies = Vec::new();
    if one_body {
        let body = world.create_body(&BodyDef::default())?;
        for i in 0..count {
            let center = Vec2::new(half + TILE_SIZE * i as f32, top - half);
            let tile = make_offset_box(half, half, center, Rot::IDENTITY)?;
            world.create_polygon_shape(body, &ShapeDef::default(), &tile)?;
        }
        bodies.push(body);
    } else {
        let tile = make_box(half, half)?;
        for i in 0..count {
            let body = world.create_body(&BodyDef {
                position: to_pos(Vec2::new(half + TILE_SIZE * i as f32, top - half)),
                ..BodyDef::default()
            })?;
            world.create_polygon_shape(body, &ShapeDef::default(), &tile)?;
            bodies.push(body);
        }
    }
    Ok(bodies)
}

/// What [`tile_map`] built.
#[derive(Clone, Debug)]
pub struct TileMap {
    /// The upper floor's body (all its tiles).
    pub ground: BodyId,
    /// On the upper floor: a 0.5 m box and a capsule; then the same on the lower one.
    pub sliders: Vec<BodyId>,
}

impl TileMap {
    /// The registry's view.
    pub fn into_scene(self) -> Scene {
        Scene::focus_first(self.ground, self.sliders)
    }
}

/// A frictionless body resting on a floor whose top is at `top`, at `x`,
/// sliding right at [`SLIDE_SPEED`]: a 0.5 m box (`capsule` false) or a
/// capsule 1 m long and 0.4 m thick lying down.
pub fn slider(world: &mut World, x: f32, top: f32, capsule: bool) -> Result<BodyId> {
    let def = ShapeDef {
        friction: 0.0,
        ..ShapeDef::default()
    };
    let (radius, half) = if capsule { (0.2, 0.3) } else { (0.25, 0.25) };
    let body = world.create_body(&BodyDef {
        linear_velocity: Vec2::new(SLIDE_SPEED, 0.0),
        ..BodyDef::dynamic(to_pos(Vec2::new(x, top + radius)))
    })?;
    if capsule {
        let c = Capsule::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0), radius)?;
        world.create_capsule_shape(body, &def, &c)?;
    } else {
        world.create_polygon_shape(body, &def, &make_box(half, half)?)?;
    }
    Ok(body)
}

/// Two floors of [`TILE_COUNT`] tiles, the upper (top at 0) on one body, the
/// lower (top at [`LOWER_FLOOR_Y`]) on one body per tile, each with a box and
/// a capsule sliding over it at [`SLIDE_SPEED`] without friction: tiles share
/// their side edges, so nothing catches on the joints.
pub fn tile_map(world: &mut World) -> Result<TileMap> {
    let ground = tile_floor(world, TILE_COUNT, 0.0, true)?[0];
    tile_floor(world, TILE_COUNT, LOWER_FLOOR_Y, false)?;
    let mut sliders = Vec::new();
    for top in [0.0, LOWER_FLOOR_Y] {
        sliders.push(slider(world, 1.0, top, false)?);
        sliders.push(slider(world, 3.0, top, true)?);
    }
    Ok(TileMap { ground, sliders })
}

/// Speed of each of the `fast_crossing` scene's crossing pairs, m/s.
pub const CROSSING_SPEED: f32 = 200.0;
/// Speed of the `fast_crossing` scene's bullet at the free plate, m/s.
pub const PLATE_BULLET_SPEED: f32 = 300.0;

/// A weightless dynamic body at `position` moving at `velocity`, marked as a
/// bullet or not.
fn floating(world: &mut World, position: Vec2, velocity: Vec2, bullet: bool) -> Result<BodyId> {
    world.create_body(&BodyDef {
        linear_velocity: velocity,
        gravity_scale: 0.0,
        is_bullet: bullet,
        ..BodyDef::dynamic(to_pos(position))
    })
}

/// Fast bodies against fast bodies, without gravity, all bullets: two 0.1 m
/// boxes crossing at [`CROSSING_SPEED`] each (top row), a 5 cm ball at
/// [`PLATE_BULLET_SPEED`] against a free 2 cm × 1 m plate (middle row), and
/// two 5 cm balls crossing at [`CROSSING_SPEED`] each, their paths half a
/// radius apart (bottom row). Each pair meets within the first step: one step
/// moves a crossing body 3.3 m, the ball 5 m. The bodies are the boxes, the
/// plate, its ball, then the crossing balls.
pub fn fast_crossing(world: &mut World) -> Result<Scene> {
    let ground = world.create_body(&BodyDef::default())?;
    let floor = make_offset_box(10.0, 0.5, Vec2::new(0.0, -2.0), Rot::IDENTITY)?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &floor)?;
    let v = CROSSING_SPEED;
    let mut bodies = Vec::new();
    for (x, vx) in [(-4.0, v), (4.0, -v)] {
        let b = floating(world, Vec2::new(x, 6.0), Vec2::new(vx, 0.0), true)?;
        world.create_polygon_shape(b, &ShapeDef::default(), &make_box(0.05, 0.05)?)?;
        bodies.push(b);
    }
    let plate = floating(world, Vec2::new(3.0, 3.0), Vec2::ZERO, false)?;
    world.create_polygon_shape(plate, &ShapeDef::default(), &make_box(0.01, 0.5)?)?;
    bodies.push(plate);
    let ball = Circle::new(Vec2::ZERO, 0.05)?;
    let b = floating(
        world,
        Vec2::new(-3.0, 3.2),
        Vec2::new(PLATE_BULLET_SPEED, 0.0),
        true,
    )?;
    world.create_circle_shape(b, &ShapeDef::default(), &ball)?;
    bodies.push(b);
    for (x, y, vx) in [(-4.0, 0.0, v), (4.0, 0.025, -v)] {
        let b = floating(world, Vec2::new(x, y), Vec2::new(vx, 0.0), true)?;
        world.create_circle_shape(b, &ShapeDef::default(), &ball)?;
        bodies.push(b);
    }
    let focus = Some(bodies[2]);
    Ok(Scene::still(ground, bodies, focus))
}

/// Links of Solver2D's ball and chain as issue 17 gives it.
pub const HEAVY_CHAIN_LINKS: usize = 40;
/// Half the joint-to-joint length of a link, metres (links are 1 m).
pub const HEAVY_CHAIN_HALF_LENGTH: f32 = 0.5;
/// Radius of a link's capsule, metres.
pub const HEAVY_CHAIN_LINK_RADIUS: f32 = 0.125;
/// Radius of the ball, metres.
pub const HEAVY_BALL_RADIUS: f32 = 8.0;
/// Density of links and ball, kg/m².
pub const HEAVY_CHAIN_DENSITY: f32 = 20.0;
/// Linear and angular damping of every body, 1/s (Solver2D's).
pub const HEAVY_CHAIN_DAMPING: f32 = 0.1;

/// What [`heavy_chain`] built.
#[derive(Clone, Debug)]
pub struct HeavyChain {
    /// The static, shapeless pivot body.
    pub pivot: BodyId,
    /// The links from the pivot out.
    pub links: Vec<BodyId>,
    /// The ball at the end, if any.
    pub ball: Option<BodyId>,
    /// The revolute joints from the pivot out.
    pub joints: Vec<JointId>,
}

impl HeavyChain {
    /// The sum of the gaps between the two anchors of every joint, metres.
    pub fn stretch(&self, world: &World) -> Result<f32> {
        let mut sum = 0.0;
        for &joint in &self.joints {
            let (a, b) = world.joint(joint)?.world_anchors();
            sum += (b - a).length();
        }
        Ok(sum)
    }

    /// The chain's length joint to joint (its links' alone), metres.
    pub fn rest_length(&self) -> f32 {
        2.0 * HEAVY_CHAIN_HALF_LENGTH * self.links.len() as f32
    }

    /// The registry's view.
    pub fn into_scene(self) -> Scene {
        let mut bodies = self.links;
        bodies.extend(self.ball);
        Scene::focus_last(self.pivot, bodies)
    }
}

/// Solver2D's ball and chain: `links` capsule links (1 m joint to joint,
/// radius [`HEAVY_CHAIN_LINK_RADIUS`], density [`HEAVY_CHAIN_DENSITY`],
/// damping [`HEAVY_CHAIN_DAMPING`]) laid level to the right of a pivot at
/// `(0, links / 2)`, on revolute joints without friction, `gap` metres
/// between the anchors of each pair of neighbouring links (0: assembled;
/// the first link starts at the pivot). With `ball_radius` > 0 a disc of
/// that radius and the same density hangs from the last link by its rim.
/// Every body has gravity scale `gravity_scale`.
pub fn heavy_chain(
    world: &mut World,
    links: usize,
    gap: f32,
    ball_radius: f32,
    gravity_scale: f32,
) -> Result<HeavyChain> {
    let hx = HEAVY_CHAIN_HALF_LENGTH;
    let y = links as f32 * hx;
    let pivot = world.create_body(&BodyDef {
        position: to_pos(Vec2::new(0.0, y)),
        ..BodyDef::default()
    })?;
    let shape = ShapeDef {
        density: HEAVY_CHAIN_DENSITY,
        ..ShapeDef::default()
    };
    let body = |world: &mut World, x: f32| {
        world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: to_pos(Vec2::new(x, y)),
            linear_damping: HEAVY_CHAIN_DAMPING,
            angular_damping: HEAVY_CHAIN_DAMPING,
            gravity_scale,
            ..BodyDef::default()
        })
    };
    let capsule = Capsule::new(
        Vec2::new(-hx, 0.0),
        Vec2::new(hx, 0.0),
        HEAVY_CHAIN_LINK_RADIUS,
    )?;
    let mut chain = HeavyChain {
        pivot,
        links: Vec::with_capacity(links),
        ball: None,
        joints: Vec::with_capacity(links + 1),
    };
    let (mut previous, mut anchor, mut end) = (pivot, Vec2::ZERO, 0.0);
    for i in 0..links {
        let left = if i == 0 { 0.0 } else { end + gap };
        let link = body(world, left + hx)?;
        world.create_capsule_shape(link, &shape, &capsule)?;
        chain
            .joints
            .push(pin(world, previous, link, anchor, Vec2::new(-hx, 0.0))?);
        chain.links.push(link);
        (previous, anchor, end) = (link, Vec2::new(hx, 0.0), left + 2.0 * hx);
    }
    if ball_radius > 0.0 {
        let ball = body(world, end + gap + ball_radius)?;
        world.create_circle_shape(ball, &shape, &Circle::new(Vec2::ZERO, ball_radius)?)?;
        let rim = Vec2::new(-ball_radius, 0.0);
        chain.joints.push(pin(world, previous, ball, anchor, rim)?);
        chain.ball = Some(ball);
    }
    Ok(chain)
}
