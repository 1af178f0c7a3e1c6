//! Box2D v3's benchmark scenes (`shared/benchmarks.c`) that need no per-step
//! scripting: large pyramid, many pyramids, smash, tumbler, washer and
//! compounds.
//!
//! The tumbler is built as Box2D builds it: a dynamic hollow box hinged to a
//! shapeless static body and driven by a revolute joint motor of 10⁸ N·m. Its
//! dimensions, and those of the pyramids and the smash, are public constants
//! and layout functions so that the side-by-side benchmarks
//! (`impulse2d-compare`) describe the same scenes for every engine. The washer
//! is kinematic in Box2D's benchmark too.

use crate::common::{dynamic_body, hinge, hull_polygon, motorised, polygon_bodies, static_body};
use crate::{Builder, Pyramid, Scene, SceneInfo};
use impulse2d::collision::{Segment, make_box, make_offset_box, make_square};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, BodyType, JointId, Result, Rot, ShapeDef, Vec2, World};

/// The scenes of this file.
pub(crate) const SCENES: &[SceneInfo] = &[
    SceneInfo {
        category: "benchmark",
        name: "many_pyramids",
        description: "Box2D's many pyramids: 20 × 20 pyramids of base 10 (22 000 boxes), sleep off",
    },
    SceneInfo {
        category: "benchmark",
        name: "smash",
        description: "Box2D's smash: a heavy box at 40 m/s into 9 600 sleeping boxes, no gravity",
    },
    SceneInfo {
        category: "benchmark",
        name: "tumbler",
        description: "Box2D's tumbler: a 20 m box turned at 25°/s by a hinge motor with 2 025 small boxes inside",
    },
    SceneInfo {
        category: "benchmark",
        name: "washer",
        description: "Box2D's washer: a kinematic drum with paddles tumbling 8 100 small boxes",
    },
    SceneInfo {
        category: "benchmark",
        name: "compounds",
        description: "Box2D's compounds: 3 000 bodies of two triangles each falling into a bin",
    },
];

/// The builders of this file's scenes, by name, with their default parameters.
pub(crate) const BUILDERS: &[(&str, Builder)] = &[
    ("many_pyramids", |world| {
        let (grid, base) = (MANY_PYRAMIDS_GRID, MANY_PYRAMIDS_BASE);
        many_pyramids(world, grid, grid, base)
    }),
    ("smash", |world| smash(world, SMASH_GRID.0, SMASH_GRID.1)),
    ("tumbler", |world| {
        tumbler(world, 45).map(Tumbler::into_scene)
    }),
    ("washer", |world| washer(world, 90)),
    ("compounds", |world| compounds(world, 20, 150)),
];

/// Base of Box2D's large pyramid, boxes.
pub const LARGE_PYRAMID_BASE: usize = 100;
/// Where the large pyramid's static ground body is, metres: its box's top
/// is at y = 0.
pub const LARGE_PYRAMID_GROUND_POSITION: Vec2 = Vec2::new(0.0, -1.0);
/// Half-width and half-height of the large pyramid's ground box, metres.
pub const LARGE_PYRAMID_GROUND_HALF: (f32, f32) = (100.0, 1.0);
/// Half-size of the pyramids' boxes (large and many pyramids), metres.
pub const PYRAMID_BOX_HALF: f32 = 0.5;

/// Where the boxes of a pyramid of `base` 1 m boxes start, bottom row first,
/// each row left to right, centred on x = 0 and resting on y = 0 (Box2D's
/// large pyramid arithmetic, so every engine gets the same bits).
pub fn large_pyramid_box_positions(base: usize) -> Vec<Vec2> {
    let a = PYRAMID_BOX_HALF;
    let mut positions = Vec::with_capacity(base * (base + 1) / 2);
    for row in 0..base {
        let y = (2.0 * row as f32 + 1.0) * a;
        for column in row..base {
            let x = (row as f32 + 1.0) * a + 2.0 * (column - row) as f32 * a - a * base as f32;
            positions.push(Vec2::new(x, y));
        }
    }
    positions
}

