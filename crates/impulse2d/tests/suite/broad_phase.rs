//! Dynamic tree and broad phase through the public API: hand-worked cases, randomised
//! comparisons against brute force, determinism and bad input.

use crate::slab;

use impulse2d::broad_phase::{BroadPhase, ProxyKey};
use impulse2d::collision::{Aabb, DynamicTree, ProxyId, RayCastInput, ShapeCastInput, ShapeProxy};
use impulse2d::core::MAX_POLYGON_VERTICES;
use impulse2d::pos::to_world_aabb;
use impulse2d::{BodyType, Error, Vec2};
use slab::ray_box;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

/// SplitMix64: a small deterministic generator, enough for test data.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }
}

/// `$owner` (a tree or the broad phase) refuses every proxy operation on the
/// stale id `$stale`.
macro_rules! assert_stale_proxy {
    ($owner:expr, $stale:expr) => {{
        let stale = Err(Error::InvalidId { what: "proxy" });
        assert_eq!($owner.destroy_proxy($stale), stale);
        assert_eq!($owner.move_proxy($stale, aabb(0.0, 0.0, 1.0, 1.0)), stale);
        assert_eq!(
            $owner.enlarge_proxy($stale, aabb(0.0, 0.0, 1.0, 1.0)),
            stale
        );
        assert_eq!(
            $owner.fat_aabb($stale),
            Err(Error::InvalidId { what: "proxy" })
        );
    }};
}

fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
}

fn random_box(rng: &mut Rng, world: f32) -> Aabb {
    let c = Vec2::new(rng.range(0.0, world), rng.range(0.0, world));
    let h = Vec2::new(rng.range(0.05, 1.0), rng.range(0.05, 1.0));
    Aabb::new(c - h, c + h)
}

fn shifted(b: &Aabb, d: Vec2) -> Aabb {
    Aabb::new(b.lower + d, b.upper + d)
}

fn log2_bound(n: usize) -> u32 {
    (2.0 * (n as f64).log2() + 2.0).floor() as u32
}

/// A mirror of a tree's content, for brute force.
#[derive(Default)]
struct Mirror {
    /// Per user-data value: the proxy, its box and its category bits.
    entries: Vec<Option<(ProxyId, Aabb, u64)>>,
}

impl Mirror {
    fn live(&self) -> impl Iterator<Item = (usize, ProxyId, Aabb, u64)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.map(|(id, b, c)| (i, id, b, c)))
    }

    fn live_slots(&self) -> Vec<usize> {
        self.live().map(|(i, ..)| i).collect()
    }
}

fn check_query(tree: &DynamicTree, mirror: &Mirror, query: Aabb, mask: u64) {
    let mut got = Vec::new();
    tree.query(query, mask, |id, data| {
        assert_eq!(mirror.entries[data as usize].map(|e| e.0), Some(id));
        got.push(data as usize);
        true
    });
    let got_set: BTreeSet<usize> = got.iter().copied().collect();
    assert_eq!(got_set.len(), got.len(), "a proxy was reported twice");
    let want: BTreeSet<usize> = mirror
        .live()
        .filter(|&(_, _, b, c)| c & mask != 0 && b.overlaps(&query))
        .map(|(i, ..)| i)
        .collect();
    assert_eq!(got_set, want, "query {query:?} mask {mask:#x}");
}

fn check_ray(tree: &DynamicTree, mirror: &Mirror, input: &RayCastInput, mask: u64) {
    // All hits: the callback continues unclipped.
    let mut all = BTreeSet::new();
    tree.ray_cast(input, mask, |sub, _id, data| {
        assert_eq!(sub.max_fraction, input.max_fraction);
        if ray_box(
            &mirror.entries[data as usize].unwrap().1,
            sub.origin,
            sub.translation,
            sub.max_fraction,
        )
        .is_some()
        {
            assert!(all.insert(data as usize), "a proxy was reported twice");
        }
        sub.max_fraction
    });
    let want: BTreeSet<usize> = mirror
        .live()
        .filter(|&(_, _, b, c)| {
            c & mask != 0
                && ray_box(&b, input.origin, input.translation, input.max_fraction).is_some()
        })
        .map(|(i, ..)| i)
        .collect();
    assert_eq!(all, want, "all hits of {input:?}");

    // Closest hit: the callback clips the ray.
    let mut closest: Option<f32> = None;
    tree.ray_cast(input, mask, |sub, _id, data| {
        match ray_box(
            &mirror.entries[data as usize].unwrap().1,
            sub.origin,
            sub.translation,
            sub.max_fraction,
        ) {
            Some(t) => {
                closest = Some(closest.map_or(t, |c| c.min(t)));
                t
            }
            None => -1.0,
        }
    });
    let want_closest = mirror
        .live()
        .filter(|&(_, _, _, c)| c & mask != 0)
        .filter_map(|(_, _, b, _)| ray_box(&b, input.origin, input.translation, input.max_fraction))
        .reduce(f32::min);
    assert_eq!(closest, want_closest, "closest hit of {input:?}");
}

/// Whether the shape's box, swept along the cast, meets `b` grown by `grow` on every
/// side (negative shrinks): exact slab test of the box grown by the shape's half-size,
/// from the shape box's centre.
fn swept_hits(b: &Aabb, shape_box: &Aabb, input: &ShapeCastInput, grow: f32) -> bool {
    let e = shape_box.extents() + Vec2::new(grow, grow);
    let grown = Aabb::new(b.lower - e, b.upper + e);
    ray_box(
        &grown,
        shape_box.center(),
        input.translation,
        input.max_fraction,
    )
    .is_some()
}

