//! Animated GIF output: frames from the raster renderer, one palette per frame.

use std::fs::File;
use std::io::{BufWriter, Write};
use tiny_skia::Pixmap;

/// A GIF being written frame by frame.
pub struct GifRecorder<W: Write> {
    encoder: gif::Encoder<W>,
    width: u16,
    height: u16,
    frames: usize,
}

impl GifRecorder<BufWriter<File>> {
    /// Creates the file now (so that an unwritable path fails before a long run).
    pub fn create(path: &std::path::Path, width: u32, height: u32) -> Result<Self, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        GifRecorder::new(BufWriter::new(file), width, height)
    }
}

impl<W: Write> GifRecorder<W> {
    /// An animation of `width` × `height` pixels (each at most 65 535) written to `w`,
    /// looping forever.
    pub fn new(w: W, width: u32, height: u32) -> Result<Self, String> {
        let too_big = || format!("a GIF is at most 65535 × 65535 pixels, not {width} × {height}");
        let width = u16::try_from(width).map_err(|_| too_big())?;
        let height = u16::try_from(height).map_err(|_| too_big())?;
        let mut encoder = gif::Encoder::new(w, width, height, &[]).map_err(|e| e.to_string())?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        Ok(GifRecorder {
            encoder,
            width,
            height,
            frames: 0,
        })
    }

    /// Appends a frame shown for `delay_cs` hundredths of a second. The pixmap
    /// must have the animation's size and be opaque.
    pub fn add_frame(&mut self, pixmap: &Pixmap, delay_cs: u16) -> Result<(), String> {
        if pixmap.width() != u32::from(self.width) || pixmap.height() != u32::from(self.height) {
            return Err("frame size differs from the animation size".to_string());
        }
        // Opaque pixels are the same premultiplied or not.
        let mut rgba = pixmap.data().to_vec();
        let mut frame = gif::Frame::from_rgba_speed(self.width, self.height, &mut rgba, 20);
        frame.delay = delay_cs;
        self.encoder
            .write_frame(&frame)
            .map_err(|e| format!("cannot write GIF frame: {e}"))?;
        self.frames += 1;
        Ok(())
    }

    /// Frames written so far.
    pub fn frame_count(&self) -> usize {
        self.frames
    }

    /// Writes the trailer and flushes.
    pub fn finish(self) -> Result<(), String> {
        let mut w = self
            .encoder
            .into_inner()
            .map_err(|e| format!("cannot finish GIF: {e}"))?;
        w.flush().map_err(|e| format!("cannot finish GIF: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_frames_decode_back() {
        let mut buf = Vec::new();
        {
            let mut rec = GifRecorder::new(&mut buf, 8, 4).unwrap();
            let mut a = Pixmap::new(8, 4).unwrap();
            a.fill(tiny_skia::Color::from_rgba8(255, 0, 0, 255));
            rec.add_frame(&a, 5).unwrap();
            a.fill(tiny_skia::Color::from_rgba8(0, 0, 255, 255));
            rec.add_frame(&a, 5).unwrap();
            assert_eq!(rec.frame_count(), 2);
            rec.finish().unwrap();
        }
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(buf.as_slice()).unwrap();
        assert_eq!((d.width(), d.height()), (8, 4));
        let f1 = d.read_next_frame().unwrap().unwrap();
        assert_eq!(&f1.buffer[..4], &[255, 0, 0, 255]);
        assert_eq!(f1.delay, 5);
        let f2 = d.read_next_frame().unwrap().unwrap();
        assert_eq!(&f2.buffer[..4], &[0, 0, 255, 255]);
        assert!(d.read_next_frame().unwrap().is_none());
    }

    #[test]
    fn oversized_animation_is_an_error() {
        assert!(GifRecorder::new(Vec::new(), 70_000, 10).is_err());
    }
}
