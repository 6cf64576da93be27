//! Fuzz target: the `WorldDistance` family of the shared drivers
//! (`crates/isect/tests/support/fuzz_drivers.rs`).
#![no_main]

#[path = "../../crates/isect/tests/support/fuzz_drivers.rs"]
mod fuzz_drivers;

use fuzz_drivers::{drive, ByteSource, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| drive(Target::WorldDistance, &mut ByteSource::new(data)));
