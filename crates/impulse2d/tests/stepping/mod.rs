//! The scene tests' step: 60 Hz, 4 substeps, the world validated after
//! every step (`mod stepping;` in a test file).

use impulse2d::World;

/// The time step, seconds.
pub const DT: f32 = 1.0 / 60.0;
/// Substeps per step.
pub const SUB_STEPS: u32 = 4;

/// Steps the world once and panics, naming the step, if it is then invalid.
pub fn step_checked(world: &mut World) {
    world.step(DT, SUB_STEPS).unwrap();
    if let Err(e) = world.validate() {
        panic!("invalid world after step {}: {e}", world.step_count());
    }
}
