//! The engine's debug drawing recorded as a flat command buffer of floats,
//! for a canvas (or WebGL) renderer in JavaScript.
//!
//! Each command starts with its code, then a colour `0xRRGGBB` (exact in an
//! `f32`), then its numbers, all in world metres:
//!
//! | code | command | numbers after the colour |
//! | --- | --- | --- |
//! | 1 | polygon outline | `n, x0, y0, …` |
//! | 2 | filled polygon (world frame) | `n, radius, x0, y0, …` |
//! | 3 | circle outline | `cx, cy, r` |
//! | 4 | filled circle | `cx, cy, r, cos, sin` |
//! | 5 | filled capsule | `x1, y1, x2, y2, r` |
//! | 6 | segment | `x1, y1, x2, y2` |
//! | 7 | point | `x, y, size in pixels` |
//!
//! A transform (frame axes) is drawn as two segments.

use impulse2d::collision::Aabb;
use impulse2d::{DebugDraw, DrawOptions, HexColor, Transform, Vec2 as V2, World};
use wasm_bindgen::prelude::*;

/// Bits of the `flags` argument of `World.debugDraw`.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug)]
pub enum DrawFlags {
    /// Shapes, filled by body state.
    Shapes = 1,
    /// Joints.
    Joints = 2,
    /// Each shape's bounding box.
    Aabbs = 4,
    /// Contact points.
    Contacts = 8,
    /// Contact normals.
    ContactNormals = 16,
    /// Contact normal impulses.
    ContactImpulses = 32,
    /// Awake islands' bounding boxes.
    Islands = 64,
    /// Contact points coloured by their constraint-graph colour.
    GraphColors = 128,
    /// Centres of mass.
    Mass = 256,
}

struct Recorder {
    out: Vec<f32>,
}

impl Recorder {
    fn head(&mut self, code: u8, color: HexColor) {
        self.out.push(f32::from(code));
        self.out.push(color.0 as f32);
    }

    fn push(&mut self, p: V2) {
        self.out.push(p.x);
        self.out.push(p.y);
    }
}

impl DebugDraw for Recorder {
    fn draw_polygon(&mut self, vertices: &[V2], color: HexColor) {
        self.head(1, color);
        self.out.push(vertices.len() as f32);
        for &v in vertices {
            self.push(v);
        }
    }

    fn draw_solid_polygon(
        &mut self,
        transform: Transform,
        vertices: &[V2],
        radius: f32,
        color: HexColor,
    ) {
        self.head(2, color);
        self.out.push(vertices.len() as f32);
        self.out.push(radius);
        for &v in vertices {
            self.push(transform.apply(v));
        }
    }

    fn draw_circle(&mut self, center: V2, radius: f32, color: HexColor) {
        self.head(3, color);
        self.push(center);
        self.out.push(radius);
    }

    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: HexColor) {
        self.head(4, color);
        self.push(transform.p);
        self.out.push(radius);
        self.out.push(transform.q.c);
        self.out.push(transform.q.s);
    }

    fn draw_solid_capsule(&mut self, p1: V2, p2: V2, radius: f32, color: HexColor) {
        self.head(5, color);
        self.push(p1);
        self.push(p2);
        self.out.push(radius);
    }

    fn draw_segment(&mut self, p1: V2, p2: V2, color: HexColor) {
        self.head(6, color);
        self.push(p1);
        self.push(p2);
    }

    fn draw_transform(&mut self, transform: Transform) {
        let axis = 0.2;
        let x = transform.apply(V2::new(axis, 0.0));
        let y = transform.apply(V2::new(0.0, axis));
        self.draw_segment(transform.p, x, HexColor(0xff0000));
        self.draw_segment(transform.p, y, HexColor(0x00ff00));
    }

    fn draw_point(&mut self, p: V2, size: f32, color: HexColor) {
        self.head(7, color);
        self.push(p);
        self.out.push(size);
    }
}

/// Records `world`'s debug drawing with the parts `flags` asks for, limited to
/// the box `lower`–`upper`.
pub(crate) fn record(world: &World, flags: u32, lower: V2, upper: V2) -> Vec<f32> {
    let on = |f: DrawFlags| flags & f as u32 != 0;
    let options = DrawOptions {
        draw_shapes: on(DrawFlags::Shapes),
        draw_joints: on(DrawFlags::Joints),
        draw_aabbs: on(DrawFlags::Aabbs),
        draw_contacts: on(DrawFlags::Contacts),
        draw_contact_normals: on(DrawFlags::ContactNormals),
        draw_contact_impulses: on(DrawFlags::ContactImpulses),
        draw_islands: on(DrawFlags::Islands),
        draw_graph_colors: on(DrawFlags::GraphColors),
        draw_mass: on(DrawFlags::Mass),
        drawing_bounds: Aabb::new(lower, upper),
        ..DrawOptions::default()
    };
    let mut recorder = Recorder { out: Vec::new() };
    world.draw(&mut recorder, &options);
    recorder.out
}
