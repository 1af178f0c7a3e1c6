//! Sensors: shapes that detect overlaps without colliding.
//!
//! A sensor shape ([`ShapeDef::is_sensor`](crate::ShapeDef::is_sensor)) makes
//! no contacts. At the end of every step each sensor whose
//! [`enable_sensor_events`](crate::ShapeDef::enable_sensor_events) switch is on
//! looks up the shapes overlapping it in the three broad-phase trees, so that
//! sensors on any body type see shapes on any body type, awake or asleep. A
//! shape is seen when its own `enable_sensor_events` switch is on, it is not a
//! sensor, it is on another body, and the two collision filters allow it; it
//! overlaps when the distance between the shapes is zero.
//!
//! Each sensor keeps its overlaps sorted by shape index and generation; the
//! difference between the last step's list and this step's gives the begin and
//! end events, in sensor order then visitor order (deterministic). A visitor
//! that is destroyed or disabled ends its overlaps at the next step; a sensor
//! that is destroyed ends all of its overlaps at once.
//!
//! # References
//! - E. Catto, Box2D v3.1 `sensor.c` (end-of-step sensor overlaps).

use crate::body::BodyType;
use crate::collision::{DistanceInput, SimplexCache, shape_distance};
use crate::events::{SensorBeginTouchEvent, SensorEndTouchEvent};
use crate::id::{NULL_INDEX, ShapeId};
use crate::solver::continuous::make_shape_proxy;
use crate::solver::solver_set::DISABLED_SET;
use crate::world::World;

/// Shapes closer than this count as overlapping, metres.
const OVERLAP_TOLERANCE: f32 = 10.0 * f32::EPSILON;

/// A shape seen by a sensor, by slot and generation (so that a destroyed shape
/// whose slot was reused is a different visitor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Visitor {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

/// One sensor shape and what overlaps it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sensor {
    pub(crate) shape_id: u32,
    /// The overlaps of the last step, sorted.
    pub(crate) overlaps: Vec<Visitor>,
    /// Scratch for this step's overlaps.
    pub(crate) next: Vec<Visitor>,
}

/// All sensors of a world, in creation order (swap-removed on destruction).
#[derive(Clone, Debug, Default)]
pub(crate) struct Sensors {
    pub(crate) list: Vec<Sensor>,
    /// Per shape slot: the index in `list`, or NULL.
    pub(crate) slot_of_shape: Vec<u32>,
}

impl Sensors {
    fn slot(&self, shape_id: u32) -> u32 {
        self.slot_of_shape
            .get(shape_id as usize)
            .copied()
            .unwrap_or(NULL_INDEX)
    }
}

impl World {
    /// Registers a new sensor shape.
    pub(crate) fn create_sensor(&mut self, shape_id: u32) {
        let sensors = &mut self.events.sensors;
        let i = shape_id as usize;
        if sensors.slot_of_shape.len() <= i {
            sensors.slot_of_shape.resize(i + 1, NULL_INDEX);
        }
        debug_assert_eq!(sensors.slot_of_shape[i], NULL_INDEX);
        sensors.slot_of_shape[i] = sensors.list.len() as u32;
        sensors.list.push(Sensor {
            shape_id,
            ..Sensor::default()
        });
    }

    /// Unregisters a sensor shape that is being destroyed, ending its overlaps.
    /// Does nothing for other shapes. Call it while the shape is still alive.
    pub(crate) fn destroy_sensor(&mut self, shape_id: u32) {
        let slot = self.events.sensors.slot(shape_id);
        if slot == NULL_INDEX {
            return;
        }
        let sensor_shape_id = self.make_shape_id(shape_id);
        let sensors = &mut self.events.sensors;
        let sensor = sensors.list.swap_remove(slot as usize);
        sensors.slot_of_shape[shape_id as usize] = NULL_INDEX;
        if let Some(moved) = sensors.list.get(slot as usize) {
            sensors.slot_of_shape[moved.shape_id as usize] = slot;
        }
        for v in &sensor.overlaps {
            let visitor_shape_id = ShapeId {
                index: v.index,
                world: self.world_number,
                generation: v.generation,
            };
            self.events.push_sensor_end(SensorEndTouchEvent {
                sensor_shape_id,
                visitor_shape_id,
            });
        }
    }

    /// Finds every sensor's overlaps and reports what changed.
    pub(crate) fn update_sensors(&mut self) {
        if self.events.sensors.list.is_empty() {
            return;
        }
        let mut sensors = std::mem::take(&mut self.events.sensors);
        for sensor in &mut sensors.list {
            self.find_overlaps(sensor);
            self.report_overlap_changes(sensor);
            std::mem::swap(&mut sensor.overlaps, &mut sensor.next);
        }
        self.events.sensors = sensors;
    }

