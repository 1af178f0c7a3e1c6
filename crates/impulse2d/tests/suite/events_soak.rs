//! Event pairing under a randomised soak: bodies and shapes are created,
//! destroyed, disabled, re-enabled, re-filtered, re-typed, teleported, put to
//! sleep and blown up between steps. Every begin-touch event (contacts and
//! sensors) must be followed by exactly one end-touch event, never preceded
//! by one, and the world must stay valid after every step.

use crate::build;

use crate::common::rng;

use std::collections::{HashMap, HashSet};

use impulse2d::collision::{Circle, make_offset_box};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyId, BodyType, ContactId, ExplosionDef, Filter, Rot, ShapeDef, ShapeGeometry,
    ShapeId, Vec2, World,
};
use rng::Rng;

/// Steps of the soak (about 2 s in a debug build, with the invariant checks).
const STEPS: usize = 10_000;

const HALF: f32 = 8.0;

/// Begin events not yet ended.
#[derive(Default)]
struct Ledger {
    contacts: HashMap<ContactId, (ShapeId, ShapeId)>,
    sensors: HashSet<(ShapeId, ShapeId)>,
    contact_begins: usize,
    sensor_begins: usize,
}

impl Ledger {
    fn read(&mut self, world: &World, step: usize) {
        let events = world.contact_events();
        for e in events.end {
            let pair = self
                .contacts
                .remove(&e.contact_id)
                .unwrap_or_else(|| panic!("step {step}: end without an open begin: {e:?}"));
            assert_eq!(pair, (e.shape_id_a, e.shape_id_b), "step {step}");
        }
        for e in events.begin {
            self.contact_begins += 1;
            let old = self
                .contacts
                .insert(e.contact_id, (e.shape_id_a, e.shape_id_b));
            assert!(old.is_none(), "step {step}: second begin for {e:?}");
            assert!(world.shape(e.shape_id_a).is_ok() && world.shape(e.shape_id_b).is_ok());
        }
        let sensor = world.sensor_events();
        for e in sensor.end {
            let key = (e.sensor_shape_id, e.visitor_shape_id);
            assert!(
                self.sensors.remove(&key),
                "step {step}: sensor end without an open begin: {e:?}"
            );
        }
        for e in sensor.begin {
            self.sensor_begins += 1;
            let key = (e.sensor_shape_id, e.visitor_shape_id);
            assert!(
                self.sensors.insert(key),
                "step {step}: second sensor begin {e:?}"
            );
        }
        for m in world.body_events() {
            assert!(
                world.body(m.body_id).is_ok(),
                "step {step}: move of a dead body"
            );
            assert_eq!(
                world.body(m.body_id).unwrap().is_awake(),
                !m.fell_asleep,
                "step {step}"
            );
        }
    }
}

fn random_filter(rng: &mut Rng) -> Filter {
    Filter {
        category_bits: 1 << rng.below(3),
        mask_bits: if rng.chance(0.8) {
            u64::MAX
        } else {
            1 + rng.below(7) as u64
        },
        group_index: if rng.chance(0.1) { -1 } else { 0 },
    }
}

fn random_shape_def(rng: &mut Rng) -> ShapeDef {
    ShapeDef {
        filter: random_filter(rng),
        is_sensor: rng.chance(0.1),
        enable_contact_events: rng.chance(0.9),
        enable_sensor_events: rng.chance(0.9),
        enable_hit_events: rng.chance(0.5),
        restitution: if rng.chance(0.2) { 0.5 } else { 0.0 },
        ..Default::default()
    }
}

fn random_geometry(rng: &mut Rng) -> ShapeGeometry {
    let size = rng.range(0.1, 0.8);
    let offset = rng.vec_in(0.2);
    match rng.below(3) {
        0 => ShapeGeometry::Circle(Circle {
            center: offset,
            radius: 0.5 * size,
        }),
        1 => ShapeGeometry::Capsule(
            impulse2d::collision::Capsule::new(
                offset - Vec2::new(0.5 * size, 0.0),
                offset + Vec2::new(0.5 * size, 0.0),
                0.3 * size,
            )
            .unwrap(),
        ),
        _ => ShapeGeometry::Polygon(
            make_offset_box(0.5 * size, rng.range(0.05, 0.4), offset, rng.rot()).unwrap(),
        ),
    }
}

struct Soak {
    world: World,
    rng: Rng,
    bodies: Vec<BodyId>,
}

impl Soak {
    fn new(seed: u64) -> Soak {
        let mut world = build::world();
        // A box-shaped container.
        let ground = world.create_body(&BodyDef::default()).unwrap();
        for (c, h) in [
            (Vec2::new(0.0, -1.0), Vec2::new(HALF + 1.0, 1.0)),
            (Vec2::new(-HALF - 1.0, HALF), Vec2::new(1.0, HALF + 1.0)),
            (Vec2::new(HALF + 1.0, HALF), Vec2::new(1.0, HALF + 1.0)),
            (Vec2::new(0.0, 2.0 * HALF + 1.0), Vec2::new(HALF + 1.0, 1.0)),
        ] {
            let slab = make_offset_box(h.x, h.y, c, Rot::IDENTITY).unwrap();
            world
                .create_polygon_shape(ground, &ShapeDef::default(), &slab)
                .unwrap();
        }
        Soak {
            world,
            rng: Rng::new(seed),
            bodies: Vec::new(),
        }
    }

    fn pick(&mut self) -> Option<BodyId> {
        if self.bodies.is_empty() {
            None
        } else {
            Some(self.bodies[self.rng.below(self.bodies.len())])
        }
    }

