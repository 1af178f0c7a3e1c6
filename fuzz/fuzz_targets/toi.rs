//! Time of impact, GJK distance, shape cast and segment distance on two proxies
//! built from accepted shapes, with arbitrary finite sweeps and transforms.
//!
//! Always: no panic; the TOI fraction lies in `[0, clamp(max_fraction, 0, 1)]`.
//! For moderate inputs (every coordinate and radius within ±1000 m, angles within
//! ±100 rad): no miss, i.e. sampled at 64 evenly spaced times from 0 to just before
//! the reported fraction (`max_fraction` when `Separated`), the cores are never closer than the
//! target `max(LINEAR_SLOP, rA + rB − LINEAR_SLOP)` minus the tolerance (a quarter
//! slop) and `f32` round-off at the size of the coordinates.
//! When every shape number is within `±HUGE`: distances, points and normals are
//! finite, a shape cast's hit fraction lies in `[0, max_fraction]` and
//! segment-distance fractions lie in `[0, 1]`.
#![no_main]

use impulse2d::collision::{
    DistanceInput, ShapeCastPairInput, SimplexCache, ToiInput, ToiState, segment_distance,
    shape_cast, shape_distance, time_of_impact,
};
use impulse2d::core::{HUGE, LINEAR_SLOP, TOI_TARGET_FRACTION};
use impulse2d::{Sweep, Vec2};
use impulse2d_fuzz::{Bytes, decode_proxy, finite2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let Some(proxy_a) = decode_proxy(&mut b) else {
        return;
    };
    let Some(proxy_b) = decode_proxy(&mut b) else {
        return;
    };
    let wild = b.wild();

    // Time of impact.
    let toi_input = ToiInput {
        proxy_a,
        proxy_b,
        sweep_a: b.sweep(),
        sweep_b: b.sweep(),
        max_fraction: b.raw_f32(),
    };
    let toi = time_of_impact(&toi_input);
    let t_max = if toi_input.max_fraction.is_finite() {
        toi_input.max_fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    assert!(
        (0.0..=t_max).contains(&toi.fraction),
        "TOI fraction {} outside [0, {t_max}] ({:?}) for {toi_input:?}",
        toi.fraction,
        toi.state
    );
    if toi.state == ToiState::Overlapped {
        assert_eq!(toi.fraction, 0.0, "overlapped TOI must report fraction 0");
    } else if !wild && moderate(&toi_input) {
        check_no_miss(&toi_input, toi.state, toi.fraction, t_max);
    }

    // Distance, cold and then warm-started from an arbitrary (possibly unfitting) cache.
    let distance_input = DistanceInput {
        proxy_a,
        proxy_b,
        transform_a: b.transform(),
        transform_b: b.transform(),
        use_radii: b.flag(),
    };
    let mut cache = SimplexCache {
        count: u16::from(b.byte()),
        index_a: [b.byte(), b.byte(), b.byte()],
        index_b: [b.byte(), b.byte(), b.byte()],
    };
    for _ in 0..2 {
        let d = shape_distance(&distance_input, &mut cache);
        assert!(
            (1..=3).contains(&d.simplex_count),
            "simplex count {}",
            d.simplex_count
        );
        assert!(cache.count <= 3, "cache count {}", cache.count);
        if !wild {
            assert!(
                d.distance.is_finite() && d.distance >= 0.0,
                "distance {} for {distance_input:?}",
                d.distance
            );
            assert!(
                finite2(d.point_a) && finite2(d.point_b) && finite2(d.normal),
                "non-finite distance output {d:?} for {distance_input:?}"
            );
        }
    }

    // Shape cast.
    let cast_input = ShapeCastPairInput {
        proxy_a,
        proxy_b,
        transform_a: distance_input.transform_a,
        transform_b: distance_input.transform_b,
        translation_b: b.finite_vec2(HUGE),
        max_fraction: b.raw_f32(),
        can_encroach: b.flag(),
    };
    let cast = shape_cast(&cast_input);
    if cast.hit && !wild {
        assert!(
            cast.fraction >= 0.0 && cast.fraction <= cast_input.max_fraction.max(0.0),
            "cast fraction {} outside [0, {}] for {cast_input:?}",
            cast.fraction,
            cast_input.max_fraction
        );
        assert!(
            finite2(cast.point) && finite2(cast.normal),
            "non-finite cast output {cast:?} for {cast_input:?}"
        );
    }

    // Segment distance between the first two points of each proxy.
    let pa = proxy_a.points;
    let pb = proxy_b.points;
    let s = segment_distance(pa[0], pa[1], pb[0], pb[1]);
    if !wild {
        assert!(
            (0.0..=1.0).contains(&s.fraction1) && (0.0..=1.0).contains(&s.fraction2),
            "segment fractions {} {} for {pa:?} {pb:?}",
            s.fraction1,
            s.fraction2
        );
        assert!(
            s.distance_squared >= 0.0 && finite2(s.closest1) && finite2(s.closest2),
            "segment distance {s:?} for {pa:?} {pb:?}"
        );
    }
});

/// The largest coordinate magnitude of a sweep and a proxy, or infinity when an
/// angle is beyond ±100 rad.
fn size(sweep: &Sweep, proxy: &impulse2d::collision::ShapeProxy) -> f32 {
    if sweep.a1.abs() > 100.0 || sweep.a2.abs() > 100.0 {
        return f32::INFINITY;
    }
    let v = |v: Vec2| v.x.abs().max(v.y.abs());
    let points = proxy.points[..proxy.count.clamp(1, 8)]
        .iter()
        .fold(0.0f32, |m, p| m.max(v(*p)));
    v(sweep.c1)
        .max(v(sweep.c2))
        .max(v(sweep.local_center))
        .max(points)
        .max(proxy.radius)
}

fn moderate(input: &ToiInput) -> bool {
    size(&input.sweep_a, &input.proxy_a).max(size(&input.sweep_b, &input.proxy_b)) <= 1000.0
}

/// No contact deeper than the tolerance before the reported fraction.
fn check_no_miss(input: &ToiInput, state: ToiState, fraction: f32, t_max: f32) {
    let end = if state == ToiState::Separated {
        t_max
    } else {
        fraction
    };
    let scale = size(&input.sweep_a, &input.proxy_a).max(size(&input.sweep_b, &input.proxy_b));
    let target = LINEAR_SLOP.max(input.proxy_a.radius + input.proxy_b.radius - LINEAR_SLOP);
    let floor = target - TOI_TARGET_FRACTION * LINEAR_SLOP - 4.0e-6 * scale;
    let mut cache = SimplexCache::default();
    // (At the reported time itself the cores are at the target, or closer when
    // they started out within it and the hit is at 0.)
    if end <= 0.0 {
        return;
    }
    for k in 0..64 {
        let t = end * k as f32 / 64.0;
        let d = shape_distance(
            &DistanceInput {
                proxy_a: input.proxy_a,
                proxy_b: input.proxy_b,
                transform_a: input.sweep_a.transform_at(t),
                transform_b: input.sweep_b.transform_at(t),
                use_radii: false,
            },
            &mut cache,
        );
        assert!(
            d.distance >= floor,
            "missed contact: core distance {} < {floor} at t = {t} before {state:?} at {fraction} for {input:?}",
            d.distance
        );
    }
}
