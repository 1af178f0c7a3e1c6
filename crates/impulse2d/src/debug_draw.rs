//! Debug drawing: the [`DebugDraw`] trait that renderers implement, the
//! [`HexColor`] type with a [`Palette`] of colours by body state, and the
//! [`DrawOptions`] that say what to draw.
//!
//! The engine has no rendering dependency. A renderer (the `impulse2d` command's
//! picture writer, the interactive testbed) implements [`DebugDraw`]; every
//! method has a no-op default, so an implementation only overrides what it can
//! draw. Coordinates are world coordinates in metres, y up; the renderer maps them
//! to its pixels.
//!
//! # References
//! - Box2D v3, `b2DebugDraw` and `b2HexColor` (`include/box2d/types.h`,
//!   `include/box2d/math_functions.h`), and the drawing part of `src/world.c`.

use crate::collision::Aabb;
use crate::math::{Rot, Transform, Vec2};
use crate::pos::{to_aabb, to_transform, to_vec2};

/// A colour as `0xRRGGBB`, eight bits per channel. Opaque: transparency is the
/// renderer's choice (a fill is usually drawn lighter than its outline).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HexColor(pub u32);

impl HexColor {
    /// Black.
    pub const BLACK: HexColor = HexColor(0x000000);
    /// White.
    pub const WHITE: HexColor = HexColor(0xFFFFFF);
    /// Red.
    pub const RED: HexColor = HexColor(0xFF0000);
    /// Green.
    pub const GREEN: HexColor = HexColor(0x00FF00);
    /// Blue.
    pub const BLUE: HexColor = HexColor(0x0000FF);
    /// Yellow.
    pub const YELLOW: HexColor = HexColor(0xFFFF00);
    /// Cyan.
    pub const CYAN: HexColor = HexColor(0x00FFFF);
    /// Magenta.
    pub const MAGENTA: HexColor = HexColor(0xFF00FF);
    /// Grey (CSS `gray`).
    pub const GRAY: HexColor = HexColor(0x808080);
    /// Light grey (CSS `lightgray`).
    pub const LIGHT_GRAY: HexColor = HexColor(0xD3D3D3);
    /// Dark grey (CSS `dimgray`).
    pub const DIM_GRAY: HexColor = HexColor(0x696969);
    /// Pale green (CSS `palegreen`).
    pub const PALE_GREEN: HexColor = HexColor(0x98FB98);
    /// Pink (CSS `pink`).
    pub const PINK: HexColor = HexColor(0xFFC0CB);
    /// Royal blue (CSS `royalblue`).
    pub const ROYAL_BLUE: HexColor = HexColor(0x4169E1);
    /// Wheat (CSS `wheat`).
    pub const WHEAT: HexColor = HexColor(0xF5DEB3);
    /// Turquoise (CSS `turquoise`).
    pub const TURQUOISE: HexColor = HexColor(0x40E0D0);
    /// Salmon (CSS `salmon`).
    pub const SALMON: HexColor = HexColor(0xFA8072);
    /// Orange (CSS `orange`).
    pub const ORANGE: HexColor = HexColor(0xFFA500);
    /// Violet (CSS `violet`).
    pub const VIOLET: HexColor = HexColor(0xEE82EE);
    /// Light sea green (CSS `lightseagreen`).
    pub const LIGHT_SEA_GREEN: HexColor = HexColor(0x20B2AA);
    /// Khaki (CSS `khaki`).
    pub const KHAKI: HexColor = HexColor(0xF0E68C);
    /// Firebrick (CSS `firebrick`).
    pub const FIREBRICK: HexColor = HexColor(0xB22222);

    /// The red channel, 0–255.
    #[inline]
    pub const fn r(self) -> u8 {
        (self.0 >> 16) as u8
    }

    /// The green channel, 0–255.
    #[inline]
    pub const fn g(self) -> u8 {
        (self.0 >> 8) as u8
    }

    /// The blue channel, 0–255.
    #[inline]
    pub const fn b(self) -> u8 {
        self.0 as u8
    }

    /// Makes a colour from its channels.
    #[inline]
    pub const fn from_rgb(r: u8, g: u8, b: u8) -> HexColor {
        HexColor(((r as u32) << 16) | ((g as u32) << 8) | b as u32)
    }

    /// The channels as `[r, g, b]` in `0.0..=1.0`.
    #[inline]
    pub fn to_rgb_f32(self) -> [f32; 3] {
        [
            f32::from(self.r()) / 255.0,
            f32::from(self.g()) / 255.0,
            f32::from(self.b()) / 255.0,
        ]
    }

    /// The colour as CSS text, `#rrggbb`.
    pub fn to_css(self) -> String {
        format!("#{:06x}", self.0 & 0xFF_FFFF)
    }
}

/// The colours the world uses for each thing it draws. Renderers and tests read
/// them from here, so that a picture can be checked pixel by pixel.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    /// Shapes of awake dynamic bodies.
    pub awake: HexColor,
    /// Shapes of sleeping bodies.
    pub sleeping: HexColor,
    /// Shapes of static bodies.
    pub static_body: HexColor,
    /// Shapes of kinematic bodies.
    pub kinematic: HexColor,
    /// Shapes of disabled bodies.
    pub disabled: HexColor,
    /// Sensor shapes (drawn regardless of the body's state).
    pub sensor: HexColor,
    /// Shapes of awake bullet bodies.
    pub bullet: HexColor,
    /// Joints.
    pub joint: HexColor,
    /// Contact points that began touching this step.
    pub contact_added: HexColor,
    /// Contact points that persist from the previous step.
    pub contact_point: HexColor,
    /// Speculative contact points (not yet touching).
    pub contact_speculative: HexColor,
    /// Contact normals.
    pub normal: HexColor,
    /// Contact normal impulses.
    pub impulse: HexColor,
    /// Contact friction impulses.
    pub friction: HexColor,
    /// Bounding boxes.
    pub aabb: HexColor,
    /// Centres of mass.
    pub mass: HexColor,
    /// Background (for renderers that paint one).
    pub background: HexColor,
    /// One colour per constraint-graph colour, cycled when there are more
    /// graph colours than entries; the last entry is for the overflow colour.
    pub graph_colors: [HexColor; 12],
}

