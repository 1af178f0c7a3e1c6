//! What `impulse2d run` and `impulse2d bench` print: plain text for people, JSON
//! for scripts.

use std::fmt::Write;

/// `s` as a JSON string literal, quotes included (the scenes crate's
/// [`impulse2d_scenes::json::string`], which the compare tool's report uses too).
pub use impulse2d_scenes::json::string as json_string;

/// The figures of one headless run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunReport {
    /// Scene name.
    pub scene: String,
    /// Steps taken.
    pub steps: u32,
    /// Step rate, hertz.
    pub hz: f32,
    /// Substeps per step.
    pub substeps: u32,
    /// Worker threads.
    pub threads: u32,
    /// The SIMD path the world ran (`baseline` or `avx2`; see `impulse2d::SimdPath`).
    pub simd: String,
    /// Bodies at the end.
    pub bodies: usize,
    /// Contacts at the end (touching or not: every pair the broad phase found).
    pub contacts: usize,
    /// Touching contacts at the end.
    pub touching_contacts: usize,
    /// Awake bodies at the end.
    pub awake_bodies: usize,
    /// Median wall time of a step, milliseconds.
    pub median_ms: f64,
    /// 95th-percentile wall time of a step, milliseconds.
    pub p95_ms: f64,
    /// Mean wall time of a step, milliseconds.
    pub mean_ms: f64,
    /// Mean milliseconds per step spent in each solver stage, in step order.
    pub stages: Vec<(String, f64)>,
    /// [`World::state_hash`](impulse2d::World::state_hash) after the last step.
    pub state_hash: u64,
    /// Where the scene was built (`--origin`), metres.
    pub origin: [f32; 2],
    /// The scene's focus body's position after the last step, relative to
    /// `origin` (so runs at different origins compare directly), metres.
    pub focus: Option<[f32; 2]>,
    /// Files written, with a description.
    pub outputs: Vec<(String, String)>,
}

/// A JSON number: finite values as written, others as `null`.
fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.6}")
    } else {
        "null".to_string()
    }
}

impl RunReport {
    /// The report for people, one figure per line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "scene            {}", self.scene);
        let _ = writeln!(
            s,
            "steps            {} at {} Hz, {} substeps, {} thread{}",
            self.steps,
            self.hz,
            self.substeps,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        );
        let _ = writeln!(s, "simd path        {}", self.simd);
        let _ = writeln!(s, "bodies           {}", self.bodies);
        let _ = writeln!(
            s,
            "contacts         {} ({} touching)",
            self.contacts, self.touching_contacts
        );
        let _ = writeln!(s, "awake bodies     {}", self.awake_bodies);
        let _ = writeln!(
            s,
            "ms/step          median {:.3}, p95 {:.3}, mean {:.3}",
            self.median_ms, self.p95_ms, self.mean_ms
        );
        if !self.stages.is_empty() {
            let _ = writeln!(s, "ms/step by stage");
            for (name, ms) in &self.stages {
                let _ = writeln!(s, "  {name:<17}{ms:.3}");
            }
        }
        let _ = writeln!(s, "state hash       {:016x}", self.state_hash);
        if let Some([x, y]) = self.focus {
            let [ox, oy] = self.origin;
            let _ = writeln!(
                s,
                "focus body       ({x:.4}, {y:.4}) m from origin ({ox}, {oy})"
            );
        }
        for (path, what) in &self.outputs {
            let _ = writeln!(s, "wrote            {path} ({what})");
        }
        s
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        let stages: Vec<String> = self
            .stages
            .iter()
            .map(|(n, ms)| format!("{}: {}", json_string(n), json_number(*ms)))
            .collect();
        let outputs: Vec<String> = self
            .outputs
            .iter()
            .map(|(path, what)| {
                let (path, what) = (json_string(path), json_string(what));
                format!("{{\"path\": {path}, \"description\": {what}}}")
            })
            .collect();
        format!(
            concat!(
                "{{\"scene\": {}, \"steps\": {}, \"hz\": {}, \"substeps\": {}, \"threads\": {}, \"simd\": {}, ",
                "\"bodies\": {}, \"contacts\": {}, \"touching_contacts\": {}, \"awake_bodies\": {}, ",
                "\"median_ms\": {}, \"p95_ms\": {}, \"mean_ms\": {}, \"stages_ms\": {{{}}}, ",
                "\"state_hash\": \"{:016x}\", \"origin\": [{}, {}], \"focus\": {}, \"outputs\": [{}]}}\n"
            ),
            json_string(&self.scene),
            self.steps,
            json_number(f64::from(self.hz)),
            self.substeps,
            self.threads,
            json_string(&self.simd),
            self.bodies,
            self.contacts,
            self.touching_contacts,
            self.awake_bodies,
            json_number(self.median_ms),
            json_number(self.p95_ms),
            json_number(self.mean_ms),
            stages.join(", "),
            self.state_hash,
            json_number(f64::from(self.origin[0])),
            json_number(f64::from(self.origin[1])),
            self.focus.map_or("null".to_string(), |[x, y]| format!(
                "[{}, {}]",
                json_number(f64::from(x)),
                json_number(f64::from(y))
            )),
            outputs.join(", ")
        )
    }
}

/// The `bench` table: one row per scene.
pub fn bench_table(rows: &[RunReport]) -> String {
    let width = rows.iter().map(|r| r.scene.len()).max().unwrap_or(5).max(5);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<width$}  {:>7}  {:>6}  {:>10}  {:>10}  {:>10}  {:>6}  {:<8}",
        "scene", "bodies", "steps", "median ms", "p95 ms", "mean ms", "awake", "simd"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<width$}  {:>7}  {:>6}  {:>10.3}  {:>10.3}  {:>10.3}  {:>6}  {:<8}",
            r.scene, r.bodies, r.steps, r.median_ms, r.p95_ms, r.mean_ms, r.awake_bodies, r.simd
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_and_nulls() {
        assert_eq!(json_string("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\u0001""#);
        assert_eq!(json_number(f64::NAN), "null");
        let r = RunReport {
            scene: "x".into(),
            stages: vec![("solve".into(), 1.5)],
            state_hash: 0xabc,
            ..Default::default()
        };
        let j = r.to_json();
        assert!(j.starts_with("{\"scene\": \"x\", "));
        assert!(j.contains("\"stages_ms\": {\"solve\": 1.500000}"));
        assert!(j.contains("\"state_hash\": \"0000000000000abc\""));
        // Balanced braces and brackets: a cheap well-formedness check.
        assert_eq!(j.matches('{').count(), j.matches('}').count());
        assert_eq!(j.matches('[').count(), j.matches(']').count());
    }
}
