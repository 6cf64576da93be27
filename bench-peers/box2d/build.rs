//! Compiles Box2D v3's collision sources (the upstream tree vendored in the crates.io
//! crate `boxdd-sys` 0.6.0, under `third-party/box2d`) with the `cc` crate, as Box2D's
//! CMake Release build does: `-O3 -DNDEBUG -std=c17 -ffp-contract=off`, default SIMD
//! settings (SSE2 on x86-64, no AVX2). Only the files the manifold routines need.
//!
//! The source is found at `$BOX2D_SRC` when set, else in Cargo's registry cache
//! (`$CARGO_HOME/registry/src/*/boxdd-sys-0.6.0/third-party/box2d`); `cargo info
//! boxdd-sys@0.6.0` puts it there. boxdd-sys is not a dependency: its own build would
//! link a second copy of the same symbols.
use std::path::PathBuf;

const CRATE_DIR: &str = "boxdd-sys-0.6.0";
const FILES: [&str; 7] = [
    "manifold",
    "hull",
    "geometry",
    "math_functions",
    "distance",
    "aabb",
    "core",
];

fn cargo_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        return home.into();
    }
    let home = std::env::var_os("HOME").expect("CARGO_HOME or HOME");
    PathBuf::from(home).join(".cargo")
}

fn box2d_source() -> PathBuf {
    if let Some(dir) = std::env::var_os("BOX2D_SRC") {
        return dir.into();
    }
    let registry = cargo_home().join("registry").join("src");
    let found = std::fs::read_dir(&registry).ok().and_then(|index| {
        index
            .flatten()
            .map(|e| e.path().join(CRATE_DIR).join("third-party").join("box2d"))
            .find(|dir| dir.join("src").join("manifold.c").is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "Box2D's source not found under {}: run `cargo info boxdd-sys@0.6.0` (it \
             downloads the crate), or set BOX2D_SRC to a Box2D v3 tree",
            registry.display()
        )
    })
}

fn main() {
    println!("cargo:rerun-if-env-changed=BOX2D_SRC");
    println!("cargo:rerun-if-changed=build.rs");
    let root = box2d_source();
    let mut build = cc::Build::new();
    build
        .include(root.join("include"))
        .include(root.join("src"))
        .opt_level(3)
        // As a CMake Release build: no debug info, no forced frame pointer.
        .debug(false)
        .force_frame_pointer(false)
        .define("NDEBUG", None)
        .flag("-std=c17")
        .flag("-ffp-contract=off")
        .warnings(false);
    for f in FILES {
        build.file(root.join("src").join(format!("{f}.c")));
    }
    build.compile("box2d");
    println!("cargo:rustc-link-lib=m");
    println!("cargo:rustc-env=BOX2D_SRC_DIR={}", root.display());
}
