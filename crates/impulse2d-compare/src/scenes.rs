//! Box2D v3's benchmark scenes (`shared/benchmarks.c` and `benchmark/main.c` in
//! erincatto/box2d) as engine-neutral [`SceneDesc`]s: the same sizes, densities,
//! frictions and sleep settings as the release build of Box2D's benchmark. [`Size::Tiny`]
//! shrinks each scene for tests.

use crate::desc::{Batch, BodyDesc, Filter, Geometry, JointDesc, Kind, SceneDesc, ShapeDesc};
use crate::human::push_human;
use impulse2d_scenes::benchmarks::{LARGE_PYRAMID_BASE, MANY_PYRAMIDS_GRID, SMASH_GRID};
use impulse2d_scenes::joints::JOINT_GRID_SIZE;

/// One of the seven benchmark scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scene {
    /// A pyramid of 100-box base (5,050 boxes) on a static box: deep stacking, contact solver.
    LargePyramid,
    /// 20 × 20 pyramids of 10-box base on 20 ground segments: many small islands.
    ManyPyramids,
    /// 100 × 100 discs linked by 19,800 hinges, no contacts: joint solver.
    JointGrid,
    /// Ragdolls spawned and destroyed in a rain over a ground of 2,505 boxes: creation,
    /// destruction, joints with limits and springs, broad phase.
    Rain,
    /// A heavy box smashing into 9,600 sleeping boxes in zero gravity: waking, fast contacts.
    Smash,
    /// 6,076 mixed shapes stirred by a motorised blade inside a chain loop.
    Spinner,
    /// 2,025 small boxes in a rotating box: a dense, constantly moving pile.
    Tumbler,
}

/// How big to build a scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Box2D's release benchmark sizes.
    Full,
    /// Small versions for tests.
    Tiny,
}

impl Scene {
    /// All scenes in Box2D's benchmark order.
    pub const ALL: [Scene; 7] = [
        Scene::JointGrid,
        Scene::LargePyramid,
        Scene::ManyPyramids,
        Scene::Rain,
        Scene::Smash,
        Scene::Spinner,
        Scene::Tumbler,
    ];

    /// Box2D's benchmark name.
    pub fn name(self) -> &'static str {
        match self {
            Scene::LargePyramid => "large_pyramid",
            Scene::ManyPyramids => "many_pyramids",
            Scene::JointGrid => "joint_grid",
            Scene::Rain => "rain",
            Scene::Smash => "smash",
            Scene::Spinner => "spinner",
            Scene::Tumbler => "tumbler",
        }
    }

    /// Looks a scene up by its benchmark name.
    pub fn from_name(name: &str) -> Option<Scene> {
        Scene::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Steps Box2D's benchmark runs this scene for.
    pub fn box2d_steps(self) -> u32 {
        match self {
            Scene::LargePyramid => 500,
            Scene::ManyPyramids => 200,
            Scene::JointGrid => 500,
            Scene::Rain => 1000,
            Scene::Smash => 300,
            Scene::Spinner => 500,
            Scene::Tumbler => 750,
        }
    }

    /// Builds the scene's description.
    pub fn build(self, size: Size) -> SceneDesc {
        let full = size == Size::Full;
        match self {
            Scene::LargePyramid => large_pyramid(if full { LARGE_PYRAMID_BASE } else { 10 }),
            Scene::ManyPyramids => many_pyramids(if full { MANY_PYRAMIDS_GRID } else { 2 }),
            Scene::JointGrid => joint_grid(if full { JOINT_GRID_SIZE } else { 10 }),
            Scene::Rain => rain(if full { RainSize::FULL } else { RainSize::TINY }),
            Scene::Smash => smash(if full { SMASH_GRID } else { (12, 8) }),
            Scene::Spinner => spinner(if full { SPINNER_BODY_COUNT } else { 120 }),
            Scene::Tumbler => tumbler(if full { 45 } else { 10 }),
        }
    }
}

/// Time step of every benchmark (s).
pub const TIME_STEP: f32 = 1.0 / 60.0;
/// Substeps per step of every benchmark.
pub const SUB_STEPS: u32 = 4;

/// Boxes in a pyramid of the given base: base · (base + 1) / 2.
pub fn pyramid_box_count(base: usize) -> usize {
    base * (base + 1) / 2
}

