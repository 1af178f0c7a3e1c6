//! World queries against brute force over every shape, the ray callback
//! protocol, shape-level queries, explosions, and bad input.

use crate::build;

use crate::common::rng;

use impulse2d::collision::{
    Aabb, Circle, DistanceInput, RayCastInput, Segment, ShapeCastPairInput, ShapeProxy,
    SimplexCache, make_offset_box, make_proxy, shape_cast, shape_distance,
};
use impulse2d::core::LINEAR_SLOP;
use impulse2d::pos::to_pos;
use impulse2d::pos::to_transform;
use impulse2d::{
    BodyDef, BodyType, ChainDef, Error, ExplosionDef, Filter, QueryFilter, Rot, ShapeDef,
    ShapeGeometry, ShapeId, ShapeMut, ShapeRef, Transform, Vec2, World,
};
use rng::Rng;

/// Half-width of the square the scene fills, metres.
const EXTENT: f32 = 60.0;

/// The scene: about 1,000 shapes of every kind on static, kinematic and
/// dynamic bodies, some sensors, some disabled, in three categories.
struct Scene {
    world: World,
    shapes: Vec<ShapeId>,
}

fn random_filter(rng: &mut Rng) -> Filter {
    let category_bits = 1u64 << rng.below(3);
    let mask_bits = if rng.chance(0.7) {
        u64::MAX
    } else {
        1 + rng.below(7) as u64
    };
    Filter {
        category_bits,
        mask_bits,
        group_index: 0,
    }
}

fn random_geometry(rng: &mut Rng, allow_segment: bool) -> ShapeGeometry {
    match rng.below(if allow_segment { 5 } else { 4 }) {
        0 => ShapeGeometry::Circle(rng.circle()),
        1 => ShapeGeometry::Capsule(rng.capsule()),
        2 => ShapeGeometry::Polygon(rng.rounded_box()),
        3 => ShapeGeometry::Polygon(rng.hull_polygon(0.3, 0.1)),
        _ => ShapeGeometry::Segment(rng.segment()),
    }
}

fn build_scene(seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let mut shapes = Vec::new();
    // A chain along the bottom (one-sided segments, hit from above).
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let points: Vec<Vec2> = (0..=40)
        .map(|i| Vec2::new(EXTENT - 3.0 * i as f32, -EXTENT + rng.range(0.0, 2.0)))
        .collect();
    world
        .create_chain(
            ground,
            &ChainDef {
                points,
                ..Default::default()
            },
        )
        .unwrap();
    shapes.extend(world.body(ground).unwrap().shapes());

    let mut disabled = Vec::new();
    while shapes.len() < 1000 {
        let body_type = match rng.below(3) {
            0 => BodyType::Static,
            1 => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        };
        let body = world
            .create_body(&BodyDef {
                body_type,
                position: to_pos(rng.vec_in(EXTENT)),
                rotation: rng.rot(),
                linear_velocity: rng.vec_in(2.0),
                angular_velocity: rng.range(-1.0, 1.0),
                ..Default::default()
            })
            .unwrap();
        for _ in 0..1 + rng.below(3) {
            let geometry = random_geometry(&mut rng, body_type != BodyType::Dynamic);
            let def = ShapeDef {
                filter: random_filter(&mut rng),
                is_sensor: rng.chance(0.05),
                ..Default::default()
            };
            shapes.push(world.create_shape(body, &def, geometry).unwrap());
        }
        if rng.chance(0.05) {
            disabled.push(body);
        }
    }
    for body in disabled {
        world.body_mut(body).unwrap().disable();
    }
    // Let things move so that fat boxes, moved proxies and contacts are all
    // in play.
    for _ in 0..20 {
        world.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
    }
    Scene { world, shapes }
}

/// The collision proxy of a shape's geometry in its body frame.
fn proxy_of(geometry: &ShapeGeometry) -> ShapeProxy {
    match geometry {
        ShapeGeometry::Circle(c) => ShapeProxy::from_circle(c),
        ShapeGeometry::Capsule(c) => ShapeProxy::from_capsule(c),
        ShapeGeometry::Polygon(p) => ShapeProxy::from_polygon(p),
        ShapeGeometry::Segment(s) => ShapeProxy::from_segment(s),
        ShapeGeometry::ChainSegment(c) => ShapeProxy::from_segment(&c.segment),
    }
}

