//! Solver2D's *Far* samples: small scenes built far from the origin, where
//! `f32` positions lie on a coarse grid (7.8 mm at 100 km), to show what a large
//! world does to stacking and joints. The registry builds each at
//! [`FAR_ORIGIN`] (100 km, −80 km); every builder takes its origin, so the same
//! scene at the origin is the reference a test compares against.
//!
//! The layouts follow Solver2D's `sample_far.cpp` (pyramid, overlap recovery,
//! ragdoll pile, chain) and the vertical stack; each puts its ground
//! surface at `origin.y`.
//!
//! [`build_at`](crate::build_at) builds any other scene at an offset.

use crate::common::hinge;
use crate::human::{HumanJoints, human};
use crate::{Builder, Pyramid, Scene, SceneInfo};
use impulse2d::collision::{Capsule, Segment, make_box, make_offset_box, make_square};
use impulse2d::{BodyDef, BodyId, BodyType, Pos, Result, Rot, ShapeDef, Vec2, World};

/// Where the registry builds the Far scenes, metres: Solver2D's far pyramid origin.
pub const FAR_ORIGIN: Pos = Pos::new(100_000.0, -80_000.0);

/// The scenes of this file.
pub(crate) const SCENES: &[SceneInfo] = &[
    SceneInfo {
        category: "far",
        name: "far_pyramid",
        description: "Solver2D's far pyramid: 55 boxes dropped into a pyramid of base 10 at (100 km, -80 km)",
    },
    SceneInfo {
        category: "far",
        name: "far_vertical_stack",
        description: "ten 1 m boxes stacked in a column at (100 km, -80 km)",
    },
    SceneInfo {
        category: "far",
        name: "far_overlap_recovery",
        description: "a pyramid of base 4 created with 25% overlap at (100 km, -80 km)",
    },
    SceneInfo {
        category: "far",
        name: "far_ragdoll_pile",
        description: "six ragdolls dropped into a V-shaped trough at (100 km, -80 km)",
    },
    SceneInfo {
        category: "far",
        name: "far_chain",
        description: "Solver2D's far chain: 40 capsule links hinged to a pivot, released level, at (100 km, -80 km)",
    },
];

/// The builders of this file's scenes, by name, with their default parameters
/// (at [`FAR_ORIGIN`]).
pub(crate) const BUILDERS: &[(&str, Builder)] = &[
    ("far_pyramid", |world| {
        far_pyramid(world, FAR_ORIGIN).map(Pyramid::into_scene)
    }),
    ("far_vertical_stack", |world| {
        far_vertical_stack(world, FAR_ORIGIN, 10).map(Pyramid::into_scene)
    }),
    ("far_overlap_recovery", |world| {
        far_overlap_recovery(world, FAR_ORIGIN).map(Pyramid::into_scene)
    }),
    ("far_ragdoll_pile", |world| {
        far_ragdoll_pile(world, FAR_ORIGIN).map(RagdollPile::into_scene)
    }),
    ("far_chain", |world| {
        far_chain(world, FAR_ORIGIN).map(FarChain::into_scene)
    }),
];

/// 1 m boxes at `origin + p` for each `p` of `positions`, as a [`Pyramid`] on
/// `ground` whose top is the last box.
fn box_pile(world: &mut World, ground: BodyId, origin: Pos, positions: &[Vec2]) -> Result<Pyramid> {
    let square = make_square(0.5)?;
    let mut boxes = Vec::with_capacity(positions.len());
    for &p in positions {
        let body = world.create_body(&BodyDef::dynamic(origin + p))?;
        world.create_polygon_shape(body, &ShapeDef::default(), &square)?;
        boxes.push(body);
    }
    let top = *boxes.last().expect("a pile has boxes");
    Ok(Pyramid { ground, boxes, top })
}

/// A static body at `origin + (0, −1)` holding a box of half-width `half_width`
/// and half-height 1 m: its top is at `origin.y`.
fn ground_box(world: &mut World, origin: Pos, half_width: f32) -> Result<BodyId> {
    let ground = world.create_body(&BodyDef {
        position: origin + Vec2::new(0.0, -1.0),
        ..BodyDef::default()
    })?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(half_width, 1.0)?)?;
    Ok(ground)
}

/// Rows of the far pyramid.
pub const FAR_PYRAMID_BASE: usize = 10;

