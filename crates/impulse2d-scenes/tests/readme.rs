//! The scene list in the top-level README matches the registry, and the
//! pictures it shows exist and stay small.
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

#[test]
fn readme_pictures_exist_and_stay_small() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let readme = std::fs::read_to_string(format!("{root}README.md")).expect("README.md");
    let mut pictures = 0;
    for (at, _) in readme.match_indices("](docs/") {
        // Only pictures (`![alt](docs/…)`); plain links to documents are not.
        let opening = readme[..at].rfind('[').expect("opening bracket");
        if !readme[..opening].ends_with('!') {
            continue;
        }
        let rest = &readme[at + 2..];
        let path = &rest[..rest.find(')').expect("closing parenthesis")];
        let bytes = std::fs::read(format!("{root}{path}"))
            .unwrap_or_else(|e| panic!("README shows {path}: {e}"));
        assert!(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{path} is not a PNG"
        );
        assert!(bytes.len() < 150_000, "{path}: {} bytes", bytes.len());
        pictures += 1;
    }
    assert!(pictures >= 1, "the README shows no picture");
}
