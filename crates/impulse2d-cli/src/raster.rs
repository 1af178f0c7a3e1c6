//! Raster pictures: a [`DebugDraw`] implementation over a `tiny-skia` pixmap.
//!
//! Filled shapes are painted opaque in exactly the colour they are given (so a
//! test can find a body's state colour in the picture) with an outline at
//! [`OUTLINE_SHADE`] of that colour.

use crate::camera::Camera;
use impulse2d::debug_draw::rounded_polygon_points as rounded_outline;
use impulse2d::{DebugDraw, HexColor, Transform, Vec2};
use tiny_skia::{Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke};

/// The outline of a filled shape is its fill colour times this factor.
pub const OUTLINE_SHADE: f32 = 0.6;

/// Line width of outlines and segments, pixels.
const LINE_WIDTH: f32 = 1.25;

/// A picture being drawn: a pixmap and the camera that maps the world onto it.
pub struct RasterDraw {
    pixmap: Pixmap,
    camera: Camera,
}

/// The colour `c` scaled by `shade` (0 = black, 1 = unchanged).
pub fn shade(c: HexColor, shade: f32) -> HexColor {
    let f = |v: u8| (f32::from(v) * shade).round().clamp(0.0, 255.0) as u8;
    HexColor::from_rgb(f(c.r()), f(c.g()), f(c.b()))
}

fn paint(c: HexColor) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(c.r(), c.g(), c.b(), 255));
    p.anti_alias = true;
    p
}

impl RasterDraw {
    /// A blank picture of `camera.width` × `camera.height` pixels, or `None`
    /// when a side is zero or the picture is too large to allocate.
    pub fn new(camera: Camera) -> Option<RasterDraw> {
        Some(RasterDraw {
            pixmap: Pixmap::new(camera.width, camera.height)?,
            camera,
        })
    }

    /// The camera.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Changes the camera (the picture size stays).
    pub fn set_camera(&mut self, camera: Camera) {
        self.camera = Camera {
            width: self.pixmap.width(),
            height: self.pixmap.height(),
            ..camera
        };
    }

    /// Paints every pixel with `c`.
    pub fn clear(&mut self, c: HexColor) {
        self.pixmap
            .fill(Color::from_rgba8(c.r(), c.g(), c.b(), 255));
    }

    /// The pixmap drawn so far.
    pub fn pixmap(&self) -> &Pixmap {
        &self.pixmap
    }

    /// The picture as PNG bytes.
    pub fn encode_png(&self) -> Result<Vec<u8>, String> {
        self.pixmap.encode_png().map_err(|e| e.to_string())
    }

    /// The colour of pixel (`x`, `y`), if inside the picture.
    pub fn pixel(&self, x: u32, y: u32) -> Option<HexColor> {
        let p = self.pixmap.pixel(x, y)?.demultiply();
        Some(HexColor::from_rgb(p.red(), p.green(), p.blue()))
    }

    fn path(&self, points: &[Vec2], close: bool) -> Option<tiny_skia::Path> {
        let mut pb = PathBuilder::with_capacity(points.len() + 1, points.len());
        for (i, &p) in points.iter().enumerate() {
            let (x, y) = self.camera.to_pixels(p);
            if !(x.is_finite() && y.is_finite()) {
                return None;
            }
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if close {
            pb.close();
        }
        pb.finish()
    }

    fn stroke(&mut self, path: &tiny_skia::Path, c: HexColor, width: f32) {
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        self.pixmap.stroke_path(
            path,
            &paint(c),
            &stroke,
            tiny_skia::Transform::identity(),
            None,
        );
    }

    fn fill(&mut self, path: &tiny_skia::Path, c: HexColor) {
        self.pixmap.fill_path(
            path,
            &paint(c),
            FillRule::Winding,
            tiny_skia::Transform::identity(),
            None,
        );
    }

    /// An arc step giving smooth outlines at the current zoom: about 2 px per
    /// outline segment, radians.
    fn arc_step(&self, radius: f32) -> f32 {
        let r_px = radius * self.camera.scale;
        (3.0 / r_px.max(1.0)).clamp(0.05, 0.8)
    }

    fn solid_outline(&mut self, points: &[Vec2], color: HexColor) {
        if let Some(path) = self.path(points, true) {
            self.fill(&path, color);
            self.stroke(&path, shade(color, OUTLINE_SHADE), LINE_WIDTH);
        }
    }
}

impl DebugDraw for RasterDraw {
    fn draw_polygon(&mut self, vertices: &[Vec2], color: HexColor) {
        if let Some(path) = self.path(vertices, true) {
            self.stroke(&path, color, LINE_WIDTH);
        }
    }

