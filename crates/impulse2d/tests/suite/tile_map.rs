//! Tile maps without ghost collisions (issue 17): a box or capsule sliding
//! over a floor of separate square tiles moves as it does over one long box.

use crate::build;

use boxdd_sys::ffi as c;
use impulse2d::collision::make_offset_box;
use impulse2d::pos::coord_to_f32;
use impulse2d::{BodyDef, BodyId, Rot, ShapeDef, Vec2, World};
use impulse2d_scenes::physics::{SLIDE_SPEED, TILE_SIZE, slider, tile_floor};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;
/// The bound on the vertical speed of a slider, m/s.
const MAX_VY: f32 = 1.0e-3;

/// The floor a slider runs over.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Floor {
    /// One box as long as the tiles together.
    Long,
    /// Square tiles, all on one static body.
    TilesOneBody,
    /// Square tiles, one static body each.
    TilesManyBodies,
}

/// Largest |v_y| and the x-velocity each step of a slider (box or capsule)
/// with `friction` starting at 5 m/s on tile 1 of a `count`-tile floor,
/// while its centre is over the floor's first `count − 2` tiles.
fn slide(floor: Floor, capsule: bool, friction: f32, count: usize) -> (f32, Vec<f32>) {
    let mut world = build::world();
    match floor {
        Floor::Long => {
            let ground = world.create_body(&BodyDef::default()).unwrap();
            let half = 0.5 * TILE_SIZE * count as f32;
            let poly = make_offset_box(half, 0.5, Vec2::new(half, -0.5), Rot::IDENTITY).unwrap();
            world
                .create_polygon_shape(ground, &ShapeDef::default(), &poly)
                .unwrap();
        }
        Floor::TilesOneBody => {
            tile_floor(&mut world, count, 0.0, true).unwrap();
        }
        Floor::TilesManyBodies => {
            tile_floor(&mut world, count, 0.0, false).unwrap();
        }
    }
    let body = slider(&mut world, 1.5 * TILE_SIZE, 0.0, capsule).unwrap();
    set_friction(&mut world, body, friction);
    let end = TILE_SIZE * (count as f32 - 1.0);
    let mut max_vy = 0.0f32;
    let mut vx = Vec::new();
    for _ in 0..100_000 {
        world.step(DT, SUBSTEPS).unwrap();
        let b = world.body(body).unwrap();
        let v = b.linear_velocity();
        max_vy = max_vy.max(v.y.abs());
        vx.push(v.x);
        if coord_to_f32(b.position().x) > end || v.x <= 0.0 {
            break;
        }
    }
    (max_vy, vx)
}

fn set_friction(world: &mut World, body: BodyId, friction: f32) {
    let shapes = world.body(body).unwrap().shapes();
    for s in shapes {
        world.shape_mut(s).unwrap().set_friction(friction).unwrap();
    }
}

#[test]
fn frictionless_sliders_cross_a_hundred_tiles_as_over_one_long_box() {
    for capsule in [false, true] {
        let (vy_long, vx_long) = slide(Floor::Long, capsule, 0.0, 100);
        assert!(vy_long < MAX_VY, "long box: |v_y| up to {vy_long}");
        for floor in [Floor::TilesOneBody, Floor::TilesManyBodies] {
            let (vy, vx) = slide(floor, capsule, 0.0, 100);
            // Without friction nothing slows the slider: it crosses the
            // whole floor, 97 tiles at 5 m/s.
            let crossed = vx.len() as f32 * DT * SLIDE_SPEED;
            assert!(
                crossed > 97.0 * TILE_SIZE,
                "{floor:?} capsule={capsule}: stopped after {crossed} m"
            );
            assert!(vy < MAX_VY, "{floor:?} capsule={capsule}: |v_y| up to {vy}");
            let slowest = vx.iter().copied().fold(f32::MAX, f32::min);
            let slowest_long = vx_long.iter().copied().fold(f32::MAX, f32::min);
            assert!(
                slowest >= slowest_long - MAX_VY,
                "{floor:?} capsule={capsule}: slowed to {slowest} m/s (long box {slowest_long})"
            );
        }
    }
}

/// With friction μ the slider decelerates at μ·g on any floor: over tiles
/// its speed each step matches the speed over one long box.
#[test]
fn with_friction_sliders_slow_down_as_over_one_long_box() {
    let friction = 0.05;
    for capsule in [false, true] {
        let (_, vx_long) = slide(Floor::Long, capsule, friction, 40);
        for floor in [Floor::TilesOneBody, Floor::TilesManyBodies] {
            let (vy, vx) = slide(floor, capsule, friction, 40);
            assert!(vy < MAX_VY, "{floor:?} capsule={capsule}: |v_y| up to {vy}");
            for (k, (a, b)) in vx.iter().zip(&vx_long).enumerate() {
                assert!(
                    (a - b).abs() < MAX_VY,
                    "{floor:?} capsule={capsule} step {k}: {a} vs {b}"
                );
            }
        }
    }
}