/// Box2D's large pyramid: `base` (100 in the benchmark) rows of 1 m boxes
/// at [`large_pyramid_box_positions`] on a 200 m × 2 m static box whose top
/// is y = 0, with sleeping turned off.
pub fn large_pyramid(world: &mut World, base: usize) -> Result<Pyramid> {
    world.enable_sleeping(false);
    let ground = world.create_body(&BodyDef {
        position: to_pos(LARGE_PYRAMID_GROUND_POSITION),
        ..BodyDef::default()
    })?;
    let (hx, hy) = LARGE_PYRAMID_GROUND_HALF;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(hx, hy)?)?;
    let square = make_square(PYRAMID_BOX_HALF)?;
    let positions = large_pyramid_box_positions(base);
    let boxes = polygon_bodies(world, positions, &ShapeDef::default(), &square)?;
    let top = *boxes.last().ok_or(impulse2d::Error::InvalidOperation(
        "the large pyramid needs a base of at least one box",
    ))?;
    Ok(Pyramid { ground, boxes, top })
}

/// Base of each of Box2D's many pyramids, boxes.
pub const MANY_PYRAMIDS_BASE: usize = 10;
/// Rows and columns of Box2D's many pyramids.
pub const MANY_PYRAMIDS_GRID: usize = 20;

/// The many pyramids' shelves: one ground segment per row of pyramids, from
/// y = 0 up, each `2·half·(base + 1)` above the last, as end points in metres.
pub fn many_pyramids_shelves(rows: usize, columns: usize, base: usize) -> Vec<(Vec2, Vec2)> {
    let extent = PYRAMID_BOX_HALF;
    let shelf_step = 2.0 * extent * (base as f32 + 1.0);
    let ground_width = 2.0 * extent * columns as f32 * (base as f32 + 1.0);
    let mut y = 0.0;
    let mut shelves = Vec::with_capacity(rows);
    for _ in 0..rows {
        shelves.push((
            Vec2::new(-0.5 * ground_width, y),
            Vec2::new(0.5 * ground_width, y),
        ));
        y += shelf_step;
    }
    shelves
}

/// Where the boxes of the `rows` × `columns` pyramids of `base` boxes start:
/// row of pyramids by row, pyramid by pyramid from the left, each pyramid
/// bottom row first (Box2D's arithmetic, so every engine gets the same bits).
pub fn many_pyramids_box_positions(rows: usize, columns: usize, base: usize) -> Vec<Vec2> {
    let extent = PYRAMID_BOX_HALF;
    let shelf_step = 2.0 * extent * (base as f32 + 1.0);
    let ground_width = 2.0 * extent * columns as f32 * (base as f32 + 1.0);
    let base_width = 2.0 * extent * base as f32;
    let mut positions = Vec::with_capacity(rows * columns * base * (base + 1) / 2);
    let mut base_y = 0.0;
    for _ in 0..rows {
        for j in 0..columns {
            let center_x =
                -0.5 * ground_width + j as f32 * (base_width + 2.0 * extent) + 2.0 * extent;
            for row in 0..base {
                let y = (2.0 * row as f32 + 1.0) * extent + base_y;
                for k in row..base {
                    let x =
                        (row as f32 + 1.0) * extent + 2.0 * (k - row) as f32 * extent + center_x
                            - 0.5;
                    positions.push(Vec2::new(x, y));
                }
            }
        }
        base_y += shelf_step;
    }
    positions
}

/// `rows` × `columns` pyramids of `base` boxes (half-size 0.5 m) at
/// [`many_pyramids_box_positions`] on the segments of
/// [`many_pyramids_shelves`], all on one static body; sleeping off.
pub fn many_pyramids(world: &mut World, rows: usize, columns: usize, base: usize) -> Result<Scene> {
    world.enable_sleeping(false);
    let ground = static_body(world)?;
    for (point1, point2) in many_pyramids_shelves(rows, columns, base) {
        world.create_segment_shape(ground, &ShapeDef::default(), &Segment { point1, point2 })?;
    }
    let square = make_square(PYRAMID_BOX_HALF)?;
    let positions = many_pyramids_box_positions(rows, columns, base);
    let bodies = polygon_bodies(world, positions, &ShapeDef::default(), &square)?;
    Ok(Scene::focus_last(ground, bodies))
}

