//! The report shows ratios, flags unstable runs and says why an engine did not run.

use impulse2d_compare::bench::{
    Clock, EngineResult, RoundTimes, SceneResult, amdahl, median, percentile,
};
use impulse2d_compare::engine::{Counts, STAGE_COUNT, StepProfile};
use impulse2d_compare::report::{OURS, bar_chart_svg, stage_table, tables, worst_frames_table};
use impulse2d_compare::stability::Stability;

fn engine(name: &str, wall: &[f64], value: f64) -> EngineResult {
    let counts = Counts {
        bodies: 10,
        shapes: 11,
        joints: 2,
    };
    EngineResult {
        engine: name.to_owned(),
        skipped: None,
        wall: RoundTimes {
            mean_ms: wall.to_vec(),
            p95_ms: wall.iter().map(|w| 2.0 * w).collect(),
            max_ms: wall.iter().map(|w| 4.0 * w).collect(),
        },
        cpu: RoundTimes {
            mean_ms: wall.iter().map(|w| w / 2.0).collect(),
            p95_ms: wall.to_vec(),
            max_ms: wall.iter().map(|w| 2.0 * w).collect(),
        },
        profile: None,
        initial: counts,
        last: counts,
        stability: Some(Stability {
            label: "top box height / initial",
            value,
            sane: (0.95, 1.02),
        }),
    }
}

#[test]
fn median_of_odd_and_even_counts() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    assert_eq!(median(&[]), None);
}

#[test]
fn tables_show_ratios_instability_and_skips() {
    let names = vec![OURS.to_owned(), "Box2D".to_owned(), "Rapier".to_owned()];
    let mut rapier = engine("Rapier", &[8.0, 9.0, 7.0], 1.0);
    rapier.skipped = None;
    let results = vec![SceneResult {
        scene: "large_pyramid".to_owned(),
        steps: 500,
        engines: vec![
            // Ours: median 3 ms wall, 1.5 ms CPU; collapsed (0.5 of its height).
            engine(OURS, &[3.0, 2.0, 4.0], 0.5),
            engine("Box2D", &[6.0, 6.0, 6.0], 0.999),
            rapier,
        ],
    }];
    let text = tables(&results, &names, Clock::Wall);
    // 3 / 6 and 3 / 8.
    assert!(text.contains("| 0.50× | 0.38× |"), "{text}");
    assert!(text.contains("3.00 (1.50)"), "{text}");
    assert!(text.contains("**0.500 UNSTABLE**"), "{text}");
    assert!(text.contains("| 0.999 |"), "{text}");

    let cpu = tables(&results, &names, Clock::Cpu);
    assert!(cpu.contains("| 0.50× | 0.38× |"), "{cpu}");

    let mut skipped = results.clone();
    skipped[0].engines[0].skipped = Some("no joints yet".to_owned());
    skipped[0].engines[0].wall.mean_ms.clear();
    skipped[0].engines[0].cpu.mean_ms.clear();
    skipped[0].engines[0].stability = None;
    let text = tables(&skipped, &names, Clock::Wall);
    assert!(
        text.contains("large_pyramid / Impulse2D: not run: no joints yet"),
        "{text}"
    );
    assert!(text.contains("| — | — |"), "{text}");

    let svg = bar_chart_svg(&skipped, &names, Clock::Wall, "test");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("n/a"));
}

#[test]
fn bar_chart_switches_to_a_log_axis_for_outliers() {
    let names = vec![OURS.to_owned(), "Box2D".to_owned()];
    let scene = |name: &str, ours: f64, theirs: f64| SceneResult {
        scene: name.to_owned(),
        steps: 10,
        engines: vec![engine(OURS, &[ours], 1.0), engine("Box2D", &[theirs], 1.0)],
    };
    let even = vec![scene("a", 2.0, 3.0), scene("b", 4.0, 5.0)];
    assert!(!bar_chart_svg(&even, &names, Clock::Wall, "t").contains("log scale"));
    let outlier = vec![scene("a", 2.0, 3.0), scene("b", 240.0, 5.0)];
    let svg = bar_chart_svg(&outlier, &names, Clock::Wall, "t");
    assert!(svg.contains("(log scale)"));
    // Decade ticks from 1 to 1000 ms.
    for tick in [">1<", ">10<", ">100<", ">1000<"] {
        assert!(svg.contains(tick), "missing tick {tick}");
    }
}

#[test]
fn percentiles_by_nearest_rank_and_amdahl() {
    let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
    // 95 % of 20 values is 19 of them: the 19th smallest.
    assert_eq!(percentile(&twenty, 0.95), Some(19.0));
    assert_eq!(percentile(&[5.0, 1.0, 3.0], 1.0), Some(5.0));
    // 95 % of 10 values rounds up to all 10.
    let ten: Vec<f64> = (1..=10).map(f64::from).collect();
    assert_eq!(percentile(&ten, 0.95), Some(10.0));
    assert_eq!(percentile(&[], 0.95), None);
    // 1 / (0.03 + 0.97 / 8) = 1 / 0.15125.
    assert!((amdahl(0.03, 8.0) - 1.0 / 0.15125).abs() < 1e-12);
    assert_eq!(amdahl(0.0, 16.0), 16.0);
    assert_eq!(amdahl(1.0, 16.0), 1.0);
}

#[test]
fn worst_frames_serial_fraction_and_stages() {
    let names = vec![OURS.to_owned(), "Box2D".to_owned()];
    let mut ours = engine(OURS, &[3.0, 2.0, 4.0], 1.0);
    let mut stages = [0.0; STAGE_COUNT];
    stages[0] = 4.0; // step
    stages[1] = 0.5; // pairs
    ours.profile = Some(StepProfile {
        stages,
        parallel: Some(3.0),
    });
    let mut box2d = engine("Box2D", &[6.0, 6.0, 6.0], 1.0);
    let mut theirs = [0.0; STAGE_COUNT];
    theirs[0] = 5.0;
    theirs[1] = 0.25;
    box2d.profile = Some(StepProfile {
        stages: theirs,
        parallel: None,
    });
    // A quarter of the step outside parallel regions.
    assert_eq!(ours.serial_fraction(), Some(0.25));
    assert_eq!(box2d.serial_fraction(), None);
    let results = vec![SceneResult {
        scene: "large_pyramid".to_owned(),
        steps: 500,
        engines: vec![ours, box2d],
    }];
    let text = worst_frames_table(&results, &names, Clock::Wall);
    // p95 per round 6, 4, 8 (median 6); max 12, 8, 16 (median 12); Box2D 12 and 24.
    assert!(
        text.contains("| large_pyramid | 6.00 | 12.00 | 12.00 | 24.00 |"),
        "{text}"
    );
    // 1 / (0.25 + 0.75 / 8) = 2.909…, 1 / (0.25 + 0.75 / 16) = 3.368…
    assert!(text.contains("| 25.0 % | 2.91× | 3.37× |"), "{text}");
    let table = stage_table(&results);
    assert!(
        table.contains("| step | 4.000 / 5.000 (0.80×) |"),
        "{table}"
    );
    assert!(
        table.contains("| pairs (broad phase) | 0.500 / 0.250 (2.00×) |"),
        "{table}"
    );
    // Both tables are part of the full report.
    let all = tables(&results, &names, Clock::Wall);
    assert!(all.contains("Amdahl 8 threads") && all.contains("ours / Box2D"));
}
