//! Criterion benchmarks of the collision layer beside Box2D v3 (filled in below).

fn main() {}