/// Where the smash's heavy box starts, metres.
pub const SMASH_RAM_POSITION: Vec2 = Vec2::new(-20.0, 0.0);
/// The heavy box's initial velocity, m/s.
pub const SMASH_RAM_VELOCITY: Vec2 = Vec2::new(40.0, 0.0);
/// Half-size of the heavy box, metres.
pub const SMASH_RAM_HALF: f32 = 4.0;
/// Density of the heavy box, kg/m².
pub const SMASH_RAM_DENSITY: f32 = 8.0;
/// Columns and rows of Box2D's smash block.
pub const SMASH_GRID: (usize, usize) = (120, 80);
/// Distance between neighbouring small boxes (and their size), metres.
pub const SMASH_BOX_SPACING: f32 = 0.4;

/// Where the smash's `columns` × `rows` small boxes start, column by column
/// from x = 30 m, each column from the bottom, centred on y = 0.
pub fn smash_box_positions(columns: usize, rows: usize) -> Vec<Vec2> {
    let d = SMASH_BOX_SPACING;
    let mut positions = Vec::with_capacity(columns * rows);
    for i in 0..columns {
        for j in 0..rows {
            positions.push(Vec2::new(
                i as f32 * d + 30.0,
                (j as f32 - rows as f32 / 2.0) * d,
            ));
        }
    }
    positions
}

