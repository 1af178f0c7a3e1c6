//! The `impulse2d` command as a user runs it.

use assert_cmd::Command;
use std::path::Path;

fn impulse2d() -> Command {
    Command::cargo_bin("impulse2d").expect("the binary is built")
}

/// Runs `impulse2d ARGS`, asserts that it succeeded and returns its stdout.
fn stdout_of<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = impulse2d().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `impulse2d run SCENE --steps STEPS --width W --height H FLAG FILE`
/// with FILE named `name` in `dir`; returns the file's path and the stdout.
fn picture(
    dir: &Path,
    [scene, steps, width, height, flag]: [&str; 5],
    name: &str,
) -> (std::path::PathBuf, String) {
    let path = dir.join(name);
    let args = [
        "run", scene, "--steps", steps, "--width", width, "--height", height, flag,
    ];
    let text = stdout_of(
        args.iter()
            .map(std::ffi::OsStr::new)
            .chain([path.as_os_str()]),
    );
    (path, text)
}

/// Pixels that differ from the most common colour, and the number of colours.
fn spread(rgba: &[u8]) -> (f64, usize) {
    let mut counts = std::collections::BTreeMap::new();
    for px in rgba.chunks_exact(4) {
        *counts.entry([px[0], px[1], px[2]]).or_insert(0usize) += 1;
    }
    let total = rgba.len() / 4;
    let top = counts.values().copied().max().unwrap_or(0);
    (1.0 - top as f64 / total as f64, counts.len())
}

fn assert_not_blank(rgba: &[u8], what: &str) {
    let (share, colours) = spread(rgba);
    assert!(
        share > 0.01 && colours >= 3,
        "{what} looks blank: {colours} colours, {:.2}% not background",
        100.0 * share
    );
}

/// Stderr is exactly one line starting with "error:", and nothing panicked.
fn assert_one_line_error(output: &std::process::Output) {
    assert!(!output.status.success(), "expected failure");
    let err = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "stderr should be one line, got: {err:?}");
    assert!(lines[0].starts_with("error:"), "stderr: {err:?}");
    assert!(!err.contains("panicked"), "stderr: {err:?}");
}

#[test]
fn list_shows_categories_and_scenes() {
    let out = impulse2d().arg("list").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "benchmark",
        "stacking",
        "large_pyramid",
        "pyramid",
        "single_box",
    ] {
        assert!(text.contains(needle), "missing {needle} in:\n{text}");
    }
    // Category lines are not indented, scene lines are.
    assert!(text.lines().any(|l| l == "benchmark"));
    assert!(text.lines().any(|l| l.starts_with("  large_pyramid ")));
}

#[test]
fn run_writes_a_png_of_the_requested_size() {
    let dir = tempfile::tempdir().unwrap();
    let spec = ["vertical_stack", "20", "320", "240", "--png"];
    let (path, text) = picture(dir.path(), spec, "frame.png");
    assert!(text.contains("scene            vertical_stack"));
    assert!(text.contains("bodies           11"), "{text}");
    assert!(text.contains("state hash"));
    let png = tiny_skia::Pixmap::load_png(&path).expect("a valid PNG");
    assert_eq!((png.width(), png.height()), (320, 240));
    assert_not_blank(png.data(), "the PNG");
}

#[test]
fn run_writes_an_animated_gif() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = picture(
        dir.path(),
        ["pyramid", "30", "200", "150", "--gif"],
        "run.gif",
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(&path).unwrap())
        .expect("a valid GIF");
    assert_eq!((decoder.width(), decoder.height()), (200, 150));
    let mut frames = 0;
    let mut last = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), (200, 150));
        frames += 1;
        last = frame.buffer.to_vec();
    }
    // The first frame plus one every 3 steps at 60 Hz: 1 + 30 / 3.
    assert_eq!(frames, 11);
    assert_not_blank(&last, "the last GIF frame");
}

