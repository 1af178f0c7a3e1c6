//! The `impulse2d` command.

fn main() {}
