//! The public face of the world's objects: small views that borrow the world
//! and name one object, validated once.
//!
//! `world.body(id)?` gives a [`BodyRef`] (read only), `world.body_mut(id)?` a
//! [`BodyMut`] (read and write); shapes ([`ShapeRef`], [`ShapeMut`]) and
//! chains ([`ChainRef`], [`ChainMut`]) likewise. A view holds the world
//! borrow and the object's index, checked when the view is made: a stale or
//! foreign id is `Err(InvalidId)` there, and every call on the view then
//! reaches a live object. Getters are written once, for both kinds of view
//! (`impl<W: Deref<Target = World>>`); setters and actions exist only on the
//! `Mut` view.
//!
//! Getters return plain values; a setter that takes a number returns
//! `Result<()>` and changes nothing when it fails.
//!
//! Box2D's flat functions map onto views by their prefix: `b2Body_*` onto
//! [`BodyView`], `b2Shape_*` onto [`ShapeView`], `b2Chain_*` onto
//! [`ChainView`], `b2Joint_*` and the per-type `b2*Joint_*` onto
//! [`JointView`] and its parts. Each method's rustdoc names the Box2D function it covers.
//! Creation and destruction stay on [`World`](crate::World).
//!
//! ```
//! use impulse2d::collision::make_box;
//! use impulse2d::{BodyDef, BodyType, ShapeDef, Vec2, World, WorldDef};
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let id = world
//!     .create_body(&BodyDef { body_type: BodyType::Dynamic, ..Default::default() })
//!     .unwrap();
//! world.create_polygon_shape(id, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap()).unwrap();
//! world.body_mut(id).unwrap().set_gravity_scale(0.0).unwrap();
//! world.step(1.0 / 60.0, 4).unwrap();
//! let body = world.body(id).unwrap();
//! assert_eq!(body.linear_velocity(), Vec2::ZERO);
//! assert_eq!(body.mass(), 1.0); // 1 m² at 1 kg/m²
//! ```
//!
//! The API in brief (the same code as README's "API in brief"):
//!
//! ```
//! # use impulse2d::collision::Circle;
//! # use impulse2d::{BodyDef, BodyType, Error, JointDef, Pos, RevoluteJointDef, ShapeDef, Vec2, World, WorldDef};
//! # fn main() -> impulse2d::Result<()> {
//! let mut world = World::new(&WorldDef::default())?;
//! let ground = world.create_body(&BodyDef::default())?;
//! let wheel = world.create_body(&BodyDef {
//!     body_type: BodyType::Dynamic,
//!     position: Pos::new(0.0, 2.0),
//!     ..Default::default()
//! })?;
//! let rim = world.create_circle_shape(wheel, &ShapeDef::default(), &Circle::new(Vec2::ZERO, 0.5)?)?;
//! let hinge = world.create_revolute_joint(&RevoluteJointDef {
//!     base: JointDef {
//!         body_a: ground,
//!         body_b: wheel,
//!         local_anchor_a: Vec2::new(0.0, 2.0),
//!         ..Default::default()
//!     },
//!     ..Default::default()
//! })?;
//!
//! // Objects: `body`/`shape`/`chain`/`joint` read, `*_mut` change; the id is checked once.
//! world.body_mut(wheel)?.set_gravity_scale(0.5)?;
//! world.shape_mut(rim)?.set_friction(0.9)?;
//! // A joint's motor, limit and spring are parts shared by every joint type that
//! // has them; what only one type has is its typed part.
//! world.joint_mut(hinge)?.motor()?.set_speed(2.0)?;
//! let mut motor = world.joint_mut(hinge)?.motor()?;
//! motor.enable(true);
//! motor.set_max_force(50.0)?; // a torque, N·m, for a revolute joint
//! let mut limit = world.joint_mut(hinge)?.limit()?;
//! limit.enable(true);
//! limit.set_range(-0.5, 0.5)?;
//! assert!(matches!(world.joint(hinge)?.prismatic(), Err(Error::WrongJointType { .. })));
//! // Bad numbers are an `Err`, and nothing changes.
//! assert!(world.body_mut(wheel)?.set_gravity_scale(f32::NAN).is_err());
//!
//! // World settings, the step, queries and events stay on the world.
//! world.set_gravity(Vec2::new(0.0, -9.8))?;
//! world.set_contact_tuning(30.0, 10.0, 3.0)?;
//! for _ in 0..30 {
//!     world.step(1.0 / 60.0, 4)?;
//! }
//! let angle = world.joint(hinge)?.revolute()?.angle();
//! assert!(angle > 0.0 && angle <= 0.5 + 0.01); // driven at 2 rad/s up to its limit
//! assert_eq!(world.body(wheel)?.gravity_scale(), 0.5);
//! # Ok(())
//! # }
//! ```

