//! Laizi move generation (the reference's `wildgen.py`), in the reference's order.

use super::{Combo, Rules};

/// Every legal play of `hand` (which holds wild cards of rank index `wild`) on `on`.
pub fn wild_plays(
    hand: u128,
    on: Option<&Combo>,
    rules: &Rules,
    wild: usize,
    out: &mut Vec<Combo>,
) {
    let _ = (hand, on, rules, wild, out);
    unimplemented!("laizi move generation")
}
