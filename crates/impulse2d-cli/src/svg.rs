//! Vector pictures: a [`DebugDraw`] implementation that writes SVG text.
//!
//! The same camera and colours as the raster renderer: filled shapes in their
//! colour with a darker outline.

use crate::camera::Camera;
use crate::raster::{OUTLINE_SHADE, shade};
use impulse2d::debug_draw::rounded_polygon_points as rounded_outline;
use impulse2d::{DebugDraw, HexColor, Transform, Vec2};
use std::fmt::Write;

/// An SVG document being drawn.
pub struct SvgDraw {
    camera: Camera,
    body: String,
}

/// Escapes text for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

impl SvgDraw {
    /// An empty document of `camera.width` × `camera.height` pixels.
    pub fn new(camera: Camera) -> SvgDraw {
        SvgDraw {
            camera,
            body: String::new(),
        }
    }

    /// Paints the whole picture with `c`.
    pub fn clear(&mut self, c: HexColor) {
        self.body.clear();
        let _ = writeln!(
            self.body,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="{}"/>"#,
            self.camera.width,
            self.camera.height,
            c.to_css()
        );
    }

    /// The finished document.
    pub fn finish(&self) -> String {
        format!(
            concat!(
                r#"<?xml version="1.0" encoding="UTF-8"?>"#,
                "\n",
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#,
                "\n{body}</svg>\n"
            ),
            w = self.camera.width,
            h = self.camera.height,
            body = self.body
        )
    }

    fn points(&self, points: &[Vec2]) -> Option<String> {
        let mut s = String::with_capacity(points.len() * 14);
        for p in points {
            let (x, y) = self.camera.to_pixels(*p);
            if !(x.is_finite() && y.is_finite()) {
                return None;
            }
            let _ = write!(s, "{x:.2},{y:.2} ");
        }
        s.pop();
        Some(s)
    }

    fn solid(&mut self, points: &[Vec2], color: HexColor) {
        if let Some(pts) = self.points(points) {
            let _ = writeln!(
                self.body,
                r#"<polygon points="{pts}" fill="{}" stroke="{}" stroke-width="1.25" stroke-linejoin="round"/>"#,
                color.to_css(),
                shade(color, OUTLINE_SHADE).to_css()
            );
        }
    }

    fn line(&mut self, p1: Vec2, p2: Vec2, color: HexColor) {
        let (x1, y1) = self.camera.to_pixels(p1);
        let (x2, y2) = self.camera.to_pixels(p2);
        if [x1, y1, x2, y2].iter().all(|v| v.is_finite()) {
            let _ = writeln!(
                self.body,
                r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{}" stroke-width="1.25" stroke-linecap="round"/>"#,
                color.to_css()
            );
        }
    }

    fn circle(&mut self, center: Vec2, radius_px: f32, fill: Option<HexColor>, stroke: HexColor) {
        let (x, y) = self.camera.to_pixels(center);
        if x.is_finite() && y.is_finite() && radius_px.is_finite() {
            let fill = fill.map_or_else(|| "none".to_string(), HexColor::to_css);
            let _ = writeln!(
                self.body,
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{fill}" stroke="{}" stroke-width="1.25"/>"#,
                radius_px.max(0.5),
                stroke.to_css()
            );
        }
    }
}

impl DebugDraw for SvgDraw {
    fn draw_polygon(&mut self, vertices: &[Vec2], color: HexColor) {
        if let Some(pts) = self.points(vertices) {
            let _ = writeln!(
                self.body,
                r#"<polygon points="{pts}" fill="none" stroke="{}" stroke-width="1.25"/>"#,
                color.to_css()
            );
        }
    }

    fn draw_solid_polygon(
        &mut self,
        transform: Transform,
        vertices: &[Vec2],
        radius: f32,
        color: HexColor,
    ) {
        let outline = rounded_outline(transform, vertices, radius, 0.3);
        self.solid(&outline, color);
    }

    fn draw_circle(&mut self, center: Vec2, radius: f32, color: HexColor) {
        self.circle(center, radius * self.camera.scale, None, color);
    }

    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: HexColor) {
        let line = shade(color, OUTLINE_SHADE);
        self.circle(transform.p, radius * self.camera.scale, Some(color), line);
        self.line(transform.p, transform.apply(Vec2::new(radius, 0.0)), line);
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: HexColor) {
        let outline = rounded_outline(Transform::IDENTITY, &[p1, p2], radius, 0.3);
        self.solid(&outline, color);
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: HexColor) {
        self.line(p1, p2, color);
    }

    fn draw_transform(&mut self, transform: Transform) {
        let axis = 8.0 / self.camera.scale.max(1e-3);
        self.line(
            transform.p,
            transform.apply(Vec2::new(axis, 0.0)),
            HexColor::RED,
        );
        self.line(
            transform.p,
            transform.apply(Vec2::new(0.0, axis)),
            HexColor::GREEN,
        );
    }

    fn draw_point(&mut self, p: Vec2, size: f32, color: HexColor) {
        self.circle(p, 0.5 * size, Some(color), color);
    }

    fn draw_string(&mut self, p: Vec2, text: &str, color: HexColor) {
        let (x, y) = self.camera.to_pixels(p);
        if x.is_finite() && y.is_finite() {
            let _ = writeln!(
                self.body,
                r#"<text x="{x:.2}" y="{y:.2}" fill="{}" font-family="monospace" font-size="12">{}</text>"#,
                color.to_css(),
                escape(text)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impulse2d::collision::Aabb;

    #[test]
    fn document_has_size_shapes_and_escaped_text() {
        let cam = Camera::fit(
            Aabb::new(Vec2::new(-5.0, -5.0), Vec2::new(5.0, 5.0)),
            100,
            80,
            0.0,
        );
        let mut s = SvgDraw::new(cam);
        s.clear(HexColor::BLACK);
        s.draw_solid_circle(Transform::IDENTITY, 1.0, HexColor::PINK);
        s.draw_string(Vec2::ZERO, "a<b & c", HexColor::WHITE);
        let doc = s.finish();
        assert!(doc.contains(r#"width="100" height="80""#));
        // 8 px/m (limited by the 80 px height): a 1 m circle has r = 8 px at the centre.
        assert!(doc.contains(r##"<circle cx="50.00" cy="40.00" r="8.00" fill="#ffc0cb""##));
        assert!(doc.contains("a&lt;b &amp; c"));
        assert!(doc.trim_end().ends_with("</svg>"));
    }
}
