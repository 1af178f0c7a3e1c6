//! The public face of the world's objects: small views that borrow the world
//! and name one object, validated once.
//!
//! `world.body(id)?` gives a [`BodyRef`] (read only), `world.body_mut(id)?` a
//! [`BodyMut`] (read and write); shapes and chains likewise. A view holds the
//! world borrow and the object's index, checked when the view is made: a
//! stale or foreign id is `Err(InvalidId)` there, and every call on the view
//! then reaches a live object. Getters are written once, for both kinds of
//! view (`impl<W: Deref<Target = World>>`); setters and actions exist only on
//! the `Mut` view.
//!
//! Getters return plain values; a setter that takes a number returns
//! `Result<()>` and changes nothing when it fails.
//!
//! Box2D's flat functions map onto views by their prefix: `b2Body_*` onto
//! [`BodyView`]. Each method's rustdoc names the Box2D function it covers.
//! Creation and destruction stay on [`World`](crate::World).

pub mod body;

pub use body::{BodyMut, BodyRef, BodyView};
