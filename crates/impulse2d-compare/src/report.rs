//! Output: Markdown tables for people, JSON for machines, SVG charts for the docs.

use crate::bench::{Clock, SceneResult, amdahl};
use crate::engine::STAGES;
use impulse2d_scenes::json::string as json_string;
use std::fmt::Write;

/// The engine whose ratios to the others the tables show.
pub const OURS: &str = "Impulse2D";

/// Where and how a report was produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Context {
    /// CPU model and logical core count.
    pub machine: String,
    /// UTC date, `YYYY-MM-DD`.
    pub date: String,
    /// The command line.
    pub command: String,
    /// Rounds per scene.
    pub rounds: u32,
    /// Worker threads.
    pub threads: usize,
    /// `(engine, note)` for every engine.
    pub engines: Vec<(String, Option<String>)>,
}

/// One large-pyramid size of a scaling run.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingPoint {
    /// Boxes in the bottom row.
    pub base: usize,
    /// Bodies (boxes plus the ground).
    pub bodies: usize,
    /// The run's results.
    pub result: SceneResult,
}

fn fmt_ms(ms: Option<f64>) -> String {
    ms.map_or_else(|| "—".to_owned(), |v| format!("{v:.2}"))
}

fn ratio(ours: Option<f64>, theirs: Option<f64>) -> String {
    match (ours, theirs) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
        _ => "—".to_owned(),
    }
}

/// The header lines: machine, date, command, engine notes.
pub fn header(context: &Context) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "machine: {}", context.machine);
    let _ = writeln!(out, "date:    {} (UTC)", context.date);
    let _ = writeln!(out, "command: {}", context.command);
    let _ = writeln!(
        out,
        "time step 1/60 s, 4 substeps, threads {}, median of {} interleaved rounds, first step untimed",
        context.threads, context.rounds
    );
    for (name, note) in &context.engines {
        if let Some(note) = note {
            let _ = writeln!(out, "{name}: {note}");
        }
    }
    out
}

