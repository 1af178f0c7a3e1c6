//! Drives CarRacing for a while with a fixed action and writes the
//! observation and the `rgb_array` frame as PNGs: `car_obs.png`, `car_video.png`.
use impulse2d_envs::car_racing::CarAction;

mod common;

fn save(rgb: &[u8], w: u32, h: u32, path: &str) {
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    for (dst, src) in pm.data_mut().chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
        dst[..3].copy_from_slice(src);
        dst[3] = 255;
    }
    pm.save_png(path).unwrap();
}

fn main() {
    let steps = common::steps_arg(80);
    let mut env = common::car_racing(1);
    for i in 0..steps {
        let steer = if i > 60 { 0.3 } else { 0.0 };
        env.step_with_info(CarAction::Continuous([steer, 0.3, 0.0]))
            .unwrap();
    }
    save(env.observation(), 96, 96, "car_obs.png");
    let video = env.render_rgb_array().unwrap();
    save(&video, 600, 400, "car_video.png");
}
