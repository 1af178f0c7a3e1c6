//! Comparison helpers shared by the differential tests.

#![allow(dead_code)]

use crate::common::rng::Rng;
use impulse2d::Vec2;
use impulse2d::collision::Manifold;
use std::fmt::Debug;

/// Number of random cases per differential test.
pub const CASES: usize = 10_000;

/// Runs one differential test: `case` is called `cases` times with a generator
/// seeded with `seed`, the case's index and the record of disagreements named
/// `name`; then the test fails with the first disagreements, if any
/// ([`Mismatches::finish`]).
pub fn for_cases(
    seed: u64,
    name: &'static str,
    cases: usize,
    mut case: impl FnMut(&mut Rng, usize, &mut Mismatches),
) {
    let mut rng = Rng::new(seed);
    let mut m = Mismatches::new(name);
    for i in 0..cases {
        case(&mut rng, i, &mut m);
    }
    m.finish();
}

/// Whether `a` and `b` differ by at most `tol`.
pub fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

/// Whether `a` and `b` differ by at most `tol` in each component.
pub fn vclose(a: Vec2, b: Vec2, tol: f32) -> bool {
    close(a.x, b.x, tol) && close(a.y, b.y, tol)
}

/// Collects the disagreements of one differential test and fails with the first
/// few, their inputs and both outputs.
pub struct Mismatches {
    name: &'static str,
    cases: usize,
    failures: usize,
    shown: Vec<String>,
    /// Failure counts by kind (the text of the reason before any ':').
    kinds: Vec<(String, usize)>,
}

impl Mismatches {
    /// A new, empty record for the test `name`.
    pub fn new(name: &'static str) -> Mismatches {
        Mismatches {
            name,
            cases: 0,
            failures: 0,
            shown: Vec::new(),
            kinds: Vec::new(),
        }
    }

    /// Counts one case; `check` is `Err(why)` when the outputs disagree, and
    /// `describe` gives the inputs and outputs (called only on failure).
    pub fn check(&mut self, check: Result<(), String>, describe: impl FnOnce() -> String) {
        self.cases += 1;
        if let Err(why) = check {
            self.failures += 1;
            let kind = why.split(':').next().unwrap_or("").to_string();
            match self.kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => self.kinds.push((kind, 1)),
            }
            if self.shown.len() < 3 {
                self.shown.push(format!("{why}\n{}", describe()));
            }
        }
    }

    /// [`Mismatches::check`] for a case described by its `inputs` (called only
    /// on failure) and both outputs.
    pub fn check_outputs(
        &mut self,
        check: Result<(), String>,
        inputs: impl FnOnce() -> String,
        ours: &impl Debug,
        theirs: &impl Debug,
    ) {
        self.check(check, || {
            format!("{}\nours {ours:?}\nBox2D {theirs:?}", inputs())
        });
    }

    /// Panics if any case disagreed.
    pub fn finish(self) {
        assert!(
            self.failures == 0,
            "{}: {} of {} cases disagree with Box2D ({:?}); first ones:\n\n{}",
            self.name,
            self.failures,
            self.cases,
            self.kinds,
            self.shown.join("\n\n")
        );
    }
}

/// Compares two manifolds: same point count, normals within `normal_tol` (when
/// there are points), and point by point the same id, separations within
/// `sep_tol` and positions within `point_tol`.
pub fn compare_manifolds(
    ours: &Manifold,
    theirs: &Manifold,
    normal_tol: f32,
    sep_tol: f32,
    point_tol: f32,
) -> Result<(), String> {
    if ours.point_count != theirs.point_count {
        return Err(format!(
            "point count: ours {}, Box2D {}",
            ours.point_count, theirs.point_count
        ));
    }
    if ours.point_count == 0 {
        return Ok(());
    }
    if !vclose(ours.normal, theirs.normal, normal_tol) {
        return Err(format!(
            "normal: ours {:?}, Box2D {:?}",
            ours.normal, theirs.normal
        ));
    }
    for (i, (a, b)) in ours.points().iter().zip(theirs.points()).enumerate() {
        if a.id != b.id {
            return Err(format!(
                "point {i} id: ours {:#06x}, Box2D {:#06x}",
                a.id, b.id
            ));
        }
        if !close(a.separation, b.separation, sep_tol) {
            return Err(format!(
                "point {i} separation: ours {}, Box2D {}",
                a.separation, b.separation
            ));
        }
        if !vclose(a.point, b.point, point_tol)
            || !vclose(a.anchor_a, b.anchor_a, point_tol)
            || !vclose(a.anchor_b, b.anchor_b, point_tol)
        {
            return Err(format!(
                "point {i} position: ours {:?} (anchors {:?}, {:?}), Box2D {:?} (anchors {:?}, {:?})",
                a.point, a.anchor_a, a.anchor_b, b.point, b.anchor_a, b.anchor_b
            ));
        }
    }
    Ok(())
}