impl Scene {
    /// Shapes a query with `filter` may see: not sensors, on enabled bodies,
    /// accepted by the filter; with their transform and geometry.
    fn candidates(&self, filter: QueryFilter) -> Vec<(ShapeId, Transform, ShapeGeometry)> {
        let w = &self.world;
        self.shapes
            .iter()
            .filter_map(|&s| {
                let body = w.shape(s).unwrap().body();
                let seen = !w.shape(s).unwrap().is_sensor()
                    && w.body(body).unwrap().is_enabled()
                    && filter.accepts(&w.shape(s).unwrap().filter());
                seen.then(|| {
                    (
                        s,
                        // Queries work in `f32` world coordinates.
                        to_transform(w.body(body).unwrap().transform()),
                        w.shape(s).unwrap().geometry(),
                    )
                })
            })
            .collect()
    }
}

fn random_query_filter(rng: &mut Rng) -> QueryFilter {
    match rng.below(3) {
        0 => QueryFilter::default(),
        1 => QueryFilter::ALL,
        _ => QueryFilter {
            category_bits: 1 + rng.below(7) as u64,
            mask_bits: 1 + rng.below(7) as u64,
        },
    }
}

/// A random query proxy in its own frame: circle, capsule, box or hull.
fn random_query_proxy(rng: &mut Rng) -> ShapeProxy {
    match random_geometry(rng, true) {
        ShapeGeometry::Segment(s) => make_proxy(&[s.point1, s.point2], 0.0).unwrap(),
        g => proxy_of(&g),
    }
}

fn in_world(proxy: &ShapeProxy, xf: Transform) -> ShapeProxy {
    let mut out = *proxy;
    for p in &mut out.points[..proxy.count] {
        *p = xf.apply(*p);
    }
    out
}

fn sorted(mut v: Vec<(ShapeId, f32)>) -> Vec<(ShapeId, f32)> {
    v.sort_by_key(|a| a.0);
    v
}

/// Hits: shapes with the fraction at which they were hit (0 for overlaps).
type Hits = Vec<(ShapeId, f32)>;

/// 1,000 random queries on the scene of `scene_seed`, drawn from a generator
/// seeded with `seed`: `query` runs one, puts what the world finds in its
/// `found` and gives what brute force over the scene's shapes expects; they
/// must be the same shapes at the same fractions, and brute force must find
/// more than `at_least` in all (`too_little` says what then found too little).
fn matches_brute_force(
    scene_seed: u64,
    seed: u64,
    at_least: usize,
    too_little: &str,
    mut query: impl FnMut(&Scene, &mut Rng, &mut Hits) -> Hits,
) {
    let scene = build_scene(scene_seed);
    let mut rng = Rng::new(seed);
    let mut total = 0;
    for _ in 0..1000 {
        let mut found = Vec::new();
        let expected = query(&scene, &mut rng, &mut found);
        total += expected.len();
        assert_eq!(sorted(found), sorted(expected));
    }
    assert!(
        total > at_least,
        "{too_little} too little to mean much: {total}"
    );
}

/// An overlap query's callback: records each shape in `found` (fraction 0)
/// and goes on.
fn record_overlaps(found: &mut Hits) -> impl FnMut(ShapeId) -> bool + '_ {
    |s| {
        found.push((s, 0.0));
        true
    }
}

/// The candidates of `scene` for `filter` that `overlaps(transform,
/// geometry)` says overlap the query, as hits at fraction 0.
fn brute_force_overlaps(
    scene: &Scene,
    filter: QueryFilter,
    overlaps: impl Fn(&Transform, &ShapeGeometry) -> bool,
) -> Hits {
    scene
        .candidates(filter)
        .into_iter()
        .filter(|(_, xf, g)| overlaps(xf, g))
        .map(|(s, _, _)| (s, 0.0))
        .collect()
}

#[test]
fn overlap_aabb_equals_brute_force() {
    matches_brute_force(1, 11, 1000, "queries found", |scene, rng, found| {
        let c = rng.vec_in(EXTENT);
        let h = Vec2::new(rng.range(0.1, 10.0), rng.range(0.1, 10.0));
        let aabb = Aabb::new(c - h, c + h);
        let filter = random_query_filter(rng);
        let w = &scene.world;
        w.overlap_aabb(aabb, filter, record_overlaps(found))
            .unwrap();
        brute_force_overlaps(scene, filter, |xf, g| g.compute_aabb(*xf).overlaps(&aabb))
    });
}