/// The timing table and the stability table, in Markdown.
pub fn tables(results: &[SceneResult], engine_names: &[String], clock: Clock) -> String {
    let mut out = String::new();
    let others: Vec<&String> = engine_names.iter().filter(|n| *n != OURS).collect();
    let has_ours = engine_names.iter().any(|n| n == OURS);

    // Timing: every engine's wall and CPU medians; ratios on `clock`.
    let _ = write!(out, "| scene | steps | bodies | shapes | joints |");
    for name in engine_names {
        let _ = write!(out, " {name} ms/step wall (CPU) |");
    }
    if has_ours {
        for other in &others {
            let _ = write!(out, " ours / {other} ({}) |", clock.label());
        }
    }
    out.push('\n');
    let columns = 5 + engine_names.len() + if has_ours { others.len() } else { 0 };
    let _ = writeln!(out, "|{}", "---|".repeat(columns));
    for scene in results {
        let reference = scene.engines.iter().find(|e| e.skipped.is_none());
        // Counts after the last step (rain's ragdolls only exist once spawned).
        let counts = reference.map(|e| e.last).unwrap_or_default();
        let _ = write!(
            out,
            "| {} | {} | {} | {} | {} |",
            scene.scene, scene.steps, counts.bodies, counts.shapes, counts.joints
        );
        for name in engine_names {
            let e = scene.engine(name);
            let wall = e.and_then(|e| e.median_ms());
            let cpu = e.and_then(|e| e.median_cpu_ms());
            let cell = match (wall, cpu) {
                (Some(_), Some(_)) => format!("{} ({})", fmt_ms(wall), fmt_ms(cpu)),
                _ => fmt_ms(wall),
            };
            let _ = write!(out, " {cell} |");
        }
        if has_ours {
            let ours = scene.engine(OURS).and_then(|e| e.median_on(clock));
            for other in &others {
                let theirs = scene.engine(other).and_then(|e| e.median_on(clock));
                let _ = write!(out, " {} |", ratio(ours, theirs));
            }
        }
        out.push('\n');
    }

    // Stability.
    out.push('\n');
    let _ = write!(out, "| scene | stability figure | sane range |");
    for name in engine_names {
        let _ = write!(out, " {name} |");
    }
    out.push('\n');
    let _ = writeln!(out, "|{}", "---|".repeat(3 + engine_names.len()));
    for scene in results {
        let figure = scene.engines.iter().find_map(|e| e.stability);
        let (label, sane) = figure.map_or(("—".to_owned(), "—".to_owned()), |f| {
            (f.label.to_owned(), format!("{} – {}", f.sane.0, f.sane.1))
        });
        let _ = write!(out, "| {} | {label} | {sane} |", scene.scene);
        for name in engine_names {
            let cell = match scene.engine(name).and_then(|e| e.stability) {
                Some(s) if s.is_sane() => format!("{:.3}", s.value),
                Some(s) => format!("**{:.3} UNSTABLE**", s.value),
                None => "—".to_owned(),
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }

    out.push('\n');
    out.push_str(&worst_frames_table(results, engine_names, clock));
    if results
        .iter()
        .any(|s| s.engines.iter().any(|e| e.profile.is_some()))
    {
        out.push('\n');
        out.push_str(&stage_table(results));
    }

    // Anything skipped or whose counts disagree.
    let mut notes = String::new();
    for scene in results {
        for e in &scene.engines {
            if let Some(reason) = &e.skipped {
                let _ = writeln!(notes, "- {} / {}: not run: {reason}", scene.scene, e.engine);
            }
        }
        let ran: Vec<_> = scene
            .engines
            .iter()
            .filter(|e| e.skipped.is_none())
            .collect();
        if ran
            .windows(2)
            .any(|w| w[0].initial != w[1].initial || w[0].last != w[1].last)
        {
            let _ = write!(
                notes,
                "- {}: counts differ (bodies/shapes/joints, start → end):",
                scene.scene
            );
            for e in ran {
                let _ = write!(
                    notes,
                    " {} {}/{}/{} → {}/{}/{}",
                    e.engine,
                    e.initial.bodies,
                    e.initial.shapes,
                    e.initial.joints,
                    e.last.bodies,
                    e.last.shapes,
                    e.last.joints
                );
            }
            notes.push('\n');
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    out
}

/// Worst frames and the serial fraction, in Markdown: per engine the 95th
/// percentile and the slowest step on `clock` (medians over rounds of each
/// round's figure); for ours the share of the step outside parallel regions
/// and the speed-up Amdahl's law allows at 8 and 16 threads.
pub fn worst_frames_table(
    results: &[SceneResult],
    engine_names: &[String],
    clock: Clock,
) -> String {
    let mut out = String::new();
    let _ = write!(out, "| scene |");
    for name in engine_names {
        let _ = write!(out, " {name} p95 | {name} max |");
    }
    let has_ours = engine_names.iter().any(|n| n == OURS);
    if has_ours {
        let _ = write!(out, " ours serial | Amdahl 8 threads | Amdahl 16 threads |");
    }
    out.push('\n');
    let columns = 1 + 2 * engine_names.len() + if has_ours { 3 } else { 0 };
    let _ = writeln!(out, "|{}", "---|".repeat(columns));
    for scene in results {
        let _ = write!(out, "| {} |", scene.scene);
        for name in engine_names {
            let e = scene.engine(name);
            let p95 = e.and_then(|e| e.p95_on(clock));
            let max = e.and_then(|e| e.max_on(clock));
            let _ = write!(out, " {} | {} |", fmt_ms(p95), fmt_ms(max));
        }
        if has_ours {
            match scene.engine(OURS).and_then(|e| e.serial_fraction()) {
                Some(s) => {
                    let _ = write!(
                        out,
                        " {:.1} % | {:.2}× | {:.2}× |",
                        100.0 * s,
                        amdahl(s, 8.0),
                        amdahl(s, 16.0)
                    );
                }
                None => out.push_str(" — | — | — |"),
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\n(ms per step on the {} clock; p95 and max are medians over rounds of each round's \
         figure. Serial: the share of our step outside parallel regions, from \
         `Profile::parallel`; read it on a 1-thread run.)",
        clock.label()
    );
    out
}

/// The per-stage table in Markdown: rows are stages, columns scenes; each cell
/// is our mean ms per step beside Box2D's (`b2World_GetProfile`) and the
/// ratio. Only engines that measure their stages appear.
pub fn stage_table(results: &[SceneResult]) -> String {
    let mut out = String::new();
    let _ = write!(out, "| stage (ms/step, ours / Box2D) |");
    for scene in results {
        let _ = write!(out, " {} |", scene.scene);
    }
    out.push('\n');
    let _ = writeln!(out, "|{}", "---|".repeat(1 + results.len()));
    let profile = |scene: &SceneResult, pick: fn(&str) -> bool| {
        scene
            .engines
            .iter()
            .find(|e| pick(&e.engine))
            .and_then(|e| e.profile)
    };
    for (row, stage) in STAGES.iter().enumerate() {
        let _ = write!(out, "| {stage} |");
        for scene in results {
            let ours = profile(scene, |n| n == OURS).map(|p| p.stages[row]);
            let theirs = profile(scene, |n| n.starts_with("Box2D"))
                .map(|p| p.stages[row])
                .filter(|b| !b.is_nan()); // NaN: not measured apart
            let cell = match (ours, theirs) {
                (Some(a), Some(b)) if b >= 0.005 => {
                    format!("{a:.3} / {b:.3} ({:.2}×)", a / b)
                }
                (Some(a), Some(b)) => format!("{a:.3} / {b:.3}"),
                (Some(a), None) => format!("{a:.3} / —"),
                (None, Some(b)) => format!("— / {b:.3}"),
                (None, None) => "—".to_owned(),
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\n(Each engine's own stage clock, wall time, mean over the timed steps of every round. \
         Both sweep fast non-bullet bodies inside finalize (Box2D's `transforms`) and count \
         bullets apart (the bullets row). Our tree rebuild's top runs inside solve, beside the \
         constraint stages (after them on one thread), and its subtrees inside finalize \
         (counted in both rows); Box2D's is part of its pairs. Our prepare row includes \
         the solver's setup for the step (stage lists, constraint buffers, the joint forest); \
         Box2D times its setup apart (`solverSetup`), which the constraints and prepare rows \
         add to its own. The \
         last row is ours outside pairs, collide and solve, Box2D's `sensors`.)"
    );
    out
}

/// The scaling table in Markdown: ms/step and µs per body against pyramid size.
pub fn scaling_table(points: &[ScalingPoint], engine_names: &[String], clock: Clock) -> String {
    let mut out = String::new();
    let _ = write!(out, "| base | bodies |");
    for name in engine_names {
        let _ = write!(
            out,
            " {name} ms/step ({}) | {name} µs/body | {name} top/initial |",
            clock.label()
        );
    }
    out.push('\n');
    let _ = writeln!(out, "|{}", "---|".repeat(2 + 3 * engine_names.len()));
    for p in points {
        let _ = write!(out, "| {} | {} |", p.base, p.bodies);
        for name in engine_names {
            let ms = p.result.engine(name).and_then(|e| e.median_on(clock));
            let per_body = ms.map(|m| format!("{:.3}", m * 1e3 / p.bodies as f64));
            let stability = match p.result.engine(name).and_then(|e| e.stability) {
                Some(s) if s.is_sane() => format!("{:.3}", s.value),
                Some(s) => format!("**{:.3} UNSTABLE**", s.value),
                None => "—".to_owned(),
            };
            let _ = write!(
                out,
                " {} | {} | {stability} |",
                fmt_ms(ms),
                per_body.unwrap_or_else(|| "—".to_owned())
            );
        }
        out.push('\n');
    }
    out
}

fn json_number(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => "null".to_owned(),
    }
}

fn json_scene(scene: &SceneResult) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\"scene\":{},\"steps\":{},\"engines\":[",
        json_string(&scene.scene),
        scene.steps
    );
    for (i, e) in scene.engines.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let [rounds, cpu_rounds] = [&e.wall, &e.cpu].map(|times| {
            let ms: Vec<String> = times
                .mean_ms
                .iter()
                .map(|v| json_number(Some(*v)))
                .collect();
            ms.join(",")
        });
        let stability = e.stability.map_or("null".to_owned(), |s| {
            format!(
                "{{\"label\":{},\"value\":{},\"sane_min\":{},\"sane_max\":{},\"sane\":{}}}",
                json_string(s.label),
                json_number(Some(s.value)),
                json_number(Some(s.sane.0)),
                json_number(Some(s.sane.1)),
                s.is_sane()
            )
        });
        let profile = e.profile.map_or("null".to_owned(), |p| {
            let stages: Vec<String> = STAGES
                .iter()
                .zip(&p.stages)
                .map(|(name, ms)| format!("{}:{}", json_string(name), json_number(Some(*ms))))
                .collect();
            format!(
                "{{\"stages_ms\":{{{}}},\"parallel_ms\":{}}}",
                stages.join(","),
                json_number(p.parallel)
            )
        });
        let _ = write!(
            out,
            "{{\"engine\":{},\"skipped\":{},\"median_ms_per_step\":{},\"min_ms_per_step\":{},\
             \"rounds_ms_per_step\":[{}],\"median_cpu_ms_per_step\":{},\
             \"rounds_cpu_ms_per_step\":[{}],\"p95_ms\":{},\"max_ms\":{},\"p95_cpu_ms\":{},\
             \"max_cpu_ms\":{},\"serial_fraction\":{},\"profile\":{},\
             \"bodies\":{},\"shapes\":{},\"joints\":{},\
             \"final_bodies\":{},\"stability\":{}}}",
            json_string(&e.engine),
            e.skipped.as_deref().map_or("null".to_owned(), json_string),
            json_number(e.median_ms()),
            json_number(e.min_ms()),
            rounds,
            json_number(e.median_cpu_ms()),
            cpu_rounds,
            json_number(e.p95_on(Clock::Wall)),
            json_number(e.max_on(Clock::Wall)),
            json_number(e.p95_on(Clock::Cpu)),
            json_number(e.max_on(Clock::Cpu)),
            json_number(e.serial_fraction()),
            profile,
            e.initial.bodies,
            e.initial.shapes,
            e.initial.joints,
            e.last.bodies,
            stability
        );
    }
    out.push_str("]}");
    out
}

fn json_context(context: &Context) -> String {
    let engines: Vec<String> = context
        .engines
        .iter()
        .map(|(name, note)| {
            format!(
                "{{\"name\":{},\"note\":{}}}",
                json_string(name),
                note.as_deref().map_or("null".to_owned(), json_string)
            )
        })
        .collect();
    format!(
        "\"machine\":{},\"date\":{},\"command\":{},\"time_step\":{},\"sub_steps\":4,\
         \"threads\":{},\"rounds\":{},\"engines\":[{}]",
        json_string(&context.machine),
        json_string(&context.date),
        json_string(&context.command),
        1.0f64 / 60.0,
        context.threads,
        context.rounds,
        engines.join(",")
    )
}

/// The whole benchmark run as one JSON object.
pub fn json(context: &Context, results: &[SceneResult]) -> String {
    let scenes: Vec<String> = results.iter().map(json_scene).collect();
    format!(
        "{{{},\"scenes\":[{}]}}\n",
        json_context(context),
        scenes.join(",")
    )
}

/// A scaling run as one JSON object.
pub fn scaling_json(context: &Context, points: &[ScalingPoint]) -> String {
    let rows: Vec<String> = points
        .iter()
        .map(|p| {
            format!(
                "{{\"base\":{},\"bodies\":{},\"result\":{}}}",
                p.base,
                p.bodies,
                json_scene(&p.result)
            )
        })
        .collect();
    format!(
        "{{{},\"scaling\":[{}]}}\n",
        json_context(context),
        rows.join(",")
    )
}

const COLORS: [&str; 4] = ["#d9534f", "#337ab7", "#5cb85c", "#f0ad4e"];

/// The same colour for an engine in every chart: ours red, Box2D blue, Rapier green.
fn color_of(engine_names: &[String], name: &str) -> &'static str {
    if name == OURS {
        COLORS[0]
    } else if name.starts_with("Box2D") {
        COLORS[1]
    } else if name.starts_with("Rapier") {
        COLORS[2]
    } else {
        let i = engine_names.iter().position(|n| n == name).unwrap_or(0);
        COLORS[3 - i % 2]
    }
}

/// A "nice" axis maximum and tick step covering `max`.
fn axis(max: f64) -> (f64, f64) {
    let max = if max > 0.0 { max } else { 1.0 };
    let raw_step = max / 5.0;
    let magnitude = 10f64.powf(raw_step.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw_step)
        .unwrap_or(10.0 * magnitude);
    ((max / step).ceil() * step, step)
}

fn svg_legend(out: &mut String, engine_names: &[String], x: f64, y: f64) {
    for (i, name) in engine_names.iter().enumerate() {
        let ly = y + 18.0 * i as f64;
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\">{name}</text>",
            ly - 10.0,
            color_of(engine_names, name),
            x + 18.0,
            ly
        );
    }
}

/// A grouped bar chart of median ms/step per scene per engine.
pub fn bar_chart_svg(
    results: &[SceneResult],
    engine_names: &[String],
    clock: Clock,
    title: &str,
) -> String {
    let (left, top, plot_h, group_w) = (60.0, 40.0, 300.0, 120.0);
    let bar_w = (group_w - 30.0) / engine_names.len().max(1) as f64;
    let width = (left + group_w * results.len() as f64 + 140.0).max(640.0);
    let height = top + plot_h + 60.0;
    let values: Vec<f64> = results
        .iter()
        .flat_map(|s| s.engines.iter().filter_map(|e| e.median_on(clock)))
        .filter(|v| *v > 0.0)
        .collect();
    let max = values.iter().copied().fold(0.0, f64::max);
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    // One slow outlier would flatten every other bar: switch to a log axis when the
    // values span more than a factor of 20.
    let log = max > 0.0 && max / min > 20.0;
    let (y_max, tick) = axis(max);
    let (lo, hi) = (min.log10().floor(), max.log10().ceil());
    let y_of = |v: f64| {
        if log {
            let f = (v.max(10f64.powf(lo)).log10() - lo) / (hi - lo);
            top + plot_h - f * plot_h
        } else {
            top + plot_h - v / y_max * plot_h
        }
    };
    let ticks: Vec<f64> = if log {
        let mut ticks = Vec::new();
        let mut e = lo;
        while e <= hi {
            for m in [1.0, 2.0, 5.0] {
                let t = m * 10f64.powf(e);
                if t <= 10f64.powf(hi) * 1.0001 {
                    ticks.push(t);
                }
            }
            e += 1.0;
        }
        ticks
    } else {
        (0..)
            .map(|i| i as f64 * tick)
            .take_while(|t| *t <= y_max + 1e-9)
            .collect()
    };
    let title = if log {
        format!("{title} (log scale)")
    } else {
        title.to_owned()
    };

    let mut out = svg_start(width, height, left, &title);
    for t in ticks {
        grid_line(
            &mut out,
            left,
            left + group_w * results.len() as f64,
            y_of(t),
            t,
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"14\" y=\"{}\" font-size=\"12\" transform=\"rotate(-90 14 {})\" \
         text-anchor=\"middle\">ms / step (median, {})</text>",
        top + plot_h / 2.0,
        top + plot_h / 2.0,
        clock.label()
    );
    for (g, scene) in results.iter().enumerate() {
        let x0 = left + group_w * g as f64 + 15.0;
        for (i, name) in engine_names.iter().enumerate() {
            let x = x0 + bar_w * i as f64;
            match scene.engine(name).and_then(|e| e.median_on(clock)) {
                Some(ms) => {
                    let y = y_of(ms);
                    let _ = writeln!(
                        out,
                        "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\
                         <text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\">{ms:.2}</text>",
                        bar_w - 2.0,
                        top + plot_h - y,
                        color_of(engine_names, name),
                        x + bar_w / 2.0 - 1.0,
                        y - 3.0
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\">n/a</text>",
                        x + bar_w / 2.0 - 1.0,
                        top + plot_h - 3.0
                    );
                }
            }
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
            x0 + (group_w - 30.0) / 2.0,
            top + plot_h + 18.0,
            scene.scene
        );
    }
    let _ = writeln!(
        out,
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>",
        top + plot_h,
        left + group_w * results.len() as f64,
        top + plot_h
    );
    svg_legend(
        &mut out,
        engine_names,
        left + group_w * results.len() as f64 + 20.0,
        top + 10.0,
    );
    out.push_str("</svg>\n");
    out
}

/// A line chart of ms/step against body count, one line per engine.
pub fn scaling_svg(
    points: &[ScalingPoint],
    engine_names: &[String],
    clock: Clock,
    title: &str,
) -> String {
    let (left, top, plot_w, plot_h) = (70.0, 40.0, 560.0, 320.0);
    let width = left + plot_w + 150.0;
    let height = top + plot_h + 60.0;
    let max_bodies = points.iter().map(|p| p.bodies).max().unwrap_or(1) as f64;
    let max_ms = points
        .iter()
        .flat_map(|p| p.result.engines.iter().filter_map(|e| e.median_on(clock)))
        .fold(0.0, f64::max);
    let (x_max, x_tick) = axis(max_bodies);
    let (y_max, y_tick) = axis(max_ms);
    let x_of = |b: f64| left + b / x_max * plot_w;
    let y_of = |v: f64| top + plot_h - v / y_max * plot_h;

    let mut out = svg_start(width, height, left, title);
    let mut t = 0.0;
    while t <= y_max + 1e-9 {
        grid_line(&mut out, left, left + plot_w, y_of(t), t);
        t += y_tick;
    }
    let mut t = 0.0;
    while t <= x_max + 1e-9 {
        let x = x_of(t);
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{}\" stroke=\"#eee\"/>\
             <text x=\"{x}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{t}</text>",
            top + plot_h,
            top + plot_h + 16.0
        );
        t += x_tick;
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">bodies</text>\
         <text x=\"16\" y=\"{}\" font-size=\"12\" transform=\"rotate(-90 16 {})\" \
         text-anchor=\"middle\">ms / step (median, {})</text>",
        left + plot_w / 2.0,
        top + plot_h + 40.0,
        top + plot_h / 2.0,
        top + plot_h / 2.0,
        clock.label()
    );
    for name in engine_names {
        let color = color_of(engine_names, name);
        let pts: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|p| {
                let ms = p.result.engine(name)?.median_on(clock)?;
                Some((x_of(p.bodies as f64), y_of(ms)))
            })
            .collect();
        if pts.len() > 1 {
            let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = writeln!(
                out,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>",
                path.join(" ")
            );
        }
        for (x, y) in &pts {
            let _ = writeln!(
                out,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{color}\"/>"
            );
        }
    }
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"black\"/>"
    );
    svg_legend(&mut out, engine_names, left + plot_w + 20.0, top + 10.0);
    out.push_str("</svg>\n");
    out
}

/// The start of an SVG chart `width` × `height` pixels on white, with `title`
/// at the top, indented to the plot's `left` edge.
fn svg_start(width: f64, height: f64, left: f64, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"15\">{title}</text>"
    );
    out
}

/// A horizontal grid line at height `y` from `left` to `right` (pixels),
/// labelled with its value `t` left of the plot.
fn grid_line(out: &mut String, left: f64, right: f64, y: f64, t: f64) {
    let _ = writeln!(
        out,
        "<line x1=\"{left}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\" stroke=\"#ddd\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{t}</text>",
        left - 6.0,
        y + 4.0
    );
}
