//! Demonstrations of single features: conveyor belts (tangent speed), an
//! explosion ([`World::explode`]), bullets (continuous collision), rolling resistance,
//! a chain terrain and a kinematic platform.

use crate::common::{dynamic_body, level_ground, polygon_bodies, static_body};
use crate::{Builder, Scene, SceneInfo, SceneScript};
use impulse2d::collision::{
    Capsule, Circle, make_box, make_offset_box, make_rounded_box, make_square,
};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyId, BodyType, ChainDef, ExplosionDef, Result, Rot, ShapeDef, Vec2, World,
};

/// The scenes of this file.
pub(crate) const SCENES: &[SceneInfo] = &[
    SceneInfo {
        category: "demo",
        name: "conveyor",
        description: "boxes carried by a belt with a tangent speed of 2 m/s, then dropped",
    },
    SceneInfo {
        category: "demo",
        name: "explosion",
        description: "World::explode under three rings of boxes: the inner one blown out whole, the middle one by the falloff, the outer one untouched",
    },
    SceneInfo {
        category: "demo",
        name: "bullets",
        description: "two small bullets at 250 m/s fired at a stack behind a wall",
    },
    SceneInfo {
        category: "demo",
        name: "rolling_resistance",
        description: "balls launched at 5 m/s with rolling resistance 0 to 0.4",
    },
    SceneInfo {
        category: "demo",
        name: "chain_terrain",
        description: "circles, capsules and boxes rolling over a smooth chain-shape hill",
    },
    SceneInfo {
        category: "demo",
        name: "kinematic_platform",
        description: "boxes riding a kinematic platform moving at 1 m/s",
    },
];

/// The builders of this file's scenes, by name, with their default parameters.
pub(crate) const BUILDERS: &[(&str, Builder)] = &[
    ("conveyor", conveyor),
    ("explosion", |world| {
        explosion(world, 32).map(Explosion::into_scene)
    }),
    ("bullets", bullets),
    ("rolling_resistance", rolling_resistance),
    ("chain_terrain", chain_terrain),
    ("kinematic_platform", kinematic_platform),
];

