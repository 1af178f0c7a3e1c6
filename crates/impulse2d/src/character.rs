//! A kinematic character controller built on the mover toolkit
//! ([`World::collide_mover`], [`World::cast_mover`],
//! [`crate::collision::solve_planes`], [`crate::collision::clip_vector`]).
//!
//! The character is a capsule that is not a body of the world: a game calls
//! [`CharacterController::move_character`] once per frame, before
//! [`World::step`] and with the same time step, passing the velocity it wants
//! (m/s, relative to what the character stands on). The controller
//! - moves and slides along walls, never passing through anything (every
//!   displacement is swept with [`World::cast_mover`]), whatever the speed or
//!   time step;
//! - walks on slopes up to [`CharacterDef::max_slope`] at the commanded
//!   horizontal speed; steeper slopes block it like walls while it walks and
//!   let it slide down when it stands on them;
//! - climbs steps up to [`CharacterDef::step_height`];
//! - snaps down to the ground within [`CharacterDef::snap_distance`] while it
//!   walks, so it follows descending slopes and crests instead of flying off;
//! - reports its ground (shape, body, normal, point), and rides the kinematic
//!   or dynamic body it stands on (translation and rotation) and conveyors
//!   (a ground shape's tangent speed);
//! - passes through one-way platforms from below (see
//!   [`CharacterController::set_one_way_filter`]);
//! - pushes the dynamic bodies it walks into with
//!   [`CharacterDef::push_force`] newtons, and is pushed out of the dynamic
//!   bodies that move into it.
//!
//! Gravity and jumping belong to the game: add gravity to
//! [`CharacterController::velocity`] each frame and pass it back; to jump, set
//! an upward velocity. While the character walks on the ground, downward
//! velocity is absorbed by the ground and the returned velocity is horizontal.
//!
//! # References
//! - E. Catto, Box2D v3.1 `samples/sample_character.cpp` (the `Mover` sample)
//!   and `docs/character.md`: the collide / solve planes / cast loop.

use crate::body::BodyType;
use crate::collision::{Capsule, CollisionPlane, PlaneResult, clip_vector, solve_planes};
use crate::core::LINEAR_SLOP;
use crate::error::{
    Error, Result, check_finite_vec, check_in_range, check_non_negative, check_positive,
};
use crate::id::{BodyId, ShapeId};
use crate::math::{Rot, Vec2};
use crate::mover::{MoverStores, cast_mover_in, check_mover, collide_mover_in};
use crate::query::QueryFilter;
use crate::world::World;

/// Collide / solve / cast passes per move (Box2D's sample uses five).
const MAX_MOVE_ITERATIONS: usize = 5;

/// A pass that moves the character less than this ends the move, metres.
const MOVE_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// How far below its capsule the ground counts as under the character, metres.
const GROUND_PROBE: f32 = 2.0 * LINEAR_SLOP;

/// How a character is made.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterDef {
    /// Where the character starts: the origin of its capsule's frame, world, metres.
    pub position: Vec2,
    /// The character's shape in its own frame (upright: `center1` below
    /// `center2`), metres. The radius must exceed two linear slops (0.01 m).
    pub capsule: Capsule,
    /// The steepest walkable ground, radians from horizontal, in `[0, π/2)`.
    pub max_slope: f32,
    /// The highest step the character climbs while walking, metres (0: none).
    pub step_height: f32,
    /// How far down the character follows the ground while walking, metres (0: never).
    pub snap_distance: f32,
    /// The force with which the character pushes dynamic bodies it walks
    /// into, newtons, applied through their centre of mass.
    pub push_force: f32,
    /// Which shapes the character collides with.
    pub filter: QueryFilter,
}

impl Default for CharacterDef {
    /// A 1.6 m tall capsule of radius 0.3 m centred on its position, 45°
    /// slopes, 0.3 m steps, 0.3 m snap, 200 N push.
    fn default() -> Self {
        CharacterDef {
            position: Vec2::ZERO,
            capsule: Capsule {
                center1: Vec2::new(0.0, -0.5),
                center2: Vec2::new(0.0, 0.5),
                radius: 0.3,
            },
            max_slope: std::f32::consts::FRAC_PI_4,
            step_height: 0.3,
            snap_distance: 0.3,
            push_force: 200.0,
            filter: QueryFilter::default(),
        }
    }
}

