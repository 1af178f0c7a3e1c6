//! Drawing the race from above, as Gymnasium's `CarRacing._render`.
//!
//! Gymnasium draws on a 1000 × 800 window (pygame, y down), turned so the
//! car points up and placed at (500, 200) before the picture is flipped
//! upside down (so the car sits a quarter from the bottom, looking up), adds
//! the indicator bar and the score over the bottom 100 rows, and shrinks the
//! window with an area-averaging filter (`smoothscale`) to the 96 × 96
//! observation or the 600 × 400 video frame. Here the same window
//! coordinates are mapped straight onto the output size (a different scale
//! per axis, as the shrink has) and every polygon is filled with tiny-skia's
//! anti-aliasing, whose coverage is that area average; no 1000 × 800 picture
//! is made. The score is drawn with a 5 × 7 block font of our own in the
//! place and size of pygame's 42-pixel default font (no font file needed).

use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use super::car::{Car, HULL_COLOR, HULL_POLYS, SIZE, WHEEL_COLOR, WHEEL_R, WHEEL_W, WHEEL_WHITE};
use super::sign;
use super::track::{PLAYFIELD, SCALE};
use impulse2d::{Result, Vec2, World};

/// Observation width, pixels.
pub const STATE_W: u32 = 96;
/// Observation height, pixels.
pub const STATE_H: u32 = 96;
/// `rgb_array` frame width, pixels.
pub const VIDEO_W: u32 = 600;
/// `rgb_array` frame height, pixels.
pub const VIDEO_H: u32 = 400;
/// Gymnasium's window width, pixels (the drawing's coordinate space).
pub const WINDOW_W: f64 = 1000.0;
/// Gymnasium's window height, pixels.
pub const WINDOW_H: f64 = 800.0;
/// Camera zoom after the first second.
pub const ZOOM: f64 = 2.7;
/// Size of a grass square, m.
pub const GRASS_DIM: f64 = PLAYFIELD / 20.0;

/// A filled quadrilateral of the road (a tile or a kerb), world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoadPoly {
    /// Corners, m.
    pub points: [[f64; 2]; 4],
    /// RGB colour.
    pub color: [u8; 3],
    /// A kerb (red or white), not a tile.
    pub is_kerb: bool,
}

/// The scene's colours (RGB, 0–255).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// The road (tiles add 0, 2.55 or 5.1 to each channel until touched).
    pub road: [f64; 3],
    /// The background.
    pub bg: [f64; 3],
    /// The grass squares.
    pub grass: [f64; 3],
}

impl Palette {
    /// Gymnasium's default colours.
    pub const DEFAULT: Palette = Palette {
        road: [102.0, 102.0, 102.0],
        bg: [102.0, 204.0, 102.0],
        grass: [102.0, 230.0, 102.0],
    };
}

/// Truncates a colour to bytes as `int()` does (values lie in 0–255).
pub fn to_rgb(c: [f64; 3]) -> [u8; 3] {
    [c[0] as u8, c[1] as u8, c[2] as u8]
}

/// What one frame shows besides the world.
#[derive(Clone, Copy, Debug)]
pub struct FrameInfo {
    /// Seconds since reset (the zoom animates over the first second).
    pub t: f64,
    /// The score shown at the bottom left.
    pub reward: f64,
    /// Draw the skid marks (Gymnasium leaves them out of observations).
    pub draw_particles: bool,
}

/// A reusable picture of a fixed size. (Its `Debug` shows the pixmap's size but not
/// its pixels, which tiny-skia's `Pixmap` prints as "...", then the path builder,
/// the paint and the scale.)
#[derive(Debug)]
pub struct Renderer {
    pixmap: Pixmap,
    builder: Option<PathBuilder>,
    paint: Paint<'static>,
    /// Output pixels per window pixel, x and y.
    scale: (f64, f64),
}

/// World to window: rotation so the car points up, zoom, scroll.
#[derive(Clone, Copy, Debug)]
struct Camera {
    cos: f64,
    sin: f64,
    zoom: f64,
    trans: (f64, f64),
}

impl Camera {
    /// The window point (before the flip) of a world point.
    fn window(&self, p: [f64; 2]) -> (f64, f64) {
        let rx = p[0] * self.cos - p[1] * self.sin;
        let ry = p[0] * self.sin + p[1] * self.cos;
        (rx * self.zoom + self.trans.0, ry * self.zoom + self.trans.1)
    }
}

