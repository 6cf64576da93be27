//! Compiles the C++ shim (`shim/coal_shim.cpp`) against coal's headers and links
//! `libcoal.so`, both from the PyPI wheel `libcoal` (a cmeel prefix, with Eigen from
//! `cmeel-eigen` and Boost from `cmeel-boost`).
//!
//! `COAL_PREFIX` is that prefix, e.g.
//! `/tmp/coalv/lib/python3.11/site-packages/cmeel.prefix` (the default). The binary
//! gets an rpath to `$COAL_PREFIX/lib`, so no `LD_LIBRARY_PATH` is needed.
//!
//! Flags: `-O3`, no `-march` (the default x86-64 baseline, as the wheel and as isect
//! are built here), `-DNDEBUG`, and the definitions coal's CMake target exports.
use std::path::PathBuf;

const DEFAULT_PREFIX: &str = "/tmp/coalv/lib/python3.11/site-packages/cmeel.prefix";

fn main() {
    println!("cargo:rerun-if-env-changed=COAL_PREFIX");
    println!("cargo:rerun-if-changed=shim/coal_shim.cpp");
    let prefix =
        PathBuf::from(std::env::var("COAL_PREFIX").unwrap_or_else(|_| DEFAULT_PREFIX.into()));
    let include = prefix.join("include");
    let lib = prefix.join("lib");
    assert!(
        include.join("coal/distance.h").exists(),
        "coal's headers not found under {}: set COAL_PREFIX (see README.md)",
        include.display()
    );
    assert!(
        include.join("eigen3/Eigen/Core").exists(),
        "Eigen not found under {}: `pip install cmeel-eigen` into the same venv",
        include.display()
    );
    cc::Build::new()
        .cpp(true)
        .file("shim/coal_shim.cpp")
        .include(&include)
        .include(include.join("eigen3"))
        .flag("-std=c++17")
        .opt_level(3)
        .define("NDEBUG", None)
        // As coal's CMake target (lib/cmake/coal/coalTargets.cmake) exports them.
        .define("COAL_BACKWARD_COMPATIBILITY_WITH_HPP_FCL", None)
        .define("COAL_HAS_OCTOMAP", None)
        .define("COAL_HAVE_OCTOMAP", None)
        .define("OCTOMAP_MAJOR_VERSION", "1")
        .define("OCTOMAP_MINOR_VERSION", "10")
        .define("OCTOMAP_PATCH_VERSION", "0")
        .flag_if_supported("-Wno-deprecated-declarations")
        .flag_if_supported("-Wno-ignored-attributes")
        .compile("coal_shim");
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-lib=dylib=coal");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
}