/// A 20 m belt 5 m up whose surface moves at 2 m/s (tangent speed), carrying
/// five boxes off its right end.
pub fn conveyor(world: &mut World) -> Result<Scene> {
    let ground = level_ground(world, 20.0, &ShapeDef::default())?;
    let belt = ShapeDef {
        friction: 0.8,
        tangent_speed: 2.0,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(
        ground,
        &belt,
        &make_offset_box(10.0, 0.25, Vec2::new(0.0, 5.0), Rot::IDENTITY)?,
    )?;
    let square = make_square(0.5)?;
    let positions = (0..5).map(|i| Vec2::new(-8.0 + 2.0 * i as f32, 5.75));
    let bodies = polygon_bodies(world, positions, &ShapeDef::default(), &square)?;
    Ok(Scene::focus_last(ground, bodies))
}

/// The explosion of the `explosion` demo: centred on its rings, whole out
/// to 3 m and falling linearly to nothing at 5 m, 2 N·s per metre of
/// exposed width (1 N·s on a 0.5 m box facing it).
pub const EXPLOSION: ExplosionDef = ExplosionDef {
    position: Vec2::new(0.0, 6.0),
    radius: 3.0,
    falloff: 2.0,
    impulse_per_length: 2.0,
    mask_bits: u64::MAX,
};
/// Distances of the `explosion` demo's three rings of box centres from the
/// blast, metres: inside the radius, in the falloff band, beyond both.
pub const EXPLOSION_RINGS: [f32; 3] = [3.0, 4.5, 6.0];
/// Half-size of the `explosion` demo's boxes, metres.
pub const EXPLOSION_BOX_HALF: f32 = 0.25;
/// The step before which the `explosion` demo's script explodes.
pub const EXPLOSION_STEP: u64 = 30;

/// The explosion demo, as built.
#[derive(Debug)]
pub struct Explosion {
    /// A shapeless static body (the scene has no ground; gravity is off).
    pub ground: BodyId,
    /// The boxes of each ring of [`EXPLOSION_RINGS`], counter-clockwise
    /// from the +x axis.
    pub rings: [Vec<BodyId>; 3],
    /// Explodes [`EXPLOSION`] before step [`EXPLOSION_STEP`].
    pub script: ExplosionScript,
}

impl Explosion {
    /// The scene for the registry: the rings from the inside out.
    pub fn into_scene(self) -> Scene {
        let bodies: Vec<BodyId> = self.rings.concat();
        Scene {
            ground: self.ground,
            focus: bodies.first().copied(),
            bodies,
            script: Some(Box::new(self.script)),
        }
    }
}

/// Calls [`World::explode`] once, before a given step.
#[derive(Clone, Debug)]
pub struct ExplosionScript {
    /// The explosion.
    pub def: ExplosionDef,
    /// The step before which it goes off.
    pub at_step: u64,
    done: bool,
}

impl ExplosionScript {
    /// A script exploding `def` before step `at_step`.
    pub fn new(def: ExplosionDef, at_step: u64) -> Self {
        ExplosionScript {
            def,
            at_step,
            done: false,
        }
    }

    /// Whether the explosion has gone off.
    pub fn exploded(&self) -> bool {
        self.done
    }
}

impl SceneScript for ExplosionScript {
    fn before_step(&mut self, world: &mut World, step: u64) -> Result<()> {
        if !self.done && step >= self.at_step {
            world.explode(&self.def)?;
            self.done = true;
        }
        Ok(())
    }

    fn status(&self) -> String {
        if self.done {
            "exploded".to_string()
        } else {
            format!("explodes before step {}", self.at_step)
        }
    }
}

/// Three rings of `count` boxes (0.5 m, density 1) about the centre of
/// [`EXPLOSION`], at the distances of [`EXPLOSION_RINGS`], each box facing
/// the centre, without gravity; the script explodes [`EXPLOSION`] before step
/// [`EXPLOSION_STEP`].
pub fn explosion(world: &mut World, count: usize) -> Result<Explosion> {
    world.set_gravity(Vec2::ZERO)?;
    let ground = static_body(world)?;
    let square = make_square(EXPLOSION_BOX_HALF)?;
    let mut rings: [Vec<BodyId>; 3] = Default::default();
    for (ring, distance) in rings.iter_mut().zip(EXPLOSION_RINGS) {
        for i in 0..count {
            let angle = 2.0 * std::f32::consts::PI * i as f32 / count as f32;
            let q = Rot::from_angle(angle);
            let b = dynamic_body(world, EXPLOSION.position + distance * q.x_axis(), angle)?;
            world.create_polygon_shape(b, &ShapeDef::default(), &square)?;
            ring.push(b);
        }
    }
    Ok(Explosion {
        ground,
        rings,
        script: ExplosionScript::new(EXPLOSION, EXPLOSION_STEP),
    })
}

/// A stack of twelve rounded boxes against a wall and two bullets (a circle
/// and a box, density 4) at 250 m/s on their way to it.
pub fn bullets(world: &mut World) -> Result<Scene> {
    let ground = level_ground(world, 30.0, &ShapeDef::default())?;
    world.create_segment_shape(
        ground,
        &ShapeDef::default(),
        &impulse2d::collision::Segment {
            point1: Vec2::new(10.0, 0.0),
            point2: Vec2::new(10.0, 20.0),
        },
    )?;
    let rounded = make_rounded_box(0.45, 0.45, 0.05)?;
    let def = ShapeDef {
        friction: 0.3,
        ..ShapeDef::default()
    };
    let positions = (0..12).map(|i| {
        let shift = if i % 2 == 0 { -0.01 } else { 0.01 };
        Vec2::new(8.0 + shift, 0.5 + i as f32)
    });
    let mut bodies = polygon_bodies(world, positions, &def, &rounded)?;
    let heavy = ShapeDef {
        density: 4.0,
        ..ShapeDef::default()
    };
    for (k, y) in [6.0, 3.0].into_iter().enumerate() {
        let b = world.create_body(&BodyDef {
            linear_velocity: Vec2::new(250.0, 0.0),
            is_bullet: true,
            ..BodyDef::dynamic(to_pos(Vec2::new(-26.7, y)))
        })?;
        if k == 0 {
            let circle = Circle {
                center: Vec2::ZERO,
                radius: 0.25,
            };
            world.create_circle_shape(b, &heavy, &circle)?;
        } else {
            world.create_polygon_shape(b, &heavy, &make_box(0.25, 0.25)?)?;
        }
        bodies.push(b);
    }
    Ok(Scene::focus_last(ground, bodies))
}

/// Five balls of radius 0.5 m launched at 5 m/s along the ground with rolling
/// resistance 0, 0.1, 0.2, 0.3 and 0.4, in lanes 2 m apart.
pub fn rolling_resistance(world: &mut World) -> Result<Scene> {
    let ground = static_body(world)?;
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    let mut bodies = Vec::new();
    for i in 0..5 {
        let y = 2.0 * i as f32;
        world.create_segment_shape(
            ground,
            &ShapeDef::default(),
            &impulse2d::collision::Segment {
                point1: Vec2::new(-20.0, y),
                point2: Vec2::new(40.0, y),
            },
        )?;
        let b = world.create_body(&BodyDef {
            linear_velocity: Vec2::new(5.0, 0.0),
            angular_velocity: -10.0,
            ..BodyDef::dynamic(to_pos(Vec2::new(-18.0, y + 0.5)))
        })?;
        let def = ShapeDef {
            rolling_resistance: 0.1 * i as f32,
            ..ShapeDef::default()
        };
        world.create_circle_shape(b, &def, &circle)?;
        bodies.push(b);
    }
    Ok(Scene::focus_first(ground, bodies))
}

/// A smooth chain-shape hill (a 2 m high cosine bump between flat runs) with
/// circles, capsules and boxes rolling down it.
pub fn chain_terrain(world: &mut World) -> Result<Scene> {
    let ground = static_body(world)?;
    let mut points = Vec::new();
    // Right to left: segments collide on their right side, which is then above.
    let n = 80;
    for i in 0..=n {
        let x = 30.0 - 60.0 * i as f32 / n as f32;
        let bump = if x.abs() < 10.0 {
            let (c, _) = impulse2d::math::cos_sin(std::f32::consts::PI * x / 10.0);
            1.0 + c
        } else {
            0.0
        };
        points.push(Vec2::new(x, bump));
    }
    world.create_chain(
        ground,
        &ChainDef {
            points,
            is_loop: false,
            ..ChainDef::default()
        },
    )?;
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.4,
    };
    let capsule = Capsule {
        center1: Vec2::new(-0.3, 0.0),
        center2: Vec2::new(0.3, 0.0),
        radius: 0.25,
    };
    let square = make_square(0.4)?;
    let mut bodies = Vec::new();
    for i in 0..12 {
        let b = dynamic_body(
            world,
            Vec2::new(-3.0 + 0.6 * i as f32, 6.0 + 0.8 * i as f32),
            0.0,
        )?;
        match i % 3 {
            0 => world.create_circle_shape(b, &ShapeDef::default(), &circle)?,
            1 => world.create_capsule_shape(b, &ShapeDef::default(), &capsule)?,
            _ => world.create_polygon_shape(b, &ShapeDef::default(), &square)?,
        };
        bodies.push(b);
    }
    Ok(Scene::focus_first(ground, bodies))
}

/// A kinematic platform 6 m wide moving right at 1 m/s with three boxes on it.
pub fn kinematic_platform(world: &mut World) -> Result<Scene> {
    let ground = level_ground(world, 20.0, &ShapeDef::default())?;
    let platform = world.create_body(&BodyDef {
        body_type: BodyType::Kinematic,
        position: to_pos(Vec2::new(-8.0, 3.0)),
        linear_velocity: Vec2::new(1.0, 0.0),
        ..BodyDef::default()
    })?;
    world.create_polygon_shape(platform, &ShapeDef::default(), &make_box(3.0, 0.25)?)?;
    let square = make_square(0.5)?;
    let positions = (0..3).map(|i| Vec2::new(-10.0 + 2.0 * i as f32, 3.75));
    let bodies = polygon_bodies(world, positions, &ShapeDef::default(), &square)?;
    Ok(Scene::still(ground, bodies, Some(platform)))
}
