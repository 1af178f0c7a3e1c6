//! Track generation, as Gymnasium's `CarRacing._create_track`.
//!
//! Twelve checkpoints at noisy angles and radii around a circle; a point
//! walks from the first checkpoint towards the next one, turning its heading
//! by at most [`TRACK_TURN_RATE`] per step of [`TRACK_DETAIL_STEP`], for up to
//! five laps; the second full lap (between two passes through the start
//! angle) is the track, kept only when its ends meet within one step. Hard
//! turns (four or more steps turning the same way by more than a fifth of the
//! turn rate) get a red-and-white kerb on the outside. All in `f64` with
//! `libm`'s `sin`/`cos`/`atan2`, as Python computes it in doubles.

use super::rng::Pcg64;
use super::sign;

/// Scale of the track's units (Gymnasium's `SCALE`).
pub const SCALE: f64 = 6.0;
/// Radius of the circle the checkpoints lie around, m.
pub const TRACK_RAD: f64 = 900.0 / SCALE;
/// Half-size of the square beyond which the car is lost, m.
pub const PLAYFIELD: f64 = 2000.0 / SCALE;
/// Length of one tile along the track, m.
pub const TRACK_DETAIL_STEP: f64 = 21.0 / SCALE;
/// Largest heading change per tile, rad.
pub const TRACK_TURN_RATE: f64 = 0.31;
/// Half-width of the road, m.
pub const TRACK_WIDTH: f64 = 40.0 / SCALE;
/// Width of the kerb on hard turns, m.
pub const BORDER: f64 = 8.0 / SCALE;
/// Consecutive same-way hard steps that make a kerb.
pub const BORDER_MIN_COUNT: usize = 4;
/// Number of checkpoints.
pub const CHECKPOINTS: usize = 12;

const TAU: f64 = 2.0 * std::f64::consts::PI;

/// One point of the centre line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackPoint {
    /// Polar angle of the point around the origin, rad (in `[0, 2π)` as
    /// Gymnasium computes it when placing the point's destination).
    pub alpha: f64,
    /// Heading of the road's right-hand normal, rad: the road runs along
    /// `(−sin β, cos β)`.
    pub beta: f64,
    /// Position, m.
    pub x: f64,
    /// Position, m.
    pub y: f64,
}

/// A quadrilateral with a colour, in world coordinates (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColoredQuad {
    /// Corners in drawing order.
    pub points: [[f64; 2]; 4],
    /// RGB colour, 0–255.
    pub color: [f64; 3],
    /// The tile it is drawn after.
    pub tile: usize,
}

/// A generated track: the closed centre line, which steps have a kerb, and
/// each tile's corners (tile `i` runs from point `i − 1` to point `i`).
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The centre line; tile `i` ends at point `i`.
    pub points: Vec<TrackPoint>,
    /// Whether a kerb runs beside tile `i`.
    pub border: Vec<bool>,
    /// Tile corners `[left end, right end, right start, left start]`.
    pub tiles: Vec<[[f64; 2]; 4]>,
    /// The kerbs, in tile order (red or white).
    pub kerbs: Vec<ColoredQuad>,
}

/// Python's `seq[i]` for a possibly negative `i`.
fn wrap(i: isize, n: usize) -> usize {
    i.rem_euclid(n as isize) as usize
}

/// Draws the checkpoints: for each, a noise and a radius, in that order
/// (the first and last are then moved to fixed places, as Gymnasium does).
fn checkpoints(rng: &mut Pcg64) -> [(f64, f64, f64); CHECKPOINTS] {
    let mut out = [(0.0, 0.0, 0.0); CHECKPOINTS];
    for (c, cp) in out.iter_mut().enumerate() {
        let noise = rng.uniform(0.0, TAU * 1.0 / CHECKPOINTS as f64);
        let mut alpha = TAU * c as f64 / CHECKPOINTS as f64 + noise;
        let mut rad = rng.uniform(TRACK_RAD / 3.0, TRACK_RAD);
        if c == 0 {
            alpha = 0.0;
            rad = 1.5 * TRACK_RAD;
        }
        if c == CHECKPOINTS - 1 {
            alpha = TAU * c as f64 / CHECKPOINTS as f64;
            rad = 1.5 * TRACK_RAD;
        }
        *cp = (alpha, rad * libm::cos(alpha), rad * libm::sin(alpha));
    }
    out
}

/// The angle through which the track passes the start.
fn start_alpha() -> f64 {
    TAU * (-0.5) / CHECKPOINTS as f64
}