/// The per-proxy test `DynamicTree::shape_cast` documents: the proxy box overlaps the
/// box swept by the shape's box, and the shape box's centre line is not separated from
/// the proxy box grown by the shape's half-size along the translation's normal.
fn shape_cast_leaf_test(b: &Aabb, shape_box: &Aabb, input: &ShapeCastInput) -> bool {
    let t = input.translation * input.max_fraction;
    let swept = Aabb::new(
        shape_box.lower.min(shape_box.lower + t),
        shape_box.upper.max(shape_box.upper + t),
    );
    let n = Vec2::new(-input.translation.y, input.translation.x);
    let offset = shape_box.center() - b.center();
    let reach = b.extents() + shape_box.extents();
    b.overlaps(&swept) && n.dot(offset).abs() <= n.abs().dot(reach)
}

fn check_shape_cast(tree: &DynamicTree, mirror: &Mirror, input: &ShapeCastInput, mask: u64) {
    let points = &input.proxy.points[..input.proxy.count];
    let mut lower = points[0];
    let mut upper = points[0];
    for &p in points {
        lower = lower.min(p);
        upper = upper.max(p);
    }
    let r = Vec2::new(input.proxy.radius, input.proxy.radius);
    let shape_box = Aabb::new(lower - r, upper + r);

    let mut got = BTreeSet::new();
    tree.shape_cast(input, mask, |sub, _id, data| {
        assert!(got.insert(data as usize), "a proxy was reported twice");
        sub.max_fraction
    });
    // Exactly the proxies that pass the per-proxy test: the traversal prunes none.
    let want: BTreeSet<usize> = mirror
        .live()
        .filter(|&(_, _, b, c)| c & mask != 0 && shape_cast_leaf_test(&b, &shape_box, input))
        .map(|(i, ..)| i)
        .collect();
    assert_eq!(got, want, "shape cast {input:?}");
    // And no proxy that the swept shape box really reaches (by more than a rounding
    // margin) is missed.
    for (i, _, b, c) in mirror.live() {
        if c & mask != 0 && swept_hits(&b, &shape_box, input, -1e-3) {
            assert!(
                got.contains(&i),
                "shape cast missed proxy {i} at {b:?}: {input:?}"
            );
        }
    }
}

fn random_ray(rng: &mut Rng, world: f32) -> RayCastInput {
    let origin = Vec2::new(rng.range(-2.0, world + 2.0), rng.range(-2.0, world + 2.0));
    let translation = match rng.below(8) {
        // Axis-aligned rays exercise the zero-direction slab branch.
        0 => Vec2::new(rng.range(-0.5, 0.5) * world, 0.0),
        1 => Vec2::new(0.0, rng.range(-0.5, 0.5) * world),
        _ => Vec2::new(rng.range(-0.5, 0.5) * world, rng.range(-0.5, 0.5) * world),
    };
    RayCastInput {
        origin,
        translation,
        max_fraction: rng.range(0.2, 1.0),
    }
}

fn random_shape_cast(rng: &mut Rng, world: f32) -> ShapeCastInput {
    let count = 1 + rng.below(4);
    let c = Vec2::new(rng.range(0.0, world), rng.range(0.0, world));
    let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for p in points.iter_mut().take(count) {
        *p = c + Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
    }
    let proxy = ShapeProxy {
        points,
        count,
        radius: rng.range(0.0, 0.3),
    };
    ShapeCastInput {
        proxy,
        translation: Vec2::new(rng.range(-0.3, 0.3) * world, rng.range(-0.3, 0.3) * world),
        max_fraction: rng.range(0.3, 1.0),
        can_encroach: false,
    }
}

fn must_validate(tree: &DynamicTree, what: &str) {
    if let Err(e) = tree.validate() {
        panic!("tree invalid after {what}: {e}");
    }
}

// ---------------------------------------------------------------------------------
// Dynamic tree: hand-worked cases
// ---------------------------------------------------------------------------------

#[test]
fn empty_tree_reports_nothing() {
    let tree = DynamicTree::new();
    assert_eq!(tree.proxy_count(), 0);
    assert_eq!(tree.height(), 0);
    assert_eq!(tree.area_ratio(), 0.0);
    let stats = tree.query(aabb(-1e3, -1e3, 1e3, 1e3), u64::MAX, |_, _| {
        panic!("no proxies")
    });
    assert_eq!(stats.leaf_visits, 0);
    let ray = RayCastInput {
        origin: Vec2::ZERO,
        translation: Vec2::new(1.0, 1.0),
        max_fraction: 1.0,
    };
    tree.ray_cast(&ray, u64::MAX, |_, _, _| panic!("no proxies"));
    tree.validate().unwrap();
}

