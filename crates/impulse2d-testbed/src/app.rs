//! The testbed's state: the current scene's world, the view, the settings and
//! the mouse interaction. Nothing here draws widgets (see `ui.rs`).

use crate::draw::{ScreenDraw, View};
use crate::rewind::Rewind;
use impulse2d::collision::{point_in_capsule, point_in_circle, point_in_polygon};
use impulse2d::debug_draw::DrawOptions;
use impulse2d::{
    BodyDef, BodyId, BodyType, DebugDraw, HexColor, JointDef, JointId, MouseJointDef, Profile,
    ShapeGeometry, Vec2, World, WorldDef,
};
use impulse2d_scenes::{Scene, SceneInfo};
use macroquad::prelude as mq;

/// Width of the side panel, pixels.
pub const PANEL_WIDTH: f32 = 270.0;

/// A body held by the mouse through a mouse joint.
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    /// The body.
    pub body: BodyId,
    /// The mouse joint pulling it (body A is the testbed's handle body).
    pub joint: JointId,
    /// The grabbed point in the body frame, metres.
    pub local_anchor: Vec2,
    /// Where the mouse is, metres.
    pub target: Vec2,
}

/// Stiffness of the mouse joint's pull, Hz.
const DRAG_HERTZ: f32 = 5.0;
/// Damping ratio of the mouse joint's pull.
const DRAG_DAMPING_RATIO: f32 = 0.7;
/// The mouse joint's largest force, in multiples of the dragged body's weight.
const DRAG_FORCE_PER_WEIGHT: f32 = 1000.0;

/// Per-stage timings smoothed over recent steps, milliseconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct SmoothedProfile {
    /// The smoothed values.
    pub ms: Profile,
}

impl SmoothedProfile {
    /// Blends in one step's profile (exponential average, 5 % per step).
    pub fn add(&mut self, p: &Profile) {
        let k = 0.05;
        let m = &mut self.ms;
        for (avg, v) in [
            (&mut m.step, p.step),
            (&mut m.pairs, p.pairs),
            (&mut m.collide, p.collide),
            (&mut m.solve, p.solve),
            (&mut m.prepare_constraints, p.prepare_constraints),
            (&mut m.integrate_velocities, p.integrate_velocities),
            (&mut m.warm_start, p.warm_start),
            (&mut m.solve_impulses, p.solve_impulses),
            (&mut m.integrate_positions, p.integrate_positions),
            (&mut m.relax_impulses, p.relax_impulses),
            (&mut m.restitution, p.restitution),
            (&mut m.store_impulses, p.store_impulses),
            (&mut m.finalize_bodies, p.finalize_bodies),
            (&mut m.enlarge_proxies, p.enlarge_proxies),
            (&mut m.split_islands, p.split_islands),
            (&mut m.sleep_islands, p.sleep_islands),
        ] {
            *avg += k * (v - *avg);
        }
    }
}

/// Everything the testbed shows and changes.
pub struct App {
    /// Index of the scene in `impulse2d_scenes::list()`.
    pub scene_index: usize,
    /// The world of the current scene.
    pub world: World,
    /// The current scene (its per-step script runs before every step);
    /// `None` when it failed to build.
    pub scene: Option<Scene>,
    /// A shapeless static body the mouse joint hangs from (body A), made on
    /// the first drag. Not the scene's ground: a joint stops its two bodies
    /// colliding, and the dragged body must still hit the ground.
    pub handle: Option<BodyId>,
    /// Whether time stands still.
    pub paused: bool,
    /// Take one step on the next frame even when paused.
    pub step_once: bool,
    /// Steps per simulated second, Hz.
    pub hz: f32,
    /// Substeps per step.
    pub substeps: u32,
    /// Sleeping on or off.
    pub enable_sleep: bool,
    /// What to draw.
    pub options: DrawOptions,
    /// Where the screen looks.
    pub view: View,
    /// The body under the mouse and its mouse joint, while the left button is held.
    pub drag: Option<Drag>,
    /// The last mouse position while panning, pixels.
    pub pan_from: Option<mq::Vec2>,
    /// Step timings.
    pub profile: SmoothedProfile,
    /// Steps since the scene was built.
    pub step_count: u64,
    /// The last error (a scene that failed to build, a step that failed).
    pub error: Option<String>,
    /// Show the profile overlay.
    pub show_profile: bool,
    /// The keyboard drives the scene's player (after the first arrow or
    /// jump key; until then it runs its scripted track).
    pub keys_taken: bool,
    /// The rollback states of the last steps (the rewind control).
    pub rewind: Rewind,
    /// How many steps the rewind control goes back.
    pub rewind_steps: u64,
}

/// The scenes.
pub fn scenes() -> &'static [SceneInfo] {
    impulse2d_scenes::list()
}

