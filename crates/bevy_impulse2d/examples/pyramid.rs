//! A pyramid of 210 boxes in a window: drag a box with the left mouse button.
//! Shapes and joints are drawn with gizmos (`Impulse2dDebugPlugin`).
//!
//! `cargo run --release --features example --example pyramid`
//! (`-- --screenshot out.png` drags the top box aside from frame 30 on, saves a picture
//! after 120 frames and exits).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::PrimaryWindow;
use bevy_impulse2d::prelude::*;

const BASE: usize = 20;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let screenshot = args
        .iter()
        .position(|a| a == "--screenshot")
        .and_then(|i| args.get(i + 1).cloned());
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_impulse2d: pyramid (drag boxes with the left mouse button)".into(),
                resolution: (1280u32, 720u32).into(),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((Impulse2dPlugin::default(), Impulse2dDebugPlugin))
        .insert_resource(ClearColor(Color::srgb(0.1, 0.1, 0.12)))
        .insert_resource(ScreenshotAt {
            path: screenshot,
            frame: 0,
        })
        .init_resource::<PointerDrag>()
        .add_systems(Startup, setup)
        .add_systems(Update, (drag, scripted_drag, screenshot_and_exit).chain())
        .run();
}

#[derive(Resource)]
struct ScreenshotAt {
    path: Option<String>,
    frame: u32,
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 28.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 10.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    for row in 0..BASE {
        for i in 0..BASE - row {
            let x = (i as f32 - (BASE - row - 1) as f32 / 2.0) * 1.0;
            let y = 0.5 + row as f32;
            commands.spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Transform::from_xyz(x, y, 0.0),
            ));
        }
    }
}

/// Left press on a box grabs it ([`PointerDrag`]: a mouse joint pulls it towards the
/// cursor) until release.
fn drag(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut physics: ResMut<PhysicsWorld>,
    mut drag: ResMut<PointerDrag>,
) {
    if buttons.just_released(MouseButton::Left) {
        drag.release(&mut physics);
    }
    let (camera, camera_transform) = *camera;
    let Some(cursor) = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(camera_transform, c).ok())
    else {
        return;
    };
    if buttons.just_pressed(MouseButton::Left) {
        drag.press(&mut physics, cursor);
    } else if buttons.pressed(MouseButton::Left) {
        drag.move_to(&mut physics, cursor);
    }
}

/// With `--screenshot PATH`: from frame 30, the top box is dragged up and to the right,
/// as a pointer would, so the picture shows a drag going on.
fn scripted_drag(
    at: Res<ScreenshotAt>,
    mut physics: ResMut<PhysicsWorld>,
    mut drag: ResMut<PointerDrag>,
) {
    if at.path.is_none() || at.frame < 30 {
        return;
    }
    let top = Vec2::new(0.0, BASE as f32 - 0.5);
    if at.frame == 30 {
        drag.press(&mut physics, top);
    } else {
        let t = ((at.frame - 30) as f32 / 60.0).min(1.0);
        drag.move_to(&mut physics, top + t * Vec2::new(8.0, 2.0));
    }
}

/// With `--screenshot PATH`: a picture of frame 120, then exit once it is written.
fn screenshot_and_exit(
    mut commands: Commands,
    mut at: ResMut<ScreenshotAt>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = at.path.clone() else { return };
    at.frame += 1;
    if at.frame == 120 {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
    }
    if at.frame > 150 && std::path::Path::new(&path).exists() {
        exit.write(AppExit::Success);
    }
    if at.frame > 2000 {
        exit.write(AppExit::error());
    }
}