/// Tiles that are really apart keep their corners: a box sliding into a
/// 0.2 m step stops against its face.
#[test]
fn a_real_step_still_stops_a_slider() {
    let mut world = build::world();
    tile_floor(&mut world, 10, 0.0, true).unwrap();
    let step = world.create_body(&BodyDef::default()).unwrap();
    let riser = make_offset_box(0.5, 0.6, Vec2::new(10.5, -0.4), Rot::IDENTITY).unwrap();
    world
        .create_polygon_shape(step, &ShapeDef::default(), &riser)
        .unwrap();
    let body = slider(&mut world, 1.5, 0.0, false).unwrap();
    set_friction(&mut world, body, 0.0);
    for _ in 0..240 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let b = world.body(body).unwrap();
    // The riser's face is at x = 10, the box's half width 0.25.
    assert!(
        b.position().x < 10.0 - 0.25 + 0.01,
        "x = {}",
        b.position().x
    );
}

/// Box2D v3 (boxdd-sys) on the same floors: (largest |v_y|, distance slid
/// before stopping or reaching the end), frictionless, over `count` tiles
/// on one body (`tiles`) or one long box.
fn box2d_slide(tiles: bool, capsule: bool, count: usize) -> (f32, f32) {
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    unsafe {
        let def = c::b2DefaultWorldDef();
        let world = c::b2CreateWorld(&def);
        let ground = c::b2CreateBody(world, &c::b2DefaultBodyDef());
        let sd = c::b2DefaultShapeDef();
        let identity = c::b2Rot { c: 1.0, s: 0.0 };
        if tiles {
            for i in 0..count {
                let center = c::b2Vec2 {
                    x: 0.5 + i as f32,
                    y: -0.5,
                };
                let tile = c::b2MakeOffsetBox(0.5, 0.5, center, identity);
                c::b2CreatePolygonShape(ground, &sd, &tile);
            }
        } else {
            let half = 0.5 * count as f32;
            let center = c::b2Vec2 { x: half, y: -0.5 };
            let floor = c::b2MakeOffsetBox(half, 0.5, center, identity);
            c::b2CreatePolygonShape(ground, &sd, &floor);
        }
        let (radius, half) = if capsule { (0.2, 0.3) } else { (0.25, 0.25) };
        let mut bd = c::b2DefaultBodyDef();
        bd.type_ = c::b2BodyType_b2_dynamicBody;
        bd.position = c::b2Vec2 { x: 1.5, y: radius };
        bd.linearVelocity = c::b2Vec2 {
            x: SLIDE_SPEED,
            y: 0.0,
        };
        let body = c::b2CreateBody(world, &bd);
        let mut sd = c::b2DefaultShapeDef();
        sd.material.friction = 0.0;
        if capsule {
            let cap = c::b2Capsule {
                center1: c::b2Vec2 { x: -half, y: 0.0 },
                center2: c::b2Vec2 { x: half, y: 0.0 },
                radius,
            };
            c::b2CreateCapsuleShape(body, &sd, &cap);
        } else {
            let poly = c::b2MakeBox(half, half);
            c::b2CreatePolygonShape(body, &sd, &poly);
        }
        let end = count as f32 - 1.0;
        let mut max_vy = 0.0f32;
        let mut x = 1.5;
        for _ in 0..100_000 {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
            let v = c::b2Body_GetLinearVelocity(body);
            x = c::b2Body_GetPosition(body).x;
            max_vy = max_vy.max(v.y.abs());
            if x > end || v.x <= 0.0 {
                break;
            }
        }
        c::b2DestroyWorld(world);
        (max_vy, x - 1.5)
    }
}

/// Box2D's figure beside ours (printed with `--nocapture`): over one long
/// box its sliders glide, over the same floor cut into tiles they catch on the
/// corners (so the setup does provoke ghost collisions); ours do not.
#[test]
fn box2d_figure_for_the_same_floors() {
    for capsule in [false, true] {
        let (vy_long, d_long) = box2d_slide(false, capsule, 100);
        let (vy_tiles, d_tiles) = box2d_slide(true, capsule, 100);
        let (vy_ours, vx_ours) = slide(Floor::TilesOneBody, capsule, 0.0, 100);
        assert!(
            vy_long < MAX_VY && d_long > 97.0,
            "Box2D, long box: {vy_long} m/s, {d_long} m"
        );
        assert!(
            vy_tiles > MAX_VY,
            "Box2D, tiles: |v_y| up to {vy_tiles} m/s"
        );
        println!(
            "capsule={capsule}: Box2D long box |v_y| ≤ {vy_long:.4} m/s, slid {d_long:.1} m; \
             Box2D tiles |v_y| ≤ {vy_tiles:.4} m/s, slid {d_tiles:.1} m; \
             ours tiles |v_y| ≤ {vy_ours:.5} m/s, slowest {:.4} m/s",
            vx_ours.iter().copied().fold(f32::MAX, f32::min)
        );
    }
}

/// The tiles' classification is derived data: a world made from a snapshot
/// of the tile-map scene, or restored from one, steps on to the same bits.
#[test]
fn the_tile_map_scene_restores_exactly() {
    let mut world = build::world();
    impulse2d_scenes::build("tile_map", &mut world).unwrap();
    for _ in 0..30 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let snap = world.snapshot();
    let mut hashes = Vec::new();
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        hashes.push(world.state_hash());
    }
    let replay = |w: &mut World| -> Vec<u64> {
        (0..60)
            .map(|_| {
                w.step(DT, SUBSTEPS).unwrap();
                w.state_hash()
            })
            .collect()
    };
    let mut again = World::from_snapshot(&snap, 2).unwrap();
    assert_eq!(replay(&mut again), hashes);
    let mut other = build::world();
    other.restore(&snap).unwrap();
    assert_eq!(replay(&mut other), hashes);
}