impl Default for Palette {
    fn default() -> Palette {
        Palette {
            awake: HexColor::PINK,
            sleeping: HexColor::GRAY,
            static_body: HexColor::PALE_GREEN,
            kinematic: HexColor::ROYAL_BLUE,
            disabled: HexColor::DIM_GRAY,
            sensor: HexColor::WHEAT,
            bullet: HexColor::TURQUOISE,
            joint: HexColor::LIGHT_SEA_GREEN,
            contact_added: HexColor::GREEN,
            contact_point: HexColor::BLUE,
            contact_speculative: HexColor::DIM_GRAY,
            normal: HexColor::YELLOW,
            impulse: HexColor::MAGENTA,
            friction: HexColor::ORANGE,
            aabb: HexColor::VIOLET,
            mass: HexColor::KHAKI,
            background: HexColor(0x1C1C22),
            graph_colors: [
                HexColor::RED,
                HexColor::ORANGE,
                HexColor::YELLOW,
                HexColor::GREEN,
                HexColor::CYAN,
                HexColor::BLUE,
                HexColor::VIOLET,
                HexColor::PINK,
                HexColor::WHEAT,
                HexColor::TURQUOISE,
                HexColor::SALMON,
                HexColor::WHITE,
            ],
        }
    }
}

/// What [`World::draw`] draws. `Default` draws shapes only, over
/// an unbounded region.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOptions {
    /// Draw shapes, filled by body state.
    ///
    /// Box2D: `b2DebugDraw.drawShapes`.
    pub draw_shapes: bool,
    /// Draw joints.
    ///
    /// Box2D: `b2DebugDraw.drawJoints`.
    pub draw_joints: bool,
    /// Draw each shape's bounding box.
    ///
    /// Box2D: `b2DebugDraw.drawBounds`.
    pub draw_aabbs: bool,
    /// Draw contact points.
    ///
    /// Box2D: `b2DebugDraw.drawContacts`.
    pub draw_contacts: bool,
    /// Draw contact normals (needs `draw_contacts`'s points, not its flag).
    ///
    /// Box2D: `b2DebugDraw.drawContactNormals`.
    pub draw_contact_normals: bool,
    /// Draw contact normal impulses, scaled by [`DrawOptions::impulse_scale`].
    ///
    /// Box2D: `b2DebugDraw.drawContactForces`.
    pub draw_contact_impulses: bool,
    /// Draw contact friction impulses, scaled by [`DrawOptions::impulse_scale`].
    ///
    /// Box2D: `b2DebugDraw.drawFrictionForces`.
    pub draw_friction_impulses: bool,
    /// Draw the bounding box of each awake island.
    ///
    /// Box2D: `b2DebugDraw.drawIslands`.
    pub draw_islands: bool,
    /// Colour contact points by their constraint-graph colour.
    ///
    /// Box2D: `b2DebugDraw.drawGraphColors`.
    pub draw_graph_colors: bool,
    /// Draw each dynamic body's centre of mass and its mass.
    ///
    /// Box2D: `b2DebugDraw.drawMass`.
    pub draw_mass: bool,
    /// Draw each named body's name beside its centre of mass.
    ///
    /// Box2D: `b2DebugDraw.drawBodyNames`.
    pub draw_body_names: bool,
    /// Draw each chain segment's outward normal (0.2 m) at its middle.
    ///
    /// Box2D: `b2DebugDraw.drawChainNormals`.
    pub draw_chain_normals: bool,
    /// Write each contact point's feature id beside it (with `draw_contacts`).
    ///
    /// Box2D: `b2DebugDraw.drawContactFeatures`.
    pub draw_contact_features: bool,
    /// Draw each joint's reaction force (a line from the anchors' midpoint,
    /// 1 mm per newton) and write its reaction torque (with `draw_joints`).
    ///
    /// Box2D: `b2DebugDraw.drawJointExtras`.
    pub draw_joint_extras: bool,
    /// Draw contact points where they are anchored on shape A's body (its
    /// centre of mass plus the point's anchor) instead of at the manifold
    /// point.
    ///
    /// Box2D: `b2DebugDraw.drawAnchorA`.
    pub draw_anchor_a: bool,
    /// Size of the joints' anchor points relative to the default (5 pixels).
    ///
    /// Box2D: `b2DebugDraw.jointScale`.
    pub joint_scale: f32,
    /// Only things overlapping this box are drawn, metres.
    ///
    /// Box2D: `b2DebugDraw.drawingBounds`.
    pub drawing_bounds: Aabb,
    /// Length drawn per unit of impulse, metres per newton-second.
    ///
    /// Box2D: `b2DebugDraw.forceScale`.
    pub impulse_scale: f32,
    /// Length of a drawn contact normal, metres.
    pub normal_length: f32,
    /// The colours.
    pub palette: Palette,
}

/// Box2D: `b2DefaultDebugDraw`.
impl Default for DrawOptions {
    fn default() -> DrawOptions {
        DrawOptions {
            draw_shapes: true,
            draw_joints: true,
            draw_aabbs: false,
            draw_contacts: false,
            draw_contact_normals: false,
            draw_contact_impulses: false,
            draw_friction_impulses: false,
            draw_islands: false,
            draw_graph_colors: false,
            draw_mass: false,
            draw_body_names: false,
            draw_chain_normals: false,
            draw_contact_features: false,
            draw_anchor_a: false,
            draw_joint_extras: false,
            joint_scale: 1.0,
            drawing_bounds: Aabb::new(
                Vec2::new(-crate::core::HUGE, -crate::core::HUGE),
                Vec2::new(crate::core::HUGE, crate::core::HUGE),
            ),
            impulse_scale: 1.0,
            normal_length: 0.5,
            palette: Palette::default(),
        }
    }
}