#[test]
fn overlap_shape_equals_brute_force() {
    matches_brute_force(2, 12, 200, "queries found", |scene, rng, found| {
        let proxy = random_query_proxy(rng);
        let xf = Transform::new(rng.vec_in(EXTENT), rng.rot());
        let filter = random_query_filter(rng);
        let w = &scene.world;
        w.overlap_shape(&proxy, xf, filter, record_overlaps(found))
            .unwrap();
        let query = in_world(&proxy, xf);
        brute_force_overlaps(scene, filter, |shape_xf, g| {
            let input = DistanceInput {
                proxy_a: proxy_of(g),
                proxy_b: query,
                transform_a: *shape_xf,
                transform_b: Transform::IDENTITY,
                use_radii: true,
            };
            shape_distance(&input, &mut SimplexCache::default()).distance <= 0.1 * 0.005
        })
    });
}

#[test]
fn ray_casts_equal_brute_force_and_the_closest_is_the_nearest() {
    matches_brute_force(3, 13, 500, "rays hit", |scene, rng, found| {
        let w = &scene.world;
        let origin = rng.vec_in(EXTENT);
        let translation = rng.direction() * rng.range(1.0, 80.0);
        let filter = random_query_filter(rng);
        w.cast_ray(origin, translation, filter, |s, point, normal, fraction| {
            // The reported point is on the ray at the reported fraction.
            let on_ray = origin + translation * fraction;
            assert!((point - on_ray).length() < 1e-3 * (1.0 + translation.length()));
            assert!(normal.length() < 1.0001);
            found.push((s, fraction));
            1.0
        })
        .unwrap();
        let input = RayCastInput::new(origin, translation, 1.0);
        let expected: Vec<_> = scene
            .candidates(filter)
            .into_iter()
            .filter_map(|(s, _, _)| {
                let out = w.shape(s).unwrap().ray_cast(&input).unwrap();
                out.hit.then_some((s, out.fraction))
            })
            .collect();

        let closest = w.cast_ray_closest(origin, translation, filter).unwrap();
        let nearest = expected.iter().map(|e| e.1).fold(f32::INFINITY, f32::min);
        match closest {
            None => assert!(expected.is_empty()),
            Some(hit) => {
                assert_eq!(hit.fraction, nearest);
                assert!(expected.contains(&(hit.shape_id, hit.fraction)));
            }
        }
        expected
    });
}

#[test]
fn shape_casts_equal_brute_force() {
    matches_brute_force(4, 14, 200, "casts hit", |scene, rng, found| {
        let proxy = random_query_proxy(rng);
        let xf = Transform::new(rng.vec_in(EXTENT), rng.rot());
        let translation = rng.direction() * rng.range(1.0, 30.0);
        let filter = random_query_filter(rng);
        let w = &scene.world;
        let record = |s, _, _, fraction| {
            found.push((s, fraction));
            1.0
        };
        w.cast_shape(&proxy, xf, translation, filter, record)
            .unwrap();
        let query = in_world(&proxy, xf);
        scene
            .candidates(filter)
            .into_iter()
            .filter_map(|(s, shape_xf, g)| {
                // One-sided chain segments (Box2D's rule): a query whose
                // points' mean starts on the segment's left is not a hit.
                if let ShapeGeometry::ChainSegment(c) = &g {
                    let points = &query.points[..query.count];
                    let sum = points.iter().fold(Vec2::ZERO, |a, &p| a + p);
                    let mean = shape_xf.apply_inv(sum * (1.0 / points.len() as f32));
                    let edge = c.segment.point2 - c.segment.point1;
                    if (mean - c.segment.point1).cross(edge) < 0.0 {
                        return None;
                    }
                }
                let out = shape_cast(&ShapeCastPairInput {
                    proxy_a: proxy_of(&g),
                    proxy_b: query,
                    transform_a: shape_xf,
                    transform_b: Transform::IDENTITY,
                    translation_b: translation,
                    max_fraction: 1.0,
                    can_encroach: false,
                });
                out.hit.then_some((s, out.fraction))
            })
            .collect()
    });
}

