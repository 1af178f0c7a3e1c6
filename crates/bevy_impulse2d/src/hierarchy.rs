//! Where entities are in the physics world: the 2D maps that `Transform`s (x, y, the
//! rotation about z, and the x and y scale) compose to through the `ChildOf` hierarchy,
//! done by the plugin itself so that they are exact for the current `Transform`s inside
//! `FixedUpdate` (Bevy's `GlobalTransform` is only propagated in `PostUpdate`).
//!
//! A map is a rigid transform after an optional linear part (scale, and the shear that a
//! rotated child of a non-uniformly scaled parent gets, as in Bevy's `GlobalTransform`).
//! Without any scale the linear part stays `None` and every composition is the engine's
//! rigid `Transform::mul`, bit for bit what it was before scale was supported.

use bevy::math::{Mat2, Vec2};
use bevy::prelude::*;
use impulse2d as i2;

use crate::components::{BodyHandle, PhysicsPose, RigidBody};
use crate::systems::{bv, v};

/// Most levels a hierarchy walk goes up (against a malformed hierarchy).
const MAX_DEPTH: usize = 64;

/// The map `p ↦ xf.apply(linear · p)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Map {
    pub xf: i2::Transform,
    /// `None`: the identity.
    pub linear: Option<Mat2>,
}

impl Map {
    pub const IDENTITY: Map = Map {
        xf: i2::Transform::IDENTITY,
        linear: None,
    };

    /// The map of a `Transform` in its parent's frame.
    pub fn local(t: &Transform) -> Map {
        let s = t.scale.truncate();
        Map {
            xf: pose(t),
            linear: (s != Vec2::ONE).then(|| Mat2::from_diagonal(s)),
        }
    }

    /// `self` after `inner` (`inner` first).
    pub fn then(self, inner: Map) -> Map {
        match self.linear {
            None => Map {
                xf: self.xf.mul(inner.xf),
                linear: inner.linear,
            },
            Some(m) => {
                // m·(R_i·L_i·p + t_i) = (m·R_i·L_i)·p + m·t_i, then self.xf.
                let r = rot_mat(inner.xf.q);
                let l = inner.linear.map_or(m * r, |li| m * r * li);
                Map {
                    xf: i2::Transform::new(self.xf.apply(v(m * bv(inner.xf.p))), self.xf.q),
                    linear: Some(l),
                }
            }
        }
    }

    pub fn apply(&self, p: Vec2) -> i2::Vec2 {
        let q = self.linear.map_or(p, |m| m * p);
        self.xf.apply(v(q))
    }

    /// The whole linear part, rotation included.
    pub fn matrix(&self) -> Mat2 {
        let r = rot_mat(self.xf.q);
        self.linear.map_or(r, |l| r * l)
    }

    /// The rigid part (a body's pose) and what is left: `self = rigid · residual`. The
    /// rotation is that of the first axis (of its opposite when the map mirrors, as
    /// Bevy gives a negative x scale then); `residual` is `None` without scale.
    pub fn split(&self) -> (i2::Transform, Option<Mat2>) {
        let Some(l) = self.linear else {
            return (self.xf, None);
        };
        // A positive diagonal scale: the rotation is the rigid part's, exactly.
        if l.x_axis.y == 0.0 && l.y_axis.x == 0.0 && l.x_axis.x > 0.0 && l.y_axis.y > 0.0 {
            return (self.xf, Some(l));
        }
        let m = self.matrix();
        let axis = if m.determinant() < 0.0 {
            -m.x_axis
        } else {
            m.x_axis
        };
        let q = if axis.length_squared() > 0.0 && axis.is_finite() {
            let axis = axis.normalize();
            i2::Rot {
                c: axis.x,
                s: axis.y,
            }
        } else {
            i2::Rot::IDENTITY
        };
        let rigid = i2::Transform::new(self.xf.p, q);
        (rigid, Some(rot_mat(q).transpose() * m))
    }

    /// Whether the map mirrors (its determinant is negative).
    pub fn mirrors(&self) -> bool {
        self.linear.is_some_and(|l| l.determinant() < 0.0)
    }

    /// How a radius scales: 1 without scale, `√|det|` otherwise (`|s|` for a uniform
    /// scale `s`; for a non-uniform one, the circle with the area of the ellipse).
    pub fn radius_scale(&self) -> f32 {
        self.linear.map_or(1.0, |l| l.determinant().abs().sqrt())
    }
}

/// The rotation matrix of `q`.
fn rot_mat(q: i2::Rot) -> Mat2 {
    Mat2::from_cols(Vec2::new(q.c, q.s), Vec2::new(-q.s, q.c))
}

/// The 2D pose of a `Transform`: x, y and the rotation about z.
pub(crate) fn pose(t: &Transform) -> i2::Transform {
    let q = t.rotation;
    // For a rotation about z, q = (0, 0, sin(a/2), cos(a/2)).
    let angle = 2.0 * q.z.atan2(q.w);
    i2::Transform::new(
        i2::Vec2::new(t.translation.x, t.translation.y),
        i2::Rot::from_angle(angle),
    )
}