/// Box2D's smash: an 8 m box of density 8 moving at 40 m/s into a `columns`
/// × `rows` block of sleeping 0.4 m boxes at [`smash_box_positions`], without
/// gravity. Box2D's scene has no static body; the shapeless static body this
/// one needs as its ground is created last, so the other bodies keep Box2D's
/// creation order.
pub fn smash(world: &mut World, columns: usize, rows: usize) -> Result<Scene> {
    world.set_gravity(Vec2::ZERO)?;
    let ram = world.create_body(&BodyDef {
        linear_velocity: SMASH_RAM_VELOCITY,
        ..BodyDef::dynamic(to_pos(SMASH_RAM_POSITION))
    })?;
    let heavy = ShapeDef {
        density: SMASH_RAM_DENSITY,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(ram, &heavy, &make_box(SMASH_RAM_HALF, SMASH_RAM_HALF)?)?;
    let small = make_square(0.5 * SMASH_BOX_SPACING)?;
    let mut bodies = vec![ram];
    for position in smash_box_positions(columns, rows) {
        let b = world.create_body(&BodyDef {
            is_awake: false,
            ..BodyDef::dynamic(to_pos(position))
        })?;
        world.create_polygon_shape(b, &ShapeDef::default(), &small)?;
        bodies.push(b);
    }
    let ground = static_body(world)?;
    Ok(Scene::still(ground, bodies, Some(ram)))
}

/// Where the tumbler's pivot (and the drum's centre) is, metres.
pub const TUMBLER_CENTER: Vec2 = Vec2::new(0.0, 10.0);
/// The drum's four walls: half-width, half-height and centre in the drum's
/// frame, metres (a 20 m square box with 1 m thick walls, open inside).
pub const TUMBLER_WALLS: [(f32, f32, Vec2); 4] = [
    (0.5, 10.0, Vec2::new(10.0, 0.0)),
    (0.5, 10.0, Vec2::new(-10.0, 0.0)),
    (10.0, 0.5, Vec2::new(0.0, 10.0)),
    (10.0, 0.5, Vec2::new(0.0, -10.0)),
];
/// Density of the drum's walls, kg/m².
pub const TUMBLER_WALL_DENSITY: f32 = 50.0;
/// The hinge motor's speed: 25°/s in rad/s.
pub const TUMBLER_MOTOR_SPEED: f32 = impulse2d::math::PI / 180.0 * 25.0;
/// The most torque the hinge motor applies, N·m.
pub const TUMBLER_MAX_MOTOR_TORQUE: f32 = 1.0e8;
/// Half-size of the small boxes inside, metres.
pub const TUMBLER_BOX_HALF: f32 = 0.125;
/// Distance between neighbouring small boxes at the start, metres.
pub const TUMBLER_BOX_SPACING: f32 = 0.4;

/// Where the `grid` × `grid` small boxes start, row by row from the bottom
/// left (positions accumulated step by step, as Box2D's benchmark does, so
/// every engine gets the same bits).
pub fn tumbler_box_positions(grid: usize) -> Vec<Vec2> {
    let start = -0.5 * TUMBLER_BOX_SPACING * grid as f32;
    let mut positions = Vec::with_capacity(grid * grid);
    let mut y = start + TUMBLER_CENTER.y;
    for _ in 0..grid {
        let mut x = start;
        for _ in 0..grid {
            positions.push(Vec2::new(x, y));
            x += TUMBLER_BOX_SPACING;
        }
        y += TUMBLER_BOX_SPACING;
    }
    positions
}

/// The tumbler scene, as built.
#[derive(Clone, Debug, PartialEq)]
pub struct Tumbler {
    /// The shapeless static body the drum is hinged to.
    pub ground: BodyId,
    /// The dynamic drum.
    pub drum: BodyId,
    /// The motorised hinge between the ground and the drum.
    pub hinge: JointId,
    /// The small boxes, in creation order.
    pub boxes: Vec<BodyId>,
}

impl Tumbler {
    /// The scene for the registry: the drum first, then the boxes.
    pub fn into_scene(self) -> Scene {
        let mut bodies = Vec::with_capacity(1 + self.boxes.len());
        bodies.push(self.drum);
        bodies.extend(self.boxes);
        Scene::still(self.ground, bodies, Some(self.drum))
    }
}

/// Box2D's tumbler: a dynamic 20 m square box of four walls (density 50)
/// hinged at [`TUMBLER_CENTER`] to a shapeless static body, whose motor
/// turns it at 25°/s with up to 10⁸ N·m, and a `grid` × `grid` block of
/// 0.25 m boxes inside.
pub fn tumbler(world: &mut World, grid: usize) -> Result<Tumbler> {
    let ground = static_body(world)?;
    let drum = world.create_body(&BodyDef::dynamic(to_pos(TUMBLER_CENTER)))?;
    let wall_def = ShapeDef {
        density: TUMBLER_WALL_DENSITY,
        ..ShapeDef::default()
    };
    for (hx, hy, c) in TUMBLER_WALLS {
        world.create_polygon_shape(drum, &wall_def, &make_offset_box(hx, hy, c, Rot::IDENTITY)?)?;
    }
    let axle = hinge(ground, drum, TUMBLER_CENTER, Vec2::ZERO);
    let speed = TUMBLER_MOTOR_SPEED;
    let hinge = world.create_revolute_joint(&motorised(axle, speed, TUMBLER_MAX_MOTOR_TORQUE))?;
    let small = make_box(TUMBLER_BOX_HALF, TUMBLER_BOX_HALF)?;
    let positions = tumbler_box_positions(grid);
    let boxes = polygon_bodies(world, positions, &ShapeDef::default(), &small)?;
    Ok(Tumbler {
        ground,
        drum,
        hinge,
        boxes,
    })
}

/// A kinematic drum of radius 18 m turning at 25°/s about (0, 10), made of 36
/// rim segments and four paddles, with a `grid` × `grid` block of 0.2 m boxes.
pub fn washer(world: &mut World, grid: usize) -> Result<Scene> {
    let ground = static_body(world)?;
    let drum = world.create_body(&BodyDef {
        body_type: BodyType::Kinematic,
        position: to_pos(Vec2::new(0.0, 10.0)),
        angular_velocity: 25.0_f32.to_radians(),
        linear_velocity: Vec2::new(0.001, -0.002),
        enable_sleep: false,
        ..BodyDef::default()
    })?;
    let (r0, r1, r2) = (14.0, 16.0, 18.0);
    let angle = std::f32::consts::PI / 18.0;
    let q = Rot::from_angle(angle);
    // A small gap between rim pieces.
    let gap = Rot::from_angle(0.1 * angle);
    let mut u1 = Vec2::new(1.0, 0.0);
    for i in 0..36 {
        let u2 = if i == 35 {
            Vec2::new(1.0, 0.0)
        } else {
            q.rotate(u1)
        };
        let a1 = gap.inv_rotate(u1);
        let a2 = gap.rotate(u2);
        let rim = hull_polygon(&[r1 * a1, r2 * a1, r1 * a2, r2 * a2])?;
        world.create_polygon_shape(drum, &ShapeDef::default(), &rim)?;
        if i % 9 == 0 {
            let paddle = hull_polygon(&[r0 * u1, r1 * u1, r0 * u2, r1 * u2])?;
            world.create_polygon_shape(drum, &ShapeDef::default(), &paddle)?;
        }
        u1 = u2;
    }
    let a = 0.1;
    let square = make_square(a)?;
    let start = -1.1 * a * grid as f32;
    let positions = (0..grid).flat_map(|i| {
        (0..grid).map(move |j| {
            Vec2::new(
                start + 2.1 * a * j as f32,
                start + 10.0 + 2.1 * a * i as f32,
            )
        })
    });
    let bodies = polygon_bodies(world, positions, &ShapeDef::default(), &square)?;
    Ok(Scene::still(ground, bodies, Some(drum)))
}

/// `columns` × `rows` bodies, each two triangles, dropped into a bin 80 m wide
/// with 100 m walls.
pub fn compounds(world: &mut World, columns: usize, rows: usize) -> Result<Scene> {
    let ground = static_body(world)?;
    let def = ShapeDef::default();
    for i in 0..81 {
        let c = Vec2::new(-40.0 + i as f32, 0.0);
        world.create_polygon_shape(ground, &def, &make_offset_box(0.55, 0.5, c, Rot::IDENTITY)?)?;
    }
    for x in [-40.0, 40.0] {
        for i in 0..100 {
            let c = Vec2::new(x, 1.0 + i as f32);
            world.create_polygon_shape(
                ground,
                &def,
                &make_offset_box(0.5, 0.55, c, Rot::IDENTITY)?,
            )?;
        }
    }
    world.create_segment_shape(
        ground,
        &def,
        &Segment {
            point1: Vec2::new(-800.0, -80.0),
            point2: Vec2::new(800.0, -80.0),
        },
    )?;
    let left = hull_polygon(&[
        Vec2::new(-1.0, 0.0),
        Vec2::new(0.5, 1.0),
        Vec2::new(0.0, 2.0),
    ])?;
    let right = hull_polygon(&[
        Vec2::new(1.0, 0.0),
        Vec2::new(-0.5, 1.0),
        Vec2::new(0.0, 2.0),
    ])?;
    let body_def = ShapeDef {
        friction: 0.5,
        ..ShapeDef::default()
    };
    let shift = 2.0;
    let center_x = shift * columns as f32 / 2.0 - 1.0;
    let center_y = 1.15 / 2.0;
    let mut side = 0.25;
    let mut bodies = Vec::with_capacity(columns * rows);
    for i in 0..columns {
        let x = i as f32 * shift - center_x;
        for j in 0..rows {
            let y = j as f32 * (shift + 0.25) + center_y + 5.0;
            let b = dynamic_body(world, Vec2::new(x + side, y), 0.0)?;
            side = -side;
            world.create_polygon_shape(b, &body_def, &left)?;
            world.create_polygon_shape(b, &body_def, &right)?;
            bodies.push(b);
        }
    }
    Ok(Scene::focus_last(ground, bodies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use impulse2d::WorldDef;

    #[test]
    fn tumbler_is_a_dynamic_drum_turned_by_its_hinge_motor() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let t = tumbler(&mut world, 10).unwrap();
        // Ground and drum, 100 boxes; four walls and 100 box shapes; one hinge.
        let c = world.counters();
        assert_eq!((c.body_count, c.shape_count), (102, 104));
        assert_eq!(world.joint_count(), 1);
        assert_eq!(world.body(t.drum).unwrap().body_type(), BodyType::Dynamic);
        // Walls of 1 m × 20 m (two) and 20 m × 1 m (two) at 50 kg/m²: 4 000 kg.
        assert!((world.body(t.drum).unwrap().mass() - 4000.0).abs() < 0.5);
        let dt = 1.0 / 60.0;
        for _ in 0..60 {
            world.step(dt, 4).unwrap();
        }
        world.validate().unwrap();
        // The motor holds 25°/s from the first step: after 1 s the drum has
        // turned 25° (0.436 rad) about its pivot, which has not moved.
        let spin = world.body(t.drum).unwrap().angular_velocity();
        assert!((spin - 0.436_332).abs() < 1e-3, "drum spin {spin} rad/s");
        let angle = world.body(t.drum).unwrap().rotation().angle();
        assert!((angle - 0.436_332).abs() < 0.01, "drum angle {angle} rad");
        let centre = world.body(t.drum).unwrap().position();
        assert!(
            (centre - to_pos(TUMBLER_CENTER)).length() < 1e-3,
            "drum at {centre:?}"
        );
        let speed = world.joint(t.hinge).unwrap().revolute().unwrap().speed();
        assert!((speed - TUMBLER_MOTOR_SPEED).abs() < 1e-3);
    }
}