/// Declares the view of one kind of object: the struct (the world borrow and
/// the object's index), its read-only and read-write aliases, `World`'s two
/// constructors (the id is checked once, by `$index`; `then $on_mut` runs
/// when a write view is made) and the view's `id()` and `world()`. The
/// formulaic doc sentences are written here from `$what`; the rows add their
/// own doc lines (and `Box2D:` tags, read by scripts/api_parity.py from the
/// path each row names). `+ Copy` makes the view `Clone + Copy` instead of
/// deriving `Debug` (the view then writes its own).
macro_rules! view {
    (
        $(#[$meta:meta])*
        pub struct $view:ident<W>($id:ident = $index:ident, $make_id:ident, $what:literal):
            $ref_alias:ident, $mut_alias:ident $(+ $copy:ident)?;
        $(#[$get_doc:meta])* World::$get:ident;
        $(#[$mut_doc:meta])* World::$get_mut:ident $(then $on_mut:ident)?;
        $(#[$world_doc:meta])* $world_alias:ident::world;
    ) => {
        view!(@struct [$(#[$meta])*] $view $($copy)?);

        #[doc = concat!("A read-only view of a ", $what, ".")]
        pub type $ref_alias<'w> = $view<&'w World>;
        #[doc = concat!("A read-write view of a ", $what, ".")]
        pub type $mut_alias<'w> = $view<&'w mut World>;

        impl World {
            #[doc = concat!("A read-only view of a ", $what, "; `Err(InvalidId)` for a stale or foreign id.")]
            $(#[$get_doc])*
            pub fn $get(&self, id: $id) -> Result<$ref_alias<'_>> {
                let index = self.$index(id)?;
                Ok($view { world: self, index })
            }

            #[doc = concat!("A read-write view of a ", $what, "; `Err(InvalidId)` for a stale or foreign id.")]
            $(#[$mut_doc])*
            pub fn $get_mut(&mut self, id: $id) -> Result<$mut_alias<'_>> {
                let index = self.$index(id)?;
                $(self.$on_mut();)?
                Ok($view { world: self, index })
            }
        }

        impl<W: Deref<Target = World>> $view<W> {
            #[doc = concat!("The ", $what, "'s id.")]
            pub fn id(&self) -> $id {
                self.world.$make_id(self.index as u32)
            }

            $(#[$world_doc])*
            pub fn world(&self) -> &World {
                &self.world
            }
        }
    };

    (@struct [$($meta:tt)*] $view:ident) => {
        $($meta)*
        #[derive(Debug)]
        pub struct $view<W> {
            world: W,
            index: usize,
        }
    };

    (@struct [$($meta:tt)*] $view:ident Copy) => {
        $($meta)*
        #[derive(Clone, Copy)]
        pub struct $view<W> {
            world: W,
            index: usize,
        }
    };
}

mod world;

pub mod body;
pub mod chain;
pub mod joint;
pub mod shape;

pub use body::{BodyMut, BodyRef, BodyView};
pub use chain::{ChainMut, ChainRef, ChainView};
pub use joint::{
    DistanceView, FilterView, JointMut, JointRef, JointView, LimitView, MotorJointView, MotorView,
    MouseView, MoverView, PogoView, PrismaticView, RevoluteView, SpringView, WeldView, WheelView,
};
pub use shape::{ShapeMut, ShapeRef, ShapeView};
