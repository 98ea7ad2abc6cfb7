//! libFuzzer target of the notation parsers: the properties of `pagoda_native::fuzz::notation`
//! (no panic; what is accepted is well formed and reads back from its formatted text).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pagoda_native::fuzz::notation(data));
