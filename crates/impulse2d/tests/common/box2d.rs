//! Glue between Impulse2D's collision types and Box2D v3's C functions (through
//! `boxdd-sys`, which vendors upstream Box2D at revision 56edae7, v3.2-dev).
//!
//! Each wrapper here takes and returns OUR types with OUR conventions, so a test
//! can call `ours(x)` and `box2d::same(x)` side by side. Conventions differ in two
//! places, and the wrappers translate:
//! - Box2D's pairwise queries (manifolds, distance, shape cast) take the relative
//!   pose of B in A's frame and answer in A's frame; ours take two world poses and
//!   answer in the world frame. The wrappers compute `xf_a⁻¹·xf_b` and rotate/move
//!   the answers back with `xf_a`, exactly as Box2D's own contact code does.
//! - Box2D's `b2Sweep` stores rotations (`q1`, `q2`) and interpolates them by
//!   normalised lerp; ours stores angles (`a1`, `a2`) and interpolates the angle.
//!   The wrapper converts `a1`, `a2` with `Rot::from_angle`, so the two sweeps agree
//!   exactly at t = 0 and t = 1 and differ in between by the nlerp-versus-angle
//!   error (zero for a pure translation, about 0.2% of the angle at mid-sweep for
//!   a 1 rad turn). Times of impact of rotating bodies may therefore differ slightly.

#![allow(dead_code)]

use boxdd_sys::ffi as c;
use impulse2d::collision::{
    Aabb, Capsule, CastOutput, ChainSegment, Circle, DistanceInput, DistanceOutput, Manifold,
    MassData, Polygon, RayCastInput, Segment, SegmentDistanceResult, ShapeCastPairInput,
    ShapeProxy, SimplexCache, ToiInput, ToiState,
};
use impulse2d::{BodyDef, Rot, Sweep, Transform, Vec2};

unsafe extern "C" {
    // Box2D's slab test is internal (src/aabb.h, not `B2_API`) but is an ordinary
    // external symbol of the static library that boxdd-sys links.
    fn b2AABB_RayCast(a: c::b2AABB, p1: c::b2Vec2, p2: c::b2Vec2) -> c::b2CastOutput;
}

/// Conversion of one of our values to its Box2D counterpart.
pub trait ToB2 {
    /// The Box2D type.
    type B2;
    /// The same value in Box2D's layout.
    fn to_b2(&self) -> Self::B2;
}

/// `ToB2` for a struct whose fields each convert through `ToB2`: ours
/// `=>` Box2D's, then Box2D's field `:` ours for each field.
macro_rules! to_b2 {
    ($($ours:ty => $theirs:ident { $($b2:ident: $f:ident),* $(,)? })*) => {$(
        impl ToB2 for $ours {
            type B2 = c::$theirs;
            fn to_b2(&self) -> c::$theirs {
                c::$theirs { $($b2: self.$f.to_b2()),* }
            }
        }
    )*};
}

/// Numbers stored the same way in both.
macro_rules! same_in_b2 {
    ($($t:ty),*) => {$(
        impl ToB2 for $t {
            type B2 = $t;
            fn to_b2(&self) -> $t {
                *self
            }
        }
    )*};
}

same_in_b2!(f32, u16, [u8; 3]);

/// Ids: Box2D keeps them in an `int`.
impl ToB2 for u32 {
    type B2 = i32;
    fn to_b2(&self) -> i32 {
        *self as i32
    }
}

to_b2! {
    Vec2 => b2Vec2 { x: x, y: y }
    Rot => b2Rot { c: c, s: s }
    Transform => b2Transform { p: p, q: q }
    Circle => b2Circle { center: center, radius: radius }
    Capsule => b2Capsule { center1: center1, center2: center2, radius: radius }
    Segment => b2Segment { point1: point1, point2: point2 }
    ChainSegment => b2ChainSegment {
        ghost1: ghost1,
        segment: segment,
        ghost2: ghost2,
        chainId: chain_id,
    }
    SimplexCache => b2SimplexCache { count: count, indexA: index_a, indexB: index_b }
    RayCastInput => b2RayCastInput {
        origin: origin,
        translation: translation,
        maxFraction: max_fraction,
    }
    Aabb => b2AABB { lowerBound: lower, upperBound: upper }
}

impl ToB2 for Polygon {
    type B2 = c::b2Polygon;
    /// A bit-for-bit copy of the polygon (vertices, normals, centroid, radius),
    /// so both libraries see exactly the same shape.
    fn to_b2(&self) -> c::b2Polygon {
        c::b2Polygon {
            vertices: b2_array(self.vertices()),
            normals: b2_array(self.normals()),
            centroid: self.centroid().to_b2(),
            radius: self.radius(),
            count: self.count() as i32,
        }
    }
}