/// Walks from checkpoint to checkpoint for up to five laps (or 2,500 steps).
fn walk(checkpoints: &[(f64, f64, f64); CHECKPOINTS]) -> Vec<TrackPoint> {
    let (mut x, mut y, mut beta) = (1.5 * TRACK_RAD, 0.0f64, 0.0f64);
    let mut dest_i = 0usize;
    let mut laps = 0;
    let mut track = Vec::with_capacity(2500);
    let mut no_freeze = 2500;
    let mut visited_other_side = false;
    loop {
        let mut alpha = libm::atan2(y, x);
        if visited_other_side && alpha > 0.0 {
            laps += 1;
            visited_other_side = false;
        }
        if alpha < 0.0 {
            visited_other_side = true;
            alpha += TAU;
        }
        // The next checkpoint at or beyond this angle.
        let (dest_x, dest_y) = loop {
            let mut found = None;
            loop {
                let (dest_alpha, dx, dy) = checkpoints[dest_i % CHECKPOINTS];
                if alpha <= dest_alpha {
                    found = Some((dx, dy));
                    break;
                }
                dest_i += 1;
                if dest_i.is_multiple_of(CHECKPOINTS) {
                    break;
                }
            }
            if let Some(d) = found {
                break d;
            }
            alpha -= TAU;
        };

        let r1x = libm::cos(beta);
        let r1y = libm::sin(beta);
        let p1x = -r1y;
        let p1y = r1x;
        let dest_dx = dest_x - x;
        let dest_dy = dest_y - y;
        // The destination vector projected on the normal.
        let mut proj = r1x * dest_dx + r1y * dest_dy;
        while beta - alpha > 1.5 * std::f64::consts::PI {
            beta -= TAU;
        }
        while beta - alpha < -1.5 * std::f64::consts::PI {
            beta += TAU;
        }
        let prev_beta = beta;
        proj *= SCALE;
        if proj > 0.3 {
            beta -= TRACK_TURN_RATE.min((0.001 * proj).abs());
        }
        if proj < -0.3 {
            beta += TRACK_TURN_RATE.min((0.001 * proj).abs());
        }
        x += p1x * TRACK_DETAIL_STEP;
        y += p1y * TRACK_DETAIL_STEP;
        track.push(TrackPoint {
            alpha,
            beta: prev_beta * 0.5 + beta * 0.5,
            x,
            y,
        });
        if laps > 4 {
            break;
        }
        no_freeze -= 1;
        if no_freeze == 0 {
            break;
        }
    }
    track
}

/// The kerb flags: a step is hard when each of the four steps ending at it
/// turns by more than a fifth of the turn rate, all the same way; the three
/// steps before a hard one get a kerb too.
fn borders(track: &[TrackPoint]) -> Vec<bool> {
    let n = track.len();
    let mut border = vec![false; n];
    for (i, b) in border.iter_mut().enumerate() {
        let mut good = true;
        let mut oneside = 0.0;
        for neg in 0..BORDER_MIN_COUNT {
            let beta1 = track[wrap(i as isize - neg as isize, n)].beta;
            let beta2 = track[wrap(i as isize - neg as isize - 1, n)].beta;
            good &= (beta1 - beta2).abs() > TRACK_TURN_RATE * 0.2;
            oneside += sign(beta1 - beta2);
        }
        good &= oneside.abs() == BORDER_MIN_COUNT as f64;
        *b = good;
    }
    for i in 0..n {
        for neg in 0..BORDER_MIN_COUNT {
            let j = wrap(i as isize - neg as isize, n);
            border[j] |= border[i];
        }
    }
    border
}

/// Generates one track from the stream, or `None` when this attempt fails
/// (Gymnasium then tries again with the stream where it is).
pub fn create_track(rng: &mut Pcg64) -> Option<Track> {
    let checkpoints = checkpoints(rng);
    let start_alpha = start_alpha();
    let track = walk(&checkpoints);

    // The closed loop i1..i2 between the last two passes through the start.
    let (mut i1, mut i2) = (None, None);
    let mut i = track.len();
    loop {
        i -= 1;
        if i == 0 {
            return None;
        }
        let pass_through_start = track[i].alpha > start_alpha && track[i - 1].alpha <= start_alpha;
        if pass_through_start && i2.is_none() {
            i2 = Some(i);
        } else if pass_through_start && i1.is_none() {
            i1 = Some(i);
            break;
        }
    }
    let (i1, i2) = (i1?, i2?);
    // Python's track[i1 : i2 - 1].
    let points: Vec<TrackPoint> = track[i1..(i2 - 1).max(i1)].to_vec();
    let n = points.len();
    if n < 2 {
        return None;
    }

    // The jump across the normal that closes the loop must be under a step.
    let first_perp_x = libm::cos(points[0].beta);
    let first_perp_y = libm::sin(points[0].beta);
    let dx = first_perp_x * (points[0].x - points[n - 1].x);
    let dy = first_perp_y * (points[0].y - points[n - 1].y);
    let well_glued_together = (dx * dx + dy * dy).sqrt();
    if well_glued_together > TRACK_DETAIL_STEP {
        return None;
    }

    let border = borders(&points);
    let mut tiles = Vec::with_capacity(n);
    let mut kerbs = Vec::new();
    for i in 0..n {
        let p1 = points[i];
        let p2 = points[wrap(i as isize - 1, n)];
        let (c1, s1) = (libm::cos(p1.beta), libm::sin(p1.beta));
        let (c2, s2) = (libm::cos(p2.beta), libm::sin(p2.beta));
        // A point `d` along the normal from a centre-line point.
        let at = |p: TrackPoint, c: f64, s: f64, d: f64| [p.x + d * c, p.y + d * s];
        let road1_l = at(p1, c1, s1, -TRACK_WIDTH);
        let road1_r = at(p1, c1, s1, TRACK_WIDTH);
        let road2_l = at(p2, c2, s2, -TRACK_WIDTH);
        let road2_r = at(p2, c2, s2, TRACK_WIDTH);
        tiles.push([road1_l, road1_r, road2_r, road2_l]);
        if border[i] {
            let side = sign(p2.beta - p1.beta);
            let b1_l = at(p1, c1, s1, side * TRACK_WIDTH);
            let b1_r = at(p1, c1, s1, side * (TRACK_WIDTH + BORDER));
            let b2_l = at(p2, c2, s2, side * TRACK_WIDTH);
            let b2_r = at(p2, c2, s2, side * (TRACK_WIDTH + BORDER));
            let color = if i % 2 == 0 {
                [255.0, 255.0, 255.0]
            } else {
                [255.0, 0.0, 0.0]
            };
            kerbs.push(ColoredQuad {
                points: [b1_l, b1_r, b2_r, b2_l],
                color,
                tile: i,
            });
        }
    }
    Some(Track {
        points,
        border,
        tiles,
        kerbs,
    })
}

