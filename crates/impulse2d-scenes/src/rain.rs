//! Box2D v3's rain benchmark (`CreateRain`/`StepRain` in
//! `shared/benchmarks.c`): rows of ground made of small boxes, 45 m apart,
//! and groups of ragdolls that appear 40 m above each row, one column of
//! groups every few steps. Once every column exists, the oldest column is
//! destroyed and created again, round robin, so the body count stays bounded.
//!
//! The side-by-side benchmarks (`impulse2d-compare`) describe the same scene
//! for three engines from [`RainLayout`] and [`crate::human`], and drive it
//! from the same schedule, [`RainLayout::firing`], that [`RainScript`]
//! follows.

use crate::human::{Human, HumanJoints, human};
use crate::{Scene, SceneScript};
use impulse2d::collision::make_offset_box;
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, Result, Rot, ShapeDef, Vec2, World};

/// Height of each ground row above the previous one, metres.
pub const RAIN_ROW_SPACING: f32 = 45.0;
/// Side of the ground boxes, metres.
pub const RAIN_GRID_SIZE: f32 = 0.5;
/// Height above its row at which a group appears (the ragdolls' feet), metres.
pub const RAIN_DROP_HEIGHT: f32 = 40.0;
/// Horizontal distance between the ragdolls of one group, metres.
pub const RAIN_HUMAN_SPACING: f32 = 0.5;
/// The ragdolls' joints: a little friction, soft springs to the rest pose.
pub const RAIN_JOINTS: HumanJoints = HumanJoints {
    friction_torque: 0.05,
    hertz: 5.0,
    damping_ratio: 0.5,
};

/// The dimensions of a rain scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RainLayout {
    /// Rows of ground (and of ragdoll groups).
    pub rows: usize,
    /// Columns of groups per row.
    pub columns: usize,
    /// Ragdolls per group.
    pub group_size: usize,
    /// Ground boxes per row minus one (a row is `grid_count` · 0.5 m wide).
    pub grid_count: usize,
    /// Steps between firings (a column created or replaced).
    pub period: u32,
}

impl RainLayout {
    /// Box2D's release benchmark: 5 rows × 40 columns × 5 ragdolls on rows
    /// 250 m wide, a column every 8 steps (at most 11 000 bodies).
    pub const FULL: RainLayout = RainLayout {
        rows: 5,
        columns: 40,
        group_size: 5,
        grid_count: 500,
        period: 8,
    };
    /// A small version for tests.
    pub const TINY: RainLayout = RainLayout {
        rows: 2,
        columns: 3,
        group_size: 2,
        grid_count: 40,
        period: 8,
    };

    /// Width of a ground row between its end boxes' centres, metres.
    pub fn span(&self) -> f32 {
        self.grid_count as f32 * RAIN_GRID_SIZE
    }

    /// Where the first ragdoll of the group at (`row`, `column`) stands when
    /// created: its feet, metres.
    pub fn group_origin(&self, row: usize, column: usize) -> Vec2 {
        let spacing = self.span() / self.columns as f32;
        Vec2::new(
            -0.5 * self.span() + spacing * (column as f32 + 0.5),
            RAIN_DROP_HEIGHT + RAIN_ROW_SPACING * row as f32,
        )
    }

    /// Index of the group at (`row`, `column`) in [`RainScript::groups`]:
    /// `row · columns + column`.
    pub fn group_index(&self, row: usize, column: usize) -> usize {
        row * self.columns + column
    }

    /// The firing before step `step` (0-based), if that step has one: every
    /// [`period`](Self::period) steps, the next column of groups, round robin;
    /// from the second round on, a column's groups already exist and are
    /// replaced. Box2D's `StepRain` fires the same columns on the same steps.
    pub fn firing(&self, step: u64) -> Option<RainFiring> {
        let period = u64::from(self.period.max(1));
        if !step.is_multiple_of(period) {
            return None;
        }
        let number = step / period;
        let columns = self.columns.max(1) as u64;
        Some(RainFiring {
            number,
            column: (number % columns) as usize,
            replaces: number >= columns,
        })
    }