#[test]
fn ray_cast_clips_stops_and_filters() {
    // Three unit boxes on the x axis at x = 2, 5, 8; a ray from the origin along +x
    // over 10 m enters them at fractions 0.2, 0.5 and 0.8.
    let mut tree = DynamicTree::new();
    let ids: Vec<ProxyId> = [2.0, 5.0, 8.0]
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            tree.create_proxy(aabb(x, -0.5, x + 1.0, 0.5), 1 << i, i as u64)
                .unwrap()
        })
        .collect();
    let ray = RayCastInput {
        origin: Vec2::ZERO,
        translation: Vec2::new(10.0, 0.0),
        max_fraction: 1.0,
    };
    let entry = |data: u64| [0.2f32, 0.5, 0.8][data as usize];

    // All hits.
    let mut hits = Vec::new();
    tree.ray_cast(&ray, u64::MAX, |input, id, data| {
        assert_eq!(ids[data as usize], id);
        hits.push(data);
        input.max_fraction
    });
    hits.sort();
    assert_eq!(hits, vec![0, 1, 2]);

    // Closest: clipping to each hit leaves 0.2.
    let mut closest = 1.0f32;
    tree.ray_cast(&ray, u64::MAX, |_, _, data| {
        closest = closest.min(entry(data));
        entry(data)
    });
    assert!((closest - 0.2).abs() < 1e-6);

    // Returning 0 stops at the first proxy.
    let mut calls = 0;
    tree.ray_cast(&ray, u64::MAX, |_, _, _| {
        calls += 1;
        0.0
    });
    assert_eq!(calls, 1);

    // The mask excludes box 0 (category 1): closest becomes 0.5.
    let mut closest = 1.0f32;
    tree.ray_cast(&ray, !1, |_, _, data| {
        assert_ne!(data, 0);
        closest = closest.min(entry(data));
        entry(data)
    });
    assert!((closest - 0.5).abs() < 1e-6);

    // A negative answer ignores the proxy without clipping.
    let mut seen = BTreeSet::new();
    tree.ray_cast(&ray, u64::MAX, |_, _, data| {
        seen.insert(data);
        -1.0
    });
    assert_eq!(seen.len(), 3);

    // A ray clipped to 0.3 cannot reach the boxes at 0.5 and 0.8.
    let short = RayCastInput {
        max_fraction: 0.3,
        ..ray
    };
    let mut seen = Vec::new();
    tree.ray_cast(&short, u64::MAX, |_, _, data| {
        seen.push(data);
        1.0
    });
    assert_eq!(seen, vec![0]);

    // A ray passing above the boxes (y = 0.6) reaches none.
    let above = RayCastInput {
        origin: Vec2::new(0.0, 0.6),
        ..ray
    };
    tree.ray_cast(&above, u64::MAX, |_, _, _| panic!("ray passes above"));
}

#[test]
fn shape_cast_sweeps_the_shape_box() {
    // A circle of radius 0.5 at the origin swept 10 m along +x covers y in [-0.5, 0.5].
    let mut tree = DynamicTree::new();
    tree.create_proxy(aabb(2.0, -0.2, 3.0, 0.2), 1, 0).unwrap(); // in the path
    tree.create_proxy(aabb(4.0, 0.6, 5.0, 1.6), 1, 1).unwrap(); // 0.1 m above the sweep
    tree.create_proxy(aabb(6.0, 0.4, 7.0, 1.4), 1, 2).unwrap(); // overlaps its upper edge
    tree.create_proxy(aabb(11.0, -0.2, 12.0, 0.2), 1, 3)
        .unwrap(); // 0.5 m beyond its end
    let proxy = ShapeProxy {
        count: 1,
        radius: 0.5,
        ..Default::default()
    };
    let input = ShapeCastInput {
        proxy,
        translation: Vec2::new(10.0, 0.0),
        max_fraction: 1.0,
        can_encroach: false,
    };
    let mut seen = Vec::new();
    tree.shape_cast(&input, u64::MAX, |sub, _, data| {
        seen.push(data);
        sub.max_fraction
    });
    seen.sort();
    assert_eq!(seen, vec![0, 2]);

    // Clipping at the first box's entry (fraction 0.15) hides the third.
    let mut seen = Vec::new();
    tree.shape_cast(&input, u64::MAX, |_, _, data| {
        seen.push(data);
        if data == 0 { 0.15 } else { 1.0 }
    });
    assert!(seen.contains(&0));
    assert!(!seen.contains(&3));
    assert!(seen.len() <= 2);
}

#[test]
fn query_respects_mask_and_stop() {
    let mut tree = DynamicTree::new();
    for i in 0..10u64 {
        tree.create_proxy(aabb(i as f32, 0.0, i as f32 + 0.5, 0.5), 1 << (i % 2), i)
            .unwrap();
    }
    // Box i spans x in [i, i + 0.5]: boxes 2 to 6 overlap x in [2.2, 6.1]; mask 1
    // keeps the even ones.
    let mut even = Vec::new();
    tree.query(aabb(2.2, 0.1, 6.1, 0.2), 1, |_, d| {
        even.push(d);
        true
    });
    even.sort();
    assert_eq!(even, vec![2, 4, 6]);
    let mut calls = 0;
    tree.query(aabb(-1.0, -1.0, 20.0, 1.0), u64::MAX, |_, _| {
        calls += 1;
        calls < 3
    });
    assert_eq!(calls, 3);

    // A proxy with no category bits matches no mask, not even the full one.
    let mut ids = Vec::new();
    tree.query(aabb(4.1, 0.1, 4.2, 0.2), u64::MAX, |id, _| {
        ids.push(id);
        true
    });
    assert_eq!(ids.len(), 1);
    let four = ids[0];
    tree.set_category_bits(four, 0).unwrap();
    tree.validate().unwrap();
    let everything = aabb(-1.0, -1.0, 20.0, 1.0);
    for mask in [u64::MAX, 1, 2] {
        tree.query(everything, mask, |id, _| {
            assert_ne!(id, four);
            true
        });
    }
    let ray = RayCastInput {
        origin: Vec2::new(-1.0, 0.25),
        translation: Vec2::new(20.0, 0.0),
        max_fraction: 1.0,
    };
    let mut seen = 0;
    tree.ray_cast(&ray, u64::MAX, |input, id, _| {
        assert_ne!(id, four);
        seen += 1;
        input.max_fraction
    });
    assert_eq!(seen, 9);
    tree.set_category_bits(four, 4).unwrap();
    assert_eq!(tree.category_bits(four), Ok(4));
    let mut found = Vec::new();
    tree.query(everything, 4, |id, data| {
        found.push((id, data));
        true
    });
    assert_eq!(found, vec![(four, 4)]);
    tree.validate().unwrap();
}