    fn create_body(&mut self) {
        let rng = &mut self.rng;
        let body_type = match rng.below(10) {
            0 => BodyType::Static,
            1 => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        };
        let def = BodyDef {
            body_type,
            position: to_pos(Vec2::new(
                rng.range(-HALF + 1.0, HALF - 1.0),
                rng.range(0.5, 2.0 * HALF - 1.0),
            )),
            rotation: rng.rot(),
            linear_velocity: if body_type == BodyType::Static {
                Vec2::ZERO
            } else {
                rng.vec_in(3.0)
            },
            is_bullet: rng.chance(0.1),
            ..Default::default()
        };
        let body = self.world.create_body(&def).unwrap();
        for _ in 0..1 + self.rng.below(2) {
            let geometry = random_geometry(&mut self.rng);
            let def = random_shape_def(&mut self.rng);
            self.world.create_shape(body, &def, geometry).unwrap();
        }
        self.bodies.push(body);
    }

    /// One random change between steps.
    fn mutate(&mut self) {
        let choice = self.rng.below(14);
        if (choice == 0 && self.bodies.len() < 150) || self.bodies.len() < 80 {
            self.create_body();
            return;
        }
        let Some(body) = self.pick() else { return };
        let w = &mut self.world;
        let rng = &mut self.rng;
        let shapes = w.body(body).unwrap().shapes();
        match choice {
            1 => {
                w.destroy_body(body).unwrap();
                self.bodies.retain(|&b| b != body);
            }
            2 if shapes.len() > 1 => {
                let s = shapes[rng.below(shapes.len())];
                w.destroy_shape(s, true).unwrap();
            }
            3 => w.body_mut(body).unwrap().disable(),
            4 => w.body_mut(body).unwrap().enable().unwrap(),
            5 => {
                let s = shapes[rng.below(shapes.len())];
                w.shape_mut(s)
                    .unwrap()
                    .set_filter(random_filter(rng))
                    .unwrap();
            }
            6 => {
                let p = Vec2::new(rng.range(-HALF + 1.0, HALF - 1.0), rng.range(0.5, HALF));
                w.body_mut(body)
                    .unwrap()
                    .set_transform(p, rng.rot())
                    .unwrap();
            }
            7 => w.body_mut(body).unwrap().set_awake(false),
            8 => {
                let t = match rng.below(3) {
                    0 => BodyType::Static,
                    1 => BodyType::Kinematic,
                    _ => BodyType::Dynamic,
                };
                w.body_mut(body).unwrap().set_body_type(t).unwrap();
            }
            9 => {
                let s = shapes[rng.below(shapes.len())];
                w.shape_mut(s)
                    .unwrap()
                    .set_contact_events_enabled(rng.chance(0.5));
                w.shape_mut(s)
                    .unwrap()
                    .set_sensor_events_enabled(rng.chance(0.7));
            }
            10 => {
                let def = ExplosionDef {
                    position: Vec2::new(rng.range(-HALF, HALF), rng.range(0.0, HALF)),
                    radius: 2.0,
                    falloff: 1.0,
                    impulse_per_length: 2.0,
                    mask_bits: u64::MAX,
                };
                w.explode(&def).unwrap();
            }
            11 => {
                if w.body(body).unwrap().body_type() != BodyType::Static {
                    w.body_mut(body)
                        .unwrap()
                        .set_linear_velocity(rng.vec_in(8.0))
                        .unwrap();
                }
            }
            12 => {
                // A new shape on an existing body, maybe a sensor.
                let def = random_shape_def(rng);
                let geometry = random_geometry(rng);
                w.create_shape(body, &def, geometry).unwrap();
            }
            _ => {
                let s = shapes[rng.below(shapes.len())];
                w.shape_mut(s)
                    .unwrap()
                    .set_hit_events_enabled(rng.chance(0.5));
            }
        }
    }
}

#[test]
fn every_begin_gets_exactly_one_end() {
    let mut soak = Soak::new(7);
    let mut ledger = Ledger::default();
    for _ in 0..100 {
        soak.create_body();
    }
    for step in 0..STEPS {
        // A few changes between most steps; calm stretches let things sleep.
        if step % 400 < 300 {
            for _ in 0..soak.rng.below(4) {
                soak.mutate();
            }
        }
        soak.world.step(1.0 / 60.0, 4).unwrap();
        if let Err(e) = soak.world.validate() {
            panic!("invalid world after step {step}: {e}");
        }
        ledger.read(&soak.world, step);
        // Bodies that fell out of the container are removed.
        let w = &mut soak.world;
        soak.bodies.retain(|&b| {
            let keep = w.body(b).unwrap().position().y > -20.0;
            if !keep {
                w.destroy_body(b).unwrap();
            }
            keep
        });
    }
    assert!(
        ledger.contact_begins > 1000,
        "{} begins",
        ledger.contact_begins
    );
    assert!(
        ledger.sensor_begins > 50,
        "{} sensor begins",
        ledger.sensor_begins
    );

    // Destroying everything ends whatever is still open, at the next step.
    for body in std::mem::take(&mut soak.bodies) {
        soak.world.destroy_body(body).unwrap();
    }
    soak.world.step(1.0 / 60.0, 4).unwrap();
    ledger.read(&soak.world, STEPS);
    soak.world.step(1.0 / 60.0, 4).unwrap();
    ledger.read(&soak.world, STEPS + 1);
    assert!(
        ledger.contacts.is_empty(),
        "{} contacts never ended",
        ledger.contacts.len()
    );
    assert!(
        ledger.sensors.is_empty(),
        "{} sensor overlaps never ended",
        ledger.sensors.len()
    );
}
