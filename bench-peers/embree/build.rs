//! Links Debian's Embree 3 (`apt-get install libembree-dev`): `libembree3.so`.
fn main() {
    println!("cargo:rustc-link-lib=dylib=embree3");
    if let Ok(dir) = std::env::var("EMBREE_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
    println!("cargo:rerun-if-env-changed=EMBREE_LIB_DIR");
}
