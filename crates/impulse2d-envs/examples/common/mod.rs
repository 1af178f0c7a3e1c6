//! What the CarRacing examples share.
use impulse2d_envs::car_racing::{CarRacing, CarRacingConfig};

/// The first command-line argument as a number of steps, or `default`.
pub fn steps_arg(default: usize) -> usize {
    std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A CarRacing with Gymnasium's settings, reset with `seed`.
pub fn car_racing(seed: u64) -> CarRacing {
    let mut env = CarRacing::new(CarRacingConfig::default()).unwrap();
    env.reset_with_options(Some(seed), None).unwrap();
    env
}