/// A drawing surface for debug pictures. All methods do nothing by default.
///
/// Positions and radii are metres in world coordinates (y up). `draw_point`'s
/// size is in pixels, so that points stay visible at any zoom.
pub trait DebugDraw {
    /// A closed polygon outline through `vertices` (world coordinates).
    ///
    /// Box2D: `b2DebugDraw.DrawPolygonFcn`.
    fn draw_polygon(&mut self, vertices: &[Vec2], color: HexColor) {
        let _ = (vertices, color);
    }

    /// A filled convex polygon: `vertices` are in the body frame given by
    /// `transform`, and the polygon is rounded by `radius` metres (0 for sharp
    /// corners).
    ///
    /// Box2D: `b2DebugDraw.DrawSolidPolygonFcn`.
    fn draw_solid_polygon(
        &mut self,
        transform: Transform,
        vertices: &[Vec2],
        radius: f32,
        color: HexColor,
    ) {
        let _ = (transform, vertices, radius, color);
    }

    /// A circle outline around `center` with `radius` metres.
    ///
    /// Box2D: `b2DebugDraw.DrawCircleFcn`.
    fn draw_circle(&mut self, center: Vec2, radius: f32, color: HexColor) {
        let _ = (center, radius, color);
    }

    /// A filled circle at `transform.p`, with a line showing its rotation.
    ///
    /// Box2D: `b2DebugDraw.DrawSolidCircleFcn`.
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: HexColor) {
        let _ = (transform, radius, color);
    }

    /// A filled capsule: the segment from `p1` to `p2` swept by `radius` metres.
    ///
    /// Box2D: `b2DebugDraw.DrawSolidCapsuleFcn`.
    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: HexColor) {
        let _ = (p1, p2, radius, color);
    }

    /// A line segment.
    ///
    /// Box2D: `b2DebugDraw.DrawLineFcn`.
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: HexColor) {
        let _ = (p1, p2, color);
    }

    /// A coordinate frame: its x axis in red, its y axis in green.
    ///
    /// Box2D: `b2DebugDraw.DrawTransformFcn`.
    fn draw_transform(&mut self, transform: Transform) {
        let _ = transform;
    }

    /// A dot `size` pixels across.
    ///
    /// Box2D: `b2DebugDraw.DrawPointFcn`.
    fn draw_point(&mut self, p: Vec2, size: f32, color: HexColor) {
        let _ = (p, size, color);
    }

    /// Text anchored at `p`.
    ///
    /// Box2D: `b2DebugDraw.DrawStringFcn`.
    fn draw_string(&mut self, p: Vec2, text: &str, color: HexColor) {
        let _ = (p, text, color);
    }
}

/// The outline of a rounded convex polygon as points in world coordinates, for
/// renderers that can only fill point lists: `vertices` (counter-clockwise, in
/// the frame `transform`) grown by `radius` metres. With `radius == 0` these are
/// just the transformed vertices; two vertices give a capsule, one a circle.
/// Rounded corners get a point at least every `arc_step` radians (clamped to
/// 0.01–1).
pub fn rounded_polygon_points(
    transform: Transform,
    vertices: &[Vec2],
    radius: f32,
    arc_step: f32,
) -> Vec<Vec2> {
    let world: Vec<Vec2> = vertices.iter().map(|&v| transform.apply(v)).collect();
    let n = world.len();
    if radius.is_nan() || radius <= 0.0 || n == 0 {
        return world;
    }
    let step = arc_step.clamp(0.01, 1.0);
    let mut out = Vec::with_capacity(n * 8);
    if n == 1 {
        push_arc(
            &mut out,
            world[0],
            Vec2::new(radius, 0.0),
            2.0 * crate::math::PI,
            step,
        );
        return out;
    }
    // Outward normal of the edge from i to i + 1 (counter-clockwise winding).
    let normal = |i: usize| (world[(i + 1) % n] - world[i]).normalize().right_perp();
    for (i, &corner) in world.iter().enumerate() {
        let n_in = normal((i + n - 1) % n);
        let n_out = normal(i);
        // Turn from the incoming to the outgoing normal, in [0, 2π).
        let mut sweep = crate::math::atan2(n_in.cross(n_out), n_in.dot(n_out));
        if sweep < 0.0 {
            sweep += 2.0 * crate::math::PI;
        }
        push_arc(&mut out, corner, radius * n_in, sweep, step);
    }
    out
}

/// Points on the arc around `center` starting at `center + start` and turning
/// counter-clockwise by `sweep` radians, both ends included.
fn push_arc(out: &mut Vec<Vec2>, center: Vec2, start: Vec2, sweep: f32, step: f32) {
    let count = ((sweep / step).ceil() as usize).clamp(1, 256);
    let turn = Rot::from_angle(sweep / count as f32);
    let mut r = start;
    for _ in 0..=count {
        out.push(center + r);
        r = turn.rotate(r);
    }
}

// ---------------------------------------------------------------------------
// Drawing a world.

use crate::body::{BodyType, flags as body_flags};
use crate::id::NULL_INDEX;
use crate::shape::ShapeGeometry;
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET, FIRST_SLEEPING_SET};
use crate::world::World;