impl CharacterDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        check_finite_vec(self.position, "character position")?;
        check_mover(&self.capsule)?;
        let slopes = 0.0..std::f32::consts::FRAC_PI_2;
        check_in_range(self.max_slope, slopes, "max slope", "in [0, π/2) radians")?;
        check_non_negative(self.step_height, "step height")?;
        check_non_negative(self.snap_distance, "snap distance")?;
        check_non_negative(self.push_force, "push force")?;
        Ok(())
    }
}

/// What the character stands on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The shape under the character.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// The ground's unit normal (pointing up out of the ground).
    pub normal: Vec2,
    /// The ground point closest to the character, world, metres.
    pub point: Vec2,
}

/// A one-way-platform test: `true` for shapes the character passes through
/// from below and stands on from above.
pub type OneWayFilter = Box<dyn Fn(ShapeId) -> bool + Send + Sync>;

/// A kinematic character (see the [module documentation](self)).
pub struct CharacterController {
    capsule: Capsule,
    position: Vec2,
    velocity: Vec2,
    min_ground_normal_y: f32,
    step_height: f32,
    snap_distance: f32,
    push_force: f32,
    filter: QueryFilter,
    ground: Option<Ground>,
    ignored_body: Option<BodyId>,
    one_way: Option<OneWayFilter>,
    /// The planes of the last collide pass, for clipping and drawing.
    planes: Vec<CollisionPlane>,
    plane_shapes: Vec<ShapeId>,
    /// Bodies to push this move, with the direction.
    pushes: Vec<(BodyId, Vec2)>,
    /// Scratch for the planes a query finds (kept to avoid allocating).
    found: Vec<(ShapeId, PlaneResult)>,
}

impl std::fmt::Debug for CharacterController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CharacterController")
            .field("position", &self.position)
            .field("velocity", &self.velocity)
            .field("ground", &self.ground)
            .finish_non_exhaustive()
    }
}

/// The part of a move that does not change while it runs.
struct MoveContext<'a> {
    stores: MoverStores<'a>,
    world: &'a World,
    /// Walking on the ground (not jumping, not airborne).
    walking: bool,
    /// The character's own velocity this move (for one-way platforms).
    upward: bool,
}

impl CharacterController {
    /// Makes a controller.
    ///
    /// # Errors
    /// A definition with a bad number (see [`CharacterDef::validate`]),
    /// including a capsule of radius two linear slops or less.
    pub fn new(def: &CharacterDef) -> Result<CharacterController> {
        def.validate()?;
        Ok(CharacterController {
            capsule: def.capsule,
            position: def.position,
            velocity: Vec2::ZERO,
            min_ground_normal_y: crate::math::cos_sin(def.max_slope).0,
            step_height: def.step_height,
            snap_distance: def.snap_distance,
            push_force: def.push_force,
            filter: def.filter,
            ground: None,
            ignored_body: None,
            one_way: None,
            planes: Vec::new(),
            plane_shapes: Vec::new(),
            pushes: Vec::new(),
            found: Vec::new(),
        })
    }

    /// The origin of the capsule's frame, world, metres.
    pub fn position(&self) -> Vec2 {
        self.position
    }

    /// Teleports the character (it loses its ground).
    ///
    /// # Errors
    /// A non-finite position.
    pub fn set_position(&mut self, position: Vec2) -> Result<()> {
        check_finite_vec(position, "character position")?;
        self.position = position;
        self.ground = None;
        Ok(())
    }

