//! Far from the origin in both builds (issue 16).
//!
//! In every build each registered Far scene builds at (100 km, −80 km) and
//! steps, a card house of Box2D's 2 mm cards stands, and snapshots and
//! recordings of the other build (`f32` against `f64` positions) are refused.
//! With the `large-world` feature (body positions in `f64`, collision and the solver in
//! `f32` relative to the bodies) each Far scene behaves as at the origin at
//! 100 km and at 10,000 km: pyramid apex, stack tops and chain length within
//! 1 mm of the origin run.
//!
//! `cargo test --release -p impulse2d --features large-world --test suite far:: -- --nocapture`
//! prints the figures. `tests/suite/far_scenes.rs` has the `f32` figures beside
//! Box2D's float build.

use crate::stepping;

#[cfg(feature = "large-world")]
use crate::far_figures;
use crate::far_figures::STEPS;

use impulse2d::{World, WorldDef};
use impulse2d_scenes::far::FAR_ORIGIN;
use stepping::step_checked;

/// Every registered Far scene builds at (100 km, −80 km) and steps for 10 s,
/// valid after every step, its bodies near the scene.
#[test]
fn every_far_scene_builds_and_steps() {
    let far: Vec<_> = impulse2d_scenes::list()
        .iter()
        .filter(|s| s.category == "far")
        .collect();
    assert_eq!(far.len(), 5, "the five Far scenes are registered");
    for info in far {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let scene = impulse2d_scenes::build(info.name, &mut world).unwrap();
        for _ in 0..STEPS {
            step_checked(&mut world);
        }
        for &b in &scene.bodies {
            let p = world.body(b).unwrap().position() - FAR_ORIGIN;
            assert!(
                p.length() < 50.0,
                "{}: a body at {p:?} from the origin",
                info.name
            );
        }
    }
}

/// Box2D's card house of 2 mm cards (`card_house`) stands for 10 s at the
/// origin: every card moves less than 5 storeys × 8.3 mm of settling and turns
/// less than 0.05 rad (the bound is worked out in `tests/suite/limits.rs`, where the
/// same check runs in the default build; a falling card moves ≥ 0.1 m or turns
/// ≥ 0.44 rad).
#[test]
fn card_house_of_two_millimetre_cards_stands() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let scene = impulse2d_scenes::build("card_house", &mut world).unwrap();
    let start: Vec<_> = scene
        .bodies
        .iter()
        .map(|&b| world.body(b).unwrap().transform())
        .collect();
    for _ in 0..STEPS {
        step_checked(&mut world);
    }
    let max_move = 5.0 * 0.0083;
    for (&b, xf0) in scene.bodies.iter().zip(&start) {
        let xf = world.body(b).unwrap().transform();
        let moved = (xf.p - xf0.p).length();
        let turned = xf0.q.relative_angle(xf.q).abs();
        assert!(moved < max_move, "a card moved {moved} m");
        assert!(turned < 0.05, "a card turned {turned} rad");
    }
}

/// FNV-1a (64-bit) of `bytes`: the checksum snapshots and recordings end with
/// (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `bytes` with bit 31 of the version word (bytes 8..12) flipped and the
/// trailing checksum recomputed, so that only the build flag differs.
fn as_other_build(bytes: &[u8]) -> Vec<u8> {
    let mut other = bytes.to_vec();
    other[11] ^= 0x80;
    let body = other.len() - 8;
    let sum = fnv1a(&other[..body]);
    other[body..].copy_from_slice(&sum.to_le_bytes());
    other
}

/// Snapshots and recordings carry the build's position format (bit 31 of
/// their version word: set for the `f64` positions of `large-world`), and each
/// build refuses the other's files with an `Err` that says so, before it
/// decodes anything.
#[test]
fn snapshots_and_recordings_of_the_other_build_are_refused() {
    use impulse2d::{Error, Recording, Snapshot};
    let large = cfg!(feature = "large-world");
    let mut world = World::new(&WorldDef::default()).unwrap();
    impulse2d_scenes::build("pyramid", &mut world).unwrap();
    world.start_recording(1).unwrap();
    step_checked(&mut world);
    let recording = world.stop_recording().unwrap();
    let snapshot = world.snapshot();
    let expected = if large {
        "without the large-world feature"
    } else {
        "by the large-world build"
    };
    for (what, bytes) in [
        ("snapshot", snapshot.to_bytes()),
        ("recording", recording.as_bytes().to_vec()),
    ] {
        let word = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        assert_eq!(word >> 31 == 1, large, "{what}: bit 31 is this build's");
        let read = |b: &[u8]| match what {
            "snapshot" => Snapshot::from_bytes(b).map(|_| ()),
            _ => Recording::from_bytes(b).map(|_| ()),
        };
        assert!(read(&bytes).is_ok(), "{what}: this build reads its own");
        match read(&as_other_build(&bytes)) {
            Err(Error::InvalidData(why)) => {
                assert!(why.contains(expected), "{what}: {why}")
            }
            other => panic!("{what} of the other build: {other:?}"),
        }
    }
}