impl World {
    /// Draws the world through `draw`: shapes filled by body state, and, as
    /// `options` asks, bounding boxes, centres of mass, contact points, normals,
    /// impulses and awake island boxes. Bodies are visited in id order; only
    /// things overlapping `options.drawing_bounds` are drawn.
    ///
    /// Box2D: `b2World_Draw`.
    pub fn draw(&self, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        let bounds = options.drawing_bounds;
        let palette = &options.palette;
        if options.draw_shapes || options.draw_aabbs {
            for (bi, body) in self.bodies.iter().enumerate() {
                if body.id == NULL_INDEX {
                    continue;
                }
                let xf = to_transform(self.body_sim(bi).transform);
                let state_color = self.body_state_color(bi, palette);
                let mut si = body.head_shape_id;
                while si != NULL_INDEX {
                    let shape = &self.shapes[si as usize];
                    si = shape.next_shape_id;
                    if !to_aabb(shape.fat_aabb).overlaps(&bounds) {
                        continue;
                    }
                    if options.draw_shapes {
                        let color = if shape.is_sensor {
                            palette.sensor
                        } else {
                            state_color
                        };
                        draw_geometry(draw, &shape.geometry, xf, color);
                        if let (true, ShapeGeometry::ChainSegment(c)) =
                            (options.draw_chain_normals, &shape.geometry)
                        {
                            let (p1, p2) = (xf.apply(c.segment.point1), xf.apply(c.segment.point2));
                            let mid = 0.5 * (p1 + p2);
                            let n = (p2 - p1).normalize().right_perp();
                            draw.draw_segment(mid, mid + 0.2 * n, palette.normal);
                        }
                    }
                    if options.draw_aabbs {
                        draw_aabb(draw, to_aabb(shape.fat_aabb), palette.aabb);
                    }
                }
            }
        }

        if options.draw_mass {
            for (bi, body) in self.bodies.iter().enumerate() {
                if body.id == NULL_INDEX || body.body_type != BodyType::Dynamic {
                    continue;
                }
                let sim = self.body_sim(bi);
                let center = to_vec2(sim.center);
                if !bounds.contains_point(center) {
                    continue;
                }
                draw.draw_transform(Transform::new(center, sim.transform.q));
                let label = Vec2::new(center.x + 0.1, center.y + 0.1);
                draw.draw_string(label, &format!("{:.2} kg", body.mass), palette.mass);
            }
        }

        if options.draw_body_names {
            for (bi, body) in self.bodies.iter().enumerate() {
                if body.id == NULL_INDEX || body.name.is_empty() {
                    continue;
                }
                let sim = self.body_sim(bi);
                let center = to_vec2(sim.center);
                if bounds.contains_point(center) {
                    let label = center + sim.transform.q.rotate(Vec2::new(0.1, 0.1));
                    draw.draw_string(label, &body.name, palette.joint);
                }
            }
        }

        if options.draw_joints {
            self.draw_joints(draw, options);
        }

        if options.draw_contacts
            || options.draw_contact_normals
            || options.draw_contact_impulses
            || options.draw_friction_impulses
        {
            self.draw_contacts(draw, options);
        }

        if options.draw_islands {
            for island_sim in &self.solver_sets[AWAKE_SET as usize].island_sims {
                let island = &self.islands[island_sim.island_id as usize];
                let mut aabb: Option<Aabb> = None;
                let mut bi = island.head_body;
                while bi != NULL_INDEX {
                    let body = &self.bodies[bi as usize];
                    let mut si = body.head_shape_id;
                    while si != NULL_INDEX {
                        let shape = &self.shapes[si as usize];
                        let b = to_aabb(shape.aabb);
                        aabb = Some(aabb.map_or(b, |a| a.union(&b)));
                        si = shape.next_shape_id;
                    }
                    bi = body.island_next;
                }
                if let Some(a) = aabb.filter(|a| a.overlaps(&bounds)) {
                    draw_aabb(draw, a, palette.awake);
                }
            }
        }
    }

    /// The colour of a body's shapes by its state.
    fn body_state_color(&self, body_index: usize, palette: &Palette) -> HexColor {
        let body = &self.bodies[body_index];
        if body.set_index >= FIRST_SLEEPING_SET {
            palette.sleeping
        } else if body.set_index == DISABLED_SET {
            palette.disabled
        } else {
            match body.body_type {
                BodyType::Static => palette.static_body,
                BodyType::Kinematic => palette.kinematic,
                BodyType::Dynamic if body.flags & body_flags::IS_BULLET != 0 => palette.bullet,
                BodyType::Dynamic => palette.awake,
            }
        }
    }

    /// Every joint whose anchors are in the drawing bounds: lines from body A's
    /// origin to its anchor, between the anchors and from body B's anchor to
    /// its origin, and the anchors as points. A mouse joint is drawn from its
    /// target to the pulled point of body B (Box2D v3.1's drawing): body A is
    /// only a handle, wherever it is.
    fn draw_joints(&self, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        let color = options.palette.joint;
        for (ji, joint) in self.joints.joints.iter().enumerate() {
            if joint.joint_id != ji as u32 {
                continue; // a free slot
            }
            let sim = self.joint_sim(ji);
            let xf_a = to_transform(self.body_sim(sim.base.body_id_a as usize).transform);
            let xf_b = to_transform(self.body_sim(sim.base.body_id_b as usize).transform);
            let mouse_target = match &sim.kind {
                crate::joint::JointKind::Mouse(m) => Some(m.target),
                _ => None,
            };
            let pa = mouse_target.unwrap_or_else(|| xf_a.apply(sim.base.local_frame_a.p));
            let pb = xf_b.apply(sim.base.local_frame_b.p);
            let bounds = options.drawing_bounds;
            if !bounds.contains_point(pa) && !bounds.contains_point(pb) {
                continue;
            }
            if mouse_target.is_none() {
                draw.draw_segment(xf_a.p, pa, color);
            }
            draw.draw_segment(pa, pb, color);
            if mouse_target.is_none() {
                draw.draw_segment(xf_b.p, pb, color);
            }
            let size = 5.0 * options.joint_scale;
            draw.draw_point(pa, size, color);
            draw.draw_point(pb, size, color);
            if options.draw_joint_extras {
                let inv_h = self.joints.inv_h;
                let force = crate::joint::solver::constraint_force(
                    sim,
                    self.body_sim(sim.base.body_id_a as usize).transform,
                    self.body_sim(sim.base.body_id_b as usize).transform,
                    inv_h,
                );
                let torque = crate::joint::solver::constraint_torque(sim, inv_h);
                let mid = 0.5 * (pa + pb);
                draw.draw_segment(mid, mid + 0.001 * force, options.palette.impulse);
                draw.draw_string(mid, &format!("{torque:.1} N·m"), color);
            }
        }
    }