    /// The most dynamic bodies the scene ever holds (every group present).
    pub fn max_bodies(&self) -> usize {
        self.rows * self.columns * self.group_size * crate::human::HUMAN_BODY_COUNT
    }
}

/// One firing of the rain: a column of groups created in every row, or
/// replaced (destroyed and created again at the same place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RainFiring {
    /// Firings before this one (the firing before step 0 is number 0).
    pub number: u64,
    /// The column fired.
    pub column: usize,
    /// Whether the column's groups exist already and are destroyed first.
    pub replaces: bool,
}

/// The rain's per-step script: owns the ragdoll groups and creates or
/// replaces a column of them every [`RainLayout::period`] steps.
#[derive(Debug)]
pub struct RainScript {
    layout: RainLayout,
    /// Groups by `row · columns + column`; `None` before their first firing.
    groups: Vec<Option<Vec<Human>>>,
    /// Firings done so far (the first happens when the scene is built).
    firings: u64,
}

impl RainScript {
    /// The ragdoll groups present, by `row · columns + column`.
    pub fn groups(&self) -> &[Option<Vec<Human>>] {
        &self.groups
    }

    /// Every ragdoll body alive, in group order.
    pub fn bodies(&self) -> Vec<BodyId> {
        self.groups
            .iter()
            .flatten()
            .flatten()
            .flat_map(|h| h.bones.iter().copied())
            .collect()
    }

    /// Creates (or replaces) the column of groups of `firing`, row by row.
    fn fire(&mut self, world: &mut World, firing: RainFiring) -> Result<()> {
        let column = firing.column;
        for row in 0..self.layout.rows {
            let index = self.layout.group_index(row, column);
            if let Some(old) = self.groups[index].take() {
                for h in &old {
                    h.destroy(world)?;
                }
            }
            let origin = self.layout.group_origin(row, column);
            let mut group = Vec::with_capacity(self.layout.group_size);
            for i in 0..self.layout.group_size {
                let feet = origin + Vec2::new(RAIN_HUMAN_SPACING * i as f32, 0.0);
                group.push(human(world, to_pos(feet), i as i32 + 1, RAIN_JOINTS)?);
            }
            self.groups[index] = Some(group);
        }
        Ok(())
    }
}

impl SceneScript for RainScript {
    /// Fires before the steps [`RainLayout::firing`] names (the firing for
    /// step 0 was done when the scene was built).
    fn before_step(&mut self, world: &mut World, step: u64) -> Result<()> {
        if let Some(firing) = self.layout.firing(step)
            && firing.number >= self.firings
        {
            self.fire(world, firing)?;
            self.firings = firing.number + 1;
        }
        Ok(())
    }

    fn status(&self) -> String {
        let groups = self.groups.iter().flatten().count();
        format!("{groups} ragdoll groups, {} firings", self.firings)
    }
}

/// The rain scene, as built.
#[derive(Debug)]
pub struct Rain {
    /// The static ground body holding every row.
    pub ground: BodyId,
    /// The script; run it before every step.
    pub script: RainScript,
}

impl Rain {
    /// The scene for the registry.
    pub fn into_scene(self) -> Scene {
        let bodies = self.script.bodies();
        Scene {
            ground: self.ground,
            focus: bodies.first().copied(),
            bodies,
            script: Some(Box::new(self.script)),
        }
    }
}

/// Builds the ground rows and the first column of ragdoll groups (the
/// firing before step 0).
pub fn rain(world: &mut World, layout: RainLayout) -> Result<Rain> {
    let ground = world.create_body(&BodyDef::default())?;
    let half = 0.5 * RAIN_GRID_SIZE;
    for row in 0..layout.rows {
        let y = RAIN_ROW_SPACING * row as f32;
        for i in 0..=layout.grid_count {
            let x = -0.5 * layout.span() + RAIN_GRID_SIZE * i as f32;
            let cell = make_offset_box(half, half, Vec2::new(x, y), Rot::IDENTITY)?;
            world.create_polygon_shape(ground, &ShapeDef::default(), &cell)?;
        }
    }
    let mut script = RainScript {
        layout,
        groups: vec![None; layout.rows * layout.columns],
        firings: 0,
    };
    script.before_step(world, 0)?;
    Ok(Rain { ground, script })
}
