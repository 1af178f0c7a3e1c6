//! The library behind the `impulse2d` command: a camera, a raster renderer
//! (`tiny-skia`) and an SVG renderer implementing the engine's
//! [`DebugDraw`](impulse2d::DebugDraw) trait, an animated-GIF writer, and timing
//! statistics.

pub mod animation;
pub mod camera;
pub mod raster;
pub mod report;
pub mod stats;
pub mod svg;

pub use camera::Camera;
pub use raster::RasterDraw;
pub use svg::SvgDraw;