    /// Contact points of the awake touching contacts (those in the constraint
    /// graph), colour by colour.
    fn draw_contacts(&self, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        let palette = &options.palette;
        let bounds = options.drawing_bounds;
        let graph_colors = &palette.graph_colors;
        for (color_index, color) in self.graph.colors.iter().enumerate() {
            let graph_color = if color_index + 1 == self.graph.colors.len() {
                graph_colors[graph_colors.len() - 1]
            } else {
                graph_colors[color_index % (graph_colors.len() - 1)]
            };
            for contact in &color.contact_sims {
                let manifold = &contact.manifold;
                let normal = manifold.normal;
                let body_a = self.shapes[contact.shape_id_a as usize].body_id as usize;
                let center_a = to_vec2(self.body_sim(body_a).center);
                for mp in manifold.points() {
                    let p = if options.draw_anchor_a {
                        center_a + mp.anchor_a
                    } else {
                        mp.point
                    };
                    if !bounds.contains_point(p) {
                        continue;
                    }
                    if options.draw_contacts {
                        let c = if options.draw_graph_colors {
                            graph_color
                        } else if mp.separation > crate::core::LINEAR_SLOP {
                            palette.contact_speculative
                        } else if mp.persisted {
                            palette.contact_point
                        } else {
                            palette.contact_added
                        };
                        draw.draw_point(p, if options.draw_graph_colors { 7.0 } else { 5.0 }, c);
                        if options.draw_contact_features {
                            draw.draw_string(p, &mp.id.to_string(), palette.friction);
                        }
                    }
                    if options.draw_contact_normals {
                        let tip = p + options.normal_length * normal;
                        draw.draw_segment(p, tip, palette.normal);
                    }
                    if options.draw_contact_impulses {
                        let tip = p + (options.impulse_scale * mp.normal_impulse) * normal;
                        draw.draw_segment(p, tip, palette.impulse);
                    }
                    if options.draw_friction_impulses {
                        let tangent = normal.right_perp();
                        let tip = p + (options.impulse_scale * mp.tangent_impulse) * tangent;
                        draw.draw_segment(p, tip, palette.friction);
                    }
                }
            }
        }
    }

    /// The region of the world worth showing, metres (for fitting a camera):
    /// the boxes of every non-static body's shapes, plus the static shapes
    /// around them: whole when a shape is no more than twice their size (or
    /// 20 m), else clipped to a margin around them (a quarter of their size, at
    /// least 1 m; downwards, at least their size), so that a stack shows its
    /// ground but not all of a 200 m floor. At least 2 m across. With no moving
    /// body, all static geometry. `None` for an empty world.
    pub fn view_bounds(&self) -> Option<Aabb> {
        let grow = |slot: &mut Option<Aabb>, b: Aabb| {
            *slot = Some(slot.map_or(b, |a| a.union(&b)));
        };
        let is_static = |shape: &crate::shape::Shape| {
            self.bodies[shape.body_id as usize].body_type == BodyType::Static
        };
        let live = || self.shapes.iter().filter(|s| s.id != NULL_INDEX);
        let mut moving = None;
        for shape in live().filter(|s| !is_static(s)) {
            grow(&mut moving, to_aabb(shape.aabb));
        }
        let mut view = moving;
        if let Some(m) = moving {
            let size = (m.upper.x - m.lower.x).max(m.upper.y - m.lower.y);
            let margin = (0.25 * size).max(1.0);
            let near = Aabb::new(
                m.lower - Vec2::new(margin, margin.max(size)),
                m.upper + Vec2::new(margin, margin),
            );
            let small = (2.0 * size).max(20.0);
            for shape in live().filter(|s| is_static(s)) {
                let a = to_aabb(shape.aabb);
                if (a.upper.x - a.lower.x).max(a.upper.y - a.lower.y) <= small {
                    grow(&mut view, a);
                } else {
                    let clipped = Aabb::new(a.lower.max(near.lower), a.upper.min(near.upper));
                    if clipped.is_valid() {
                        grow(&mut view, clipped);
                    }
                }
            }
        } else {
            for shape in live() {
                grow(&mut view, to_aabb(shape.aabb));
            }
        }
        let view = view?;
        let half = view.extents().max(Vec2::new(1.0, 1.0));
        Some(Aabb::new(view.center() - half, view.center() + half))
    }

    /// The ids of every body, in id order. (A small accessor for renderers and
    /// tools; it belongs with the body functions.)
    pub fn body_ids(&self) -> impl Iterator<Item = crate::id::BodyId> + '_ {
        self.bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.id != NULL_INDEX)
            .map(|(i, _)| self.make_body_id(i as u32))
    }
}

/// Draws one shape's geometry with its body transform.
fn draw_geometry(
    draw: &mut dyn DebugDraw,
    geometry: &ShapeGeometry,
    xf: Transform,
    color: HexColor,
) {
    match geometry {
        ShapeGeometry::Circle(c) => {
            draw.draw_solid_circle(Transform::new(xf.apply(c.center), xf.q), c.radius, color);
        }
        ShapeGeometry::Capsule(c) => {
            draw.draw_solid_capsule(xf.apply(c.center1), xf.apply(c.center2), c.radius, color);
        }
        ShapeGeometry::Polygon(p) => {
            draw.draw_solid_polygon(xf, p.vertices(), p.radius(), color);
        }
        ShapeGeometry::Segment(s) => {
            draw.draw_segment(xf.apply(s.point1), xf.apply(s.point2), color);
        }
        ShapeGeometry::ChainSegment(c) => {
            draw.draw_segment(
                xf.apply(c.segment.point1),
                xf.apply(c.segment.point2),
                color,
            );
        }
    }
}

