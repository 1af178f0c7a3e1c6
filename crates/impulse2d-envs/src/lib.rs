//! Gymnasium's Box2D environments on Impulse2D (local skeleton until the
//! `envs` crate lands).

pub mod car_racing;