/// What a hierarchy walk reads of an entity.
pub(crate) type TreeNode<'a> = (
    &'a Transform,
    Option<&'a ChildOf>,
    Option<&'a BodyHandle>,
    Has<RigidBody>,
);

/// The map of `entity` in the world: its `Transform` after those of its ancestors.
/// `None` for an entity without a `Transform` or a hierarchy deeper than 64.
pub(crate) fn global(entity: Entity, tree: &Query<TreeNode>) -> Option<Map> {
    let (t, parent, _, _) = tree.get(entity).ok()?;
    let mut map = Map::local(t);
    let mut parent = parent.map(|p| p.parent());
    for _ in 0..MAX_DEPTH {
        let Some(e) = parent else {
            return Some(map);
        };
        let (t, p, _, _) = tree.get(e).ok()?;
        map = Map::local(t).then(map);
        parent = p.map(|p| p.parent());
    }
    None
}

/// The map of `entity`'s parent in the world (the identity at the root).
pub(crate) fn parent_global(entity: Entity, tree: &Query<TreeNode>) -> Option<Map> {
    let (_, parent, _, _) = tree.get(entity).ok()?;
    match parent {
        None => Some(Map::IDENTITY),
        Some(p) => global(p.parent(), tree),
    }
}

/// How many ancestors `entity` has.
pub(crate) fn depth(entity: Entity, tree: &Query<TreeNode>) -> usize {
    let mut d = 0;
    let mut e = entity;
    while d < MAX_DEPTH {
        match tree.get(e) {
            Ok((_, Some(p), _, _)) => {
                e = p.parent();
                d += 1;
            }
            _ => break,
        }
    }
    d
}

/// The body a collider on `entity` belongs to and the map from the collider's frame to
/// that body's frame: the entity's own body, or else the nearest ancestor's with a
/// [`RigidBody`] (through [`ChildOf`]), placed by the `Transform`s of the entity and the
/// ancestors between, after the body's own scale (that of its world map, ancestors
/// included). `None` while that body does not exist yet, or when no ancestor has a
/// `RigidBody`.
pub(crate) fn placement(entity: Entity, tree: &Query<TreeNode>) -> Option<(i2::BodyId, Map)> {
    let mut map = Map::IDENTITY;
    let mut current = entity;
    for _ in 0..MAX_DEPTH {
        let (t, parent, body, has_body) = tree.get(current).ok()?;
        if has_body {
            let body = body?.0;
            // The body's scale: its own, or (under a parent) what its world map has
            // besides its pose.
            let residual = match parent {
                None => Map::local(t).linear,
                Some(_) => global(current, tree)?.split().1,
            };
            let scaled = match residual {
                None => map,
                Some(k) => Map {
                    xf: i2::Transform::IDENTITY,
                    linear: Some(k),
                }
                .then(map),
            };
            return Some((body, scaled));
        }
        map = Map::local(t).then(map);
        current = parent?.parent();
    }
    None
}

/// The pose in the world of a body on `entity` (`None` for a hierarchy deeper than 64).
pub(crate) fn body_pose(entity: Entity, tree: &Query<TreeNode>) -> Option<i2::Transform> {
    let (t, parent, _, _) = tree.get(entity).ok()?;
    match parent {
        // At the root, exactly the Transform's pose.
        None => Some(pose(t)),
        Some(_) => Some(global(entity, tree)?.split().0),
    }
}

/// The `Transform` (z and scale kept from `t`) that puts an entity under a parent whose
/// world map is `parent` at the world pose `world`: the translation is the parent's
/// inverse map of the position, the rotation the world rotation less the parent's.
/// Exact when the parent has no scale; under a non-uniformly scaled parent a turned
/// child is sheared in Bevy's `GlobalTransform`, and this keeps its position.
pub(crate) fn local_transform(t: &Transform, parent: &Map, world: i2::Transform) -> Transform {
    let (prigid, residual) = parent.split();
    let mut p = bv(prigid.apply_inv(world.p));
    if let Some(k) = residual {
        let inv = k.inverse();
        if inv.is_finite() {
            p = inv * p;
        }
    }
    let q = prigid.q.inv_mul(world.q);
    Transform {
        translation: Vec3::new(p.x, p.y, t.translation.z),
        rotation: Quat::from_rotation_z(q.angle()),
        scale: t.scale,
    }
}

/// `t` with the 2D pose `p` (z and scale kept).
pub(crate) fn with_pose(t: &Transform, p: i2::Transform) -> Transform {
    Transform {
        translation: Vec3::new(p.p.x, p.p.y, t.translation.z),
        rotation: Quat::from_rotation_z(p.q.angle()),
        scale: t.scale,
    }
}

/// Whether the application (not the plugin) changed `t` since the system last ran: the
/// plugin's own writes are remembered in [`PhysicsPose::written`].
pub(crate) fn moved_by_app(t: &Ref<Transform>, pose: Option<&PhysicsPose>) -> bool {
    t.is_changed() && !t.is_added() && pose.is_none_or(|p| **t != p.written)
}