    /// Fills `sensor.next` with the shapes overlapping the sensor, sorted.
    fn find_overlaps(&self, sensor: &mut Sensor) {
        sensor.next.clear();
        let shape = &self.shapes[sensor.shape_id as usize];
        let body = &self.bodies[shape.body_id as usize];
        if body.set_index == DISABLED_SET || !shape.enable_sensor_events {
            return;
        }
        let transform = self.body_sim(shape.body_id as usize).transform;
        let proxy = make_shape_proxy(&shape.geometry);
        let next = &mut sensor.next;
        for body_type in [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic] {
            let tree = self.broad_phase.tree(body_type);
            tree.query(shape.aabb, shape.filter.mask_bits, |_, data| {
                let other_index = data as u32;
                let other = &self.shapes[other_index as usize];
                if other.is_sensor
                    || !other.enable_sensor_events
                    || other.body_id == shape.body_id
                    || !shape.filter.should_collide(&other.filter)
                {
                    return true;
                }
                // large-world: the pair in f32 relative to the sensor's body
                let (transform_a, transform_b) = crate::pos::local_pair(
                    transform,
                    self.body_sim(other.body_id as usize).transform,
                );
                let input = DistanceInput {
                    proxy_a: proxy,
                    proxy_b: make_shape_proxy(&other.geometry),
                    transform_a,
                    transform_b,
                    use_radii: true,
                };
                let output = shape_distance(&input, &mut SimplexCache::default());
                if output.distance < OVERLAP_TOLERANCE {
                    next.push(Visitor {
                        index: other_index,
                        generation: other.generation,
                    });
                }
                true
            });
        }
        next.sort_unstable();
    }

    /// Compares the sorted lists `overlaps` (last step) and `next` (this
    /// step) and records a begin event for each visitor only in `next` and an
    /// end event for each only in `overlaps`.
    fn report_overlap_changes(&mut self, sensor: &Sensor) {
        if sensor.overlaps == sensor.next {
            return;
        }
        let sensor_shape_id = self.make_shape_id(sensor.shape_id);
        let world = self.world_number;
        let id = |v: &Visitor| ShapeId {
            index: v.index,
            world,
            generation: v.generation,
        };
        let (old, new) = (&sensor.overlaps, &sensor.next);
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            let ends = j == new.len() || (i < old.len() && old[i] < new[j]);
            let begins = i == old.len() || (j < new.len() && new[j] < old[i]);
            if ends {
                self.events.push_sensor_end(SensorEndTouchEvent {
                    sensor_shape_id,
                    visitor_shape_id: id(&old[i]),
                });
                i += 1;
            } else if begins {
                self.events.push_sensor_begin(SensorBeginTouchEvent {
                    sensor_shape_id,
                    visitor_shape_id: id(&new[j]),
                });
                j += 1;
            } else {
                i += 1;
                j += 1;
            }
        }
    }

    /// The shapes overlapping sensor shape `si` at the end of the last step
    /// (shapes destroyed since are left out), or `None` when it is not a sensor.
    pub(crate) fn sensor_overlaps_at(&self, si: usize) -> Option<Vec<ShapeId>> {
        let slot = self.events.sensors.slot(si as u32);
        if slot == NULL_INDEX {
            return None;
        }
        let sensor = &self.events.sensors.list[slot as usize];
        Some(
            sensor
                .overlaps
                .iter()
                .map(|v| ShapeId {
                    index: v.index,
                    world: self.world_number,
                    generation: v.generation,
                })
                .filter(|&v| self.shape_index(v).is_ok())
                .collect(),
        )
    }

    /// How many overlaps sensor shape `si` holds (destroyed shapes included;
    /// 0 when it is not a sensor).
    pub(crate) fn sensor_capacity_at(&self, si: usize) -> usize {
        let slot = self.events.sensors.slot(si as u32);
        if slot == NULL_INDEX {
            return 0;
        }
        self.events.sensors.list[slot as usize].overlaps.len()
    }

    /// Checks that every sensor shape is registered exactly once.
    pub(crate) fn validate_sensors(&self) -> std::result::Result<(), String> {
        let sensors = &self.events.sensors;
        for (slot, sensor) in sensors.list.iter().enumerate() {
            let shape = self
                .shapes
                .get(sensor.shape_id as usize)
                .ok_or_else(|| format!("sensor {slot} names shape {}", sensor.shape_id))?;
            if shape.id != sensor.shape_id || !shape.is_sensor {
                return Err(format!(
                    "sensor {slot} names shape {}, which is not a live sensor",
                    sensor.shape_id
                ));
            }
            if sensors.slot(sensor.shape_id) != slot as u32 {
                return Err(format!("sensor {slot}: shape table disagrees"));
            }
            if !sensor.overlaps.is_sorted() {
                return Err(format!("sensor {slot}: overlaps not sorted"));
            }
        }
        for (i, shape) in self.shapes.iter().enumerate() {
            let live_sensor = shape.id == i as u32 && shape.is_sensor;
            if live_sensor != (sensors.slot(i as u32) != NULL_INDEX) {
                return Err(format!("shape {i}: sensor registration mismatch"));
            }
        }
        Ok(())
    }
}