    /// The velocity of the last move after sliding, relative to the ground,
    /// m/s: horizontal while walking. Add gravity to it and pass it back.
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }

    /// The capsule in the world frame, metres.
    pub fn world_capsule(&self) -> Capsule {
        self.capsule_at(self.position)
    }

    /// What the character stands on after the last move, if anything walkable.
    pub fn ground(&self) -> Option<Ground> {
        self.ground
    }

    /// Whether the character stands on walkable ground.
    pub fn is_grounded(&self) -> bool {
        self.ground.is_some()
    }

    /// The collision planes of the last move's last pass (normal from the
    /// shape to the character, offset = overlap, metres) with their shapes.
    pub fn planes(&self) -> impl Iterator<Item = (ShapeId, &CollisionPlane)> {
        self.plane_shapes.iter().copied().zip(&self.planes)
    }

    /// Makes the character ignore one body's shapes (for instance a
    /// kinematic body the game moves along with the character so that
    /// dynamic bodies collide with it), or none.
    ///
    /// # Errors
    /// A stale or foreign body id.
    pub fn set_ignored_body(&mut self, world: &World, body: Option<BodyId>) -> Result<()> {
        if let Some(id) = body {
            world.body(id)?;
        }
        self.ignored_body = body;
        Ok(())
    }

    /// Sets the one-way-platform test, or removes it. A shape it accepts
    /// holds the character only from above: while the character does not
    /// move up, its bottom is above the shape's top (less a quarter radius),
    /// and the shape's normal is walkable.
    pub fn set_one_way_filter(&mut self, filter: Option<OneWayFilter>) {
        self.one_way = filter;
    }

    fn capsule_at(&self, position: Vec2) -> Capsule {
        Capsule {
            center1: self.capsule.center1 + position,
            center2: self.capsule.center2 + position,
            radius: self.capsule.radius,
        }
    }

    /// Moves the character for one frame of `dt` seconds with the wanted
    /// velocity (m/s, relative to its ground), then pushes the dynamic bodies
    /// it walked into. Call once per frame before [`World::step`] with the
    /// same `dt`.
    ///
    /// # Errors
    /// A non-finite velocity, a time step that is not finite and positive,
    /// a displacement (velocity × time step) beyond ±1e5 m, or an ignored body that has been destroyed; nothing changes then.
    pub fn move_character(&mut self, world: &mut World, velocity: Vec2, dt: f32) -> Result<()> {
        check_finite_vec(velocity, "character velocity")?;
        check_positive(dt, "time step")?;
        if let Some(id) = self.ignored_body {
            world.body(id)?;
        }
        let displacement = velocity * dt;
        let size = displacement.x.abs().max(displacement.y.abs());
        if size.is_nan() || size > crate::core::HUGE {
            return Err(Error::OutOfRange {
                what: "character displacement (velocity × time step)",
                expected: "within ±1e5 m",
                value: size,
            });
        }

        // The ground from the last move, if it still exists.
        let ground = self.ground.filter(|g| world.shape_index(g.shape).is_ok());
        let walking = ground.is_some() && velocity.y <= 0.0;
        self.pushes.clear();
        let ctx = MoveContext {
            stores: MoverStores::of(world),
            world,
            walking,
            upward: velocity.y > 0.0,
        };

        // Walk: along the ground at the commanded horizontal speed.
        let start = self.position;
        let wanted = match ground {
            Some(g) if walking => {
                let t = g.normal.right_perp();
                t * (displacement.x / g.normal.y)
            }
            _ => displacement,
        };
        let mut position = self.slide(&ctx, start, wanted, false);

        if walking && self.step_height > 0.0 && wanted.x != 0.0 {
            let progress = (position.x - start.x) * wanted.x.signum();
            if progress < wanted.x.abs() - MOVE_TOLERANCE
                && let Some(stepped) = self.try_step(&ctx, start, wanted.x)
                && (stepped.x - start.x) * wanted.x.signum() > progress + MOVE_TOLERANCE
            {
                position = stepped;
            }
        }

        // Snap: while walking, come down onto walkable ground within the snap
        // distance (and always onto ground within the probe, so that the
        // character never hovers).
        let mut new_ground = self.find_ground(&ctx, position);
        let touching = new_ground.is_some_and(|(_, gap)| gap <= 0.0);
        if walking && !touching {
            let down = Vec2::new(0.0, -self.snap_distance.max(GROUND_PROBE));
            let f = self.cast(&ctx, position, down, None);
            if f < 1.0 {
                let snapped = position + down * f;
                if let Some(g) = self.find_ground(&ctx, snapped) {
                    position = snapped;
                    new_ground = Some(g);
                }
            }
        }
        let new_ground = new_ground.map(|(g, _)| g);
        self.find_pushes(&ctx, position, wanted);

        // Clip the velocity against what the character pressed into.
        let mut v = clip_vector(
            if walking {
                wanted * (1.0 / dt)
            } else {
                velocity
            },
            &self.planes,
        );
        if new_ground.is_some() && !ctx.upward {
            v.y = 0.0;
        }

        // Ride the ground: its motion over the coming step, and its conveyor.
        if let Some(g) = new_ground {
            let carry = self.carry(world, &g, position, dt);
            if carry != Vec2::ZERO {
                let f = self.cast(&ctx, position, carry, Some(g.body));
                position += carry * f;
            }
        }

        let pushes = std::mem::take(&mut self.pushes);
        self.position = position;
        self.velocity = v;
        self.ground = new_ground;
        for &(body, direction) in &pushes {
            // The body was found this move, so the id is live.
            world
                .body_mut(body)?
                .apply_force_to_center(direction * self.push_force, true)?;
        }
        self.pushes = pushes;
        Ok(())
    }

    /// Whether the mover should see this shape at all (filter, ignored body,
    /// one-way platforms).
    fn sees(&self, ctx: &MoveContext<'_>, shape: ShapeId, bottom: f32, moving_up: bool) -> bool {
        let body = ctx.stores.shapes[shape.index as usize].body_id;
        if let Some(ignored) = self.ignored_body
            && ignored.index == body
        {
            return false;
        }
        match &self.one_way {
            Some(one_way) if one_way(shape) => {
                let top = crate::pos::to_aabb(ctx.stores.shapes[shape.index as usize].aabb)
                    .upper
                    .y;
                !moving_up && bottom >= top - 0.25 * self.capsule.radius
            }
            _ => true,
        }
    }

    /// The planes of the shapes the mover touches, in the scratch buffer
    /// (hand it back with `self.found = found`).
    fn touching(&mut self, ctx: &MoveContext<'_>, mover: &Capsule) -> Vec<(ShapeId, PlaneResult)> {
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        collide_mover_in(ctx.stores, mover, self.filter, |id, p| {
            found.push((id, *p));
            true
        });
        found
    }

    /// The capsule at `position` grown by the ground probe, and the bottom
    /// of the capsule itself.
    fn probe_at(&self, position: Vec2) -> (Capsule, f32) {
        let mut probe = self.capsule_at(position);
        let bottom = self.bottom(&probe);
        probe.radius += GROUND_PROBE;
        (probe, bottom)
    }

    fn bottom(&self, capsule: &Capsule) -> f32 {
        capsule.center1.y.min(capsule.center2.y) - capsule.radius
    }

    /// Gathers the collision planes at `position` into `self.planes`.
    fn gather(&mut self, ctx: &MoveContext<'_>, position: Vec2, level: bool) {
        self.planes.clear();
        self.plane_shapes.clear();
        let mover = self.capsule_at(position);
        let bottom = self.bottom(&mover);
        let found = self.touching(ctx, &mover);
        for &(id, result) in &found {
            if !self.sees(ctx, id, bottom, ctx.upward) {
                continue;
            }
            let mut plane = result.plane;
            if self
                .one_way
                .as_ref()
                .is_some_and(|one_way| one_way(id) && plane.normal.y < self.min_ground_normal_y)
            {
                continue;
            }
            // While walking, ground too steep to walk on is a wall: it must
            // not lift the character.
            // Across a step, nothing lifts it (the step's own height is the limit).
            if (level || (ctx.walking && plane.normal.y < self.min_ground_normal_y))
                && plane.normal.y > 0.0
            {
                if plane.normal.x == 0.0 {
                    continue;
                }
                plane.normal = Vec2::new(plane.normal.x.signum(), 0.0);
            }
            self.planes.push(CollisionPlane::rigid(plane));
            self.plane_shapes.push(id);
        }
        self.found = found;
    }

    /// Records the dynamic bodies within the ground probe of the capsule at
    /// `position` that the wanted displacement presses into.
    fn find_pushes(&mut self, ctx: &MoveContext<'_>, position: Vec2, wanted: Vec2) {
        if self.push_force == 0.0 || wanted == Vec2::ZERO {
            return;
        }
        let (probe, bottom) = self.probe_at(position);
        let found = self.touching(ctx, &probe);
        for &(id, result) in &found {
            let n = result.plane.normal;
            let body_index = ctx.stores.shapes[id.index as usize].body_id;
            if wanted.dot(n) >= 0.0
                || ctx.stores.bodies[body_index as usize].body_type != BodyType::Dynamic
                || !self.sees(ctx, id, bottom, ctx.upward)
            {
                continue;
            }
            let body = ctx.world.make_body_id(body_index);
            if !self.pushes.iter().any(|(b, _)| *b == body) {
                self.pushes.push((body, -n));
            }
        }
        self.found = found;
    }

    /// Sweeps the capsule from `position` along `translation`: the fraction
    /// it can go. Skips `skip_body`'s shapes.
    fn cast(
        &self,
        ctx: &MoveContext<'_>,
        position: Vec2,
        translation: Vec2,
        skip_body: Option<BodyId>,
    ) -> f32 {
        let mover = self.capsule_at(position);
        let bottom = self.bottom(&mover);
        let moving_up = translation.y > 0.0;
        cast_mover_in(ctx.stores, &mover, translation, self.filter, |id| {
            if let Some(skip) = skip_body
                && ctx.stores.shapes[id.index as usize].body_id == skip.index
            {
                return false;
            }
            self.sees(ctx, id, bottom, moving_up)
        })
    }

    /// Move and slide: collide, solve the planes for the rest of the way,
    /// sweep, repeat. Returns where the character ends. With `level`, no
    /// plane may lift the character (upward normals are made horizontal).
    fn slide(&mut self, ctx: &MoveContext<'_>, start: Vec2, delta: Vec2, level: bool) -> Vec2 {
        let target = start + delta;
        let mut position = start;
        for _ in 0..MAX_MOVE_ITERATIONS {
            self.gather(ctx, position, level);
            let solved = solve_planes(target - position, &mut self.planes);
            let f = self.cast(ctx, position, solved.translation, None);
            let step = solved.translation * f;
            position += step;
            if step.length() < MOVE_TOLERANCE {
                break;
            }
        }
        position
    }

    /// Climbs a step: up by the step height, across (by at least the
    /// radius), down onto walkable ground. `None` when there is no walkable
    /// landing.
    fn try_step(&mut self, ctx: &MoveContext<'_>, start: Vec2, dx: f32) -> Option<Vec2> {
        let up = Vec2::new(0.0, self.step_height);
        let raised = start + up * self.cast(ctx, start, up, None);
        // A round bottom stands on a step's edge only once its centre is over
        // the step, so go across by at least the radius (walls still stop it).
        let across_x = dx.signum() * dx.abs().max(self.capsule.radius);
        let across = self.slide(ctx, raised, Vec2::new(across_x, 0.0), true);
        let down = Vec2::new(0.0, -(raised.y - start.y) - GROUND_PROBE);
        let f = self.cast(ctx, across, down, None);
        if f >= 1.0 {
            return None;
        }
        let landed = across + down * f;
        // The ground it lands on must be no higher than the step height above
        // where the feet were (a raised round end can perch on higher edges).
        let feet = self.bottom(&self.capsule_at(start));
        let (ground, _) = self.find_ground(ctx, landed)?;
        (ground.point.y - feet <= self.step_height + LINEAR_SLOP).then_some(landed)
    }

    /// The walkable ground touching the capsule at `position` (within the
    /// ground probe), the most level first, with the gap to it (metres,
    /// negative when overlapping).
    fn find_ground(&mut self, ctx: &MoveContext<'_>, position: Vec2) -> Option<(Ground, f32)> {
        let (probe, bottom) = self.probe_at(position);
        let mut best: Option<(Ground, f32)> = None;
        let found = self.touching(ctx, &probe);
        for &(id, result) in &found {
            let n = result.plane.normal;
            if n.y < self.min_ground_normal_y || !self.sees(ctx, id, bottom, ctx.upward) {
                continue;
            }
            if best.is_none_or(|(b, _)| n.y > b.normal.y) {
                let body_index = ctx.stores.shapes[id.index as usize].body_id;
                let ground = Ground {
                    shape: id,
                    body: ctx.world.make_body_id(body_index),
                    normal: n,
                    point: result.point,
                };
                best = Some((ground, GROUND_PROBE - result.plane.offset));
            }
        }
        self.found = found;
        best
    }

    /// How the ground moves the character at `position` over the next `dt`:
    /// the body's motion (rotation about its centre of mass included) plus
    /// the shape's tangent speed along the surface.
    fn carry(&self, world: &World, ground: &Ground, position: Vec2, dt: f32) -> Vec2 {
        let shape = &world.shapes[ground.shape.index as usize];
        let mut carry = ground.normal.right_perp() * (shape.tangent_speed * dt);
        let body = &world.bodies[shape.body_id as usize];
        if body.body_type != BodyType::Static {
            let sim = world.body_sim(shape.body_id as usize);
            let (state_v, w) = world
                .body(ground.body)
                .map(|b| (b.linear_velocity(), b.angular_velocity()))
                .unwrap_or((Vec2::ZERO, 0.0));
            // Carry the centre of the capsule's end that stands on the ground:
            // its round end then stays tangent to the turning surface.
            let capsule = self.capsule_at(position);
            let foot = if capsule.center1.distance_squared(ground.point)
                <= capsule.center2.distance_squared(ground.point)
            {
                capsule.center1
            } else {
                capsule.center2
            };
            let c = crate::pos::to_vec2(sim.center);
            let moved = c + state_v * dt + Rot::from_angle(w * dt).rotate(foot - c);
            carry += moved - foot;
        }
        carry
    }
}