/// Where the far pyramid's boxes start, relative to the origin, row by row:
/// 1 m boxes 1.25 m apart, each row 1.25 m above the one below and offset by
/// half a spacing, the first row 0.625 m above the ground (Solver2D's layout),
/// so the boxes fall into a pyramid with 0.25 m gaps.
pub fn far_pyramid_positions() -> Vec<Vec2> {
    let (half, base) = (0.5f32, FAR_PYRAMID_BASE);
    let shift = 1.25 * half;
    let mut positions = Vec::with_capacity(base * (base + 1) / 2);
    for row in 0..base {
        let y = (2 * row + 1) as f32 * shift + 0.5;
        for k in row..base {
            let x = (row + 1) as f32 * shift + 2.0 * (k - row) as f32 * shift - half * base as f32;
            positions.push(Vec2::new(x, y));
        }
    }
    positions
}

/// Solver2D's far pyramid at `origin`: [`far_pyramid_positions`] on a 200 m
/// ground box whose top is at `origin.y`. Once settled the apex box rests with
/// its centre 9.5 m above the ground.
pub fn far_pyramid(world: &mut World, origin: Pos) -> Result<Pyramid> {
    let ground = ground_box(world, origin, 100.0)?;
    box_pile(world, ground, origin, &far_pyramid_positions())
}

/// `count` 1 m boxes in a column at `origin`, just touching, the lowest on a
/// 40 m ground box whose top is at `origin.y`.
pub fn far_vertical_stack(world: &mut World, origin: Pos, count: usize) -> Result<Pyramid> {
    let ground = ground_box(world, origin, 20.0)?;
    let positions: Vec<Vec2> = (0..count).map(|i| Vec2::new(0.0, 0.5 + i as f32)).collect();
    box_pile(world, ground, origin, &positions)
}

/// Where the far overlap recovery's 1 m boxes start, relative to the origin,
/// row by row: spaced 0.75 m in x and y (Solver2D's layout, left of centre).
pub fn far_overlap_recovery_positions() -> Vec<Vec2> {
    let (base, half, fraction) = (4usize, 0.5f32, 0.75f32);
    let step = 2.0 * fraction * half;
    let mut positions = Vec::with_capacity(base * (base + 1) / 2);
    let mut y = half;
    for row in 0..base {
        let mut x = fraction * half * (row as f32 - base as f32);
        for _ in row..base {
            positions.push(Vec2::new(x, y));
            x += step;
        }
        y += step;
    }
    positions
}

/// Solver2D's far overlap recovery at `origin`: a pyramid of base 4 of 1 m boxes
/// whose neighbours overlap by a quarter of a box in x and y, on an 80 m ground
/// segment at `origin.y`. Recovered, the top box rests 3.5 m above the ground.
pub fn far_overlap_recovery(world: &mut World, origin: Pos) -> Result<Pyramid> {
    let ground = world.create_body(&BodyDef {
        position: origin,
        ..BodyDef::default()
    })?;
    let segment = Segment::new(Vec2::new(-40.0, 0.0), Vec2::new(40.0, 0.0))?;
    world.create_segment_shape(ground, &ShapeDef::default(), &segment)?;
    box_pile(world, ground, origin, &far_overlap_recovery_positions())
}

/// The far ragdoll pile.
#[derive(Clone, Debug, PartialEq)]
pub struct RagdollPile {
    /// The static trough.
    pub ground: BodyId,
    /// The ragdolls' bones, ragdoll by ragdoll (hip first, as
    /// [`HUMAN_BONES`](crate::human::HUMAN_BONES)).
    pub bones: Vec<BodyId>,
}

impl RagdollPile {
    fn into_scene(self) -> Scene {
        Scene::focus_first(self.ground, self.bones)
    }
}

/// Joint settings of the far ragdolls (Box2D's ragdoll sample: a little joint
/// friction, 5 Hz springs at damping ratio 0.5).
pub const FAR_RAGDOLL_JOINTS: HumanJoints = HumanJoints {
    friction_torque: 0.03,
    hertz: 5.0,
    damping_ratio: 0.5,
};

