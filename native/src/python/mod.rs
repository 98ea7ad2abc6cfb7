//! The `pagoda_native` extension module: each game registers its classes and functions.

use pyo3::prelude::*;

mod doudizhu;
mod envs;
mod notation;
mod tichu;

#[pymodule]
fn pagoda_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    tichu::register(m)?;
    doudizhu::register(m)?;
    envs::register(m)?;
    notation::register(m)?;
    Ok(())
}
