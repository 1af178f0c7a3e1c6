//! What the environment tests share.
use impulse2d_envs::ActionSpace;

/// Gymnasium's `Box(low, high, (n,))` of continuous actions.
pub fn continuous(low: &[f32], high: &[f32]) -> ActionSpace {
    ActionSpace::Continuous {
        low: low.to_vec(),
        high: high.to_vec(),
    }
}