/// A chain segment from (5, 0) to (−5, 0) is solid on its right, which is
/// up (+y). A circle of radius 0.5 cast 4 m down from y = 2 meets it after
/// 1.5 m (fraction 0.375, within a linear slop of travel); cast 4 m up from y = −2 it starts behind the
/// segment and passes through, as in Box2D's `b2World_CastShape`. A two-sided
/// segment in the same place is hit from both sides.
#[test]
fn shape_casts_hit_chain_segments_from_their_solid_side_only() {
    let mut world = build::world();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    world
        .create_chain(
            ground,
            &ChainDef {
                points: vec![
                    Vec2::new(15.0, 0.0),
                    Vec2::new(5.0, 0.0),
                    Vec2::new(-5.0, 0.0),
                    Vec2::new(-15.0, 0.0),
                ],
                ..Default::default()
            },
        )
        .unwrap();
    let circle = ShapeProxy::from_circle(&Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    });
    let cast = |world: &World, from: f32, dy: f32| {
        let mut hits = Vec::new();
        world
            .cast_shape(
                &circle,
                Transform::new(Vec2::new(0.0, from), Rot::IDENTITY),
                Vec2::new(0.0, dy),
                QueryFilter::default(),
                |_, _, n, t| {
                    hits.push((n, t));
                    1.0
                },
            )
            .unwrap();
        hits
    };
    let at_contact = |t: f32| (t - 0.375).abs() <= 0.25 * LINEAR_SLOP + 1e-5;
    let down = cast(&world, 2.0, -4.0);
    assert_eq!(down.len(), 1, "{down:?}");
    assert!(at_contact(down[0].1), "{down:?}");
    assert!(down[0].0.y > 0.999, "{down:?}");
    assert!(cast(&world, -2.0, 4.0).is_empty());

    let mut two_sided = build::world();
    let body = two_sided.create_body(&BodyDef::default()).unwrap();
    let segment = Segment::new(Vec2::new(5.0, 0.0), Vec2::new(-5.0, 0.0)).unwrap();
    two_sided
        .create_segment_shape(body, &ShapeDef::default(), &segment)
        .unwrap();
    for (from, dy) in [(2.0, -4.0), (-2.0, 4.0)] {
        let hits = cast(&two_sided, from, dy);
        assert_eq!(hits.len(), 1, "from {from}: {hits:?}");
        assert!(at_contact(hits[0].1), "from {from}: {hits:?}");
    }
}

/// Three boxes on the x axis at x = 2, 4, 6; a ray from the origin along
/// +x with a 10 m translation.
fn three_boxes() -> (World, [ShapeId; 3]) {
    let mut world = build::world();
    let body = world.create_body(&BodyDef::default()).unwrap();
    let ids = [2.0f32, 4.0, 6.0].map(|x| {
        let b = make_offset_box(0.5, 0.5, Vec2::new(x, 0.0), Rot::IDENTITY).unwrap();
        world
            .create_polygon_shape(body, &ShapeDef::default(), &b)
            .unwrap()
    });
    (world, ids)
}

#[test]
fn the_ray_callback_answer_clips_ignores_or_stops() {
    let (world, ids) = three_boxes();
    let (o, d) = (Vec2::ZERO, Vec2::new(10.0, 0.0));
    let f = QueryFilter::default();
    // Box faces at x = 1.5, 3.5, 5.5: fractions 0.15, 0.35, 0.55.
    let near = |a: f32, b: f32| (a - b).abs() < 1e-5;

    let mut all = Vec::new();
    world
        .cast_ray(o, d, f, |s, p, n, t| {
            assert!(near(p.x, 10.0 * t) && n == Vec2::new(-1.0, 0.0));
            all.push((s, t));
            1.0
        })
        .unwrap();
    let mut sorted_all = all.clone();
    sorted_all.sort_by(|a, b| a.1.total_cmp(&b.1));
    assert_eq!(sorted_all.iter().map(|a| a.0).collect::<Vec<_>>(), ids);
    assert!(near(sorted_all[0].1, 0.15) && near(sorted_all[2].1, 0.55));

    // Ignoring the nearest box: the closest answer becomes the second.
    let mut best = None;
    world
        .cast_ray(o, d, f, |s, _, _, t| {
            if s == ids[0] {
                return -1.0;
            }
            best = Some((s, t));
            t
        })
        .unwrap();
    assert_eq!(best.map(|b| b.0), Some(ids[1]));

    // Stopping at the first reported hit: exactly one call.
    let mut calls = 0;
    world
        .cast_ray(o, d, f, |_, _, _, _| {
            calls += 1;
            0.0
        })
        .unwrap();
    assert_eq!(calls, 1);

    let closest = world.cast_ray_closest(o, d, f).unwrap().unwrap();
    assert_eq!(closest.shape_id, ids[0]);
    assert!(near(closest.fraction, 0.15) && near(closest.point.x, 1.5));
    // A ray too short to reach anything.
    assert!(world.cast_ray_closest(o, d * 0.1, f).unwrap().is_none());
    // A filter that excludes the boxes' category.
    let other = QueryFilter {
        category_bits: 1,
        mask_bits: 2,
    };
    assert!(world.cast_ray_closest(o, d, other).unwrap().is_none());
}

