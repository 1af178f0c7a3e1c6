//! Stacking and contact scenes from Solver2D's test set and Box2D v3's
//! stacking samples: card house, arch, double domino, confined, circle and
//! capsule stacks, tilted stacks, high mass ratios 1 to 3, friction shelves,
//! cliff and the stretched chain. The other joint scenes of the set (bridge,
//! ball and chain, ragdolls, joint grid) are in `joints.rs`.

use crate::common::{dynamic_body, hinge, hull_polygon, level_ground, polygon_bodies, static_body};
use crate::{Builder, Scene, SceneInfo};
use impulse2d::collision::{
    Capsule, Circle, Polygon, Segment, make_box, make_offset_box, make_rounded_box, make_square,
};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, JointId, Result, Rot, ShapeDef, Vec2, World};

/// The scenes of this file.
pub(crate) const SCENES: &[SceneInfo] = &[
    SceneInfo {
        category: "stacking",
        name: "card_house",
        description: "a five-storey house of 2 mm thick cards leaning at ±25° (friction 0.7), as Box2D's",
    },
    SceneInfo {
        category: "stacking",
        name: "arch",
        description: "an arch of 17 trapezoid blocks carrying four slabs, held by friction 0.6",
    },
    SceneInfo {
        category: "stacking",
        name: "double_domino",
        description: "15 dominoes, the first pushed: a chain of topples",
    },
    SceneInfo {
        category: "stacking",
        name: "confined",
        description: "625 weightless circles packed in a 21 m capsule box",
    },
    SceneInfo {
        category: "stacking",
        name: "circle_stack",
        description: "ten frictionless circles, each denser than the one below, in a column",
    },
    SceneInfo {
        category: "stacking",
        name: "capsule_stack",
        description: "twenty capsules stacked flat",
    },
    SceneInfo {
        category: "stacking",
        name: "tilted_stack",
        description: "ten columns of ten rounded boxes, each box shifted 0.2 m",
    },
    SceneInfo {
        category: "stacking",
        name: "high_mass_ratio_1",
        description: "three pyramids topped by boxes 100, 200 and 300 times denser",
    },
    SceneInfo {
        category: "stacking",
        name: "high_mass_ratio_2",
        description: "a 20 m box dropped onto two 1 m boxes",
    },
    SceneInfo {
        category: "stacking",
        name: "high_mass_ratio_3",
        description: "a 20 m box (400 kg) dropped onto the tips of two 0.5 kg triangles",
    },
    SceneInfo {
        category: "joints",
        name: "stretched_chain",
        description: "a 30-link chain hanging from a pivot with an end 100 times heavier than a link",
    },
    SceneInfo {
        category: "contact",
        name: "friction_shelves",
        description: "five boxes (friction 0.75 to 0) sliding down zig-zag shelves",
    },
    SceneInfo {
        category: "contact",
        name: "cliff",
        description: "capsules, boxes and circles sliding towards ledges of three shapes",
    },
];

/// The builders of this file's scenes, by name, with their default parameters.
pub(crate) const BUILDERS: &[(&str, Builder)] = &[
    ("card_house", card_house),
    ("arch", arch),
    ("double_domino", |world| double_domino(world, 15)),
    ("confined", |world| confined(world, 25)),
    ("circle_stack", |world| circle_stack(world, 10)),
    ("capsule_stack", |world| capsule_stack(world, 20)),
    ("tilted_stack", |world| tilted_stack(world, 10, 10)),
    ("high_mass_ratio_1", high_mass_ratio_1),
    ("high_mass_ratio_2", high_mass_ratio_2),
    ("high_mass_ratio_3", high_mass_ratio_3),
    ("stretched_chain", |world| {
        Ok(stretched_chain(world, 30, 100.0)?.into_scene())
    }),
    ("friction_shelves", friction_shelves),
    ("cliff", cliff),
];

/// Half-height of a card of [`card_house`], metres (cards are 0.4 m tall).
pub const CARD_HALF_HEIGHT: f32 = 0.2;
/// Half-thickness of a card of [`card_house`], metres: Box2D's 2 mm card,
/// thinner than the linear slop.
pub const CARD_HALF_THICKNESS: f32 = 0.001;
/// How far each leaning card of [`card_house`] is turned from upright, radians (25°).
pub const CARD_LEAN: f32 = 25.0 * std::f32::consts::PI / 180.0;

