//! Debug drawing with Bevy's gizmos (feature `debug-draw`).

use bevy::gizmos::config::GizmoConfigGroup;
use bevy::gizmos::gizmos::GizmoBuffer;
use bevy::prelude::*;
use impulse2d as i2;
use impulse2d::debug_draw::{DebugDraw, DrawOptions, HexColor, rounded_polygon_points};

use crate::PhysicsWorld;
use crate::systems::bv;

/// Draws every shape and joint of the physics world with gizmos after each frame's
/// update. The [`DrawOptions`] resource says what to draw (shapes and joints by default).
#[derive(Default)]
pub struct Impulse2dDebugPlugin;

/// What the debug drawing shows (the engine's options).
#[derive(Resource, Clone, Debug, Default, Deref, DerefMut)]
pub struct DebugDrawOptions(pub DrawOptions);

impl Plugin for Impulse2dDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DebugDrawOptions>()
            .add_systems(PostUpdate, draw);
    }
}

fn color(c: HexColor) -> Color {
    Color::srgb_u8((c.0 >> 16) as u8, (c.0 >> 8) as u8, c.0 as u8)
}

/// Draws `world`'s shapes, joints and whatever else `options` asks for into a gizmo
/// buffer (a system's [`Gizmos`] dereferences to one): outlines as line strips, a
/// circle's spoke and transforms' axes as lines, metres on the xy plane (z = 0).
pub fn draw_world<Config, Clear>(
    gizmos: &mut GizmoBuffer<Config, Clear>,
    world: &i2::World,
    options: &DrawOptions,
) where
    Config: GizmoConfigGroup,
    Clear: 'static + Send + Sync,
{
    world.draw(&mut GizmoDraw { gizmos }, options);
}

struct GizmoDraw<'a, Config: GizmoConfigGroup, Clear: 'static + Send + Sync> {
    gizmos: &'a mut GizmoBuffer<Config, Clear>,
}

impl<Config, Clear> DebugDraw for GizmoDraw<'_, Config, Clear>
where
    Config: GizmoConfigGroup,
    Clear: 'static + Send + Sync,
{
    fn draw_polygon(&mut self, vertices: &[i2::Vec2], c: HexColor) {
        let mut points: Vec<Vec2> = vertices.iter().map(|&p| bv(p)).collect();
        points.extend(points.first().copied());
        self.gizmos.linestrip_2d(points, color(c));
    }

    fn draw_solid_polygon(
        &mut self,
        transform: i2::Transform,
        vertices: &[i2::Vec2],
        radius: f32,
        c: HexColor,
    ) {
        let mut points: Vec<Vec2> = rounded_polygon_points(transform, vertices, radius, 0.3)
            .into_iter()
            .map(bv)
            .collect();
        points.extend(points.first().copied());
        self.gizmos.linestrip_2d(points, color(c));
    }

    fn draw_circle(&mut self, center: i2::Vec2, radius: f32, c: HexColor) {
        self.gizmos.circle_2d(bv(center), radius, color(c));
    }

    fn draw_solid_circle(&mut self, transform: i2::Transform, radius: f32, c: HexColor) {
        let center = bv(transform.p);
        self.gizmos.circle_2d(center, radius, color(c));
        let axis = bv(transform.q.rotate(i2::Vec2::new(radius, 0.0)));
        self.gizmos.line_2d(center, center + axis, color(c));
    }

    fn draw_solid_capsule(&mut self, p1: i2::Vec2, p2: i2::Vec2, radius: f32, c: HexColor) {
        let mut points: Vec<Vec2> =
            rounded_polygon_points(i2::Transform::IDENTITY, &[p1, p2], radius, 0.3)
                .into_iter()
                .map(bv)
                .collect();
        points.extend(points.first().copied());
        self.gizmos.linestrip_2d(points, color(c));
    }

    fn draw_segment(&mut self, p1: i2::Vec2, p2: i2::Vec2, c: HexColor) {
        self.gizmos.line_2d(bv(p1), bv(p2), color(c));
    }

    fn draw_transform(&mut self, t: i2::Transform) {
        let o = bv(t.p);
        self.gizmos.line_2d(
            o,
            o + bv(t.q.rotate(i2::Vec2::new(0.4, 0.0))),
            Color::srgb(1.0, 0.0, 0.0),
        );
        self.gizmos.line_2d(
            o,
            o + bv(t.q.rotate(i2::Vec2::new(0.0, 0.4))),
            Color::srgb(0.0, 1.0, 0.0),
        );
    }

    fn draw_point(&mut self, p: i2::Vec2, _size: f32, c: HexColor) {
        self.gizmos.circle_2d(bv(p), 0.05, color(c));
    }
}

fn draw(physics: Option<Res<PhysicsWorld>>, options: Res<DebugDrawOptions>, mut gizmos: Gizmos) {
    let Some(physics) = physics else { return };
    draw_world(&mut gizmos, &physics.world, &options.0);
}