/// Block font: rows of five bits, top first, for `0`–`9` and `-`.
fn glyph(c: char) -> Option<[u8; 7]> {
    Some(match c {
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        '-' => [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
        _ => return None,
    })
}

/// The score as Python's `f"{reward:04.0f}"` (round half to even, sign
/// first, zero-padded to four characters).
pub fn score_text(reward: f64) -> String {
    format!("{reward:04.0}")
}

impl Renderer {
    /// A renderer for `width × height` pictures, or `None` for a zero size.
    pub fn new(width: u32, height: u32) -> Option<Renderer> {
        let pixmap = Pixmap::new(width, height)?;
        let paint = Paint {
            anti_alias: true,
            ..Default::default()
        };
        Some(Renderer {
            pixmap,
            builder: Some(PathBuilder::new()),
            paint,
            scale: (f64::from(width) / WINDOW_W, f64::from(height) / WINDOW_H),
        })
    }

    /// Width, pixels.
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height, pixels.
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// Copies the picture as rows of RGB bytes, top row first, into `out`
    /// (`width · height · 3` bytes).
    pub fn write_rgb(&self, out: &mut [u8]) {
        for (dst, src) in out
            .chunks_exact_mut(3)
            .zip(self.pixmap.data().chunks_exact(4))
        {
            dst.copy_from_slice(&src[..3]);
        }
    }

    /// The output point of a window point given in final (flipped) window
    /// coordinates.
    fn out(&self, x: f64, y: f64) -> (f32, f32) {
        ((x * self.scale.0) as f32, (y * self.scale.1) as f32)
    }

    fn set_color(&mut self, c: [u8; 3]) {
        self.paint.set_color_rgba8(c[0], c[1], c[2], 255);
    }

    /// Fills a polygon given in final window coordinates; skips it when its
    /// box misses the picture (Gymnasium skips polygons off the window).
    fn fill_window_poly(&mut self, pts: &[(f64, f64)], color: [u8; 3]) {
        let (w, h) = (self.pixmap.width() as f32, self.pixmap.height() as f32);
        let mut pb = self.builder.take().unwrap_or_default();
        let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for (i, &(x, y)) in pts.iter().enumerate() {
            let (ox, oy) = self.out(x, y);
            lo_x = lo_x.min(ox);
            lo_y = lo_y.min(oy);
            hi_x = hi_x.max(ox);
            hi_y = hi_y.max(oy);
            if i == 0 {
                pb.move_to(ox, oy);
            } else {
                pb.line_to(ox, oy);
            }
        }
        pb.close();
        if hi_x >= 0.0 && lo_x <= w && hi_y >= 0.0 && lo_y <= h {
            self.finish_fill(pb, color);
        } else {
            pb.clear();
            self.builder = Some(pb);
        }
    }

    /// Fills the union of the visible tiles in one colour (kerbs are left out).
    fn fill_road_underlay(&mut self, cam: &Camera, road: &[RoadPoly], color: [u8; 3]) {
        let (w, h) = (self.pixmap.width() as f32, self.pixmap.height() as f32);
        let mut pb = self.builder.take().unwrap_or_default();
        for poly in road.iter().filter(|p| !p.is_kerb) {
            let pts = poly.points.map(|p| {
                let (x, y) = cam.window(p);
                self.out(x, WINDOW_H - y)
            });
            let (lo_x, hi_x) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
                (lo.min(p.0), hi.max(p.0))
            });
            let (lo_y, hi_y) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
                (lo.min(p.1), hi.max(p.1))
            });
            if hi_x < 0.0 || lo_x > w || hi_y < 0.0 || lo_y > h {
                continue;
            }
            pb.move_to(pts[0].0, pts[0].1);
            for p in &pts[1..] {
                pb.line_to(p.0, p.1);
            }
            pb.close();
        }
        self.finish_fill(pb, color);
    }

    /// Fills what `pb` holds (if anything) and keeps its storage.
    fn finish_fill(&mut self, pb: PathBuilder, color: [u8; 3]) {
        match pb.finish() {
            Some(path) => {
                self.set_color(color);
                self.pixmap.fill_path(
                    &path,
                    &self.paint,
                    FillRule::Winding,
                    Transform::identity(),
                    None,
                );
                self.builder = Some(path.clear());
            }
            None => self.builder = Some(PathBuilder::new()),
        }
    }

    /// Fills a world polygon through the camera (and the flip).
    fn fill_world_poly(&mut self, cam: &Camera, pts: &[[f64; 2]], color: [u8; 3]) {
        let mut window = [(0.0, 0.0); 8];
        for (slot, &p) in window.iter_mut().zip(pts) {
            let (x, y) = cam.window(p);
            *slot = (x, WINDOW_H - y);
        }
        self.fill_window_poly(&window[..pts.len()], color);
    }

    /// Fills an axis-aligned window rectangle.
    fn fill_window_rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, color: [u8; 3]) {
        self.fill_window_poly(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], color);
    }

    /// Draws a frame: background, grass, road, car, indicators and score.
    pub fn draw(
        &mut self,
        world: &World,
        car: &Car,
        road: &[RoadPoly],
        palette: &Palette,
        info: FrameInfo,
    ) -> Result<()> {
        let hull = world.body(car.hull)?;
        let angle = -f64::from(hull.rotation().angle());
        let pos = hull.position();
        let (px, py) = (f64::from(pos.x), f64::from(pos.y));
        // The zoom grows from 0.6 to 16.2 over the first second.
        let zoom = 0.1 * SCALE * (1.0 - info.t).max(0.0) + ZOOM * SCALE * info.t.min(1.0);
        let (cos, sin) = (libm::cos(angle), libm::sin(angle));
        let scroll = (-px * zoom, -py * zoom);
        let cam = Camera {
            cos,
            sin,
            zoom,
            trans: (
                WINDOW_W / 2.0 + (scroll.0 * cos - scroll.1 * sin),
                WINDOW_H / 4.0 + (scroll.0 * sin + scroll.1 * cos),
            ),
        };

        // Outside the playfield the window stays black.
        self.pixmap.fill(Color::BLACK);
        let b = PLAYFIELD;
        self.fill_world_poly(
            &cam,
            &[[b, b], [b, -b], [-b, -b], [-b, b]],
            to_rgb(palette.bg),
        );
        let grass = to_rgb(palette.grass);
        for gx in (-20..20).step_by(2) {
            for gy in (-20..20).step_by(2) {
                let (x, y) = (GRASS_DIM * f64::from(gx), GRASS_DIM * f64::from(gy));
                self.fill_world_poly(
                    &cam,
                    &[
                        [x + GRASS_DIM, y],
                        [x, y],
                        [x, y + GRASS_DIM],
                        [x + GRASS_DIM, y + GRASS_DIM],
                    ],
                    grass,
                );
            }
        }
        // Gymnasium outlines each road polygon (`aapolygon`), which hides the
        // seams between tiles; here the road's union is laid under the tiles
        // in one path (no inner edges), so no grass shows between them.
        self.fill_road_underlay(&cam, road, to_rgb(palette.road));
        for poly in road {
            self.fill_world_poly(&cam, &poly.points, poly.color);
        }

        if info.draw_particles {
            self.draw_particles(&cam, car);
        }
        self.draw_car(world, &cam, car)?;
        self.draw_indicators(world, car)?;
        self.draw_score(info.reward);
        Ok(())
    }

    fn draw_particles(&mut self, cam: &Camera, car: &Car) {
        let width = (2.0 * self.scale.0.min(self.scale.1)) as f32;
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        for p in &car.particles {
            let mut pb = self.builder.take().unwrap_or_default();
            for (i, &pt) in p.poly.iter().enumerate() {
                let (x, y) = cam.window(pt);
                let (ox, oy) = self.out(x, WINDOW_H - y);
                if i == 0 {
                    pb.move_to(ox, oy);
                } else {
                    pb.line_to(ox, oy);
                }
            }
            match pb.finish() {
                Some(path) => {
                    self.set_color(p.color);
                    self.pixmap.stroke_path(
                        &path,
                        &self.paint,
                        &stroke,
                        Transform::identity(),
                        None,
                    );
                    self.builder = Some(path.clear());
                }
                None => self.builder = Some(PathBuilder::new()),
            }
        }
    }

    fn draw_car(&mut self, world: &World, cam: &Camera, car: &Car) -> Result<()> {
        let to_world = |xf: impulse2d::Transform, x: f64, y: f64| {
            let p = xf.apply(Vec2::new((x * SIZE) as f32, (y * SIZE) as f32));
            [f64::from(p.x), f64::from(p.y)]
        };
        // Wheels first, the hull over them.
        for w in &car.wheels {
            let xf = world.body(w.body)?.transform();
            let poly = super::car::wheel_poly();
            let pts: Vec<[f64; 2]> = poly.iter().map(|&(x, y)| to_world(xf, x, y)).collect();
            self.fill_world_poly(cam, &pts, WHEEL_COLOR);
            // The stripe that shows the wheel turning.
            let (a1, a2) = (w.phase, w.phase + 1.2);
            let (s1, s2) = (libm::sin(a1), libm::sin(a2));
            let (mut c1, mut c2) = (libm::cos(a1), libm::cos(a2));
            if s1 > 0.0 && s2 > 0.0 {
                continue;
            }
            if s1 > 0.0 {
                c1 = sign(c1);
            }
            if s2 > 0.0 {
                c2 = sign(c2);
            }
            let stripe = [
                to_world(xf, -WHEEL_W, WHEEL_R * c1),
                to_world(xf, WHEEL_W, WHEEL_R * c1),
                to_world(xf, WHEEL_W, WHEEL_R * c2),
                to_world(xf, -WHEEL_W, WHEEL_R * c2),
            ];
            self.fill_world_poly(cam, &stripe, WHEEL_WHITE);
        }
        let xf = world.body(car.hull)?.transform();
        for poly in HULL_POLYS {
            let pts: Vec<[f64; 2]> = poly.iter().map(|&(x, y)| to_world(xf, x, y)).collect();
            self.fill_world_poly(cam, &pts, HULL_COLOR);
        }
        Ok(())
    }

    fn draw_indicators(&mut self, world: &World, car: &Car) -> Result<()> {
        let (w, h) = (WINDOW_W, WINDOW_H);
        let s = w / 40.0;
        let hh = h / 40.0;
        self.fill_window_rect(0.0, h - 5.0 * hh, w, h, [0, 0, 0]);

        let hull = world.body(car.hull)?;
        let v = hull.linear_velocity();
        let true_speed = (f64::from(v.x).powi(2) + f64::from(v.y).powi(2)).sqrt();
        let vertical = |r: &mut Renderer, place: f64, val: f64, color: [u8; 3], value: f64| {
            if value.abs() > 1e-4 {
                r.fill_window_rect(
                    place * s,
                    h - (hh + hh * val),
                    (place + 1.0) * s,
                    h - hh,
                    color,
                );
            }
        };
        let horizontal = |r: &mut Renderer, place: f64, val: f64, color: [u8; 3], value: f64| {
            if value.abs() > 1e-4 {
                r.fill_window_rect(
                    place * s,
                    h - 4.0 * hh,
                    (place + val) * s,
                    h - 2.0 * hh,
                    color,
                );
            }
        };
        vertical(self, 5.0, 0.02 * true_speed, [255, 255, 255], true_speed);
        // ABS sensors: wheel spins.
        let colors = [[0, 0, 255], [0, 0, 255], [51, 0, 255], [51, 0, 255]];
        for (i, (wheel, color)) in car.wheels.iter().zip(colors).enumerate() {
            vertical(self, 7.0 + i as f64, 0.01 * wheel.omega, color, wheel.omega);
        }
        let steer = f64::from(world.joint(car.wheels[0].joint)?.revolute()?.angle());
        horizontal(self, 20.0, -10.0 * steer, [0, 255, 0], steer);
        let gyro = f64::from(hull.angular_velocity());
        horizontal(self, 30.0, -0.8 * gyro, [255, 0, 0], gyro);
        Ok(())
    }

    /// The score, white on black, centred at (60, 750) in window pixels.
    fn draw_score(&mut self, reward: f64) {
        let text = score_text(reward);
        // pygame's default font at 42 px: digits advance about 23.4 px and
        // stand about 30 px tall in a 43 px line.
        let advance = 42.0 * 0.556;
        let unit = 30.0 / 7.0;
        let n = text.chars().count() as f64;
        let (cx, cy) = (60.0, WINDOW_H - WINDOW_H * 2.5 / 40.0);
        let left = cx - n * advance / 2.0;
        self.fill_window_rect(left, cy - 21.5, left + n * advance, cy + 21.5, [0, 0, 0]);
        let mut pb = self.builder.take().unwrap_or_default();
        for (k, c) in text.chars().enumerate() {
            let Some(rows) = glyph(c) else { continue };
            let x0 = left + k as f64 * advance + (advance - 5.0 * unit) / 2.0;
            let y0 = cy - 3.5 * unit;
            for (r, bits) in rows.iter().enumerate() {
                for col in 0..5 {
                    if bits & (0x10 >> col) != 0 {
                        let (ax, ay) = self.out(x0 + col as f64 * unit, y0 + r as f64 * unit);
                        let (bx, by) =
                            self.out(x0 + (col + 1) as f64 * unit, y0 + (r + 1) as f64 * unit);
                        if let Some(rect) = Rect::from_ltrb(ax, ay, bx, by) {
                            pb.push_rect(rect);
                        }
                    }
                }
            }
        }
        self.finish_fill(pb, [255, 255, 255]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_text_formats_as_python() {
        // Python: f"{x:04.0f}" for these x.
        assert_eq!(score_text(0.0), "0000");
        assert_eq!(score_text(926.8), "0927");
        assert_eq!(score_text(-12.3), "-012");
        assert_eq!(score_text(-0.1), "-000");
        assert_eq!(score_text(2.5), "0002");
        assert_eq!(score_text(1234.0), "1234");
    }
}