/// A house of cards (0.4 m tall, 2 mm thick, friction 0.7) five storeys high,
/// as Box2D's card house sample: leaning pairs 0.175 m apart, a flat card
/// across each pair of pairs. Bodies in creation order, storey by storey.
pub fn card_house(world: &mut World) -> Result<Scene> {
    let def = ShapeDef {
        friction: 0.7,
        ..ShapeDef::default()
    };
    let ground = static_body(world)?;
    let slab = make_offset_box(40.0, 2.0, Vec2::new(0.0, -2.0), Rot::IDENTITY)?;
    world.create_polygon_shape(ground, &def, &slab)?;
    let card_height = CARD_HALF_HEIGHT;
    let card = make_box(CARD_HALF_THICKNESS, card_height)?;
    let lean = CARD_LEAN;
    let mut bodies = Vec::new();
    let mut add = |world: &mut World, p: Vec2, angle: f32| -> Result<()> {
        let b = dynamic_body(world, p, angle)?;
        world.create_polygon_shape(b, &def, &card)?;
        bodies.push(b);
        Ok(())
    };
    let mut storeys = 5;
    let mut z0 = 0.0;
    let mut y = card_height - 0.02;
    while storeys > 0 {
        let mut z = z0;
        for i in 0..storeys {
            if i != storeys - 1 {
                add(
                    world,
                    Vec2::new(z + 0.25, y + card_height - 0.015),
                    0.5 * std::f32::consts::PI,
                )?;
            }
            add(world, Vec2::new(z, y), -lean)?;
            z += 0.175;
            add(world, Vec2::new(z, y), lean)?;
            z += 0.175;
        }
        y += 2.0 * card_height - 0.03;
        z0 += 0.175;
        storeys -= 1;
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// An arch of trapezoid blocks (Box2D's arch sample, scaled by 1/4) carrying
/// four slabs.
pub fn arch(world: &mut World) -> Result<Scene> {
    let inner = [
        (16.0, 0.0),
        (14.93803712795643, 5.133601056842984),
        (13.79871746027416, 10.24928069555078),
        (12.56252963284711, 15.34107019122473),
        (11.20040987372525, 20.39856541571217),
        (9.66521217819836, 25.40369899225096),
        (7.87179930638133, 30.3179337000085),
        (5.635199558196225, 35.03820717801641),
        (2.405937953536585, 39.09554102558315),
    ];
    let outer = [
        (24.0, 0.0),
        (22.33619528222415, 6.02299846205841),
        (20.54936888969905, 12.00964361211476),
        (18.60854610798073, 17.9470321677465),
        (16.46769273811807, 23.81367936585418),
        (14.05325025774858, 29.57079353071012),
        (11.23551045834022, 35.13775818285372),
        (7.752568160730571, 40.30450679009583),
        (3.016931552701656, 44.28891593799322),
    ];
    let scale = 0.25;
    let p1: Vec<Vec2> = inner
        .iter()
        .map(|&(x, y)| Vec2::new(scale * x as f32, scale * y as f32))
        .collect();
    let p2: Vec<Vec2> = outer
        .iter()
        .map(|&(x, y)| Vec2::new(scale * x as f32, scale * y as f32))
        .collect();
    let mirror = |v: Vec2| Vec2::new(-v.x, v.y);
    let def = ShapeDef {
        friction: 0.6,
        ..ShapeDef::default()
    };
    let ground = level_ground(world, 100.0, &def)?;
    let mut bodies = Vec::new();
    let mut block = |world: &mut World, pts: [Vec2; 4]| -> Result<()> {
        let b = dynamic_body(world, Vec2::ZERO, 0.0)?;
        world.create_polygon_shape(b, &def, &hull_polygon(&pts)?)?;
        bodies.push(b);
        Ok(())
    };
    for i in 0..8 {
        block(world, [p1[i], p2[i], p2[i + 1], p1[i + 1]])?;
    }
    for i in 0..8 {
        block(
            world,
            [
                mirror(p2[i]),
                mirror(p1[i]),
                mirror(p1[i + 1]),
                mirror(p2[i + 1]),
            ],
        )?;
    }
    block(world, [p1[8], p2[8], mirror(p2[8]), mirror(p1[8])])?;
    let slab = make_box(2.0, 0.5)?;
    for i in 0..4 {
        let b = dynamic_body(world, Vec2::new(0.0, 0.5 + p2[8].y + i as f32), 0.0)?;
        world.create_polygon_shape(b, &def, &slab)?;
        bodies.push(b);
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// `count` dominoes 1 m tall, 1 m apart; the first gets a push of 0.2 N·s at
/// its top.
pub fn double_domino(world: &mut World, count: usize) -> Result<Scene> {
    let ground = crate::flat_ground(world, 100.0)?;
    let domino = make_box(0.125, 0.5)?;
    let def = ShapeDef {
        friction: 0.6,
        ..ShapeDef::default()
    };
    let mut bodies = Vec::with_capacity(count);
    let mut x = -0.5 * count as f32;
    for i in 0..count {
        let b = dynamic_body(world, Vec2::new(x, 0.5), 0.0)?;
        world.create_polygon_shape(b, &def, &domino)?;
        if i == 0 {
            world.body_mut(b)?.apply_linear_impulse(
                Vec2::new(0.2, 0.0),
                to_pos(Vec2::new(x, 1.0)),
                true,
            )?;
        }
        bodies.push(b);
        x += 1.0;
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// `grid`² circles of radius 0.5 m without gravity, packed in a box of
/// capsules 21 m across.
pub fn confined(world: &mut World, grid: usize) -> Result<Scene> {
    let ground = static_body(world)?;
    let walls = [
        (Vec2::new(-10.5, 0.0), Vec2::new(10.5, 0.0)),
        (Vec2::new(-10.5, 0.0), Vec2::new(-10.5, 20.5)),
        (Vec2::new(10.5, 0.0), Vec2::new(10.5, 20.5)),
        (Vec2::new(-10.5, 20.5), Vec2::new(10.5, 20.5)),
    ];
    for (a, b) in walls {
        world.create_capsule_shape(
            ground,
            &ShapeDef::default(),
            &Capsule {
                center1: a,
                center2: b,
                radius: 0.5,
            },
        )?;
    }
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    let mut bodies = Vec::with_capacity(grid * grid);
    for column in 0..grid {
        for row in 0..grid {
            let p = Vec2::new(
                -8.75 + column as f32 * 18.0 / grid as f32,
                1.5 + row as f32 * 18.0 / grid as f32,
            );
            let b = world.create_body(&BodyDef {
                gravity_scale: 0.0,
                ..BodyDef::dynamic(to_pos(p))
            })?;
            world.create_circle_shape(b, &ShapeDef::default(), &circle)?;
            bodies.push(b);
        }
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// `count` frictionless circles of radius 0.5 m in a column, the k-th of
/// density 1 + 4k, under gravity 20 m/s².
pub fn circle_stack(world: &mut World, count: usize) -> Result<Scene> {
    world.set_gravity(Vec2::new(0.0, -20.0))?;
    let ground = level_ground(world, 10.0, &ShapeDef::default())?;
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    let mut bodies = Vec::with_capacity(count);
    let mut y = 0.75;
    for i in 0..count {
        let b = dynamic_body(world, Vec2::new(0.0, y), 0.0)?;
        let def = ShapeDef {
            friction: 0.0,
            density: 1.0 + 4.0 * i as f32,
            ..ShapeDef::default()
        };
        world.create_circle_shape(b, &def, &circle)?;
        bodies.push(b);
        y += 1.25;
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// `count` capsules 2.5 m long lying flat, 0.25 m apart.
pub fn capsule_stack(world: &mut World, count: usize) -> Result<Scene> {
    let ground = crate::flat_ground(world, 10.0)?;
    let a = 0.25;
    let capsule = Capsule {
        center1: Vec2::new(-4.0 * a, 0.0),
        center2: Vec2::new(4.0 * a, 0.0),
        radius: a,
    };
    let mut bodies = Vec::with_capacity(count);
    let mut y = 2.0 * a;
    for _ in 0..count {
        let b = dynamic_body(world, Vec2::new(0.0, y), 0.0)?;
        world.create_capsule_shape(b, &ShapeDef::default(), &capsule)?;
        bodies.push(b);
        y += 3.0 * a;
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// `columns` stacks of `rows` rounded 0.9 m boxes, each 0.2 m right of the
/// one below (friction 0.3).
pub fn tilted_stack(world: &mut World, columns: usize, rows: usize) -> Result<Scene> {
    let ground = crate::flat_ground(world, 1000.0)?;
    let rounded = make_rounded_box(0.45, 0.45, 0.05)?;
    let def = ShapeDef {
        friction: 0.3,
        ..ShapeDef::default()
    };
    let dx = 5.0;
    let x_root = -0.5 * dx * (columns as f32 - 1.0);
    let positions = (0..columns).flat_map(|j| {
        let x = x_root + j as f32 * dx;
        (0..rows).map(move |i| Vec2::new(x + 0.2 * i as f32, 0.5 + i as f32))
    });
    let bodies = polygon_bodies(world, positions, &def, &rounded)?;
    Ok(Scene::focus_last(ground, bodies))
}

/// Three pyramids of 2 m boxes (base 10, friction 0.5) whose top box is 100,
/// 200 and 300 times denser than the rest.
pub fn high_mass_ratio_1(world: &mut World) -> Result<Scene> {
    let extent = 1.0;
    let def = ShapeDef {
        friction: 0.5,
        ..ShapeDef::default()
    };
    let ground = level_ground(world, 66.0, &def)?;
    let square = make_box(extent, extent)?;
    let mut bodies = Vec::new();
    let mut focus = None;
    for j in 0..3 {
        let offset = -20.0 * extent + 2.0 * (10.0 + 1.0) * extent * j as f32;
        let mut count = 10;
        let mut y = extent;
        while count > 0 {
            for i in 0..count {
                let coeff = i as f32 - 0.5 * count as f32;
                let yy = if count == 1 { y + 2.0 } else { y };
                let b = dynamic_body(world, Vec2::new(2.0 * coeff * extent + offset, yy), 0.0)?;
                let density = if count == 1 {
                    (j as f32 + 1.0) * 100.0
                } else {
                    1.0
                };
                world.create_polygon_shape(b, &ShapeDef { density, ..def }, &square)?;
                bodies.push(b);
                if count == 1 {
                    focus = Some(b);
                }
            }
            count -= 1;
            y += 2.0 * extent;
        }
    }
    Ok(Scene::still(ground, bodies, focus))
}

/// A 20 m box (density 1) dropped from 16 m onto two 1 m boxes 18 m apart.
pub fn high_mass_ratio_2(world: &mut World) -> Result<Scene> {
    let ground = level_ground(world, 66.0, &ShapeDef::default())?;
    big_box_on_two(world, ground, &make_box(0.5, 0.5)?, 26.0)
}

/// Two small `support` bodies at (±9, 0.5) and a 20 m box (density 1) at
/// height `box_y` above them: the bodies of the high mass ratio 2 and 3 scenes.
fn big_box_on_two(
    world: &mut World,
    ground: BodyId,
    support: &Polygon,
    box_y: f32,
) -> Result<Scene> {
    let mut bodies = Vec::new();
    for x in [-9.0, 9.0] {
        let b = dynamic_body(world, Vec2::new(x, 0.5), 0.0)?;
        world.create_polygon_shape(b, &ShapeDef::default(), support)?;
        bodies.push(b);
    }
    let big = dynamic_body(world, Vec2::new(0.0, box_y), 0.0)?;
    world.create_polygon_shape(big, &ShapeDef::default(), &make_box(10.0, 10.0)?)?;
    bodies.push(big);
    Ok(Scene::still(ground, bodies, Some(big)))
}

/// A 20 m box (density 1) held 4 m up, dropped onto the tips of two
/// triangles (base 1 m, height 1 m, density 1) standing 18 m apart, 0.5 m above
/// the ground; the mass ratio is 400 kg to 0.5 kg. The scene's bodies are the
/// left triangle, the right triangle and the box (the focus).
pub fn high_mass_ratio_3(world: &mut World) -> Result<Scene> {
    let ground = crate::flat_ground(world, 50.0)?;
    let triangle = hull_polygon(&[
        Vec2::new(-0.5, 0.0),
        Vec2::new(0.5, 0.0),
        Vec2::new(0.0, 1.0),
    ])?;
    big_box_on_two(world, ground, &triangle, 14.0)
}

/// Length of one link of the stretched chain, joint to joint, metres.
pub const CHAIN_LINK_LENGTH: f32 = 1.0;
/// Radius of the stretched chain's links (capsules), metres.
const CHAIN_LINK_RADIUS: f32 = 0.1;
/// Radius of the stretched chain's end disc, metres.
pub const CHAIN_END_RADIUS: f32 = 0.5;

/// The stretched chain scene.
#[derive(Clone, Debug, PartialEq)]
pub struct StretchedChain {
    /// Ground (top at y = 0), far below the chain.
    pub ground: BodyId,
    /// The static pivot body the chain hangs from; its origin is the pivot.
    pub pivot: BodyId,
    /// The links from the top down.
    pub links: Vec<BodyId>,
    /// The heavy disc at the bottom, hung by its top point.
    pub end: BodyId,
    /// The revolute joints from the top down (links + 1 of them).
    pub joints: Vec<JointId>,
}

impl StretchedChain {
    /// Rest distance from the pivot to the end disc's centre: the links'
    /// joint-to-joint length plus the disc's radius, metres.
    pub fn rest_length(&self) -> f32 {
        self.links.len() as f32 * CHAIN_LINK_LENGTH + CHAIN_END_RADIUS
    }

    fn into_scene(self) -> Scene {
        let mut bodies = self.links;
        bodies.push(self.end);
        Scene::still(self.ground, bodies, Some(self.end))
    }
}

/// A chain of `links` capsule links (1 m joint to joint, radius 0.1 m,
/// density 1) hanging straight down from a pivot, with a disc of radius
/// 0.5 m at its end whose mass is `end_mass_ratio` times a link's: the load
/// the joint solver has to carry without letting the chain stretch. The pivot
/// is 2 m above the disc's lowest point; the ground is at y = 0.
pub fn stretched_chain(
    world: &mut World,
    links: usize,
    end_mass_ratio: f32,
) -> Result<StretchedChain> {
    let ground = crate::flat_ground(world, 50.0)?;
    let top = links as f32 * CHAIN_LINK_LENGTH + 2.0 * CHAIN_END_RADIUS + 2.0;
    let pivot = world.create_body(&BodyDef {
        position: to_pos(Vec2::new(0.0, top)),
        ..BodyDef::default()
    })?;
    let half = 0.5 * CHAIN_LINK_LENGTH;
    let capsule = Capsule {
        center1: Vec2::new(0.0, -(half - CHAIN_LINK_RADIUS)),
        center2: Vec2::new(0.0, half - CHAIN_LINK_RADIUS),
        radius: CHAIN_LINK_RADIUS,
    };
    let mut chain = StretchedChain {
        ground,
        pivot,
        links: Vec::with_capacity(links),
        end: pivot,
        joints: Vec::with_capacity(links + 1),
    };
    let hang = |world: &mut World, a: BodyId, b: BodyId, below_a: f32, above_b: f32| {
        let joint = hinge(a, b, Vec2::new(0.0, -below_a), Vec2::new(0.0, above_b));
        world.create_revolute_joint(&joint)
    };
    let (mut previous, mut below_previous) = (pivot, 0.0);
    for i in 0..links {
        let y = top - (i as f32 + 0.5) * CHAIN_LINK_LENGTH;
        let link = dynamic_body(world, Vec2::new(0.0, y), 0.0)?;
        world.create_capsule_shape(link, &ShapeDef::default(), &capsule)?;
        chain
            .joints
            .push(hang(world, previous, link, below_previous, half)?);
        chain.links.push(link);
        (previous, below_previous) = (link, half);
    }
    let link_mass = capsule_area(&capsule);
    let disc_area = std::f32::consts::PI * CHAIN_END_RADIUS * CHAIN_END_RADIUS;
    let end = dynamic_body(
        world,
        Vec2::new(
            0.0,
            top - links as f32 * CHAIN_LINK_LENGTH - CHAIN_END_RADIUS,
        ),
        0.0,
    )?;
    let heavy = ShapeDef {
        density: end_mass_ratio * link_mass / disc_area,
        ..ShapeDef::default()
    };
    world.create_circle_shape(
        end,
        &heavy,
        &Circle {
            center: Vec2::ZERO,
            radius: CHAIN_END_RADIUS,
        },
    )?;
    chain.joints.push(hang(
        world,
        previous,
        end,
        below_previous,
        CHAIN_END_RADIUS,
    )?);
    chain.end = end;
    Ok(chain)
}

/// Area of a capsule: its rectangle plus a full disc, m².
fn capsule_area(c: &Capsule) -> f32 {
    let length = (c.center2 - c.center1).length();
    2.0 * c.radius * length + std::f32::consts::PI * c.radius * c.radius
}

/// Five boxes (density 25, friction 0.75, 0.5, 0.35, 0.1, 0) released on the
/// top of three shelves tilted ±0.25 rad (shelf friction 0.2).
pub fn friction_shelves(world: &mut World) -> Result<Scene> {
    let shelf = ShapeDef {
        friction: 0.2,
        ..ShapeDef::default()
    };
    let ground = level_ground(world, 40.0, &shelf)?;
    let pieces = [
        (13.0, 0.25, Vec2::new(-4.0, 22.0), -0.25),
        (0.25, 1.0, Vec2::new(10.5, 19.0), 0.0),
        (13.0, 0.25, Vec2::new(4.0, 14.0), 0.25),
        (0.25, 1.0, Vec2::new(-10.5, 11.0), 0.0),
        (13.0, 0.25, Vec2::new(-4.0, 6.0), -0.25),
    ];
    for (hx, hy, c, angle) in pieces {
        world.create_polygon_shape(
            ground,
            &shelf,
            &make_offset_box(hx, hy, c, Rot::from_angle(angle))?,
        )?;
    }
    let square = make_box(0.5, 0.5)?;
    let mut bodies = Vec::new();
    for (i, friction) in [0.75, 0.5, 0.35, 0.1, 0.0].into_iter().enumerate() {
        let b = dynamic_body(world, Vec2::new(-15.0 + 4.0 * i as f32, 28.0), 0.0)?;
        let def = ShapeDef {
            density: 25.0,
            friction,
            ..ShapeDef::default()
        };
        world.create_polygon_shape(b, &def, &square)?;
        bodies.push(b);
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// Capsules, boxes and circles sliding with low friction towards the edges of
/// a segment, a box and a capsule ledge 4 m up.
pub fn cliff(world: &mut World) -> Result<Scene> {
    let ground = crate::flat_ground(world, 100.0)?;
    let def = ShapeDef::default();
    world.create_segment_shape(
        ground,
        &def,
        &Segment {
            point1: Vec2::new(-14.0, 4.0),
            point2: Vec2::new(-8.0, 4.0),
        },
    )?;
    world.create_polygon_shape(
        ground,
        &def,
        &make_offset_box(3.0, 0.5, Vec2::new(0.0, 4.0), Rot::IDENTITY)?,
    )?;
    world.create_capsule_shape(
        ground,
        &def,
        &Capsule {
            center1: Vec2::new(8.5, 4.0),
            center2: Vec2::new(13.5, 4.0),
            radius: 0.5,
        },
    )?;
    let capsule = Capsule {
        center1: Vec2::new(-0.25, 0.0),
        center2: Vec2::new(0.25, 0.0),
        radius: 0.25,
    };
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    let square = make_square(0.5)?;
    let mut bodies = Vec::new();
    let slick = ShapeDef {
        friction: 0.01,
        ..ShapeDef::default()
    };
    let rough = ShapeDef {
        friction: 0.2,
        ..ShapeDef::default()
    };
    // Where the capsules, the boxes and the circles start, and their speed.
    let rows = [
        ([(-9.0, 4.25), (2.0, 4.75), (13.0, 4.75)], 2.0),
        ([(-11.0, 4.5), (0.0, 5.0), (11.0, 5.0)], 2.5),
        ([(-13.0, 4.5), (-2.0, 5.0), (9.0, 5.0)], 1.5),
    ];
    for (kind, (starts, v)) in rows.into_iter().enumerate() {
        for (x, y) in starts {
            let b = world.create_body(&BodyDef {
                linear_velocity: Vec2::new(v, 0.0),
                ..BodyDef::dynamic(to_pos(Vec2::new(x, y)))
            })?;
            match kind {
                0 => world.create_capsule_shape(b, &slick, &capsule)?,
                1 => world.create_polygon_shape(b, &slick, &square)?,
                _ => world.create_circle_shape(b, &rough, &circle)?,
            };
            bodies.push(b);
        }
    }
    Ok(Scene::focus_first(ground, bodies))
}
