//! Single-env CarRacing steps per second: `cargo run --release -p
//! impulse2d-envs --example car_racing_bench -- [steps]`. Actions cycle
//! through a fixed pattern; the env resets when an episode ends.
use std::time::Instant;

use impulse2d_envs::car_racing::CarAction;

mod common;

fn main() {
    let steps = common::steps_arg(5000);
    let mut env = common::car_racing(0);
    let start = Instant::now();
    let mut resets = 0;
    for i in 0..steps {
        let steer = ((i / 40) % 3) as f32 - 1.0;
        let r = env
            .step_with_info(CarAction::Continuous([steer * 0.5, 0.3, 0.0]))
            .unwrap();
        if r.result.terminated || r.result.truncated {
            env.reset_with_options(None, None).unwrap();
            resets += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{steps} steps ({resets} resets) in {s:.3} s: {:.0} steps/s",
        steps as f64 / s
    );
}
