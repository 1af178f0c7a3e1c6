//! A fixed scene rendered to a picture, checked pixel by pixel.

use impulse2d::collision::Aabb;
use impulse2d::debug_draw::{DrawOptions, Palette};
use impulse2d::{HexColor, Vec2, World, WorldDef};
use impulse2d_cli::{Camera, RasterDraw};

/// The single-box scene (a 40 m ground box with its top at y = 0, a 1 m box at
/// (0, 0.5)) seen through a 10 m × 5 m window: 20 px per metre, world (0, 0)
/// at pixel (100, 60).
fn render(world: &World) -> RasterDraw {
    let camera = Camera::fit(
        Aabb::new(Vec2::new(-5.0, -2.0), Vec2::new(5.0, 3.0)),
        200,
        100,
        0.0,
    );
    assert_eq!(camera.scale, 20.0);
    let mut r = RasterDraw::new(camera).unwrap();
    let options = DrawOptions::default();
    r.clear(options.palette.background);
    world.draw(&mut r, &options);
    r
}

fn pixel_at(r: &RasterDraw, p: Vec2) -> HexColor {
    let (x, y) = r.camera().to_pixels(p);
    r.pixel(x.floor() as u32, y.floor() as u32).unwrap()
}

#[test]
fn ground_and_box_are_drawn_where_they_are_in_their_state_colours() {
    let palette = Palette::default();
    let mut world = World::new(&WorldDef::default()).unwrap();
    let scene = impulse2d_scenes::build("single_box", &mut world).unwrap();
    let body = scene.bodies[0];

    let r = render(&world);
    // Inside the ground box (top at y = 0, 2 m deep).
    assert_eq!(pixel_at(&r, Vec2::new(3.0, -1.0)), palette.static_body);
    assert_eq!(pixel_at(&r, Vec2::new(-4.5, -0.3)), palette.static_body);
    // The box's centre, awake at the start.
    assert_eq!(pixel_at(&r, Vec2::new(0.0, 0.5)), palette.awake);
    // Empty space above the ground and beside the box.
    assert_eq!(pixel_at(&r, Vec2::new(3.0, 2.0)), palette.background);
    assert_eq!(pixel_at(&r, Vec2::new(-1.5, 0.5)), palette.background);

    // A resting body falls asleep after 0.5 s below the sleep speed; give it 2 s.
    for _ in 0..120 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    assert!(
        !world.body(body).unwrap().is_awake(),
        "the box should sleep by now"
    );
    let r = render(&world);
    assert_eq!(pixel_at(&r, Vec2::new(0.0, 0.5)), palette.sleeping);
    assert_eq!(pixel_at(&r, Vec2::new(3.0, -1.0)), palette.static_body);
}

#[test]
fn png_round_trip_keeps_the_colours() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    impulse2d_scenes::build("single_box", &mut world).unwrap();
    let r = render(&world);
    let png = r.encode_png().unwrap();
    let decoded = tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (200, 100));
    // World (3, -1) is pixel (160, 80): the ground.
    let p = decoded.pixel(160, 80).unwrap().demultiply();
    let g = Palette::default().static_body;
    assert_eq!(
        (p.red(), p.green(), p.blue(), p.alpha()),
        (g.r(), g.g(), g.b(), 255)
    );
}

/// The platformer's character is no body of the world: the picture draws it
/// over the world from the scene's script, filled in the player colour, where
/// the controller says it is (and the background shows just above its head).
#[test]
fn the_platformer_picture_draws_the_character() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let mut scene = impulse2d_scenes::build("platformer", &mut world).unwrap();
    for step in 0..90 {
        scene.step(&mut world, step, 1.0 / 60.0, 4).unwrap();
    }
    let c = scene.player().expect("the platformer has a player");
    let centre = (c.center1 + c.center2) * 0.5;
    let top = c.center1.y.max(c.center2.y) + c.radius;
    // 10 px per metre around the character.
    let camera = Camera::fit(
        Aabb::new(centre - Vec2::new(5.0, 2.5), centre + Vec2::new(5.0, 2.5)),
        100,
        50,
        0.0,
    );
    let mut r = RasterDraw::new(camera).unwrap();
    let options = DrawOptions::default();
    r.clear(options.palette.background);
    world.draw(&mut r, &options);
    assert_eq!(
        pixel_at(&r, centre),
        options.palette.background,
        "the world alone does not draw the character"
    );
    scene.draw(&world, &mut r, &options);
    assert_eq!(pixel_at(&r, centre), impulse2d_scenes::PLAYER_COLOR);
    assert_eq!(
        pixel_at(&r, Vec2::new(centre.x, top - 0.15)),
        impulse2d_scenes::PLAYER_COLOR
    );
    assert_eq!(
        pixel_at(&r, Vec2::new(centre.x, top + 0.25)),
        options.palette.background
    );
}
