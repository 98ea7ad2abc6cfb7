//! The notation parsers and their fuzz target for Python (`tests/native/test_notation_fuzz.py`
//! holds what they accept equal to the reference's parsers). Each call also checks the parser's
//! properties (`crate::fuzz`): a violation raises `pyo3_runtime.PanicException`.

use pyo3::prelude::*;

use crate::fuzz;

/// The card mask a Tichu card text reads as (the reference's `to_mask`), or None.
#[pyfunction]
fn notation_tichu_cards(text: &str) -> Option<u64> {
    fuzz::tichu_cards(text)
}

/// The packed set of a Dou Di Zhu text in canonical notation (as `format_mask` writes), or None.
#[pyfunction]
fn notation_ddz_cards(text: &str) -> Option<u128> {
    fuzz::ddz_cards(text)
}

/// The text of the Dou Di Zhu action `text` reads as (`pass`, `bid N`, `play CARDS [as READING]`), or None.
#[pyfunction]
fn notation_ddz_action(text: &str) -> Option<String> {
    fuzz::ddz_action(text)
}

/// Run the notation fuzz target on `data` (any bytes).
#[pyfunction]
fn notation_fuzz(data: &[u8]) {
    fuzz::notation(data)
}

/// Register the notation functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(notation_tichu_cards, m)?)?;
    m.add_function(wrap_pyfunction!(notation_ddz_cards, m)?)?;
    m.add_function(wrap_pyfunction!(notation_ddz_action, m)?)?;
    m.add_function(wrap_pyfunction!(notation_fuzz, m)?)?;
    Ok(())
}
