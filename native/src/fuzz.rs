//! The fuzz target of the notation parsers: [`notation`] takes any bytes and checks the
//! parsers' properties, panicking on a violation (a fuzzer reports the panic with its input).
//!
//! The parsers: Tichu cards ([`crate::tichu::parse_cards`]), Dou Di Zhu card sets in canonical
//! notation ([`crate::doudizhu::parse_canonical`]), Dou Di Zhu action texts
//! ([`crate::doudizhu::state::Act::from_text`], auction and play). The properties:
//!
//! - no parser panics, whatever the bytes (read as text, lossily, so every input reaches them);
//! - what a parser accepts is well formed (cards of the deck; canonical text written back as it
//!   was read), and reads back the same from its formatted text: `parse(format(x)) == x`;
//! - values built from the bytes (card masks, packed sets, actions) survive `format` then `parse`.
//!
//! It runs three ways: under libFuzzer (`native/fuzz`, `cargo +nightly fuzz run notation`), as a
//! stable `cargo test` over the corpus in `native/fuzz/corpus/notation` and proptest's random
//! inputs (`native/tests/fuzz_notation.rs`), and from Python through `pagoda_native`, where
//! `tests/native/test_notation_fuzz.py` holds what it accepts equal to the Python reference's
//! parsers.

use crate::doudizhu::state::Act as DdzAct;
use crate::doudizhu::{self, format_mask, parse_canonical, Combo as DdzCombo, Kind as DdzKind};
use crate::tichu::{self, format_cards, parse_cards, FULL_DECK};

/// Check every parser's properties on `data` (see the module's text); panics on a violation.
pub fn notation(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    tichu_cards(&text);
    ddz_cards(&text);
    ddz_action(&text);
    tichu_mask(data);
    ddz_mask(data);
    ddz_built_action(data);
}

/// Tichu cards read from `text`: a mask of the deck that reads back from its notation.
pub fn tichu_cards(text: &str) -> Option<u64> {
    let mask = parse_cards(text)?;
    assert_eq!(
        mask & !FULL_DECK,
        0,
        "{text:?} read as cards outside the deck"
    );
    let written = format_cards(mask);
    assert_eq!(
        parse_cards(&written),
        Some(mask),
        "{text:?}: {written:?} reads back otherwise"
    );
    Some(mask)
}

/// A Dou Di Zhu card set in canonical notation: written back exactly as it was read.
pub fn ddz_cards(text: &str) -> Option<u128> {
    let mask = parse_canonical(text)?;
    assert_eq!(
        format_mask(mask),
        text,
        "{text:?} is not canonical, yet read"
    );
    Some(mask)
}

/// A Dou Di Zhu action text: its text reads back as the same action.
pub fn ddz_action(text: &str) -> Option<String> {
    let act = DdzAct::from_text(text)?;
    let written = act.text();
    let again = DdzAct::from_text(&written);
    assert_eq!(
        again,
        Some(act),
        "{text:?}: {written:?} reads back otherwise"
    );
    Some(written)
}

/// The count fields of a packed set (up to 15 of each rank).
const PACKED: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < doudizhu::NUM_RANKS {
        m |= 0xF << (5 * i);
        i += 1;
    }
    m
};

fn word(data: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    for (k, slot) in b.iter_mut().enumerate() {
        *slot = data.get(at + k).copied().unwrap_or(0);
    }
    u64::from_le_bytes(b)
}

/// A card mask from the bytes: `parse_cards(format_cards(x)) == x`.
fn tichu_mask(data: &[u8]) {
    let mask = word(data, 0) & FULL_DECK;
    let written = format_cards(mask);
    assert_eq!(parse_cards(&written), Some(mask), "{written:?}");
    // The reference's other spellings of the same cards: no spaces, `10`, other cases, commas.
    let squeezed = written.replace(' ', "");
    assert_eq!(parse_cards(&squeezed), Some(mask), "{squeezed:?}");
    let loud = written.to_uppercase().replace("T", "10").replace(' ', ",");
    assert_eq!(parse_cards(&loud), Some(mask), "{loud:?}");
    if mask != 0 {
        let twice = format!("{written} {}", tichu::card_name(mask.trailing_zeros()));
        assert_eq!(parse_cards(&twice), None, "{twice:?} names a card twice");
    }
}

/// A packed set from the bytes (up to 8 of each rank, two packs): canonical text reads back.
fn ddz_mask(data: &[u8]) {
    let mut mask = 0u128;
    for i in 0..doudizhu::NUM_RANKS {
        let n = data.get(8 + i).copied().unwrap_or(0) % 9;
        mask += (n as u128) << (5 * i);
    }
    let written = format_mask(mask);
    assert_eq!(parse_canonical(&written), Some(mask), "{written:?}");
}

/// An action built from the bytes: its text reads back as the same action.
fn ddz_built_action(data: &[u8]) {
    let pick = data.first().copied().unwrap_or(0);
    let act = match pick % 5 {
        0 => DdzAct::Pass,
        1 => DdzAct::Call,
        2 => DdzAct::Rob,
        3 => DdzAct::Bid(data.get(1).copied().unwrap_or(0)),
        _ => {
            let mask = (word(data, 2) as u128) & PACKED;
            if mask == 0 {
                return;
            }
            let reading = (word(data, 10) as u128) & PACKED;
            let reading = if reading == 0 { mask } else { reading };
            DdzAct::Play(DdzCombo {
                kind: DdzKind::Solo,
                rank: 0,
                length: 0,
                mask,
                reading,
                order: 0,
            })
        }
    };
    let written = act.text();
    assert_eq!(DdzAct::from_text(&written), Some(act), "{written:?}");
}
