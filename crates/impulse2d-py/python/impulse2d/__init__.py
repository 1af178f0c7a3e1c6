"""Impulse2D: a deterministic 2D rigid-body physics engine (Box2D v3's algorithms in Rust)."""

from impulse2d._impulse2d import World

__all__ = ["World"]