#[test]
fn stale_ids_and_bad_boxes_are_errors_and_change_nothing() {
    let mut tree = DynamicTree::new();
    let mut rng = Rng(7);
    let ids: Vec<ProxyId> = (0..50)
        .map(|i| tree.create_proxy(random_box(&mut rng, 20.0), 1, i).unwrap())
        .collect();
    let gone = ids[10];
    tree.destroy_proxy(gone).unwrap();
    let before = format!("{tree:?}");

    assert_stale_proxy!(tree, gone);
    assert_eq!(
        tree.user_data(gone),
        Err(Error::InvalidId { what: "proxy" })
    );
    assert_eq!(
        tree.category_bits(gone),
        Err(Error::InvalidId { what: "proxy" })
    );
    assert!(!tree.contains(gone));

    let nan = aabb(f32::NAN, 0.0, 1.0, 1.0);
    let inf = aabb(0.0, 0.0, f32::INFINITY, 1.0);
    let inverted = aabb(1.0, 0.0, 0.0, 1.0);
    assert_eq!(
        tree.create_proxy(nan, 1, 99),
        Err(Error::NonFinite { what: "aabb" })
    );
    assert_eq!(
        tree.create_proxy(inf, 1, 99),
        Err(Error::NonFinite { what: "aabb" })
    );
    assert!(matches!(
        tree.create_proxy(inverted, 1, 99),
        Err(Error::InvalidGeometry(_))
    ));
    assert_eq!(
        tree.move_proxy(ids[3], nan),
        Err(Error::NonFinite { what: "aabb" })
    );
    assert_eq!(
        tree.enlarge_proxy(ids[3], inf),
        Err(Error::NonFinite { what: "aabb" })
    );
    assert!(matches!(
        tree.move_proxy(ids[3], inverted),
        Err(Error::InvalidGeometry(_))
    ));
    assert_eq!(
        tree.shift_origin(Vec2::new(f32::NAN, 0.0)),
        Err(Error::NonFinite { what: "new_origin" })
    );
    assert_eq!(format!("{tree:?}"), before, "failed calls changed the tree");
    tree.validate().unwrap();

    // A reused slot gets a new generation: the old id stays stale.
    let reused = tree.create_proxy(aabb(0.0, 0.0, 1.0, 1.0), 1, 123).unwrap();
    assert_eq!(reused.index(), gone.index());
    assert_ne!(reused, gone);
    assert_eq!(
        tree.user_data(gone),
        Err(Error::InvalidId { what: "proxy" })
    );
    assert_eq!(tree.user_data(reused), Ok(123));

    // Bad query inputs reach nothing.
    tree.query(nan, u64::MAX, |_, _| panic!("NaN query box"));
    tree.query(inverted, u64::MAX, |_, _| panic!("inverted query box"));
    let bad_rays = [
        RayCastInput {
            origin: Vec2::new(f32::NAN, 0.0),
            translation: Vec2::X,
            max_fraction: 1.0,
        },
        RayCastInput {
            origin: Vec2::ZERO,
            translation: Vec2::new(f32::INFINITY, 0.0),
            max_fraction: 1.0,
        },
        RayCastInput {
            origin: Vec2::ZERO,
            translation: Vec2::X,
            max_fraction: f32::NAN,
        },
        RayCastInput {
            origin: Vec2::ZERO,
            translation: Vec2::X,
            max_fraction: -1.0,
        },
    ];
    for ray in &bad_rays {
        tree.ray_cast(ray, u64::MAX, |_, _, _| panic!("bad ray {ray:?}"));
    }
    let mut empty_shape = ShapeCastInput {
        translation: Vec2::X,
        max_fraction: 1.0,
        ..Default::default()
    };
    tree.shape_cast(&empty_shape, u64::MAX, |_, _, _| {
        panic!("shape without points")
    });
    empty_shape.proxy.count = 1;
    empty_shape.proxy.radius = f32::NAN;
    tree.shape_cast(&empty_shape, u64::MAX, |_, _, _| panic!("NaN radius"));
    empty_shape.proxy.radius = 0.1;
    empty_shape.proxy.count = 9;
    tree.shape_cast(&empty_shape, u64::MAX, |_, _, _| panic!("too many points"));

    // Extreme but finite boxes and rays do not break the tree.
    let far = tree
        .create_proxy(aabb(-f32::MAX, -f32::MAX, f32::MAX, f32::MAX), 1, 500)
        .unwrap();
    tree.validate().unwrap();
    let huge_ray = RayCastInput {
        origin: Vec2::ZERO,
        translation: Vec2::new(f32::MAX, f32::MAX),
        max_fraction: 1.0,
    };
    tree.ray_cast(&huge_ray, u64::MAX, |sub, _, _| sub.max_fraction);
    tree.rebuild(true);
    tree.validate().unwrap();
    tree.destroy_proxy(far).unwrap();
    tree.validate().unwrap();
}

#[test]
fn shift_origin_moves_every_box() {
    let mut tree = DynamicTree::new();
    let mut rng = Rng(3);
    let boxes: Vec<Aabb> = (0..100).map(|_| random_box(&mut rng, 30.0)).collect();
    let ids: Vec<ProxyId> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| tree.create_proxy(*b, 1, i as u64).unwrap())
        .collect();
    let origin = Vec2::new(16.0, -8.0);
    tree.shift_origin(origin).unwrap();
    tree.validate().unwrap();
    for (id, b) in ids.iter().zip(&boxes) {
        // each corner minus the origin, in the tree's coordinates (f64 with
        // large-world, where the shift is exact; f32 otherwise)
        let mut expected = to_world_aabb(*b);
        expected.lower -= origin;
        expected.upper -= origin;
        assert_eq!(tree.fat_aabb(*id).unwrap(), expected);
    }
}

