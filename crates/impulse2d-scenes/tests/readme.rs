//! The scene list in the top-level README matches the registry.
//!
//! `UPDATE_README=1 cargo test -p impulse2d-scenes --test readme` rewrites
//! the list from the registry.

const BEGIN: &str = "<!-- scene list: generated from impulse2d_scenes::list() -->";
const END: &str = "<!-- end of scene list -->";

/// The list as the README shows it: one line per category, in registry order.
fn scene_list() -> String {
    let scenes = impulse2d_scenes::list();
    let mut categories: Vec<&str> = Vec::new();
    for s in scenes {
        if !categories.contains(&s.category) {
            categories.push(s.category);
        }
    }
    let mut out = String::new();
    for c in categories {
        let names: Vec<String> = scenes
            .iter()
            .filter(|s| s.category == c)
            .map(|s| format!("`{}`", s.name))
            .collect();
        out.push_str(&format!("- **{c}**: {}\n", names.join(", ")));
    }
    out
}

#[test]
fn readme_lists_every_registered_scene() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md");
    let start = readme
        .find(BEGIN)
        .expect("the README has the scene list marker")
        + BEGIN.len();
    let end = readme[start..].find(END).expect("end marker") + start;
    let want = format!("\n{}", scene_list());
    if readme[start..end] != want {
        if std::env::var_os("UPDATE_README").is_some() {
            let updated = format!("{}{want}{}", &readme[..start], &readme[end..]);
            std::fs::write(path, updated).expect("write README.md");
        } else {
            panic!(
                "README.md's scene list is out of date; run with UPDATE_README=1, or paste:\n{want}"
            );
        }
    }
}
