//! The side panel (scenes, controls, draw toggles) and the profile overlay.

use crate::app::{App, PANEL_WIDTH, scenes};
use egui_macroquad::egui;

/// Lays out the panel and overlay for one frame. Returns the scene to load, if
/// one was clicked.
pub fn panel(ctx: &egui::Context, app: &mut App) -> Option<usize> {
    let mut load = None;
    egui::SidePanel::left("testbed")
        .exact_width(PANEL_WIDTH)
        .resizable(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Impulse2D testbed");
                if let Some(info) = scenes().get(app.scene_index) {
                    ui.label(format!("{} / {}", info.category, info.name));
                    ui.small(info.description);
                }
                ui.label(format!("step {}", app.step_count));
                if let Some(status) = app.scene.as_ref().map(|s| s.status())
                    && !status.is_empty()
                {
                    ui.label(status);
                }
                if let Some(e) = &app.error {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
                ui.separator();

                ui.horizontal(|ui| {
                    let label = if app.paused { "Run (P)" } else { "Pause (P)" };
                    if ui.button(label).clicked() {
                        app.paused = !app.paused;
                    }
                    if ui.button("Step (O)").clicked() {
                        app.paused = true;
                        app.step_once = true;
                    }
                    if ui.button("Restart (R)").clicked() {
                        app.restart();
                    }
                });
                ui.add(egui::Slider::new(&mut app.hz, 15.0..=240.0).text("Hz"));
                ui.add(egui::Slider::new(&mut app.substeps, 1..=16).text("substeps"));
                ui.checkbox(&mut app.enable_sleep, "sleep");
                ui.separator();

                ui.label("Rollback");
                ui.add(
                    egui::Slider::new(&mut app.rewind_steps, 1..=crate::rewind::DEPTH as u64)
                        .text("steps back"),
                );
                if ui
                    .button("Rewind and re-simulate (B)")
                    .on_hover_text("Load the rollback state saved that many steps ago, simulate the steps again, compare the state hash")
                    .clicked()
                {
                    app.rewind();
                }
                match &app.rewind.last {
                    Some(Ok(r)) if r.matches() => {
                        ui.colored_label(
                            egui::Color32::LIGHT_GREEN,
                            format!("{} steps again: hash {:016x} matches", r.steps, r.after),
                        );
                    }
                    Some(Ok(r)) => {
                        ui.colored_label(
                            egui::Color32::LIGHT_RED,
                            format!(
                                "{} steps again: hash {:016x}, was {:016x}",
                                r.steps, r.after, r.before
                            ),
                        );
                    }
                    Some(Err(e)) => {
                        ui.colored_label(egui::Color32::LIGHT_RED, format!("no rewind: {e}"));
                    }
                    None => {}
                }
                ui.separator();

                ui.label("Draw");
                let o = &mut app.options;
                ui.checkbox(&mut o.draw_shapes, "shapes");
                ui.checkbox(&mut o.draw_joints, "joints");
                ui.checkbox(&mut o.draw_joint_extras, "joint forces");
                ui.checkbox(&mut o.draw_aabbs, "bounding boxes");
                ui.checkbox(&mut o.draw_contacts, "contact points");
                ui.checkbox(&mut o.draw_contact_normals, "contact normals");
                ui.checkbox(&mut o.draw_contact_impulses, "normal impulses");
                ui.checkbox(&mut o.draw_friction_impulses, "friction impulses");
                ui.checkbox(&mut o.draw_islands, "awake islands");
                ui.checkbox(&mut o.draw_graph_colors, "graph colours");
                ui.checkbox(&mut o.draw_mass, "centres of mass");
                ui.checkbox(&mut o.draw_body_names, "body names");
                ui.checkbox(&mut o.draw_chain_normals, "chain normals");
                ui.checkbox(&mut o.draw_contact_features, "contact features");
                ui.checkbox(&mut app.show_profile, "profile");
                ui.separator();

                ui.label("Scenes");
                let all = scenes();
                let mut categories: Vec<&str> = Vec::new();
                for s in all {
                    if !categories.contains(&s.category) {
                        categories.push(s.category);
                    }
                }
                let current = all.get(app.scene_index).map(|s| s.category);
                for c in categories {
                    egui::CollapsingHeader::new(c)
                        .default_open(Some(c) == current)
                        .show(ui, |ui| {
                            for (i, s) in all.iter().enumerate().filter(|(_, s)| s.category == c) {
                                if ui
                                    .selectable_label(i == app.scene_index, s.name)
                                    .on_hover_text(s.description)
                                    .clicked()
                                {
                                    load = Some(i);
                                }
                            }
                        });
                }
                ui.separator();
                ui.small(
                    "Left drag: pull a body (mouse joint). Right drag: pan. Wheel: zoom. \
                     F: fit view. P: pause. O: step. R: restart. B: rewind and re-simulate. Platformer: arrows run, \
                     space or up jumps (the player leaves its track at the first key).",
                );
            });
        });

    if app.show_profile {
        egui::Window::new("Profile")
            .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
            .resizable(false)
            .collapsible(true)
            .show(ctx, |ui| {
                let c = app.world.counters();
                ui.monospace(format!(
                    "bodies {:>6}  awake {:>6}\ncontacts {:>5}  islands {:>4}\ncolours {:>6}",
                    c.body_count,
                    c.awake_body_count,
                    c.contact_count,
                    c.island_count,
                    c.color_count
                ));
                ui.separator();
                let p = &app.profile.ms;
                let rows = [
                    ("step", p.step),
                    ("pairs", p.pairs),
                    ("collide", p.collide),
                    ("solve", p.solve),
                    ("  prepare", p.prepare_constraints),
                    ("  integrate v", p.integrate_velocities),
                    ("  warm start", p.warm_start),
                    ("  solve", p.solve_impulses),
                    ("  integrate p", p.integrate_positions),
                    ("  relax", p.relax_impulses),
                    ("  restitution", p.restitution),
                    ("  store", p.store_impulses),
                    ("  finalize", p.finalize_bodies),
                    ("  enlarge", p.enlarge_proxies),
                    ("  split islands", p.split_islands),
                    ("  sleep", p.sleep_islands),
                ];
                let text: Vec<String> = rows
                    .iter()
                    .map(|(name, ms)| format!("{name:<16}{ms:>7.3} ms"))
                    .collect();
                ui.monospace(text.join("\n"));
            });
    }
    load
}