#[test]
fn full_rebuild_height_is_logarithmic() {
    let mut rng = Rng(11);
    // Uniform boxes, identical boxes, and boxes spread over many orders of magnitude.
    type Layout = (&'static str, Box<dyn Fn(&mut Rng, usize) -> Aabb>);
    let layouts: [Layout; 3] = [
        (
            "uniform",
            Box::new(|rng: &mut Rng, _| random_box(rng, 100.0)),
        ),
        (
            "identical",
            Box::new(|_: &mut Rng, _| aabb(0.0, 0.0, 1.0, 1.0)),
        ),
        (
            "geometric",
            Box::new(|rng: &mut Rng, i| {
                let x = 2f32.powi((i % 60) as i32 - 30);
                aabb(x, 0.0, x * 1.5, rng.range(0.1, 1.0))
            }),
        ),
    ];
    for (name, make) in &layouts {
        for n in [1usize, 2, 3, 5, 17, 100, 1000, 3000] {
            let mut tree = DynamicTree::new();
            for i in 0..n {
                tree.create_proxy(make(&mut rng, i), 1, i as u64).unwrap();
            }
            let incremental = tree.height();
            tree.rebuild(true);
            must_validate(&tree, "full rebuild");
            let h = tree.height();
            assert!(
                h >= (n as f64).log2().ceil() as u32,
                "{name} n={n}: height {h} below log2 n"
            );
            assert!(
                h <= log2_bound(n),
                "{name} n={n}: height {h} > 2 log2 n + 2 (incremental {incremental})"
            );
            assert_eq!(tree.proxy_count(), n);
        }
    }
}

// ---------------------------------------------------------------------------------
// Dynamic tree: randomised against brute force
// ---------------------------------------------------------------------------------

struct TreeRun {
    proxies: usize,
    steps: usize,
    /// Validate after every operation of every `validate_ops_every`-th step (and after
    /// every step anyway).
    validate_ops_every: usize,
    checks_per_step: usize,
}

fn run_tree_against_brute_force(run: &TreeRun, seed: u64) {
    let mut rng = Rng(seed);
    let world = (run.proxies as f32).sqrt() * 2.0;
    let mut tree = DynamicTree::new();
    let mut mirror = Mirror::default();
    let create = |tree: &mut DynamicTree, mirror: &mut Mirror, rng: &mut Rng| {
        let b = random_box(rng, world);
        let category = 1u64 << rng.below(4);
        let data = mirror.entries.len() as u64;
        let id = tree.create_proxy(b, category, data).unwrap();
        mirror.entries.push(Some((id, b, category)));
    };
    for _ in 0..run.proxies {
        create(&mut tree, &mut mirror, &mut rng);
    }
    must_validate(&tree, "creation");

    for step in 0..run.steps {
        let live = mirror.live_slots();
        let ops = (live.len() / 10).max(1);
        for _ in 0..ops {
            let slot = live[rng.below(live.len())];
            let Some((id, b, category)) = mirror.entries[slot] else {
                continue;
            };
            let roll = rng.unit();
            if roll < 0.45 {
                let d = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
                let nb = shifted(&b, d);
                tree.move_proxy(id, nb).unwrap();
                mirror.entries[slot] = Some((id, nb, category));
            } else if roll < 0.9 {
                // Enlarge to a new box (sometimes one containing the old box).
                let d = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
                let nb = if rng.chance(0.1) {
                    b.union(&shifted(&b, d))
                } else {
                    shifted(&b, d)
                };
                tree.enlarge_proxy(id, nb).unwrap();
                mirror.entries[slot] = Some((id, nb, category));
            } else if roll < 0.95 {
                tree.destroy_proxy(id).unwrap();
                mirror.entries[slot] = None;
            } else {
                create(&mut tree, &mut mirror, &mut rng);
            }
            if step % run.validate_ops_every == 0 {
                must_validate(&tree, "an operation");
            }
        }
        // Keep the population near its target.
        while mirror.live().count() < run.proxies {
            create(&mut tree, &mut mirror, &mut rng);
        }
        must_validate(&tree, "a step");

        for _ in 0..run.checks_per_step {
            let mask = rng.next_u64() | if rng.chance(0.5) { u64::MAX } else { 0 };
            let c = Vec2::new(rng.range(0.0, world), rng.range(0.0, world));
            let h = Vec2::new(rng.range(0.0, 3.0), rng.range(0.0, 3.0));
            check_query(&tree, &mirror, Aabb::new(c - h, c + h), mask);
            check_ray(&tree, &mirror, &random_ray(&mut rng, world), mask);
            check_shape_cast(&tree, &mirror, &random_shape_cast(&mut rng, world), mask);
        }

        if step % 10 == 9 {
            tree.rebuild(false);
            must_validate(&tree, "partial rebuild");
        }
        if step % 100 == 99 {
            tree.rebuild(true);
            must_validate(&tree, "full rebuild");
            let n = tree.proxy_count();
            assert!(
                tree.height() <= log2_bound(n),
                "height {} for {n} proxies",
                tree.height()
            );
        }
    }
    // Everything the mirror holds is in the tree, with the same box.
    for (_, id, b, c) in mirror.live() {
        assert_eq!(tree.fat_aabb(id), Ok(to_world_aabb(b)));
        assert_eq!(tree.category_bits(id), Ok(c));
    }
    assert_eq!(tree.proxy_count(), mirror.live().count());
}

#[test]
fn tree_matches_brute_force_small() {
    run_tree_against_brute_force(
        &TreeRun {
            proxies: 300,
            steps: 300,
            validate_ops_every: 1,
            checks_per_step: 3,
        },
        1,
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "large: run with --release")]
fn tree_matches_brute_force_large() {
    run_tree_against_brute_force(
        &TreeRun {
            proxies: 2000,
            steps: 1000,
            validate_ops_every: 10,
            checks_per_step: 4,
        },
        2,
    );
}

// ---------------------------------------------------------------------------------
// Broad phase
// ---------------------------------------------------------------------------------

fn pairs_of(bp: &mut BroadPhase, existing: &BTreeSet<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    bp.update_pairs(
        |a, b| {
            assert!(a <= b, "filter got ({a}, {b})");
            !existing.contains(&(a, b))
        },
        &mut pairs,
    );
    pairs
}

/// A proxy of category 1 for shape `shape_index` of a `body_type` body, not
/// forced into the move buffer.
fn bp_proxy(bp: &mut BroadPhase, fat: Aabb, shape_index: u32, body_type: BodyType) -> ProxyKey {
    bp.create_proxy(fat, 1, shape_index, body_type, false)
        .unwrap()
}

#[test]
fn broad_phase_hand_worked_pairs() {
    let none = BTreeSet::new();
    let mut bp = BroadPhase::new();
    // Shape indices are chosen so that the order inside a pair is visible.
    let d = bp_proxy(&mut bp, aabb(0.0, 0.0, 1.0, 1.0), 7, BodyType::Dynamic);
    let s1 = bp_proxy(&mut bp, aabb(0.5, 0.5, 1.5, 1.5), 2, BodyType::Static);
    let _s2 = bp_proxy(&mut bp, aabb(0.9, 0.9, 3.0, 3.0), 3, BodyType::Static);
    let _far = bp_proxy(&mut bp, aabb(10.0, 10.0, 11.0, 11.0), 4, BodyType::Static);
    assert_eq!(bp.move_count(), 1, "static proxies are not buffered");
    assert_eq!(d.body_type(), BodyType::Dynamic);
    assert_eq!(s1.body_type(), BodyType::Static);
    // The dynamic box overlaps both near static boxes; statics never pair together.
    let mut pairs = pairs_of(&mut bp, &none);
    pairs.sort();
    assert_eq!(pairs, vec![(2, 7), (3, 7)]);
    assert_eq!(bp.move_count(), 0);
    assert!(pairs_of(&mut bp, &none).is_empty(), "nothing moved");

    // A kinematic proxy over the static ones and the dynamic one pairs only with the
    // dynamic one.
    let k = bp_proxy(&mut bp, aabb(0.8, 0.8, 2.0, 2.0), 1, BodyType::Kinematic);
    assert_eq!(pairs_of(&mut bp, &none), vec![(1, 7)]);

    // Two moved dynamic proxies that overlap are reported once.
    let d2 = bp_proxy(&mut bp, aabb(0.2, 0.2, 0.4, 0.4), 0, BodyType::Dynamic);
    bp.buffer_move(d);
    bp.buffer_move(d);
    assert_eq!(bp.move_count(), 2);
    let mut pairs = pairs_of(&mut bp, &none);
    pairs.sort();
    assert_eq!(pairs, vec![(0, 7), (1, 7), (2, 7), (3, 7)]);

    // The filter sees and rejects existing pairs.
    bp.buffer_move(d2);
    let existing: BTreeSet<(u32, u32)> = [(0, 7)].into();
    assert!(pairs_of(&mut bp, &existing).is_empty());

    // A moved kinematic and a moved dynamic: one report.
    bp.move_proxy(k, aabb(0.1, 0.1, 2.0, 2.0)).unwrap();
    bp.buffer_move(d2);
    // k reports (1, 7); d2 reports (0, 1) and (0, 7) (d did not move).
    let mut pairs = pairs_of(&mut bp, &none);
    pairs.sort();
    assert_eq!(pairs, vec![(0, 1), (0, 7), (1, 7)]);

    // A forced static proxy pairs with the (unmoved) dynamic ones it overlaps.
    let _s3 = bp
        .create_proxy(aabb(0.3, 0.3, 0.35, 0.35), 1, 9, BodyType::Static, true)
        .unwrap();
    let mut pairs = pairs_of(&mut bp, &none);
    pairs.sort();
    assert_eq!(pairs, vec![(0, 9), (7, 9)]);

    // A proxy destroyed after moving leaves the buffer and finds nothing.
    bp.buffer_move(d2);
    bp.destroy_proxy(d2).unwrap();
    assert_eq!(bp.move_count(), 0);
    assert!(pairs_of(&mut bp, &none).is_empty());
    bp.validate().unwrap();

    assert_eq!(bp.proxy_count(), 6);
    assert_eq!(bp.shape_index(k), Ok(1));
    assert_eq!(bp.test_overlap(d, k), Ok(true));
    assert_eq!(bp.tree(BodyType::Static).proxy_count(), 4);
}

#[test]
fn broad_phase_stale_keys_and_bad_boxes() {
    let mut bp = BroadPhase::new();
    let a = bp_proxy(&mut bp, aabb(0.0, 0.0, 1.0, 1.0), 0, BodyType::Dynamic);
    let b = bp_proxy(&mut bp, aabb(0.5, 0.0, 1.5, 1.0), 1, BodyType::Dynamic);
    bp.destroy_proxy(a).unwrap();
    assert_stale_proxy!(bp, a);
    assert_eq!(
        bp.create_proxy(
            aabb(0.0, f32::NAN, 1.0, 1.0),
            1,
            5,
            BodyType::Dynamic,
            false
        ),
        Err(Error::NonFinite { what: "aabb" })
    );
    assert_eq!(
        bp.move_proxy(b, aabb(0.0, 0.0, f32::INFINITY, 1.0)),
        Err(Error::NonFinite { what: "aabb" })
    );
    assert_eq!(bp.proxy_count(), 1);
    assert_eq!(bp.move_count(), 1);
    bp.validate().unwrap();
    // The slot of `a` is reused with a new generation.
    let c = bp_proxy(&mut bp, aabb(0.0, 0.0, 1.0, 1.0), 2, BodyType::Dynamic);
    assert_eq!(c.raw(), a.raw());
    assert_ne!(c, a);
    assert_eq!(bp.shape_index(a), Err(Error::InvalidId { what: "proxy" }));
    assert_eq!(pairs_of(&mut bp, &BTreeSet::new()), vec![(1, 2)]);
    assert_eq!(
        bp.shift_origin(Vec2::new(0.0, f32::NAN)),
        Err(Error::NonFinite { what: "new_origin" })
    );
    bp.shift_origin(Vec2::new(1.0, 0.0)).unwrap();
    assert_eq!(bp.fat_aabb(c), Ok(to_world_aabb(aabb(-1.0, 0.0, 0.0, 1.0))));
}

/// A broad-phase scene driven like a world: proxies with tight and fat boxes, some
/// moved each step, contacts created from new pairs and dropped when fat boxes part.
struct Scene {
    bp: BroadPhase,
    /// Per shape index: key, body type, tight box, fat box.
    shapes: Vec<Option<(ProxyKey, BodyType, Aabb, Aabb)>>,
    /// Shapes buffered since the last `update_pairs`.
    moved: BTreeSet<u32>,
    contacts: BTreeSet<(u32, u32)>,
    world: f32,
}

const MARGIN: f32 = 0.1;

impl Scene {
    fn new(world: f32) -> Scene {
        Scene {
            bp: BroadPhase::new(),
            shapes: Vec::new(),
            moved: BTreeSet::new(),
            contacts: BTreeSet::new(),
            world,
        }
    }

    fn create(&mut self, rng: &mut Rng, body_type: BodyType) {
        let tight = random_box(rng, self.world);
        let fat = tight.fattened(MARGIN);
        let shape = self.shapes.len() as u32;
        let force = body_type == BodyType::Static && rng.chance(0.2);
        let key = self
            .bp
            .create_proxy(fat, 1, shape, body_type, force)
            .unwrap();
        if body_type != BodyType::Static || force {
            self.moved.insert(shape);
        }
        self.shapes.push(Some((key, body_type, tight, fat)));
    }

    fn destroy(&mut self, shape: u32) {
        let (key, ..) = self.shapes[shape as usize].take().unwrap();
        self.bp.destroy_proxy(key).unwrap();
        self.moved.remove(&shape);
        self.contacts.retain(|&(a, b)| a != shape && b != shape);
    }

    fn random_op(&mut self, rng: &mut Rng) {
        // Most shapes are alive: draw until one is.
        let (shape, (key, body_type, tight, fat)) = loop {
            let s = rng.below(self.shapes.len());
            if let Some(entry) = self.shapes[s] {
                break (s as u32, entry);
            }
        };
        let roll = rng.unit();
        if roll < 0.9 {
            if body_type == BodyType::Static && rng.chance(0.8) {
                return;
            }
            // Move the tight box; only when it leaves the fat box is the proxy updated.
            let tight = shifted(
                &tight,
                Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)),
            );
            let mut fat = fat;
            if !fat.contains(&tight) {
                fat = tight.fattened(MARGIN);
                if body_type != BodyType::Static && rng.chance(0.5) {
                    self.bp.enlarge_proxy(key, fat).unwrap();
                } else {
                    self.bp.move_proxy(key, fat).unwrap();
                }
                self.moved.insert(shape);
            }
            self.shapes[shape as usize] = Some((key, body_type, tight, fat));
        } else if roll < 0.93 {
            self.bp.buffer_move(key);
            self.moved.insert(shape);
        } else if roll < 0.965 {
            self.destroy(shape);
        } else {
            let t = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic][rng.below(3)];
            self.create(rng, t);
        }
    }

    /// Runs `update_pairs` into `pairs` and checks the result against brute force over
    /// the moved shapes; then updates the contacts.
    fn update_and_check(&mut self, pairs: &mut Vec<(u32, u32)>) {
        let contacts = &self.contacts;
        self.bp.update_pairs(
            |a, b| {
                assert!(a < b);
                !contacts.contains(&(a, b))
            },
            pairs,
        );
        let got: BTreeSet<(u32, u32)> = pairs.iter().copied().collect();
        assert_eq!(got.len(), pairs.len(), "a pair was reported twice");

        let mut want = BTreeSet::new();
        for &m in &self.moved {
            let (_, tm, _, fm) = self.shapes[m as usize].unwrap();
            for (other, entry) in self.shapes.iter().enumerate() {
                let Some((_, to, _, fo)) = *entry else {
                    continue;
                };
                let other = other as u32;
                if other == m
                    || (tm != BodyType::Dynamic && to != BodyType::Dynamic)
                    || !fm.overlaps(&fo)
                {
                    continue;
                }
                let pair = (m.min(other), m.max(other));
                if !self.contacts.contains(&pair) {
                    want.insert(pair);
                }
            }
        }
        assert_eq!(got, want, "update_pairs differs from brute force");
        assert_eq!(self.bp.move_count(), 0);
        self.moved.clear();

        // Contacts begin for new pairs and end when the fat boxes part.
        self.contacts.extend(pairs.iter().copied());
        let shapes = &self.shapes;
        self.contacts.retain(|&(a, b)| {
            let fa = shapes[a as usize].unwrap().3;
            let fb = shapes[b as usize].unwrap().3;
            fa.overlaps(&fb)
        });
    }
}