/// The Far scenes at the origin, 100 km and 10,000 km (`large-world` only:
/// the default build cannot even place a body at 10,000 km to a metre).
#[cfg(feature = "large-world")]
mod far_away {
    use super::far_figures::{Far, figure};
    use impulse2d::pos::to_pos;
    use impulse2d::{Pos, Vec2};
    use impulse2d_scenes::far::FAR_ORIGIN;

    /// With `large-world` each Far scene gives the same figure, within 1 mm, at
    /// the origin and at 100 km: `f64` positions there are on a 1.5e-11 m grid,
    /// and every difference the solver and collision see is taken in `f64` before
    /// it is narrowed to `f32`, so the runs differ only by the rounding of those
    /// `f32` differences (micrometres), against the centimetres `f32` positions
    /// lose at 100 km (`tests/suite/far_scenes.rs`).
    ///
    /// At 10,000 km (a 2e-9 m `f64` grid) the same holds: the broad phase's
    /// boxes have `f64` corners too ([`impulse2d::WorldAabb`]), so it finds the
    /// same pairs as at the origin. (With `f32` boxes, as in Box2D's double
    /// build, they lay on a 1 m grid out there: the pyramids found extra pairs,
    /// their contacts took other ids and were solved in another order, and the
    /// pyramid apex settled 1.66 mm lower.) The bound is the issue's: 1 mm.
    #[test]
    fn far_scenes_behave_as_at_the_origin_at_100_km_and_10_000_km() {
        let ten_thousand_km = Pos::new(1.0e7, -8.0e6);
        let mut failures = Vec::new();
        for scene in Far::ALL {
            let at_origin = figure(scene, to_pos(Vec2::ZERO));
            for origin in [FAR_ORIGIN, ten_thousand_km] {
                let far = figure(scene, origin);
                let diff = far - at_origin;
                println!(
                    "{:<28} origin {at_origin:.6}  at ({:.0}, {:.0}) {far:.6}  diff {diff:+.2e}",
                    scene.name(),
                    origin.x,
                    origin.y
                );
                if diff.abs() > 1.0e-3 {
                    failures.push(format!("{} at {origin:?}: {diff:+e} m", scene.name()));
                }
            }
        }
        assert!(failures.is_empty(), "beyond the bound: {failures:?}");
    }
}

/// The `f64` position arithmetic of the `large-world` build.
#[cfg(feature = "large-world")]
mod positions {
    use impulse2d::collision::Aabb;
    use impulse2d::pos::{offset_aabb, to_aabb};
    use impulse2d::{Pos, Rot, Vec2, WorldTransform};

    #[test]
    fn positions_keep_millimetres_at_ten_thousand_kilometres() {
        let a = Pos::new(1.0e7, -1.0e7);
        let b = a + Vec2::new(0.001, 0.002);
        // f64 has a 2e-9 m grid at 1e7 m: the difference rounds to the f32
        // nearest the offset, which is the offset's own f32 within 2e-9 m.
        let d = b - a;
        assert!((d - Vec2::new(0.001, 0.002)).length() < 1e-8, "{d:?}");
        let xf = WorldTransform::new(a, Rot::from_angle(0.3));
        let local = Vec2::new(0.25, -0.5);
        let back = xf.apply_inv(xf.apply(local));
        assert!((back - local).length() < 1e-6);
    }

    /// A 2 cm box at 10,000 km keeps its size in `f64` (the `f64` grid there
    /// is 2e-9 m; `f32` corners would lie on a 1 m grid), and its `f32` form
    /// for the public getters contains it, rounded outwards.
    #[test]
    fn world_boxes_keep_their_size_at_ten_thousand_kilometres() {
        let origin = Pos::new(1.0e7 + 0.3, -1.0e7 - 0.3);
        let local = Aabb {
            lower: Vec2::new(-0.01, -0.01),
            upper: Vec2::new(0.01, 0.01),
        };
        let b = offset_aabb(local, origin);
        let width = 2.0 * f64::from(0.01f32);
        assert!((b.upper.x - b.lower.x - width).abs() < 1e-8, "{b:?}");
        assert!((b.upper.y - b.lower.y - width).abs() < 1e-8, "{b:?}");
        assert!((b.center().x - origin.x).abs() < 1e-8);
        let f = to_aabb(b);
        assert!(f64::from(f.lower.x) <= b.lower.x && f64::from(f.upper.x) >= b.upper.x);
        assert!(f64::from(f.lower.y) <= b.lower.y && f64::from(f.upper.y) >= b.upper.y);
        // one f32 step (1 m) outwards at most on each side
        assert!(f64::from(f.upper.x - f.lower.x) <= width + 2.0);
    }
}
