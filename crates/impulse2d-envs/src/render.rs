//! Drawing an environment's frame into an RGB buffer with `tiny-skia`.
//!
//! [`Canvas`] takes Gymnasium's pygame coordinates before its final flip:
//! pixels, `x` to the right and `y` up from the bottom row. [`Canvas::write_rgb`]
//! flips the rows into the usual top-row-first order, as Gymnasium's
//! `pygame.transform.flip(surf, False, True)`.

use impulse2d::{BodyId, World};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::env::{EnvError, check_len};

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

/// A frame being drawn.
pub struct Canvas {
    pixmap: Pixmap,
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, 255);
    p.anti_alias = true;
    p
}

impl Canvas {
    /// A `width × height` frame filled with `background`; `None` for a zero size.
    pub fn new(width: usize, height: usize, background: Rgb) -> Option<Self> {
        let mut pixmap = Pixmap::new(width as u32, height as u32)?;
        pixmap.fill(tiny_skia::Color::from_rgba8(
            background.0,
            background.1,
            background.2,
            255,
        ));
        Some(Canvas { pixmap })
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.pixmap.width() as usize
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.pixmap.height() as usize
    }

    fn path(&self, points: &[(f32, f32)], close: bool) -> Option<tiny_skia::Path> {
        let h = self.height() as f32;
        let mut pb = PathBuilder::with_capacity(points.len() + 1, points.len());
        let (first, rest) = points.split_first()?;
        pb.move_to(first.0, h - first.1);
        for p in rest {
            pb.line_to(p.0, h - p.1);
        }
        if close {
            pb.close();
        }
        pb.finish()
    }

    fn fill(&mut self, path: Option<tiny_skia::Path>, color: Rgb) {
        if let Some(path) = path {
            self.pixmap.fill_path(
                &path,
                &paint(color),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    /// Fills the polygon with corners `points` (pixels, y up).
    pub fn fill_polygon(&mut self, points: &[(f32, f32)], color: Rgb) {
        self.fill(self.path(points, true), color);
    }

    /// Draws the line through `points` (pixels, y up), `width` pixels wide,
    /// closed back to the first point when `close`.
    pub fn polyline(&mut self, points: &[(f32, f32)], color: Rgb, width: f32, close: bool) {
        if let Some(path) = self.path(points, close) {
            let stroke = Stroke {
                width,
                ..Default::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(color), &stroke, Transform::identity(), None);
        }
    }

    /// Fills a circle (centre and radius in pixels, y up).
    pub fn fill_circle(&mut self, center: (f32, f32), radius: f32, color: Rgb) {
        let h = self.height() as f32;
        let path = PathBuilder::from_circle(center.0, h - center.1, radius.max(0.5));
        self.fill(path, color);
    }

    /// Fills, then outlines, every polygon shape of `body` (metres scaled by
    /// `scale` pixels per metre, shifted by `offset` pixels), as Gymnasium
    /// draws its `drawlist`.
    pub fn body_polygons(
        &mut self,
        world: &World,
        body: BodyId,
        scale: f32,
        offset: (f32, f32),
        fill: Rgb,
        outline: Rgb,
    ) {
        let Ok(view) = world.body(body) else { return };
        let xf = view.transform();
        for shape in view.shapes() {
            let Ok(shape) = world.shape(shape) else {
                continue;
            };
            if let Some(poly) = shape.polygon() {
                let pts: Vec<(f32, f32)> = poly
                    .vertices()
                    .iter()
                    .map(|&v| {
                        let p = xf.apply(v);
                        (p.x * scale + offset.0, p.y * scale + offset.1)
                    })
                    .collect();
                self.fill_polygon(&pts, fill);
                self.polyline(&pts, outline, 1.0, true);
            } else if let Some(circle) = shape.circle() {
                let p = xf.apply(circle.center);
                self.fill_circle(
                    (p.x * scale + offset.0, p.y * scale + offset.1),
                    circle.radius * scale,
                    fill,
                );
            }
        }
    }

    /// Writes the frame as `height × width × 3` bytes, top row first.
    pub fn write_rgb(&self, rgb: &mut [u8]) -> Result<(), EnvError> {
        check_len(self.width() * self.height() * 3, rgb.len())?;
        // tiny-skia stores premultiplied RGBA; every pixel here is opaque.
        for (out, px) in rgb
            .chunks_exact_mut(3)
            .zip(self.pixmap.data().chunks_exact(4))
        {
            out.copy_from_slice(&px[..3]);
        }
        Ok(())
    }
}