use impulse2d_scenes::benchmarks::{
    LARGE_PYRAMID_GROUND_HALF, LARGE_PYRAMID_GROUND_POSITION, PYRAMID_BOX_HALF, SMASH_BOX_SPACING,
    SMASH_RAM_DENSITY, SMASH_RAM_HALF, SMASH_RAM_POSITION, SMASH_RAM_VELOCITY,
    large_pyramid_box_positions, many_pyramids_box_positions, many_pyramids_shelves,
    smash_box_positions,
};
use impulse2d_scenes::joints::{JOINT_GRID_DISC_RADIUS, joint_grid_is_anchor, joint_grid_position};

/// `large_pyramid`: a pyramid of unit boxes with `base` boxes in the bottom row on a
/// 200 m × 2 m static box; sleeping off. The last body is the top box. The layout is the
/// scene registry's large pyramid (`impulse2d_scenes::benchmarks`).
pub fn large_pyramid(base: usize) -> SceneDesc {
    let mut scene = SceneDesc::new("large_pyramid");
    scene.enable_sleep = false;
    let (hx, hy) = LARGE_PYRAMID_GROUND_HALF;
    let ground = [
        LARGE_PYRAMID_GROUND_POSITION.x,
        LARGE_PYRAMID_GROUND_POSITION.y,
    ];
    scene.add_body(
        BodyDesc::new(Kind::Static, ground).shape(ShapeDesc::new(Geometry::cuboid(hx, hy))),
    );
    let a = PYRAMID_BOX_HALF;
    for p in large_pyramid_box_positions(base) {
        scene.add_body(
            BodyDesc::new(Kind::Dynamic, [p.x, p.y]).shape(ShapeDesc::new(Geometry::cuboid(a, a))),
        );
    }
    scene
}

/// Pyramid base of `many_pyramids`.
pub const SMALL_PYRAMID_BASE: usize = impulse2d_scenes::benchmarks::MANY_PYRAMIDS_BASE;

/// `many_pyramids`: `grid` × `grid` pyramids of 10-box base (boxes 1 m wide), one row of
/// pyramids per ground segment, all on one static body; sleeping off. The layout is the
/// scene registry's (`impulse2d_scenes::benchmarks`).
pub fn many_pyramids(grid: usize) -> SceneDesc {
    let mut scene = SceneDesc::new("many_pyramids");
    scene.enable_sleep = false;
    let base = SMALL_PYRAMID_BASE;
    let mut ground = BodyDesc::new(Kind::Static, [0.0, 0.0]);
    for (p1, p2) in many_pyramids_shelves(grid, grid, base) {
        ground = ground.shape(ShapeDesc::new(Geometry::Segment {
            point1: [p1.x, p1.y],
            point2: [p2.x, p2.y],
        }));
    }
    scene.add_body(ground);
    let a = PYRAMID_BOX_HALF;
    for p in many_pyramids_box_positions(grid, grid, base) {
        scene.add_body(
            BodyDesc::new(Kind::Dynamic, [p.x, p.y]).shape(ShapeDesc::new(Geometry::cuboid(a, a))),
        );
    }
    scene
}

/// `joint_grid`: an `n` × `n` grid of 0.4 m discs 1 m apart, each hinged to its upper and
/// left neighbours, hanging from seven static discs at the top middle. The discs never
/// collide (category 2, mask excludes 2); sleeping off. Body key = column · n + row. The
/// layout is the scene registry's joint grid (`impulse2d_scenes::joints`).
pub fn joint_grid(n: usize) -> SceneDesc {
    let mut scene = SceneDesc::new("joint_grid");
    scene.enable_sleep = false;
    let filter = Filter {
        category: 2,
        mask: !2,
        group: 0,
    };
    for k in 0..n {
        for i in 0..n {
            let kind = if joint_grid_is_anchor(n, k, i) {
                Kind::Static
            } else {
                Kind::Dynamic
            };
            let p = joint_grid_position(k, i);
            let key = scene.add_body(
                BodyDesc::new(kind, [p.x, p.y]).shape(
                    ShapeDesc::new(Geometry::Circle {
                        center: [0.0, 0.0],
                        radius: JOINT_GRID_DISC_RADIUS,
                    })
                    .filter(filter),
                ),
            );
            if i > 0 {
                scene.add_joint(JointDesc::revolute(key - 1, key, [0.0, -0.5], [0.0, 0.5]));
            }
            if k > 0 {
                scene.add_joint(JointDesc::revolute(key - n, key, [0.5, 0.0], [-0.5, 0.0]));
            }
        }
    }
    scene
}

