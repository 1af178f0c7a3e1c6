//! The Impulse2D testbed: an interactive window over the scenes.

mod draw;

use clap::Parser;
use draw::{ScreenDraw, View};
use impulse2d::{DebugDraw, HexColor, Rot, Transform, Vec2};
use macroquad::prelude as mq;

/// Command-line options.
#[derive(Parser, Debug, Clone)]
#[command(name = "impulse2d-testbed", version, about = "Interactive Impulse2D testbed")]
struct Args {
    /// Render a number of frames, save a PNG screenshot to this file and exit.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<std::path::PathBuf>,
    /// Frames to render before the screenshot.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    frames: u32,
    /// Window width, pixels.
    #[arg(long, default_value_t = 1280)]
    width: i32,
    /// Window height, pixels.
    #[arg(long, default_value_t = 720)]
    height: i32,
}

fn window_conf() -> mq::Conf {
    let args = Args::try_parse().unwrap_or_else(|e| e.exit());
    mq::Conf {
        window_title: "Impulse2D testbed".to_string(),
        window_width: args.width,
        window_height: args.height,
        high_dpi: false,
        sample_count: 4,
        ..Default::default()
    }
}

/// Saves the current frame as a PNG, forcing every pixel opaque.
fn save_screenshot(path: &std::path::Path) -> Result<(), String> {
    let mut img = mq::get_screen_data();
    for px in img.bytes.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let (w, h) = (img.width as usize, img.height as usize);
    // OpenGL rows run bottom to top.
    let mut flipped = Vec::with_capacity(img.bytes.len());
    for row in (0..h).rev() {
        flipped.extend_from_slice(&img.bytes[row * w * 4..(row + 1) * w * 4]);
    }
    image::save_buffer(path, &flipped, w as u32, h as u32, image::ColorType::Rgba8)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[macroquad::main(window_conf)]
async fn main() {
    let args = Args::parse();
    let mut frame = 0u32;
    loop {
        mq::clear_background(draw::color(HexColor(0x1C1C22), 1.0));
        let view = View::fit(
            Vec2::new(-10.0, -1.0),
            Vec2::new(10.0, 10.0),
            240.0,
            (mq::screen_width() - 240.0, mq::screen_height()),
        );
        let mut d = ScreenDraw { view };
        d.draw_solid_polygon(
            Transform::new(Vec2::new(0.0, -0.5), Rot::IDENTITY),
            &[
                Vec2::new(-10.0, -0.5),
                Vec2::new(10.0, -0.5),
                Vec2::new(10.0, 0.5),
                Vec2::new(-10.0, 0.5),
            ],
            0.0,
            HexColor::PALE_GREEN,
        );
        d.draw_solid_circle(Transform::new(Vec2::new(0.0, 3.0), Rot::IDENTITY), 1.0, HexColor::PINK);
        egui_macroquad::ui(|ctx| {
            egui_macroquad::egui::SidePanel::left("scenes")
                .exact_width(240.0)
                .show(ctx, |ui| {
                    ui.heading("Impulse2D");
                    ui.label(format!("frame {frame}"));
                });
        });
        egui_macroquad::draw();
        frame += 1;
        if let Some(path) = &args.screenshot {
            if frame >= args.frames {
                match save_screenshot(path) {
                    Ok(()) => std::process::exit(0),
                    Err(e) => {
                        eprintln!("error: {e}");
                        std::process::exit(1);
                    }
                }
            }
        }
        mq::next_frame().await;
    }
}