    fn draw_solid_polygon(
        &mut self,
        transform: Transform,
        vertices: &[Vec2],
        radius: f32,
        color: HexColor,
    ) {
        let step = self.arc_step(radius);
        let outline = rounded_outline(transform, vertices, radius, step);
        self.solid_outline(&outline, color);
    }

    fn draw_circle(&mut self, center: Vec2, radius: f32, color: HexColor) {
        let (x, y) = self.camera.to_pixels(center);
        if let Some(path) = PathBuilder::from_circle(x, y, (radius * self.camera.scale).max(0.5)) {
            self.stroke(&path, color, LINE_WIDTH);
        }
    }

    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: HexColor) {
        let (x, y) = self.camera.to_pixels(transform.p);
        if let Some(path) = PathBuilder::from_circle(x, y, (radius * self.camera.scale).max(0.5)) {
            self.fill(&path, color);
            let line = shade(color, OUTLINE_SHADE);
            self.stroke(&path, line, LINE_WIDTH);
            // A radius line shows the rotation.
            let tip = transform.apply(Vec2::new(radius, 0.0));
            if let Some(spoke) = self.path(&[transform.p, tip], false) {
                self.stroke(&spoke, line, LINE_WIDTH);
            }
        }
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: HexColor) {
        let step = self.arc_step(radius);
        let outline = rounded_outline(Transform::IDENTITY, &[p1, p2], radius, step);
        self.solid_outline(&outline, color);
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: HexColor) {
        if let Some(path) = self.path(&[p1, p2], false) {
            self.stroke(&path, color, LINE_WIDTH);
        }
    }

    fn draw_transform(&mut self, transform: Transform) {
        let axis = 0.2 * 40.0 / self.camera.scale.max(1e-3);
        let x = transform.apply(Vec2::new(axis, 0.0));
        let y = transform.apply(Vec2::new(0.0, axis));
        self.draw_segment(transform.p, x, HexColor::RED);
        self.draw_segment(transform.p, y, HexColor::GREEN);
    }

    fn draw_point(&mut self, p: Vec2, size: f32, color: HexColor) {
        let (x, y) = self.camera.to_pixels(p);
        if let Some(path) = PathBuilder::from_circle(x, y, (0.5 * size).max(0.5)) {
            self.fill(&path, color);
        }
    }

    // Text is not drawn: tiny-skia has no font rasteriser and pictures do not
    // need labels. The SVG renderer draws text.
}

#[cfg(test)]
mod tests {
    use super::*;
    use impulse2d::collision::Aabb;

    fn picture() -> RasterDraw {
        // 10 m × 10 m into 100 × 100 px: 10 px/m, origin at pixel (50, 50).
        let cam = Camera::fit(
            Aabb::new(Vec2::new(-5.0, -5.0), Vec2::new(5.0, 5.0)),
            100,
            100,
            0.0,
        );
        let mut r = RasterDraw::new(cam).unwrap();
        r.clear(HexColor::BLACK);
        r
    }

    #[test]
    fn solid_polygon_fills_its_interior_with_its_colour() {
        let mut r = picture();
        // A 2 m square centred at (2, 2): pixels x 60..80, y 20..40.
        let square = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ];
        let xf = Transform::new(Vec2::new(2.0, 2.0), impulse2d::Rot::IDENTITY);
        r.draw_solid_polygon(xf, &square, 0.0, HexColor::PINK);
        assert_eq!(r.pixel(70, 30), Some(HexColor::PINK));
        assert_eq!(r.pixel(30, 70), Some(HexColor::BLACK));
        // Just outside the square (and its outline).
        assert_eq!(r.pixel(85, 30), Some(HexColor::BLACK));
    }

    #[test]
    fn circle_and_capsule_cover_their_area() {
        let mut r = picture();
        // Circle of 1 m at (-2, -2): centre pixel (30, 70).
        r.draw_solid_circle(
            Transform::new(Vec2::new(-2.0, -2.0), impulse2d::Rot::IDENTITY),
            1.0,
            HexColor::GRAY,
        );
        assert_eq!(r.pixel(30, 65), Some(HexColor::GRAY));
        // Capsule from (-3, 3) to (0, 3), radius 0.5: pixels y 30..40, x 15..55.
        r.draw_solid_capsule(
            Vec2::new(-3.0, 3.0),
            Vec2::new(0.0, 3.0),
            0.5,
            HexColor::WHEAT,
        );
        assert_eq!(r.pixel(18, 20), Some(HexColor::WHEAT));
        assert_eq!(r.pixel(35, 12), Some(HexColor::BLACK));
    }
}
