//! The Impulse2D testbed: an interactive window over the scenes of
//! `impulse2d-scenes`.
//!
//! `impulse2d-testbed [--scene NAME]` opens the window.
//! `impulse2d-testbed --screenshot shot.png [--frames N] [--scene NAME]` renders
//! N frames, saves the last one as a PNG and exits (for CI under Xvfb);
//! `--rewind STEPS` goes back that many steps two frames before and simulates
//! them again (the rollback control).

mod app;
mod draw;
mod rewind;
mod ui;

use app::App;
use clap::Parser;
use macroquad::prelude as mq;

/// Command-line options.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "impulse2d-testbed",
    version,
    about = "Interactive Impulse2D testbed"
)]
struct Args {
    /// Scene to open (see `impulse2d list`).
    #[arg(long, default_value = "pyramid")]
    scene: String,
    /// Render a number of frames, save a PNG screenshot to this file and exit.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<std::path::PathBuf>,
    /// Frames (one simulation step each) to render before the screenshot.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    frames: u32,
    /// With --screenshot: two frames before it, go back this many steps and
    /// simulate them again (the panel shows whether the hash matches).
    #[arg(long, value_name = "STEPS")]
    rewind: Option<u64>,
    /// Window width, pixels.
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(i32).range(320..=8192))]
    width: i32,
    /// Window height, pixels.
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(i32).range(240..=8192))]
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

/// Saves the current frame as a PNG, every pixel made opaque (blended fills
/// leave alpha below 255 in the framebuffer).
fn save_screenshot(path: &std::path::Path) -> Result<(), String> {
    let img = mq::get_screen_data();
    let (w, h) = (img.width as usize, img.height as usize);
    // OpenGL rows run bottom to top.
    let mut rgba = Vec::with_capacity(img.bytes.len());
    for row in (0..h).rev() {
        rgba.extend_from_slice(&img.bytes[row * w * 4..(row + 1) * w * 4]);
    }
    for px in rgba.chunks_exact_mut(4) {
        px[3] = 255;
    }
    image::save_buffer(path, &rgba, w as u32, h as u32, image::ColorType::Rgba8)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn screen() -> (f32, f32) {
    (mq::screen_width(), mq::screen_height())
}

/// Mouse and keyboard for the world view (egui gets first pick).
fn handle_input(app: &mut App, egui_wants_pointer: bool, egui_wants_keyboard: bool) {
    let (mx, my) = mq::mouse_position();
    let mouse = mq::vec2(mx, my);
    let world_mouse = app.view.to_world(mouse);

    if !egui_wants_pointer {
        if mq::is_mouse_button_pressed(mq::MouseButton::Left) {
            app.begin_drag(world_mouse);
        }
        if mq::is_mouse_button_pressed(mq::MouseButton::Right)
            || mq::is_mouse_button_pressed(mq::MouseButton::Middle)
        {
            app.pan_from = Some(mouse);
        }
        let (_, wheel) = mq::mouse_wheel();
        if wheel != 0.0 {
            app.view
                .zoom_at(mouse, if wheel > 0.0 { 1.1 } else { 1.0 / 1.1 });
        }
    }
    if app.drag.is_some() {
        app.move_drag(world_mouse);
    }
    if mq::is_mouse_button_released(mq::MouseButton::Left) {
        app.end_drag();
    }
    if let Some(from) = app.pan_from {
        let d = mouse - from;
        app.view.center.x -= d.x / app.view.scale;
        app.view.center.y += d.y / app.view.scale;
        app.pan_from = Some(mouse);
        if !mq::is_mouse_button_down(mq::MouseButton::Right)
            && !mq::is_mouse_button_down(mq::MouseButton::Middle)
        {
            app.pan_from = None;
        }
    }
    // A scene with a player (the platformer) takes the arrows and space.
    let has_player = app.player().is_some();
    if has_player && !egui_wants_keyboard {
        let jump = mq::is_key_down(mq::KeyCode::Space) || mq::is_key_down(mq::KeyCode::Up);
        app.player_keys(
            mq::is_key_down(mq::KeyCode::Left),
            mq::is_key_down(mq::KeyCode::Right),
            jump,
        );
    }
    if let Some(c) = app.player() {
        // Follow the player.
        app.view.center = (c.center1 + c.center2) * 0.5;
    }
    if !egui_wants_keyboard {
        if mq::is_key_pressed(mq::KeyCode::P)
            || (!has_player && mq::is_key_pressed(mq::KeyCode::Space))
        {
            app.paused = !app.paused;
        }
        if mq::is_key_pressed(mq::KeyCode::O) {
            app.paused = true;
            app.step_once = true;
        }
        if mq::is_key_pressed(mq::KeyCode::R) {
            app.restart();
        }
        if mq::is_key_pressed(mq::KeyCode::B) {
            app.rewind();
        }
        if mq::is_key_pressed(mq::KeyCode::F) {
            app.fit_view(screen());
        }
    }
}

#[macroquad::main(window_conf)]
async fn main() {
    let args = Args::parse();
    let short = args.scene.rsplit('/').next().unwrap_or(&args.scene);
    let Some(index) = app::scenes().iter().position(|s| s.name == short) else {
        eprintln!(
            "error: unknown scene '{}' (see `impulse2d list`)",
            args.scene
        );
        std::process::exit(2);
    };
    let mut app = App::new(index, screen());
    let mut frame = 0u32;
    loop {
        app.resize(screen());
        app.update();
        if let Some(steps) = args.rewind
            && args.screenshot.is_some()
            && frame + 2 == args.frames
        {
            app.rewind_steps = steps;
            app.rewind();
        }

        mq::clear_background(draw::color(app.options.palette.background, 1.0));
        app.draw();

        let mut load = None;
        egui_macroquad::ui(|ctx| {
            load = ui::panel(ctx, &mut app);
        });
        let (mut wants_pointer, mut wants_keyboard) = (false, false);
        egui_macroquad::cfg(|ctx| {
            wants_pointer = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            wants_keyboard = ctx.wants_keyboard_input();
        });
        egui_macroquad::draw();
        if let Some(i) = load {
            app.load(i, screen(), true);
        }
        handle_input(&mut app, wants_pointer, wants_keyboard);

        frame += 1;
        if let Some(path) = &args.screenshot
            && frame >= args.frames
        {
            match save_screenshot(path) {
                Ok(()) => std::process::exit(0),
                Err(e) => {
                    eprintln!("error: {e}");
                    std::process::exit(1);
                }
            }
        }
        mq::next_frame().await;
    }
}