impl ToB2 for ShapeProxy {
    type B2 = c::b2ShapeProxy;
    fn to_b2(&self) -> c::b2ShapeProxy {
        c::b2ShapeProxy {
            points: b2_array(&self.points[..self.count]),
            count: self.count as i32,
            radius: self.radius,
        }
    }
}

/// Up to eight points in Box2D's fixed-size array, zeros after them.
fn b2_array(points: &[Vec2]) -> [c::b2Vec2; 8] {
    let mut out = [c::b2Vec2 { x: 0.0, y: 0.0 }; 8];
    for (o, p) in out.iter_mut().zip(points) {
        *o = p.to_b2();
    }
    out
}

impl ToB2 for Sweep {
    type B2 = c::b2Sweep;
    /// Angles become rotations with our `Rot::from_angle` (see the module docs
    /// for how the interpolation in between differs).
    fn to_b2(&self) -> c::b2Sweep {
        c::b2Sweep {
            localCenter: self.local_center.to_b2(),
            c1: self.c1.to_b2(),
            c2: self.c2.to_b2(),
            q1: Rot::from_angle(self.a1).to_b2(),
            q2: Rot::from_angle(self.a2).to_b2(),
        }
    }
}

/// A Box2D vector as ours.
pub fn vec(v: c::b2Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// A body's state: position (m), angle (rad), linear (m/s) and angular (rad/s) velocity.
pub type BodyState = (Vec2, f32, Vec2, f32);

/// The state of one of Box2D's bodies.
pub fn body_state(body: c::b2BodyId) -> BodyState {
    // SAFETY: plain FFI reads of a body the caller's live world holds.
    unsafe {
        let q = c::b2Body_GetRotation(body);
        (
            vec(c::b2Body_GetPosition(body)),
            q.s.atan2(q.c),
            vec(c::b2Body_GetLinearVelocity(body)),
            c::b2Body_GetAngularVelocity(body),
        )
    }
}

/// The same state of one of our bodies.
pub fn our_body_state(world: &impulse2d::World, body: impulse2d::BodyId) -> BodyState {
    let b = world.body(body).unwrap();
    (
        impulse2d::pos::to_vec2(b.position()),
        b.rotation().angle(),
        b.linear_velocity(),
        b.angular_velocity(),
    )
}

/// Our definition of a dynamic body starting in `state`.
pub fn our_dynamic_def((position, angle, velocity, angular_velocity): BodyState) -> BodyDef {
    BodyDef {
        rotation: Rot::from_angle(angle),
        linear_velocity: velocity,
        angular_velocity,
        ..BodyDef::dynamic(position)
    }
}

/// Box2D's definition of the same body ([`our_dynamic_def`]).
pub fn dynamic_def((position, angle, velocity, angular_velocity): BodyState) -> c::b2BodyDef {
    c::b2BodyDef {
        type_: c::b2BodyType_b2_dynamicBody,
        position: position.to_b2(),
        rotation: Rot::from_angle(angle).to_b2(),
        linearVelocity: velocity.to_b2(),
        angularVelocity: angular_velocity,
        // SAFETY: a plain FFI call that returns a value.
        ..unsafe { c::b2DefaultBodyDef() }
    }
}

/// A Box2D rotation as ours.
pub fn rot(q: c::b2Rot) -> Rot {
    Rot { c: q.c, s: q.s }
}

/// A Box2D transform as ours.
pub fn transform(xf: c::b2Transform) -> Transform {
    Transform::new(vec(xf.p), rot(xf.q))
}

/// A Box2D simplex cache as ours.
pub fn simplex_cache(cache: c::b2SimplexCache) -> SimplexCache {
    SimplexCache {
        count: cache.count,
        index_a: cache.indexA,
        index_b: cache.indexB,
    }
}

/// A Box2D shape proxy as ours.
pub fn proxy(p: &c::b2ShapeProxy) -> ShapeProxy {
    let mut out = ShapeProxy {
        count: p.count as usize,
        radius: p.radius,
        ..Default::default()
    };
    for i in 0..out.count {
        out.points[i] = vec(p.points[i]);
    }
    out
}

/// A Box2D ray/shape cast result as ours (same frame as the input).
pub fn cast_output(o: c::b2CastOutput) -> CastOutput {
    CastOutput {
        normal: vec(o.normal),
        point: vec(o.point),
        fraction: o.fraction,
        iterations: o.iterations as u32,
        hit: o.hit,
    }
}

/// Box2D mass data as ours.
pub fn mass_data(m: c::b2MassData) -> MassData {
    MassData {
        mass: m.mass,
        center: vec(m.center),
        rotational_inertia: m.rotationalInertia,
    }
}

/// A Box2D TOI state as ours (`Unknown`, which Box2D never returns, maps to `Failed`).
pub fn toi_state(s: c::b2TOIState) -> ToiState {
    match s {
        c::b2TOIState_b2_toiStateOverlapped => ToiState::Overlapped,
        c::b2TOIState_b2_toiStateHit => ToiState::Hit,
        c::b2TOIState_b2_toiStateSeparated => ToiState::Separated,
        _ => ToiState::Failed,
    }
}

/// Box2D's local manifold (frame A) as a world manifold in our layout, built as
/// Box2D's `b2UpdateContact` does: anchors are the local points rotated by A's
/// rotation; `point` is the world position.
pub fn world_manifold(local: &c::b2LocalManifold, xf_a: Transform, xf_b: Transform) -> Manifold {
    let mut m = Manifold {
        normal: xf_a.q.rotate(vec(local.normal)),
        point_count: local.pointCount as usize,
        ..Default::default()
    };
    // As `b2UpdateContact` marshals it, plus the world point ours keeps.
    let origin_delta = xf_a.p - xf_b.p;
    for (mp, lp) in m.points.iter_mut().zip(&local.points[..m.point_count]) {
        mp.anchor_a = xf_a.q.rotate(vec(lp.point));
        mp.anchor_b = mp.anchor_a + origin_delta;
        mp.point = xf_a.p + mp.anchor_a;
        mp.separation = lp.separation;
        mp.id = lp.id;
    }
    m
}

/// B's pose relative to A, as Box2D's world computes it (`b2InvMulTransforms`).
fn relative(xf_a: Transform, xf_b: Transform) -> c::b2Transform {
    xf_a.inv_mul(xf_b).to_b2()
}

macro_rules! collide_fn {
    ($(#[$doc:meta])* $name:ident, $cfn:ident, $ta:ty, $tb:ty) => {
        $(#[$doc])*
        pub fn $name(a: &$ta, xf_a: Transform, b: &$tb, xf_b: Transform) -> Manifold {
            let (a2, b2) = (a.to_b2(), b.to_b2());
            // SAFETY: plain-data arguments by pointer to locals; the C function only reads them.
            let local = unsafe { c::$cfn(&a2, &b2, relative(xf_a, xf_b)) };
            world_manifold(&local, xf_a, xf_b)
        }
    };
}

collide_fn!(
    /// `b2CollideCircles`.
    collide_circles, b2CollideCircles, Circle, Circle
);
collide_fn!(
    /// `b2CollideCapsuleAndCircle`.
    collide_capsule_and_circle, b2CollideCapsuleAndCircle, Capsule, Circle
);
collide_fn!(
    /// `b2CollideCapsules`.
    collide_capsules, b2CollideCapsules, Capsule, Capsule
);
collide_fn!(
    /// `b2CollideSegmentAndCapsule`.
    collide_segment_and_capsule, b2CollideSegmentAndCapsule, Segment, Capsule
);
collide_fn!(
    /// `b2CollidePolygonAndCircle`.
    collide_polygon_and_circle, b2CollidePolygonAndCircle, Polygon, Circle
);
collide_fn!(
    /// `b2CollidePolygonAndCapsule`.
    collide_polygon_and_capsule, b2CollidePolygonAndCapsule, Polygon, Capsule
);
collide_fn!(
    /// `b2CollidePolygons`.
    collide_polygons, b2CollidePolygons, Polygon, Polygon
);
collide_fn!(
    /// `b2CollideSegmentAndCircle`.
    collide_segment_and_circle, b2CollideSegmentAndCircle, Segment, Circle
);
collide_fn!(
    /// `b2CollideSegmentAndPolygon`.
    collide_segment_and_polygon, b2CollideSegmentAndPolygon, Segment, Polygon
);
collide_fn!(
    /// `b2CollideChainSegmentAndCircle`.
    collide_chain_segment_and_circle, b2CollideChainSegmentAndCircle, ChainSegment, Circle
);

/// A Box2D chain-segment collide function that carries a GJK cache, read
/// and updated like ours.
macro_rules! collide_cached_fn {
    ($(#[$doc:meta])* $name:ident, $cfn:ident, $tb:ty) => {
        $(#[$doc])*
        pub fn $name(
            a: &ChainSegment,
            xf_a: Transform,
            b: &$tb,
            xf_b: Transform,
            cache: &mut SimplexCache,
        ) -> Manifold {
            let (a2, b2) = (a.to_b2(), b.to_b2());
            let mut cache2 = cache.to_b2();
            // SAFETY: pointers to locals; the cache is a plain in/out struct.
            let local = unsafe { c::$cfn(&a2, &b2, relative(xf_a, xf_b), &mut cache2) };
            *cache = simplex_cache(cache2);
            world_manifold(&local, xf_a, xf_b)
        }
    };
}

collide_cached_fn!(
    /// `b2CollideChainSegmentAndCapsule`; the cache is read and updated like ours.
    collide_chain_segment_and_capsule, b2CollideChainSegmentAndCapsule, Capsule
);
collide_cached_fn!(
    /// `b2CollideChainSegmentAndPolygon`; the cache is read and updated like ours.
    collide_chain_segment_and_polygon, b2CollideChainSegmentAndPolygon, Polygon
);

/// `b2ShapeDistance` with our world-frame input and output.
pub fn shape_distance(input: &DistanceInput, cache: &mut SimplexCache) -> DistanceOutput {
    let xf_a = input.transform_a;
    let in2 = c::b2DistanceInput {
        proxyA: input.proxy_a.to_b2(),
        proxyB: input.proxy_b.to_b2(),
        transform: relative(xf_a, input.transform_b),
        useRadii: input.use_radii,
    };
    let mut cache2 = cache.to_b2();
    // SAFETY: pointers to locals; no debug simplexes requested (null, 0).
    let out = unsafe { c::b2ShapeDistance(&in2, &mut cache2, std::ptr::null_mut(), 0) };
    *cache = simplex_cache(cache2);
    DistanceOutput {
        point_a: xf_a.apply(vec(out.pointA)),
        point_b: xf_a.apply(vec(out.pointB)),
        normal: xf_a.q.rotate(vec(out.normal)),
        distance: out.distance,
        iterations: out.iterations as u32,
        simplex_count: out.simplexCount as u32,
    }
}

/// `b2ShapeCast` with our world-frame input and output (B's translation is given
/// in the world frame; Box2D wants it in A's frame).
pub fn shape_cast(input: &ShapeCastPairInput) -> CastOutput {
    let xf_a = input.transform_a;
    let in2 = c::b2ShapeCastPairInput {
        proxyA: input.proxy_a.to_b2(),
        proxyB: input.proxy_b.to_b2(),
        transform: relative(xf_a, input.transform_b),
        translationB: xf_a.q.inv_rotate(input.translation_b).to_b2(),
        maxFraction: input.max_fraction,
        canEncroach: input.can_encroach,
    };
    // SAFETY: pointer to a local.
    let out = unsafe { c::b2ShapeCast(&in2) };
    CastOutput {
        normal: xf_a.q.rotate(vec(out.normal)),
        point: xf_a.apply(vec(out.point)),
        ..cast_output(out)
    }
}

/// What `b2TimeOfImpact` returns (ours has no point and normal).
#[derive(Clone, Copy, Debug)]
pub struct Toi {
    /// How the search ended.
    pub state: ToiState,
    /// The sweep fraction reached.
    pub fraction: f32,
    /// Box2D's hit point, world frame.
    pub point: Vec2,
    /// Box2D's hit normal, world frame.
    pub normal: Vec2,
}

/// `b2TimeOfImpact` (the sweeps converted as described in the module docs).
pub fn time_of_impact(input: &ToiInput) -> Toi {
    let in2 = c::b2TOIInput {
        proxyA: input.proxy_a.to_b2(),
        proxyB: input.proxy_b.to_b2(),
        sweepA: input.sweep_a.to_b2(),
        sweepB: input.sweep_b.to_b2(),
        maxFraction: input.max_fraction,
    };
    // SAFETY: pointer to a local.
    let out = unsafe { c::b2TimeOfImpact(&in2) };
    Toi {
        state: toi_state(out.state),
        fraction: out.fraction,
        point: vec(out.point),
        normal: vec(out.normal),
    }
}

/// `b2GetSweepTransform` on the converted sweep (nlerp of the rotations).
pub fn sweep_transform(sweep: &Sweep, t: f32) -> Transform {
    let s = sweep.to_b2();
    // SAFETY: pointer to a local.
    transform(unsafe { c::b2GetSweepTransform(&s, t) })
}

/// `b2MakeProxy`.
pub fn make_proxy(points: &[Vec2], radius: f32) -> ShapeProxy {
    let pts: Vec<c::b2Vec2> = points.iter().map(ToB2::to_b2).collect();
    // SAFETY: `pts` outlives the call; Box2D clamps the count to 8.
    proxy(&unsafe { c::b2MakeProxy(pts.as_ptr(), pts.len() as i32, radius) })
}

/// `b2SegmentDistance`.
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistanceResult {
    // SAFETY: by-value arguments.
    let r = unsafe { c::b2SegmentDistance(p1.to_b2(), q1.to_b2(), p2.to_b2(), q2.to_b2()) };
    SegmentDistanceResult {
        closest1: vec(r.closest1),
        closest2: vec(r.closest2),
        fraction1: r.fraction1,
        fraction2: r.fraction2,
        distance_squared: r.distanceSquared,
    }
}

/// `b2ComputeHull`: the hull's points, or an empty list where Box2D fails
/// (it returns a hull with count 0).
pub fn compute_hull(points: &[Vec2]) -> Vec<Vec2> {
    let pts: Vec<c::b2Vec2> = points.iter().map(ToB2::to_b2).collect();
    // SAFETY: `pts` outlives the call.
    let hull = unsafe { c::b2ComputeHull(pts.as_ptr(), pts.len() as i32) };
    hull.points[..hull.count as usize]
        .iter()
        .map(|&p| vec(p))
        .collect()
}

/// `b2MakePolygon` on a hull of the given points (3 to 8, convex,
/// counter-clockwise, as our `compute_hull` returns them), as Box2D's raw struct.
pub fn make_polygon_from_hull(points: &[Vec2], radius: f32) -> c::b2Polygon {
    let mut hull = c::b2Hull {
        points: [c::b2Vec2 { x: 0.0, y: 0.0 }; 8],
        count: points.len() as i32,
    };
    for (slot, p) in hull.points.iter_mut().zip(points) {
        *slot = p.to_b2();
    }
    // SAFETY: pointer to a local; the hull is valid by the caller's contract.
    unsafe { c::b2MakePolygon(&hull, radius) }
}

/// `b2ComputeCircleMass`.
pub fn compute_circle_mass(shape: &Circle, density: f32) -> MassData {
    // SAFETY: pointer to a local.
    mass_data(unsafe { c::b2ComputeCircleMass(&shape.to_b2(), density) })
}

/// `b2ComputeCapsuleMass`.
pub fn compute_capsule_mass(shape: &Capsule, density: f32) -> MassData {
    // SAFETY: pointer to a local.
    mass_data(unsafe { c::b2ComputeCapsuleMass(&shape.to_b2(), density) })
}

/// `b2ComputePolygonMass`.
pub fn compute_polygon_mass(shape: &Polygon, density: f32) -> MassData {
    // SAFETY: pointer to a local.
    mass_data(unsafe { c::b2ComputePolygonMass(&shape.to_b2(), density) })
}

/// `b2RayCastCircle`.
pub fn ray_cast_circle(input: &RayCastInput, shape: &Circle) -> CastOutput {
    // SAFETY: pointers to locals.
    cast_output(unsafe { c::b2RayCastCircle(&shape.to_b2(), &input.to_b2()) })
}

/// `b2RayCastCapsule`.
pub fn ray_cast_capsule(input: &RayCastInput, shape: &Capsule) -> CastOutput {
    // SAFETY: pointers to locals.
    cast_output(unsafe { c::b2RayCastCapsule(&shape.to_b2(), &input.to_b2()) })
}

/// `b2RayCastPolygon`.
pub fn ray_cast_polygon(input: &RayCastInput, shape: &Polygon) -> CastOutput {
    // SAFETY: pointers to locals.
    cast_output(unsafe { c::b2RayCastPolygon(&shape.to_b2(), &input.to_b2()) })
}

/// `b2RayCastSegment`.
pub fn ray_cast_segment(input: &RayCastInput, shape: &Segment, one_sided: bool) -> CastOutput {
    // SAFETY: pointers to locals.
    cast_output(unsafe { c::b2RayCastSegment(&shape.to_b2(), &input.to_b2(), one_sided) })
}

/// `b2AABB_RayCast` for the ray `origin → origin + max_fraction·translation`.
/// Box2D measures the fraction along that clipped segment; the result is
/// rescaled to a fraction of the full translation, as ours reports it.
pub fn aabb_ray_cast(aabb: &Aabb, input: &RayCastInput) -> CastOutput {
    let p1 = input.origin;
    let p2 = input.origin + input.translation * input.max_fraction;
    // SAFETY: by-value arguments.
    let mut out = cast_output(unsafe { b2AABB_RayCast(aabb.to_b2(), p1.to_b2(), p2.to_b2()) });
    out.fraction *= input.max_fraction;
    out
}