fn run_broad_phase_against_brute_force(
    proxies: usize,
    steps: usize,
    validate_every_op: bool,
    seed: u64,
) -> Vec<Vec<(u32, u32)>> {
    let mut rng = Rng(seed);
    let mut scene = Scene::new((proxies as f32).sqrt() * 1.5);
    for i in 0..proxies {
        let t = match i % 10 {
            0..=2 => BodyType::Static,
            3 => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        };
        scene.create(&mut rng, t);
    }
    let mut pairs = Vec::new();
    let mut history = Vec::new();
    for _ in 0..steps {
        for _ in 0..(proxies / 10).max(1) {
            scene.random_op(&mut rng);
            if validate_every_op {
                scene.bp.validate().unwrap();
            }
        }
        scene.update_and_check(&mut pairs);
        history.push(pairs.clone());
        scene.bp.rebuild_trees();
        scene.bp.validate().unwrap();
    }
    history
}

/// [`run_broad_phase_against_brute_force`], and the scene produced more than
/// `at_least` pairs over all its steps.
fn check_against_brute_force(
    proxies: usize,
    steps: usize,
    validate_every_op: bool,
    seed: u64,
    at_least: usize,
) {
    let history = run_broad_phase_against_brute_force(proxies, steps, validate_every_op, seed);
    let total: usize = history.iter().map(Vec::len).sum();
    assert!(
        total > at_least,
        "the scene should produce many pairs, got {total}"
    );
}

