//! Records the C flags `cc` will use for Box2D (boxdd-sys) so the tool can print them.
//! The authoritative check that Box2D's asserts are off is made at run time
//! (`box2d::asserts_enabled`); this only labels the build.

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let underscored = target.replace('-', "_");
    let names = [
        format!("CFLAGS_{target}"),
        format!("CFLAGS_{underscored}"),
        "TARGET_CFLAGS".to_owned(),
        "CFLAGS".to_owned(),
    ];
    let mut flags = Vec::new();
    for name in &names {
        println!("cargo:rerun-if-env-changed={name}");
        if let Ok(value) = std::env::var(name) {
            flags.push(value);
        }
    }
    println!(
        "cargo:rustc-env=IMPULSE2D_COMPARE_CFLAGS={}",
        flags.join(" ")
    );
}