#[test]
fn shape_level_ray_cast_closest_point_and_test_point() {
    let mut world = build::world();
    let body = build::turned_body(&mut world, Vec2::new(3.0, 1.0), 0.5 * impulse2d::math::PI);
    // A 2 × 1 box turned a quarter turn: 1 wide, 2 tall around (3, 1).
    let s = build::add_box(&mut world, body, 1.0, 0.5);
    let hit = world
        .shape(s)
        .unwrap()
        .ray_cast(&RayCastInput::new(
            Vec2::new(0.0, 1.5),
            Vec2::new(5.0, 0.0),
            1.0,
        ))
        .unwrap();
    assert!(hit.hit);
    assert!((hit.fraction - 0.5).abs() < 1e-5, "{}", hit.fraction);
    assert!((hit.point - Vec2::new(2.5, 1.5)).length() < 1e-5);
    assert!((hit.normal - Vec2::new(-1.0, 0.0)).length() < 1e-5);

    // Closest point from the right side and from above the top corner.
    let closest = |target: Vec2| world.shape(s).unwrap().closest_point(target).unwrap();
    let p = closest(Vec2::new(5.0, 1.2));
    assert!((p - Vec2::new(3.5, 1.2)).length() < 1e-4, "{p:?}");
    let p = closest(Vec2::new(4.5, 4.0));
    assert!((p - Vec2::new(3.5, 2.0)).length() < 1e-4, "{p:?}");
    // Inside: the point itself.
    let inside = Vec2::new(3.2, 0.3);
    assert!(world.shape(s).unwrap().test_point(inside).unwrap());
    assert_eq!(closest(inside), inside);
    assert!(
        !world
            .shape(s)
            .unwrap()
            .test_point(Vec2::new(3.6, 0.3))
            .unwrap()
    );
}

/// A 1 m box at 2 m from the blast, inside the radius, facing it squarely:
/// its exposed width is 1 m, so it gets `impulse_per_length` N·s away from
/// the centre at its closest point (on the line of the centre of mass: no
/// spin). A box in the falloff band gets the interpolated share; one beyond
/// it nothing.
#[test]
fn explode_pushes_by_exposed_width_with_falloff() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let boxes = [2.5f32, -4.5, 8.0].map(|x| {
        let b = world
            .create_body(&BodyDef {
                is_awake: false,
                ..build::def(BodyType::Dynamic, Vec2::new(x, 0.0))
            })
            .unwrap();
        build::add_box(&mut world, b, 0.5, 0.5);
        b
    });
    // Density 1 kg/m²: each box has 1 kg.
    world
        .explode(&ExplosionDef {
            position: Vec2::ZERO,
            radius: 3.0,
            falloff: 2.0,
            impulse_per_length: 6.0,
            mask_bits: u64::MAX,
        })
        .unwrap();
    // Inside: 6 N·s·m⁻¹ × 1 m / 1 kg = 6 m/s; closest distance 2 m.
    let v = world.body(boxes[0]).unwrap().linear_velocity();
    assert!((v - Vec2::new(6.0, 0.0)).length() < 1e-4, "{v:?}");
    assert!(world.body(boxes[0]).unwrap().angular_velocity().abs() < 1e-4);
    assert!(world.body(boxes[0]).unwrap().is_awake());
    // Falloff: closest distance 4 m, (3 + 2 − 4)/2 = half the impulse.
    let v = world.body(boxes[1]).unwrap().linear_velocity();
    assert!((v - Vec2::new(-3.0, 0.0)).length() < 1e-4, "{v:?}");
    // Beyond reach (closest distance 7.5 m): untouched and still asleep.
    assert_eq!(world.body(boxes[2]).unwrap().linear_velocity(), Vec2::ZERO);
    assert!(!world.body(boxes[2]).unwrap().is_awake());
}