#[test]
fn run_writes_an_svg_of_the_requested_size() {
    let dir = tempfile::tempdir().unwrap();
    let spec = ["single_box", "5", "300", "200", "--svg"];
    let (path, _) = picture(dir.path(), spec, "frame.svg");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<?xml"));
    assert!(svg.contains(r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200""#));
    assert!(svg.trim_end().ends_with("</svg>"));
    // Background, ground and box.
    assert!(svg.matches("<polygon").count() >= 2, "{svg}");
    assert!(svg.contains("<rect"));
    // Between the root's tags, one element per line, each closed on its line.
    let lines: Vec<&str> = svg.lines().collect();
    assert!(lines[1].starts_with("<svg ") && lines.last() == Some(&"</svg>"));
    for line in &lines[2..lines.len() - 1] {
        assert!(
            line.starts_with('<') && (line.ends_with("/>") || line.ends_with("</text>")),
            "malformed element: {line}"
        );
    }
}

#[test]
fn json_output_is_one_object() {
    let text = stdout_of(["run", "single_box", "--steps", "10", "--json"]);
    let t = text.trim();
    assert!(t.starts_with('{') && t.ends_with('}'), "{t}");
    assert!(t.contains("\"scene\": \"single_box\""));
    assert!(t.contains("\"steps\": 10"));
    assert!(t.contains("\"bodies\": 2"));
    assert!(t.contains("\"state_hash\": \""));
}

/// The two numbers of a JSON array field `"key": [x, y]`.
fn json_pair(text: &str, key: &str) -> (f64, f64) {
    let at = text.find(&format!("\"{key}\": [")).unwrap() + key.len() + 5;
    let end = at + text[at..].find(']').unwrap();
    let (x, y) = text[at..end].split_once(',').unwrap();
    (x.trim().parse().unwrap(), y.trim().parse().unwrap())
}

/// `--origin` builds the scene moved: the box resting on the ground reports
/// the same place relative to the origin as at the origin (positions 1 km out
/// lie on a 0.06 mm grid; the box rests 0.5 m up); a scripted scene, a
/// non-finite or malformed origin are one-line errors.
#[test]
fn origin_moves_the_scene_and_the_report_is_relative_to_it() {
    let run = |origin: &str| {
        let args = ["run", "single_box", "--steps", "60", "--json", "--origin"];
        let text = stdout_of(args.into_iter().chain([origin]));
        (json_pair(&text, "origin"), json_pair(&text, "focus"))
    };
    let (o0, (x0, y0)) = run("0,0");
    let (o1, (x1, y1)) = run("1000,-1000");
    assert_eq!((o0, o1), ((0.0, 0.0), (1000.0, -1000.0)));
    assert!(
        (x1 - x0).abs() < 1e-3 && (y1 - y0).abs() < 1e-3,
        "{x0},{y0} vs {x1},{y1}"
    );
    assert!((y0 - 0.5).abs() < 0.01, "{y0}");
    for bad in [
        ["run", "rain", "--steps", "1", "--origin", "5,5"],
        ["run", "single_box", "--steps", "1", "--origin", "nan,0"],
        ["run", "single_box", "--steps", "1", "--origin", "5"],
    ] {
        let out = impulse2d().args(bad).output().unwrap();
        assert_one_line_error(&out);
    }
}

#[test]
fn the_same_run_gives_the_same_state_hash() {
    let hash = || {
        let text = stdout_of(["run", "pyramid", "--steps", "60", "--json"]);
        let at = text.find("\"state_hash\": \"").unwrap() + 15;
        text[at..at + 16].to_string()
    };
    assert_eq!(hash(), hash());
}

#[test]
fn bench_prints_a_table_row_per_scene() {
    let text = stdout_of(["bench", "single_box", "vertical_stack", "--steps", "10"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("scene"));
    assert!(lines[1].starts_with("single_box"));
    assert!(lines[2].starts_with("vertical_stack"));
}

#[test]
fn unknown_scene_is_a_one_line_error() {
    let out = impulse2d().args(["run", "no_such_scene"]).output().unwrap();
    assert_one_line_error(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_scene"));
    let out = impulse2d()
        .args(["bench", "pyramid", "nope"])
        .output()
        .unwrap();
    assert_one_line_error(&out);
}

#[test]
fn zero_steps_and_bad_numbers_are_one_line_errors() {
    for args in [
        &["run", "single_box", "--steps", "0"][..],
        &["run", "single_box", "--steps", "-3"],
        &["run", "single_box", "--hz", "abc"],
        &["run", "single_box", "--hz", "0"],
        &["run", "single_box", "--substeps", "0"],
        &["run", "single_box", "--width", "0", "--png", "x.png"],
        &["bench", "--steps", "0"],
        &["frobnicate"],
    ] {
        let out = impulse2d().args(args).output().unwrap();
        assert_one_line_error(&out);
    }
}

#[test]
fn unwritable_paths_are_one_line_errors_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/out");
    for flag in ["--png", "--gif", "--svg"] {
        let out = impulse2d()
            .args(["run", "large_pyramid", "--steps", "100000", flag])
            .arg(&missing)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        assert_one_line_error(&out);
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
        assert!(!Path::new(&missing).exists());
    }
}

/// `replay --seek N` prints, after the replay, the state hash at step N:
/// the one the replay printed when it passed step N, whatever the order of
/// the seeks; a step beyond the recording is a one-line error.
#[test]
fn replay_seeks_to_the_hash_it_passed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pyramid.rec");
    let file = file.to_str().unwrap();
    stdout_of(["run", "pyramid", "--steps", "50", "--record", file]);
    let text = stdout_of([
        "replay", file, "--every", "10", "--seek", "30", "--seek", "10", "--seek", "50",
    ]);
    // `step N  hash H` and `seek N  hash H` lines, by N.
    let hashes = |kind: &str| -> std::collections::BTreeMap<u64, String> {
        text.lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w.len() >= 4 && w[0] == kind && w[2] == "hash")
                    .then(|| (w[1].parse().unwrap(), w[3].to_string()))
            })
            .collect()
    };
    let (stepped, sought) = (hashes("step"), hashes("seek"));
    assert_eq!(sought.len(), 3, "{text}");
    for (n, h) in &sought {
        assert_eq!(stepped.get(n), Some(h), "step {n}: {text}");
    }
    // Seeking kept key frames (50 steps at the default interval of 16: 3).
    let keyframes = |text: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with("key frames"))?;
        line.split_whitespace().nth(2)?.parse().ok()
    };
    assert_eq!(keyframes(&text), Some(3), "{text}");
    // A replay that does not seek keeps none (a plain replay), and prints
    // the same step hashes.
    let plain = stdout_of(["replay", file, "--every", "10"]);
    assert_eq!(keyframes(&plain), None, "{plain}");
    assert!(
        text.starts_with(plain.trim_end_matches("no divergence\n")),
        "{plain}"
    );
    let out = impulse2d()
        .args(["replay", file, "--seek", "51"])
        .output()
        .unwrap();
    assert_one_line_error(&out);
}