#[test]
fn broad_phase_matches_brute_force_small() {
    check_against_brute_force(300, 200, true, 5, 1000);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "large: run with --release")]
fn broad_phase_matches_brute_force_large() {
    check_against_brute_force(2000, 1000, false, 6, 10_000);
}

#[test]
fn same_operations_give_the_same_tree_and_pair_order() {
    let a = run_broad_phase_against_brute_force(400, 60, false, 9);
    let b = run_broad_phase_against_brute_force(400, 60, false, 9);
    assert_eq!(a, b, "pair order differs between identical runs");

    let build = || {
        let mut rng = Rng(21);
        let mut tree = DynamicTree::new();
        let mut ids = Vec::new();
        for i in 0..500 {
            ids.push(tree.create_proxy(random_box(&mut rng, 40.0), 1, i).unwrap());
        }
        for step in 0..50 {
            for _ in 0..50 {
                let k = rng.below(ids.len());
                let b = random_box(&mut rng, 40.0);
                if rng.chance(0.5) {
                    tree.move_proxy(ids[k], b).unwrap();
                } else {
                    tree.enlarge_proxy(ids[k], b).unwrap();
                }
            }
            let k = rng.below(ids.len());
            tree.destroy_proxy(ids.swap_remove(k)).unwrap();
            ids.push(
                tree.create_proxy(random_box(&mut rng, 40.0), 1, 1000 + step)
                    .unwrap(),
            );
            tree.rebuild(step % 7 == 0);
        }
        let mut order = Vec::new();
        tree.query(aabb(0.0, 0.0, 40.0, 40.0), u64::MAX, |id, data| {
            order.push((id, data));
            true
        });
        (
            format!("{tree:?}"),
            order,
            tree.height(),
            tree.area_ratio().to_bits(),
        )
    };
    let first = build();
    let second = build();
    assert!(
        first.0 == second.0,
        "tree state differs between identical runs"
    );
    assert_eq!(first.1, second.1);
    assert_eq!(first.2, second.2);
    assert_eq!(first.3, second.3);
}

