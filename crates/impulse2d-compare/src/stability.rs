//! One stability figure per scene, computed by shared code from the body states an engine
//! reports, so that a collapsed pyramid or an exploded pile cannot pass for a fast run.

use crate::desc::{BodyState, SceneDesc};
use crate::scenes::{
    RAIN_GRID_SIZE, SMALL_PYRAMID_BASE, SPINNER_CENTER, SPINNER_RADIUS, pyramid_box_count,
};

/// A scene's stability figure after a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stability {
    /// What the number measures.
    pub label: &'static str,
    /// The measured value (NaN if any live body's state is not finite).
    pub value: f64,
    /// The range a healthy simulation stays in (inclusive).
    pub sane: (f64, f64),
}

impl Stability {
    /// True when the value is finite and inside the sane range.
    pub fn is_sane(&self) -> bool {
        self.value.is_finite() && self.value >= self.sane.0 && self.value <= self.sane.1
    }
}

/// Computes the stability figure of `scene` from `states` (indexed by body key; `None` for
/// bodies not alive).
pub fn measure(scene: &SceneDesc, states: &[Option<BodyState>]) -> Stability {
    let nan = states.iter().flatten().any(|s| !s.is_finite());
    let mut figure = match scene.name.as_str() {
        "large_pyramid" => pyramid_top(scene, states),
        "many_pyramids" => pyramid_tops_standing(scene, states),
        "joint_grid" => max_joint_gap(scene, states),
        "rain" => rain_in_arena(scene, states),
        "smash" => kinetic_energy_ratio(scene, states),
        "spinner" => inside_loop(states),
        "tumbler" => inside_drum(states),
        _ => Stability {
            label: "no figure for this scene",
            value: f64::NAN,
            sane: (0.0, 0.0),
        },
    };
    if nan {
        figure.value = f64::NAN;
    }
    figure
}

fn fraction(hits: usize, total: usize) -> f64 {
    if total == 0 {
        f64::NAN
    } else {
        hits as f64 / total as f64
    }
}

/// Height of the top box (the last body) over its initial height.
fn pyramid_top(scene: &SceneDesc, states: &[Option<BodyState>]) -> Stability {
    let top = scene.initial_bodies.end - 1;
    let y0 = scene.bodies[top].position[1] as f64;
    let value = states[top].map_or(f64::NAN, |s| s.position[1] as f64 / y0);
    Stability {
        label: "top box height / initial",
        value,
        sane: (0.95, 1.02),
    }
}

/// Fraction of small pyramids whose top box is within a quarter box of its initial height.
fn pyramid_tops_standing(scene: &SceneDesc, states: &[Option<BodyState>]) -> Stability {
    let per = pyramid_box_count(SMALL_PYRAMID_BASE);
    let pyramids = (scene.initial_bodies.len() - 1) / per;
    let standing = (0..pyramids)
        .filter(|p| {
            let top = (p + 1) * per; // body 0 is the ground
            let y0 = scene.bodies[top].position[1];
            states[top].is_some_and(|s| (s.position[1] - y0).abs() < 0.25)
        })
        .count();
    Stability {
        label: "pyramid tops standing (fraction)",
        value: fraction(standing, pyramids),
        sane: (0.95, 1.0),
    }
}

/// Largest distance between the two anchors of any live joint (m). Soft joints stretch
/// under the load of the hanging grid (Box2D's full grid reaches about 0.4 m while it
/// swings), so only a gap as long as the 1 m spacing counts as broken.
fn max_joint_gap(scene: &SceneDesc, states: &[Option<BodyState>]) -> Stability {
    let mut gap = 0.0f64;
    for joint in &scene.joints {
        if let (Some(a), Some(b)) = (states[joint.body_a], states[joint.body_b]) {
            let pa = a.transform_point(joint.local_anchor_a);
            let pb = b.transform_point(joint.local_anchor_b);
            let d = ((pa[0] - pb[0]) as f64).hypot((pa[1] - pb[1]) as f64);
            gap = gap.max(d);
        }
    }
    Stability {
        label: "largest joint gap (m)",
        value: gap,
        sane: (0.0, 1.0),
    }
}

/// Fraction of live ragdoll bodies still above the lowest ground and over its width.
fn rain_in_arena(scene: &SceneDesc, states: &[Option<BodyState>]) -> Stability {
    let ground = &scene.bodies[0];
    let half_width = ground
        .shapes
        .iter()
        .filter_map(|s| match &s.geometry {
            crate::desc::Geometry::Polygon { vertices, .. } => {
                vertices.iter().map(|v| v[0].abs()).reduce(f32::max)
            }
            _ => None,
        })
        .fold(0.0f32, f32::max);
    let mut live = 0;
    let mut inside = 0;
    for state in states.iter().skip(scene.initial_bodies.end).flatten() {
        live += 1;
        let [x, y] = state.position;
        if x.abs() <= half_width + 2.0 && y >= -RAIN_GRID_SIZE - 1.0 {
            inside += 1;
        }
    }
    Stability {
        label: "ragdoll bodies in arena (fraction)",
        value: fraction(inside, live),
        sane: (0.95, 1.0),
    }
}

/// Translational kinetic energy of all bodies over its initial value. With zero gravity
/// and inelastic contacts it can only fall; a rise means the pile exploded.
fn kinetic_energy_ratio(scene: &SceneDesc, states: &[Option<BodyState>]) -> Stability {
    let energy = |velocities: &mut dyn Iterator<Item = (f32, [f32; 2])>| -> f64 {
        velocities
            .map(|(m, v)| 0.5 * m as f64 * ((v[0] as f64).powi(2) + (v[1] as f64).powi(2)))
            .sum()
    };
    let initial = energy(&mut scene.bodies.iter().map(|b| (b.mass(), b.linear_velocity)));
    let now = energy(
        &mut scene
            .bodies
            .iter()
            .zip(states)
            .filter_map(|(b, s)| s.map(|s| (b.mass(), s.linear_velocity))),
    );
    Stability {
        label: "translational KE / initial",
        value: now / initial,
        sane: (0.0, 1.02),
    }
}

/// Fraction of the spinner's loose bodies (keys from 2) inside the chain loop.
fn inside_loop(states: &[Option<BodyState>]) -> Stability {
    let loose: Vec<_> = states.iter().skip(2).flatten().collect();
    let inside = loose
        .iter()
        .filter(|s| {
            let dx = s.position[0] - SPINNER_CENTER.x;
            let dy = s.position[1] - SPINNER_CENTER.y;
            dx.hypot(dy) < SPINNER_RADIUS + 0.5
        })
        .count();
    Stability {
        label: "bodies inside the loop (fraction)",
        value: fraction(inside, loose.len()),
        sane: (0.98, 1.0),
    }
}

/// Fraction of the tumbler's boxes (keys from 2) inside the drum, in the drum's frame.
fn inside_drum(states: &[Option<BodyState>]) -> Stability {
    let Some(drum) = states.get(1).copied().flatten() else {
        return Stability {
            label: "boxes inside the drum (fraction)",
            value: f64::NAN,
            sane: (0.98, 1.0),
        };
    };
    let boxes: Vec<_> = states.iter().skip(2).flatten().collect();
    let inside = boxes
        .iter()
        .filter(|s| {
            let [x, y] = drum.inverse_transform_point(s.position);
            x.abs() < 9.6 && y.abs() < 9.6
        })
        .count();
    Stability {
        label: "boxes inside the drum (fraction)",
        value: fraction(inside, boxes.len()),
        sane: (0.98, 1.0),
    }
}