/// Builds a scene into a fresh world.
fn build(index: usize) -> Result<(World, Scene), String> {
    let info = scenes().get(index).ok_or("no such scene")?;
    let mut world = World::new(&WorldDef::default()).map_err(|e| e.to_string())?;
    let scene = impulse2d_scenes::build(info.name, &mut world)
        .map_err(|e| format!("{}: {e}", info.name))?;
    Ok((world, scene))
}

impl App {
    /// The testbed showing scene `index` (or an empty world if it fails to build).
    pub fn new(index: usize, screen: (f32, f32)) -> App {
        let mut app = App {
            scene_index: index,
            world: World::new(&WorldDef::default()).expect("the default world definition is valid"),
            scene: None,
            handle: None,
            paused: false,
            step_once: false,
            hz: 60.0,
            substeps: 4,
            enable_sleep: true,
            options: DrawOptions::default(),
            view: View::fit(
                Vec2::new(-20.0, -2.0),
                Vec2::new(20.0, 20.0),
                PANEL_WIDTH,
                screen,
            ),
            drag: None,
            pan_from: None,
            profile: SmoothedProfile::default(),
            step_count: 0,
            error: None,
            show_profile: true,
            keys_taken: false,
            rewind: Rewind::default(),
            rewind_steps: 60,
        };
        app.load(index, screen, true);
        app
    }

    /// Loads scene `index`; `fit` re-centres the view on it.
    pub fn load(&mut self, index: usize, screen: (f32, f32), fit: bool) {
        self.scene_index = index;
        // The old world goes, and the mouse joint and handle body with it.
        self.drag = None;
        self.handle = None;
        self.step_count = 0;
        self.keys_taken = false;
        self.rewind = Rewind::default();
        self.profile = SmoothedProfile::default();
        match build(index) {
            Ok((world, scene)) => {
                self.world = world;
                self.scene = Some(scene);
                self.error = None;
            }
            Err(e) => {
                self.world = World::new(&WorldDef::default()).expect("valid default");
                self.scene = None;
                self.error = Some(e);
            }
        }
        // Scenes may turn sleep off (the benchmarks do): follow them.
        self.enable_sleep = self.world.settings().enable_sleep;
        if fit {
            self.fit_view(screen);
        }
    }

    /// Restarts the current scene, keeping the view.
    pub fn restart(&mut self) {
        let screen = self.view.size;
        self.load(
            self.scene_index,
            (screen.0 + self.view.left, screen.1),
            false,
        );
    }

    /// Fits the view to the scene.
    pub fn fit_view(&mut self, screen: (f32, f32)) {
        let size = ((screen.0 - PANEL_WIDTH).max(50.0), screen.1.max(50.0));
        self.view = match self.world.view_bounds() {
            Some(b) => View::fit(b.lower, b.upper, PANEL_WIDTH, size),
            None => View::fit(
                Vec2::new(-20.0, -2.0),
                Vec2::new(20.0, 20.0),
                PANEL_WIDTH,
                size,
            ),
        };
        // A scene with a player shows 30 m around it (the view follows it).
        if let Some(c) = self.player() {
            self.view.scale = self.view.size.0 / 30.0;
            self.view.center = (c.center1 + c.center2) * 0.5;
        }
    }

    /// Keeps the view's drawing area matching the window.
    pub fn resize(&mut self, screen: (f32, f32)) {
        self.view.left = PANEL_WIDTH;
        self.view.size = ((screen.0 - PANEL_WIDTH).max(50.0), screen.1.max(50.0));
    }

    /// The scene's player capsule, if it has one (the platformer).
    pub fn player(&self) -> Option<impulse2d::collision::Capsule> {
        self.scene.as_ref()?.player()
    }

    /// Hands the keyboard to the scene's player: left/right run, jump. The
    /// player follows the keys from the first one pressed on.
    pub fn player_keys(&mut self, left: bool, right: bool, jump: bool) {
        let input = impulse2d_scenes::PlayerInput {
            move_x: right as i32 as f32 - left as i32 as f32,
            jump,
        };
        if input == impulse2d_scenes::PlayerInput::default() && !self.keys_taken {
            return;
        }
        if let Some(script) = self.scene.as_mut().and_then(|s| s.script.as_mut()) {
            self.keys_taken = true;
            script.player_input(input);
        }
    }

