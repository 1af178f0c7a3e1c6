//! Prints each seed's track summary (tile count, first point, kerb count) in
//! the format of a Gymnasium probe, for comparing tracks by eye.
use impulse2d_envs::car_racing::{rng::Pcg64, track};

fn main() {
    for seed in 0..6u64 {
        let t = track::generate(&mut Pcg64::from_seed(seed)).unwrap();
        let p = t.points[0];
        println!(
            "{seed} {} {:?} {:?} {:?} {:?} {}",
            t.points.len(),
            p.beta,
            p.x,
            p.y,
            t.points[t.points.len() - 1].x,
            t.kerbs.len()
        );
    }
}