use impulse2d_scenes::benchmarks::{
    TUMBLER_BOX_HALF, TUMBLER_CENTER, TUMBLER_MAX_MOTOR_TORQUE, TUMBLER_MOTOR_SPEED,
    TUMBLER_WALL_DENSITY, TUMBLER_WALLS, tumbler_box_positions,
};
/// The dimensions of `rain`: the scene registry's layout, so that both build the same rain.
pub use impulse2d_scenes::rain::RainLayout as RainSize;
/// Ground height of each rain row above the previous (m), and the ground box size (m).
pub use impulse2d_scenes::rain::{RAIN_GRID_SIZE, RAIN_ROW_SPACING};
use impulse2d_scenes::rain::{RAIN_HUMAN_SPACING, RAIN_JOINTS};

/// `rain`: rows of ground made of 0.5 m boxes, and groups of ragdolls that spawn 40 m above
/// each row, one column every `period` steps, then get replaced column by column.
pub fn rain(size: RainSize) -> SceneDesc {
    let mut scene = SceneDesc::new("rain");
    let cell = RAIN_GRID_SIZE;
    let mut ground = BodyDesc::new(Kind::Static, [0.0, 0.0]);
    for row in 0..size.rows {
        let y = row as f32 * RAIN_ROW_SPACING;
        let mut x = -0.5 * size.grid_count as f32 * cell;
        for _ in 0..=size.grid_count {
            ground = ground.shape(ShapeDesc::new(Geometry::offset_box(
                0.5 * cell,
                0.5 * cell,
                [x, y],
            )));
            x += cell;
        }
    }
    scene.add_body(ground);

    for row in 0..size.rows {
        for column in 0..size.columns {
            debug_assert_eq!(scene.batches.len(), size.group_index(row, column));
            let first_body = scene.bodies.len();
            let first_joint = scene.joints.len();
            let origin = size.group_origin(row, column);
            for i in 0..size.group_size {
                let x = origin.x + RAIN_HUMAN_SPACING * i as f32;
                push_human(&mut scene, [x, origin.y], i as i32 + 1, RAIN_JOINTS);
            }
            scene.batches.push(Batch {
                bodies: first_body..scene.bodies.len(),
                joints: first_joint..scene.joints.len(),
            });
        }
    }
    scene.schedule = Some(size);
    scene
}

/// `smash`: an 8 m box of density 8 at 40 m/s into a `columns` × `rows` block of sleeping
/// 0.4 m boxes, zero gravity. Body 0 is the heavy box. The layout is the scene registry's
/// smash (`impulse2d_scenes::benchmarks`).
pub fn smash((columns, rows): (usize, usize)) -> SceneDesc {
    let mut scene = SceneDesc::new("smash");
    scene.gravity = [0.0, 0.0];
    let mut ram = BodyDesc::new(Kind::Dynamic, [SMASH_RAM_POSITION.x, SMASH_RAM_POSITION.y]).shape(
        ShapeDesc::new(Geometry::cuboid(SMASH_RAM_HALF, SMASH_RAM_HALF)).density(SMASH_RAM_DENSITY),
    );
    ram.linear_velocity = [SMASH_RAM_VELOCITY.x, SMASH_RAM_VELOCITY.y];
    scene.add_body(ram);

    let half = 0.5 * SMASH_BOX_SPACING;
    for p in smash_box_positions(columns, rows) {
        let mut body = BodyDesc::new(Kind::Dynamic, [p.x, p.y])
            .shape(ShapeDesc::new(Geometry::cuboid(half, half)));
        body.awake = false;
        scene.add_body(body);
    }
    scene
}

use impulse2d_scenes::joints::{
    SPINNER_BLADE, SPINNER_BLADE_POSITION, SPINNER_BODY_DENSITY, SPINNER_BODY_RESTITUTION,
    SPINNER_FRICTION, SPINNER_MAX_MOTOR_TORQUE, SPINNER_MOTOR_SPEED, spinner_body_positions,
    spinner_ring_points,
};
/// Centre of `spinner`'s chain loop and its radius (m): the scene registry's spinner.
pub use impulse2d_scenes::joints::{SPINNER_BODY_COUNT, SPINNER_CENTER, SPINNER_RADIUS};