    /// Advances the world one step if running (or asked to step once).
    pub fn update(&mut self) {
        if self.paused && !self.step_once {
            return;
        }
        self.step_once = false;
        if self.world.settings().enable_sleep != self.enable_sleep {
            self.world.enable_sleeping(self.enable_sleep);
        }
        let time_step = 1.0 / self.hz;
        self.rewind
            .save(&mut self.world, self.step_count, time_step, self.substeps);
        let script = match self.scene.as_mut() {
            Some(scene) => scene.before_step(&mut self.world, self.step_count),
            None => Ok(()),
        };
        if let Err(e) = script {
            self.error = Some(format!("scene script failed: {e}"));
            self.paused = true;
            return;
        }
        // The script may have destroyed the dragged body (and its joint).
        if let Some(drag) = self.drag
            && !self.world.joint_is_valid(drag.joint)
        {
            self.drag = None;
        }
        match self.world.step(time_step, self.substeps) {
            Ok(()) => {
                self.step_count += 1;
                self.profile.add(self.world.profile());
            }
            Err(e) => {
                self.error = Some(format!("step failed: {e}"));
                self.paused = true;
            }
        }
    }

    /// Goes back [`App::rewind_steps`] steps and simulates them again (the
    /// outcome, hash before and after, shows in the panel). Refused while
    /// the steps kept do not reach that far or after the world's objects
    /// changed (a script created bodies, a drag made its mouse joint); a
    /// drag's moving target is not replayed, so a rewind across one shows a
    /// different hash.
    pub fn rewind(&mut self) {
        let _ = self.rewind.rewind(
            &mut self.world,
            self.scene.as_mut(),
            self.step_count,
            self.rewind_steps,
        );
    }

    /// The dynamic body under a world point, if any (the last created wins).
    pub fn body_at(&self, p: Vec2) -> Option<BodyId> {
        let mut hit = None;
        for id in self.world.body_ids() {
            if self.world.body(id).map(|view| view.body_type()) != Ok(BodyType::Dynamic) {
                continue;
            }
            let Ok(xf) = self.world.body(id).map(|view| view.transform()) else {
                continue;
            };
            let local = xf.apply_inv(p);
            let Ok(shapes) = self.world.body(id).map(|view| view.shapes()) else {
                continue;
            };
            let inside =
                shapes
                    .iter()
                    .any(|&s| match self.world.shape(s).map(|view| view.geometry()) {
                        Ok(ShapeGeometry::Circle(c)) => point_in_circle(local, &c),
                        Ok(ShapeGeometry::Capsule(c)) => point_in_capsule(local, &c),
                        Ok(ShapeGeometry::Polygon(poly)) => point_in_polygon(local, &poly),
                        _ => false,
                    });
            if inside {
                hit = Some(id);
            }
        }
        hit
    }

    /// Starts dragging the body under `p` (world), if any: a mouse joint
    /// from the handle body pulls the grabbed point towards the mouse, with
    /// a force of up to a thousand times the body's weight.
    pub fn begin_drag(&mut self, p: Vec2) {
        self.end_drag();
        let Some(body) = self.body_at(p) else {
            return;
        };
        let (Ok(local_anchor), Some(handle)) = (
            self.world.body(body).map(|view| view.local_point(p)),
            self.handle_body(),
        ) else {
            return;
        };
        let mass = self.world.body(body).map(|view| view.mass()).unwrap_or(1.0);
        let gravity = self.world.gravity().length().max(1.0);
        let def = MouseJointDef {
            base: JointDef {
                body_a: handle,
                body_b: body,
                ..JointDef::default()
            },
            target: p,
            hertz: DRAG_HERTZ,
            damping_ratio: DRAG_DAMPING_RATIO,
            max_force: DRAG_FORCE_PER_WEIGHT * mass * gravity,
        };
        match self.world.create_mouse_joint(&def) {
            Ok(joint) => {
                let _ = self
                    .world
                    .body_mut(body)
                    .map(|mut view| view.set_awake(true));
                self.drag = Some(Drag {
                    body,
                    joint,
                    local_anchor,
                    target: p,
                });
            }
            Err(e) => self.error = Some(format!("cannot grab the body: {e}")),
        }
    }

    /// Moves the dragged point's target to `p` (world).
    pub fn move_drag(&mut self, p: Vec2) {
        let Some(drag) = self.drag.as_mut() else {
            return;
        };
        drag.target = p;
        if self
            .world
            .joint_mut(drag.joint)
            .and_then(|j| j.mouse()?.set_target(p))
            .is_err()
        {
            // The joint went with its body.
            self.drag = None;
        }
    }

    /// Lets go of the dragged body, destroying the mouse joint.
    pub fn end_drag(&mut self) {
        if let Some(drag) = self.drag.take()
            && self.world.joint_is_valid(drag.joint)
        {
            let _ = self.world.destroy_joint(drag.joint);
        }
    }

    /// The static body mouse joints hang from, created on first use.
    fn handle_body(&mut self) -> Option<BodyId> {
        if let Some(h) = self.handle
            && self.world.body(h).is_ok()
        {
            return Some(h);
        }
        self.handle = self.world.create_body(&BodyDef::default()).ok();
        self.handle
    }