#[test]
fn stale_ids_and_bad_input_are_errors() {
    let (mut world, ids) = three_boxes();
    let f = QueryFilter::default();
    let nan = f32::NAN;
    let ok_proxy = ShapeProxy::from_circle(&Circle {
        center: Vec2::ZERO,
        radius: 1.0,
    });
    let never = |_| -> bool { panic!("callback called on bad input") };
    let never4 = |_, _, _, _| -> f32 { panic!("callback called on bad input") };

    let bad_box = Aabb::new(Vec2::new(nan, 0.0), Vec2::new(1.0, 1.0));
    assert!(matches!(
        world.overlap_aabb(bad_box, f, never),
        Err(Error::NonFinite { .. })
    ));
    let inverted = Aabb::new(Vec2::new(1.0, 1.0), Vec2::ZERO);
    assert!(world.overlap_aabb(inverted, f, never).is_err());
    assert!(
        world
            .cast_ray(Vec2::new(nan, 0.0), Vec2::new(1.0, 0.0), f, never4)
            .is_err()
    );
    assert!(
        world
            .cast_ray(Vec2::ZERO, Vec2::new(f32::INFINITY, 0.0), f, never4)
            .is_err()
    );
    assert!(
        world
            .cast_ray_closest(Vec2::ZERO, Vec2::new(0.0, nan), f)
            .is_err()
    );
    let mut bad_proxy = ok_proxy;
    bad_proxy.points[0] = Vec2::new(nan, 0.0);
    assert!(
        world
            .overlap_shape(&bad_proxy, Transform::IDENTITY, f, never)
            .is_err()
    );
    bad_proxy = ok_proxy;
    bad_proxy.count = 0;
    assert!(
        world
            .overlap_shape(&bad_proxy, Transform::IDENTITY, f, never)
            .is_err()
    );
    bad_proxy = ok_proxy;
    bad_proxy.radius = -1.0;
    assert!(
        world
            .cast_shape(&bad_proxy, Transform::IDENTITY, Vec2::X, f, never4)
            .is_err()
    );
    let bad_xf = Transform::new(Vec2::ZERO, Rot { c: 2.0, s: 0.0 });
    assert!(world.overlap_shape(&ok_proxy, bad_xf, f, never).is_err());
    assert!(
        world
            .cast_shape(
                &ok_proxy,
                Transform::IDENTITY,
                Vec2::new(nan, 0.0),
                f,
                never4
            )
            .is_err()
    );
    let bad_ray = RayCastInput::new(Vec2::ZERO, Vec2::new(nan, 0.0), 1.0);
    assert!(
        world
            .shape(ids[0])
            .and_then(|view| view.ray_cast(&bad_ray))
            .is_err()
    );
    let bad_ray = RayCastInput::new(Vec2::ZERO, Vec2::X, -1.0);
    assert!(
        world
            .shape(ids[0])
            .and_then(|view| view.ray_cast(&bad_ray))
            .is_err()
    );
    assert!(
        world
            .shape(ids[0])
            .and_then(|view| view.closest_point(Vec2::new(nan, 0.0)))
            .is_err()
    );
    for def in [
        ExplosionDef {
            position: Vec2::new(nan, 0.0),
            ..Default::default()
        },
        ExplosionDef {
            radius: -1.0,
            ..Default::default()
        },
        ExplosionDef {
            falloff: f32::INFINITY,
            ..Default::default()
        },
        ExplosionDef {
            impulse_per_length: nan,
            ..Default::default()
        },
    ] {
        assert!(world.explode(&def).is_err(), "{def:?}");
    }

    // Stale ids.
    let body = world.shape(ids[0]).unwrap().body();
    world.destroy_body(body).unwrap();
    let ray = RayCastInput::new(Vec2::ZERO, Vec2::X, 1.0);
    for id in ids {
        assert!(matches!(
            world.shape(id).and_then(|view| view.ray_cast(&ray)),
            Err(Error::InvalidId { .. })
        ));
        let reads: [fn(ShapeRef<'_>) -> impulse2d::Result<()>; 3] = [
            |view| view.closest_point(Vec2::ZERO).map(drop),
            |view| view.test_point(Vec2::ZERO).map(drop),
            |view| view.sensor_overlaps().map(drop),
        ];
        for (i, read) in reads.into_iter().enumerate() {
            assert!(world.shape(id).and_then(read).is_err(), "read {i}");
        }
        let writes: [fn(&mut ShapeMut<'_>); 4] = [
            |view| view.set_contact_events_enabled(true),
            |view| view.set_sensor_events_enabled(true),
            |view| view.set_hit_events_enabled(true),
            |view| view.set_pre_solve_events_enabled(true),
        ];
        for (i, write) in writes.into_iter().enumerate() {
            let written = world.shape_mut(id).map(|mut view| write(&mut view));
            assert!(written.is_err(), "write {i}");
        }
    }
    // The world still answers good queries (nothing left to find).
    assert!(
        world
            .cast_ray_closest(Vec2::ZERO, Vec2::new(10.0, 0.0), f)
            .unwrap()
            .is_none()
    );
}