/// `spinner`: a 360-segment chain loop of radius 40 m, a 40 m rounded blade turning at
/// 5 rad/s with unlimited torque, and `count` capsules, discs and squares (density 0.25,
/// friction 0.1, restitution 0.1). Body 0 is the ground, 1 the blade. The ring, the blade,
/// the motor and the bodies' places come from the scene registry's spinner
/// (`impulse2d_scenes::joints`), so both build the same scene.
pub fn spinner(count: usize) -> SceneDesc {
    let mut scene = SceneDesc::new("spinner");
    let points = spinner_ring_points()
        .into_iter()
        .map(|p| [p.x, p.y])
        .collect();
    let ground = scene.add_body(
        BodyDesc::new(Kind::Static, [0.0, 0.0])
            .shape(ShapeDesc::new(Geometry::ChainLoop { points }).friction(SPINNER_FRICTION)),
    );

    let (hx, hy, radius) = SPINNER_BLADE;
    let pivot = [SPINNER_BLADE_POSITION.x, SPINNER_BLADE_POSITION.y];
    let mut blade = BodyDesc::new(Kind::Dynamic, pivot).shape(
        ShapeDesc::new(Geometry::Polygon {
            vertices: vec![[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]],
            radius,
        })
        .friction(0.0),
    );
    blade.enable_sleep = false;
    let blade = scene.add_body(blade);
    let hinge = JointDesc::revolute(ground, blade, pivot, [0.0, 0.0]);
    scene.add_joint(hinge.with_motor(SPINNER_MOTOR_SPEED, SPINNER_MAX_MOTOR_TORQUE));

    let shapes = [
        Geometry::Capsule {
            center1: [-0.25, 0.0],
            center2: [0.25, 0.0],
            radius: 0.25,
        },
        Geometry::Circle {
            center: [0.0, 0.0],
            radius: 0.35,
        },
        Geometry::cuboid(0.35, 0.35),
    ];
    for (i, p) in spinner_body_positions(count).into_iter().enumerate() {
        let shape = ShapeDesc::new(shapes[i % 3].clone())
            .friction(SPINNER_FRICTION)
            .restitution(SPINNER_BODY_RESTITUTION)
            .density(SPINNER_BODY_DENSITY);
        scene.add_body(BodyDesc::new(Kind::Dynamic, [p.x, p.y]).shape(shape));
    }
    scene
}

/// `tumbler`: a 20 m hollow box of density 50 turned at 25 °/s (torque up to 1e8 N·m) by
/// a hinge motor about a point 10 m up, holding `grid` × `grid` boxes of 0.25 m. Body 0 is
/// a shapeless static anchor, 1 the tumbler. Every dimension comes from the scene
/// registry's tumbler (`impulse2d_scenes::benchmarks`), so both build the same scene.
pub fn tumbler(grid: usize) -> SceneDesc {
    let mut scene = SceneDesc::new("tumbler");
    let ground = scene.add_body(BodyDesc::new(Kind::Static, [0.0, 0.0]));
    let center = [TUMBLER_CENTER.x, TUMBLER_CENTER.y];
    let mut drum = BodyDesc::new(Kind::Dynamic, center);
    for (hx, hy, c) in TUMBLER_WALLS {
        drum = drum.shape(
            ShapeDesc::new(Geometry::offset_box(hx, hy, [c.x, c.y])).density(TUMBLER_WALL_DENSITY),
        );
    }
    let drum = scene.add_body(drum);
    let hinge = JointDesc::revolute(ground, drum, center, [0.0, 0.0]);
    scene.add_joint(hinge.with_motor(TUMBLER_MOTOR_SPEED, TUMBLER_MAX_MOTOR_TORQUE));

    let small = Geometry::cuboid(TUMBLER_BOX_HALF, TUMBLER_BOX_HALF);
    for p in tumbler_box_positions(grid) {
        scene.add_body(
            BodyDesc::new(Kind::Dynamic, [p.x, p.y]).shape(ShapeDesc::new(small.clone())),
        );
    }
    scene
}