#[test]
fn insertion_and_partial_rebuild_keep_the_tree_tight() {
    // Quality is the summed perimeter of internal nodes over the root's (area_ratio).
    // Incremental SAH insertion with rotations should come close to a top-down binned
    // SAH build of the same boxes, and a partial rebuild after every proxy was enlarged
    // to a far-away box should restore it.
    let mut rng = Rng(77);
    let mut tree = DynamicTree::new();
    let ids: Vec<ProxyId> = (0..2000)
        .map(|i| tree.create_proxy(random_box(&mut rng, 90.0), 1, i).unwrap())
        .collect();
    let mut rebuilt = tree.clone();
    rebuilt.rebuild(true);
    let reference = rebuilt.area_ratio();
    assert!(
        tree.area_ratio() < 1.25 * reference,
        "{} vs {reference}",
        tree.area_ratio()
    );
    assert!(tree.height() < 3 * rebuilt.height());

    for id in &ids {
        tree.enlarge_proxy(*id, random_box(&mut rng, 90.0)).unwrap();
    }
    let loose = tree.area_ratio();
    let mut fresh = tree.clone();
    fresh.rebuild(true);
    assert!(
        loose > 5.0 * fresh.area_ratio(),
        "enlarging everywhere should loosen the tree"
    );
    assert_eq!(tree.rebuild(false), 2000, "every proxy was marked");
    tree.validate().unwrap();
    assert!(tree.area_ratio() < 1.1 * fresh.area_ratio());
    assert!(tree.height() <= log2_bound(2000));
    assert_eq!(tree.rebuild(false), 0, "marks are cleared");
}