    /// Draws the world and the drag line.
    pub fn draw(&self) {
        let mut d = ScreenDraw { view: self.view };
        let (lower, upper) = self.view.world_bounds();
        let options = DrawOptions {
            drawing_bounds: impulse2d::collision::Aabb::new(lower, upper),
            ..self.options.clone()
        };
        self.world.draw(&mut d, &options);
        if let Some(drag) = self.drag
            && self.world.joint_is_valid(drag.joint)
            && let Ok(anchor) = self
                .world
                .body(drag.body)
                .map(|view| view.world_point(drag.local_anchor))
        {
            d.draw_segment(anchor, drag.target, HexColor::WHITE);
            d.draw_point(anchor, 6.0, HexColor::WHITE);
            d.draw_point(drag.target, 6.0, HexColor::CYAN);
        }
        // The player is not a body: draw its capsule over the world.
        if let Some(c) = self.player() {
            d.draw_solid_capsule(
                c.center1,
                c.center2,
                c.radius,
                impulse2d_scenes::PLAYER_COLOR,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn single_box_app() -> App {
        let index = scenes()
            .iter()
            .position(|s| s.name == "single_box")
            .unwrap();
        App::new(index, (1000.0, 600.0))
    }

    #[test]
    fn picking_finds_dynamic_bodies_only() {
        let app = single_box_app();
        // The 1 m box sits at (0, 0.5); the ground below is static.
        let b = app.body_at(Vec2::new(0.2, 0.7)).expect("the box");
        assert_eq!(
            app.world.body(b).map(|view| view.body_type()),
            Ok(BodyType::Dynamic)
        );
        assert_eq!(app.body_at(Vec2::new(0.0, -0.5)), None);
        assert_eq!(app.body_at(Vec2::new(3.0, 0.5)), None);
    }

    #[test]
    fn dragging_pulls_the_grabbed_point_to_the_mouse() {
        let mut app = single_box_app();
        let bodies = app.world.counters().body_count;
        // Grab the 1 m box (centre (0, 0.5)) 0.25 m right of its centre.
        app.begin_drag(Vec2::new(0.25, 0.5));
        let drag = app.drag.expect("grabbed");
        assert!(app.world.joint_is_valid(drag.joint));
        assert!((drag.local_anchor - Vec2::new(0.25, 0.0)).length() < 1e-5);
        // The joint hangs from a new static handle body, not the ground.
        assert_eq!(app.world.counters().body_count, bodies + 1);
        app.move_drag(Vec2::new(2.0, 3.0));
        for _ in 0..180 {
            app.update();
        }
        // A 5 Hz, ζ = 0.7 spring settles in about a second; gravity pulls
        // the point below the target by g / ω² = 9.8 / (2π·5)² ≈ 0.01 m.
        let p = app
            .world
            .body(drag.body)
            .unwrap()
            .world_point(drag.local_anchor);
        assert!(
            (p - Vec2::new(2.0, 3.0)).length() < 0.05,
            "grabbed point at {p:?}"
        );
        // Released, the joint is gone and the box falls back to the ground.
        app.end_drag();
        assert!(app.drag.is_none());
        assert!(!app.world.joint_is_valid(drag.joint));
        for _ in 0..180 {
            app.update();
        }
        let y = app.world.body(drag.body).unwrap().position().y;
        assert!(y < 0.6, "box at height {y}");
    }

    #[test]
    fn restart_and_destroyed_bodies_drop_the_drag() {
        let mut app = single_box_app();
        app.begin_drag(Vec2::new(0.0, 0.5));
        assert!(app.drag.is_some());
        app.restart();
        assert!(app.drag.is_none() && app.handle.is_none());

        app.begin_drag(Vec2::new(0.0, 0.5));
        let drag = app.drag.expect("grabbed");
        app.world.destroy_body(drag.body).unwrap();
        app.update();
        assert!(app.drag.is_none());
        // Moving or releasing afterwards is harmless.
        app.move_drag(Vec2::new(1.0, 1.0));
        app.end_drag();
    }

    #[test]
    fn grabbing_empty_space_does_nothing() {
        let mut app = single_box_app();
        app.begin_drag(Vec2::new(5.0, 5.0));
        assert!(app.drag.is_none());
    }

    #[test]
    fn pause_and_single_step() {
        let mut app = single_box_app();
        app.paused = true;
        app.update();
        assert_eq!(app.step_count, 0);
        app.step_once = true;
        app.update();
        app.update();
        assert_eq!(app.step_count, 1);
        app.restart();
        assert_eq!(app.step_count, 0);
    }
}