/// Six ragdolls ([`human`]) dropped into a trough of two
/// 20 m planks tilted ±27° whose lower ends meet 1.5 m above `origin`
/// (Solver2D's far ragdoll pile; feet 0.5 to 2 m above the origin, each ragdoll
/// its own collision group).
pub fn far_ragdoll_pile(world: &mut World, origin: Pos) -> Result<RagdollPile> {
    let ground = world.create_body(&BodyDef {
        position: origin + Vec2::new(0.0, -1.0),
        ..BodyDef::default()
    })?;
    let tilt = 0.15 * impulse2d::math::PI;
    for (x, angle) in [(-5.0, -tilt), (5.0, tilt)] {
        let plank = make_offset_box(10.0, 0.5, Vec2::new(x, 2.0), Rot::from_angle(angle))?;
        world.create_polygon_shape(ground, &ShapeDef::default(), &plank)?;
    }
    let feet = [
        (0.0, 0.5),
        (-0.2, 1.0),
        (0.2, 1.0),
        (-0.4, 1.5),
        (0.4, 1.5),
        (0.0, 2.0),
    ];
    let mut bones = Vec::new();
    for (i, (x, y)) in feet.into_iter().enumerate() {
        let h = human(
            world,
            origin + Vec2::new(x, y),
            i as i32 + 1,
            FAR_RAGDOLL_JOINTS,
        )?;
        bones.extend(h.bones);
    }
    Ok(RagdollPile { ground, bones })
}

/// Links of the far chain.
pub const FAR_CHAIN_LINKS: usize = 40;
/// Half-length of a far chain link's core segment (joint to joint), metres.
pub const FAR_CHAIN_HALF_LENGTH: f32 = 0.1;

/// The far chain.
#[derive(Clone, Debug, PartialEq)]
pub struct FarChain {
    /// The shapeless static body the chain hangs from, at the origin.
    pub ground: BodyId,
    /// The pivot (the first joint's anchor), world frame, metres (`f64` with
    /// `large-world`).
    pub pivot: Pos,
    /// The links from the pivot out; link `i`'s joints sit at its local
    /// `(∓FAR_CHAIN_HALF_LENGTH, 0)`.
    pub links: Vec<BodyId>,
}

impl FarChain {
    fn into_scene(self) -> Scene {
        Scene::focus_last(self.ground, self.links)
    }

    /// The chain's length along its links, metres: from the pivot through
    /// every joint to the free end, i.e. the links' 8 m plus every joint's
    /// gap between its two anchors (0 for perfectly held joints).
    pub fn length(&self, world: &World) -> Result<f32> {
        let hx = FAR_CHAIN_HALF_LENGTH;
        let mut previous = self.pivot;
        let mut length = 0.0;
        for &link in &self.links {
            let view = world.body(link)?;
            let (a, b) = (
                view.world_point(Vec2::new(-hx, 0.0)),
                view.world_point(Vec2::new(hx, 0.0)),
            );
            length += (a - previous).length() + (b - a).length();
            previous = b;
        }
        Ok(length)
    }
}

/// Solver2D's far chain at `origin`: [`FAR_CHAIN_LINKS`] capsules (0.2 m joint
/// to joint, radius 0.025 m, density 20, damping 0.1) laid level to the right of
/// a pivot 4 m above `origin`, hinged end to end, the first to a shapeless static
/// body at `origin`.
pub fn far_chain(world: &mut World, origin: Pos) -> Result<FarChain> {
    let hx = FAR_CHAIN_HALF_LENGTH;
    let ground = world.create_body(&BodyDef {
        position: origin,
        ..BodyDef::default()
    })?;
    let capsule = Capsule::new(Vec2::new(-hx, 0.0), Vec2::new(hx, 0.0), 0.025)?;
    let shape = ShapeDef {
        density: 20.0,
        ..ShapeDef::default()
    };
    let height = FAR_CHAIN_LINKS as f32 * hx;
    let mut chain = FarChain {
        ground,
        pivot: origin + Vec2::new(0.0, height),
        links: Vec::with_capacity(FAR_CHAIN_LINKS),
    };
    let mut previous = (ground, Vec2::new(0.0, height));
    for i in 0..FAR_CHAIN_LINKS {
        let link = world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: origin + Vec2::new((1 + 2 * i) as f32 * hx, height),
            linear_damping: 0.1,
            angular_damping: 0.1,
            ..BodyDef::default()
        })?;
        world.create_capsule_shape(link, &shape, &capsule)?;
        world.create_revolute_joint(&hinge(previous.0, link, previous.1, Vec2::new(-hx, 0.0)))?;
        chain.links.push(link);
        previous = (link, Vec2::new(hx, 0.0));
    }
    Ok(chain)
}