/// Generates a track, retrying until an attempt succeeds (as Gymnasium's
/// `reset` does); `None` only if a thousand attempts in a row fail.
pub fn generate(rng: &mut Pcg64) -> Option<Track> {
    (0..1000).find_map(|_| create_track(rng))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
    }

    #[test]
    fn tracks_are_closed_loops_of_one_step_tiles() {
        for seed in 0..20 {
            let mut rng = Pcg64::from_seed(seed);
            let track = generate(&mut rng).expect("a track");
            let n = track.points.len();
            assert!(n > 100, "seed {seed}: {n} tiles");
            for i in 0..n {
                let a = track.points[i];
                let b = track.points[wrap(i as isize - 1, n)];
                let step = dist([a.x, a.y], [b.x, b.y]);
                if i == 0 {
                    // The glued joint: within three steps.
                    assert!(step < 3.0 * TRACK_DETAIL_STEP, "seed {seed}: gap {step}");
                } else {
                    assert!((step - TRACK_DETAIL_STEP).abs() < 1e-9);
                }
                // Each point keeps within the ring the checkpoints span, give or
                // take the overshoot of the bounded turn rate.
                let r = (a.x * a.x + a.y * a.y).sqrt();
                assert!(r < PLAYFIELD, "seed {seed}: point {i} at radius {r}");
                // Tile corners lie a half-width either side of the centre line.
                let t = track.tiles[i];
                assert!((dist(t[0], [a.x, a.y]) - TRACK_WIDTH).abs() < 1e-9);
                assert!((dist(t[1], [a.x, a.y]) - TRACK_WIDTH).abs() < 1e-9);
            }
            // The heading turns by at most the turn rate per step (half of two
            // successive clamps, averaged), except across the glued joint.
            for i in 1..n {
                // Headings are unwrapped by whole turns where the polar angle wraps.
                let d = (track.points[i].beta - track.points[i - 1].beta).rem_euclid(TAU);
                let d = d.min(TAU - d);
                assert!(d <= TRACK_TURN_RATE + 1e-12, "seed {seed}: turn {d}");
            }
        }
    }

    #[test]
    fn kerbs_are_on_runs_of_hard_turns() {
        let mut any = false;
        for seed in 0..10 {
            let mut rng = Pcg64::from_seed(seed);
            let track = generate(&mut rng).unwrap();
            let n = track.points.len();
            assert_eq!(
                track.kerbs.len(),
                track.border.iter().filter(|&&b| b).count()
            );
            // Every kerbed step lies within four steps before a step that ends
            // four same-way hard steps.
            for i in 0..n {
                if !track.border[i] {
                    continue;
                }
                any = true;
                let hard_end = (0..BORDER_MIN_COUNT).any(|ahead| {
                    let j = (i + ahead) % n;
                    let turns: Vec<f64> = (0..BORDER_MIN_COUNT)
                        .map(|neg| {
                            track.points[wrap(j as isize - neg as isize, n)].beta
                                - track.points[wrap(j as isize - neg as isize - 1, n)].beta
                        })
                        .collect();
                    turns.iter().all(|t| t.abs() > 0.2 * TRACK_TURN_RATE)
                        && (turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0))
                });
                assert!(hard_end, "seed {seed}: kerb at {i} without a hard run");
            }
        }
        assert!(any, "no kerb in ten tracks");
    }

    #[test]
    fn same_seed_same_track() {
        let a = generate(&mut Pcg64::from_seed(3)).unwrap();
        let b = generate(&mut Pcg64::from_seed(3)).unwrap();
        let c = generate(&mut Pcg64::from_seed(4)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
