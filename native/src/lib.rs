//! pagoda's native rules cores: Tichu and Dou Di Zhu, the same answers as the Python reference
//! (`pagoda.tichu`, `pagoda.doudizhu`), checked by the differential tests in `tests/native/`.
//!
//! The rules code ([`tichu`], [`doudizhu`]) is plain Rust and builds and tests without Python;
//! the `python` feature adds the PyO3 bindings (the `pagoda_native` extension module).

pub mod doudizhu;
pub mod fuzz;
pub mod tichu;

#[cfg(feature = "python")]
mod python;
