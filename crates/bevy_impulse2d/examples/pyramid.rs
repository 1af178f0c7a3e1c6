//! A pyramid of 210 boxes in a window: drag a box with the left mouse button.
//! Shapes and joints are drawn with gizmos (`Impulse2dDebugPlugin`).
//!
//! `cargo run --release --features example --example pyramid`
//! (`-- --screenshot out.png` saves a picture after 120 frames and exits).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::PrimaryWindow;
use bevy_impulse2d::impulse2d as i2;
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
        .init_resource::<Drag>()
        .add_systems(Startup, setup)
        .add_systems(Update, (drag, screenshot_and_exit))
        .run();
}

/// A static body with no shape that mouse joints hang from.
#[derive(Component)]
struct DragAnchor;

#[derive(Resource, Default)]
struct Drag(Option<i2::JointId>);

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
    commands.spawn((RigidBody::Static, DragAnchor));
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

/// Left press on a box: a mouse joint pulls it towards the cursor until release.
fn drag(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    anchor: Query<&BodyHandle, With<DragAnchor>>,
    mut physics: ResMut<PhysicsWorld>,
    mut drag: ResMut<Drag>,
) {
    let (camera, camera_transform) = *camera;
    let cursor = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(camera_transform, c).ok());
    if buttons.just_released(MouseButton::Left)
        && let Some(joint) = drag.0.take()
    {
        let _ = physics.world.destroy_joint(joint);
    }
    let Some(p) = cursor else { return };
    let target = i2::Vec2::new(p.x, p.y);
    if let Some(joint) = drag.0 {
        if let Ok(j) = physics.world.joint_mut(joint)
            && let Ok(mut mouse) = j.mouse()
        {
            let _ = mouse.set_target(target);
        }
        return;
    }
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Ok(anchor) = anchor.single() else { return };
    let mut picked = None;
    let tiny = i2::collision::Aabb::new(
        target - i2::Vec2::new(0.001, 0.001),
        target + i2::Vec2::new(0.001, 0.001),
    );
    let _ = physics
        .world
        .overlap_aabb(tiny, i2::QueryFilter::default(), |shape| {
            picked = Some(shape);
            false
        });
    let Some(body) = picked.and_then(|s| physics.world.shape(s).ok().map(|s| s.body())) else {
        return;
    };
    let Ok(b) = physics.world.body(body) else {
        return;
    };
    if b.body_type() != i2::BodyType::Dynamic {
        return;
    }
    let weight = b.mass() * 10.0;
    let local = b.local_point(target);
    let def = i2::MouseJointDef {
        base: i2::JointDef {
            body_a: anchor.0,
            body_b: body,
            local_anchor_a: target,
            local_anchor_b: local,
            ..default()
        },
        target,
        hertz: 5.0,
        damping_ratio: 0.7,
        max_force: 1000.0 * weight,
        ..default()
    };
    drag.0 = physics.world.create_mouse_joint(&def).ok();
    physics
        .world
        .body_mut(body)
        .map(|mut b| b.set_awake(true))
        .ok();
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
