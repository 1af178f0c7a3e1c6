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