/// Draws a box outline.
fn draw_aabb(draw: &mut dyn DebugDraw, a: Aabb, color: HexColor) {
    let corners = [
        a.lower,
        Vec2::new(a.upper.x, a.lower.y),
        a.upper,
        Vec2::new(a.lower.x, a.upper.y),
    ];
    draw.draw_polygon(&corners, color);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDef, BodyId, BodyType, World};

    use crate::test_build as build;

    #[test]
    fn channels_round_trip() {
        let c = HexColor::from_rgb(0x12, 0x34, 0x56);
        assert_eq!(c, HexColor(0x123456));
        assert_eq!((c.r(), c.g(), c.b()), (0x12, 0x34, 0x56));
        assert_eq!(c.to_css(), "#123456");
        assert_eq!(HexColor::WHITE.to_rgb_f32(), [1.0, 1.0, 1.0]);
    }

    #[test]
    fn palette_states_are_distinct() {
        let p = Palette::default();
        let states = [
            p.awake,
            p.sleeping,
            p.static_body,
            p.kinematic,
            p.disabled,
            p.sensor,
            p.bullet,
            p.background,
        ];
        for (i, a) in states.iter().enumerate() {
            for b in &states[i + 1..] {
                assert_ne!(a, b, "two body states share a colour");
            }
        }
    }

    #[test]
    fn default_draw_is_a_no_op() {
        struct Nothing;
        impl DebugDraw for Nothing {}
        let mut d = Nothing;
        d.draw_segment(Vec2::ZERO, Vec2::X, HexColor::RED);
        d.draw_string(Vec2::ZERO, "x", HexColor::RED);
        let o = DrawOptions::default();
        assert!(o.draw_shapes && !o.draw_aabbs);
        assert!(o.drawing_bounds.contains_point(Vec2::new(1000.0, -1000.0)));
    }

    #[test]
    fn sharp_polygon_points_are_its_vertices() {
        let v = crate::test_points::points([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
        let xf = Transform::new(Vec2::new(2.0, 3.0), Rot::IDENTITY);
        let o = rounded_polygon_points(xf, &v, 0.0, 0.1);
        assert_eq!(
            o,
            vec![
                Vec2::new(2.0, 3.0),
                Vec2::new(3.0, 3.0),
                Vec2::new(2.0, 4.0)
            ]
        );
    }

    #[test]
    fn capsule_points_stay_at_radius_from_the_segment() {
        // Capsule from (-1, 0) to (1, 0), radius 0.5: every point lies 0.5 from the
        // segment, and the outline reaches x = ±1.5 and y = ±0.5.
        let v = [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)];
        let o = rounded_polygon_points(Transform::IDENTITY, &v, 0.5, 0.2);
        let (mut max_x, mut max_y) = (0.0f32, 0.0f32);
        for p in &o {
            let d = (*p - Vec2::new(p.x.clamp(-1.0, 1.0), 0.0)).length();
            assert!((d - 0.5).abs() < 1e-5, "point {p:?} at distance {d}");
            max_x = max_x.max(p.x.abs());
            max_y = max_y.max(p.y.abs());
        }
        assert!((max_x - 1.5).abs() < 1e-5 && (max_y - 0.5).abs() < 1e-5);
        // A rounded unit square: 4 quarter arcs, at most 0.2 rad apart -> 8 steps each.
        let sq = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ];
        let o = rounded_polygon_points(Transform::IDENTITY, &sq, 0.25, 0.2);
        assert_eq!(o.len(), 4 * 9);
        assert!(
            o.iter()
                .all(|p| p.x.abs() <= 1.25 + 1e-6 && p.y.abs() <= 1.25 + 1e-6)
        );
    }

    /// Records what was drawn.
    #[derive(Default)]
    struct Recorder {
        solid_polygons: Vec<(Transform, usize, HexColor)>,
        circles: Vec<(Vec2, f32, HexColor)>,
        outlines: Vec<(Vec<Vec2>, HexColor)>,
        points: Vec<(Vec2, HexColor)>,
        segments: Vec<(Vec2, Vec2, HexColor)>,
        strings: Vec<(Vec2, String)>,
    }

    impl Recorder {
        /// What `world` draws with `options`.
        fn of(world: &World, options: &DrawOptions) -> Recorder {
            let mut r = Recorder::default();
            world.draw(&mut r, options);
            r
        }

        /// The segments drawn in `color`.
        fn segments_in(&self, color: HexColor) -> Vec<&(Vec2, Vec2, HexColor)> {
            self.segments.iter().filter(|s| s.2 == color).collect()
        }
    }

    impl DebugDraw for Recorder {
        fn draw_solid_polygon(&mut self, xf: Transform, v: &[Vec2], _r: f32, c: HexColor) {
            self.solid_polygons.push((xf, v.len(), c));
        }
        fn draw_solid_circle(&mut self, xf: Transform, r: f32, c: HexColor) {
            self.circles.push((xf.p, r, c));
        }
        fn draw_polygon(&mut self, v: &[Vec2], c: HexColor) {
            self.outlines.push((v.to_vec(), c));
        }
        fn draw_point(&mut self, p: Vec2, _size: f32, c: HexColor) {
            self.points.push((p, c));
        }
        fn draw_segment(&mut self, a: Vec2, b: Vec2, c: HexColor) {
            self.segments.push((a, b, c));
        }
        fn draw_string(&mut self, p: Vec2, text: &str, _c: HexColor) {
            self.strings.push((p, text.to_string()));
        }
    }

    /// A 20 m ground box with its top at y = 0, a 1 m box resting on it at
    /// (2, 0.5) and a ball of radius 0.25 m at (-3, 5).
    fn resting_box() -> (World, BodyId, BodyId) {
        let mut world = build::world();
        build::ground_slab(&mut world, 10.0);
        let body = build::body(&mut world, BodyType::Dynamic, Vec2::new(2.0, 0.5));
        build::add_box(&mut world, body, 0.5, 0.5);
        let ball = build::body(&mut world, BodyType::Dynamic, Vec2::new(-3.0, 5.0));
        build::add_circle(&mut world, ball, 0.25);
        (world, body, ball)
    }

    #[test]
    fn world_draw_fills_shapes_in_their_state_colours() {
        let (world, _, _) = resting_box();
        let palette = Palette::default();
        let r = Recorder::of(&world, &DrawOptions::default());
        // Ground then box, in body order; the ball as a circle.
        assert_eq!(r.solid_polygons.len(), 2);
        assert_eq!(r.solid_polygons[0].2, palette.static_body);
        assert_eq!(r.solid_polygons[1].2, palette.awake);
        assert_eq!(r.solid_polygons[1].0.p, Vec2::new(2.0, 0.5));
        assert_eq!(r.solid_polygons[1].1, 4);
        assert_eq!(r.circles, vec![(Vec2::new(-3.0, 5.0), 0.25, palette.awake)]);
        // Nothing else by default.
        assert!(r.points.is_empty() && r.outlines.is_empty());
    }

    #[test]
    fn world_draw_culls_to_the_drawing_bounds() {
        let (world, _, _) = resting_box();
        // A window around the ball only (the ground box reaches y = 0).
        let options = DrawOptions {
            drawing_bounds: Aabb::new(Vec2::new(-4.0, 4.0), Vec2::new(-2.0, 6.0)),
            draw_aabbs: true,
            ..DrawOptions::default()
        };
        let r = Recorder::of(&world, &options);
        assert!(r.solid_polygons.is_empty());
        assert_eq!(r.circles.len(), 1);
        // The ball's box: 0.5 m wide at least, around (-3, 5).
        assert_eq!(r.outlines.len(), 1);
        let corners = &r.outlines[0].0;
        assert!(corners[0].x <= -3.25 && corners[2].x >= -2.75);
        assert!(corners[0].y <= 4.75 && corners[2].y >= 5.25);
    }

    #[test]
    fn world_draw_shows_contacts_normals_and_sleep() {
        let (mut world, body, ball) = resting_box();
        world.step(1.0 / 60.0, 4).unwrap();
        let palette = Palette::default();
        let options = DrawOptions {
            draw_contacts: true,
            draw_contact_normals: true,
            draw_contact_impulses: true,
            ..DrawOptions::default()
        };
        let r = Recorder::of(&world, &options);
        // The resting box touches the ground at its two bottom corners, x = 1.5 and 2.5.
        let mut xs: Vec<f32> = r.points.iter().map(|(p, _)| p.x).collect();
        xs.sort_by(f32::total_cmp);
        assert_eq!(xs.len(), 2, "{:?}", r.points);
        assert!((xs[0] - 1.5).abs() < 0.01 && (xs[1] - 2.5).abs() < 0.01);
        assert!(r.points.iter().all(|(p, _)| p.y.abs() < 0.02));
        // One normal and one impulse per point; the normal points up, 0.5 m long.
        let normals = r.segments_in(palette.normal);
        assert_eq!(normals.len(), 2);
        for (a, b, _) in normals {
            assert!((b.y - a.y - 0.5).abs() < 1e-3 && (b.x - a.x).abs() < 1e-3);
        }
        assert_eq!(
            r.segments.iter().filter(|s| s.2 == palette.impulse).count(),
            2
        );

        // Once asleep (the ball has landed and settled too), the box turns grey.
        for _ in 0..240 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        assert!(!world.body(body).unwrap().is_awake() && !world.body(ball).unwrap().is_awake());
        let r = Recorder::of(&world, &options);
        assert_eq!(r.solid_polygons[1].2, palette.sleeping);
        // Sleeping contacts are not in the constraint graph, so none are drawn.
        assert!(r.points.is_empty());
    }

    #[test]
    fn view_bounds_show_the_bodies_and_the_ground_under_them() {
        let (world, _, _) = resting_box();
        let v = world.view_bounds().unwrap();
        // Bodies span x -3.25..2.5 and y 0..5.25; the 20 m ground (< 20 m → whole).
        assert!(v.lower.x <= -10.0 && v.upper.x >= 10.0);
        assert!(v.lower.y <= -2.0 && v.upper.y >= 5.25);
        assert_eq!(world.body_ids().count(), 3);
        let empty = build::world();
        assert_eq!(empty.view_bounds(), None);
    }

    /// A named ball hanging by a revolute joint from a static anchor at
    /// (0, 15), above a chain loop (a 10 m square) with a box resting on its
    /// top side, drawn with the joint, name, chain-normal and contact-feature
    /// options.
    #[test]
    fn joints_names_chain_normals_and_contact_features_are_drawn() {
        use crate::{ChainDef, JointDef, RevoluteJointDef};
        let mut world = build::world();
        let anchor = build::body(&mut world, BodyType::Static, Vec2::new(0.0, 15.0));
        let ball = world
            .create_body(&BodyDef {
                name: "ball".to_string(),
                ..build::def(BodyType::Dynamic, Vec2::new(1.0, 15.0))
            })
            .unwrap();
        build::add_circle(&mut world, ball, 0.25);
        world
            .create_revolute_joint(&RevoluteJointDef {
                base: JointDef {
                    body_a: anchor,
                    body_b: ball,
                    local_anchor_a: Vec2::ZERO,
                    local_anchor_b: Vec2::new(-1.0, 0.0),
                    ..Default::default()
                },
                ..Default::default()
            })
            .unwrap();
        let ground = world.create_body(&BodyDef::default()).unwrap();
        // A loop: a 10 m square, its segments' outward normals pointing out.
        let square = vec![
            Vec2::new(-5.0, -5.0),
            Vec2::new(5.0, -5.0),
            Vec2::new(5.0, 5.0),
            Vec2::new(-5.0, 5.0),
        ];
        world
            .create_chain(
                ground,
                &ChainDef {
                    points: square,
                    is_loop: true,
                    ..Default::default()
                },
            )
            .unwrap();
        let box_body = build::body(&mut world, BodyType::Dynamic, Vec2::new(0.0, 5.5));
        build::add_box(&mut world, box_body, 0.5, 0.5);
        world.step(1.0 / 60.0, 4).unwrap();

        let options = DrawOptions {
            draw_contacts: true,
            draw_body_names: true,
            draw_chain_normals: true,
            draw_contact_features: true,
            draw_joint_extras: true,
            ..Default::default()
        };
        let r = Recorder::of(&world, &options);
        let palette = &options.palette;
        // The joint: anchor A at (0, 15) and anchor B one metre left of the
        // ball's origin in its frame, joined by a segment.
        let joint_points: Vec<Vec2> = r
            .points
            .iter()
            .filter(|(_, c)| *c == palette.joint)
            .map(|(p, _)| *p)
            .collect();
        assert_eq!(joint_points.len(), 2, "{joint_points:?} {:?}", r.points);
        assert!((joint_points[0] - Vec2::new(0.0, 15.0)).length() < 1e-6);
        let anchor_b =
            to_transform(world.body(ball).unwrap().transform()).apply(Vec2::new(-1.0, 0.0));
        assert!(
            (joint_points[1] - anchor_b).length() < 1e-6,
            "{joint_points:?}"
        );
        let joint_segments = r.segments.iter().filter(|s| s.2 == palette.joint).count();
        assert_eq!(joint_segments, 3);
        // Its extras: the torque as text at the anchors' midpoint.
        assert!(r.strings.iter().any(|(_, t)| t.ends_with("N·m")));
        // The name beside the ball's centre (its origin: a circle at the origin).
        let xf = to_transform(world.body(ball).unwrap().transform());
        let label = xf.p + xf.q.rotate(Vec2::new(0.1, 0.1));
        assert!(
            r.strings
                .iter()
                .any(|(p, t)| t == "ball" && (*p - label).length() < 1e-6),
            "{:?}",
            r.strings
        );
        // Four chain normals, 0.2 m long, from each side's middle: the bottom
        // one from (0, -5) pointing down.
        let normals = r.segments_in(palette.normal);
        assert_eq!(normals.len(), 4);
        assert!(normals.iter().any(|(a, b, _)| {
            (*a - Vec2::new(0.0, -5.0)).length() < 1e-5
                && (*b - Vec2::new(0.0, -5.2)).length() < 1e-5
        }));
        // With draw_anchor_a the contact points sit at body A's centre of mass
        // plus their anchors.
        let contact = &world.body(box_body).unwrap().contacts()[0];
        let centre_a = to_vec2(
            world
                .body(world.shape(contact.shape_id_a).unwrap().body())
                .unwrap()
                .world_center_of_mass(),
        );
        let anchored = Recorder::of(
            &world,
            &DrawOptions {
                draw_contacts: true,
                draw_anchor_a: true,
                ..Default::default()
            },
        );
        let drawn: Vec<Vec2> = anchored
            .points
            .iter()
            .filter(|(_, c)| *c != palette.joint)
            .map(|(p, _)| *p)
            .collect();
        let expected: Vec<Vec2> = contact
            .manifold
            .points()
            .iter()
            .map(|mp| centre_a + mp.anchor_a)
            .collect();
        assert_eq!(drawn, expected);
        // Contact features: one string per contact point of the box resting on
        // the loop's top side (two), besides the name and the torque.
        assert_eq!(r.strings.len(), 2 + 2, "{:?}", r.strings);
    }

    /// A mouse joint is drawn from its target to the grabbed point of body B,
    /// not from body A (a handle 100 m away): a box at (0, 2) grabbed at its
    /// corner (0.5, 2.5) from a static body at (100, 0). After the target
    /// moves to (3, 4), one segment joins the target to the corner (where the
    /// box's transform puts the grabbed local point (0.5, 0.5)).
    #[test]
    fn a_mouse_joint_is_drawn_from_its_target_to_the_grabbed_point() {
        use crate::MouseJointDef;
        let mut world = build::world();
        let handle = build::body(&mut world, BodyType::Static, Vec2::new(100.0, 0.0));
        let body = build::body(&mut world, BodyType::Dynamic, Vec2::new(0.0, 2.0));
        build::add_box(&mut world, body, 0.5, 0.5);
        let joint = world
            .create_mouse_joint(&MouseJointDef {
                base: crate::JointDef {
                    body_a: handle,
                    body_b: body,
                    ..Default::default()
                },
                target: Vec2::new(0.5, 2.5),
                ..Default::default()
            })
            .unwrap();
        world
            .joint_mut(joint)
            .unwrap()
            .mouse()
            .unwrap()
            .set_target(Vec2::new(3.0, 4.0))
            .unwrap();
        world.step(1.0 / 60.0, 4).unwrap();

        let options = DrawOptions::default();
        let r = Recorder::of(&world, &options);
        let color = options.palette.joint;
        let corner = to_transform(world.body(body).unwrap().transform()).apply(Vec2::new(0.5, 0.5));
        let segments: Vec<_> = r.segments.iter().filter(|s| s.2 == color).collect();
        assert_eq!(segments.len(), 1, "{segments:?}");
        assert_eq!(segments[0].0, Vec2::new(3.0, 4.0));
        assert!((segments[0].1 - corner).length() < 1e-6, "{segments:?}");
        let points: Vec<Vec2> = r
            .points
            .iter()
            .filter(|(_, c)| *c == color)
            .map(|(p, _)| *p)
            .collect();
        assert_eq!(points.len(), 2);
        assert_eq!(points[0], Vec2::new(3.0, 4.0));
        assert!((points[1] - corner).length() < 1e-6);
        // Nothing drawn at the handle.
        assert!(r.segments.iter().all(|s| s.0.x < 50.0 && s.1.x < 50.0));
    }
}
