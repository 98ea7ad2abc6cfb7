//! The notation fuzz target (`pagoda_native::fuzz::notation`) on stable Rust: over the corpus
//! that `native/fuzz` starts libFuzzer from, and over proptest's random inputs (any bytes, and
//! texts made of the notation's own pieces, which reach past the first character).

use std::fs;
use std::path::Path;

use pagoda_native::fuzz;
use proptest::prelude::*;

#[test]
fn the_corpus_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/notation");
    let mut n = 0;
    for entry in fs::read_dir(&dir).expect("the corpus directory") {
        let data = fs::read(entry.unwrap().path()).unwrap();
        fuzz::notation(&data);
        n += 1;
    }
    assert!(n >= 10, "{n} corpus files in {}", dir.display());
}

#[test]
fn known_texts_read_as_the_reference_reads_them() {
    assert_eq!(
        fuzz::tichu_cards("mJ,2G\t10k\n"),
        fuzz::tichu_cards("Mj 2g Tk")
    );
    assert_eq!(fuzz::tichu_cards("Tr 10r"), None);
    assert_eq!(fuzz::tichu_cards("2g;"), None);
    assert_eq!(fuzz::ddz_cards("3345"), Some(2 + (1 << 5) + (1 << 10)));
    assert_eq!(fuzz::ddz_cards("5433"), None);
    assert_eq!(
        fuzz::ddz_action("play 333 as 345").as_deref(),
        Some("play 333 as 345")
    );
    assert_eq!(fuzz::ddz_action("bid 03"), None);
    assert_eq!(fuzz::ddz_action("play "), None);
}

/// Texts of notation pieces: cards of both games, separators, verbs, digits, odd characters.
fn pieces() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "2g", "Tk", "10", "10b", "Ar", "Dg", "Mj", "Ph", "Dr", "dR", "mJ", "g", "k", "1", "0", "3",
        "4", "5", "9", "T", "J", "Q", "K", "A", "2", "B", "R", "b", "r", " ", ",", "\t", "\n", ";",
        "play ", "bid ", "pass", "call", "rob", " as ", "\u{212A}", "\u{130}", "é", "\u{0}",
    ]);
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn random_bytes_pass(data in prop::collection::vec(any::<u8>(), 0..64)) {
        fuzz::notation(&data);
    }

    #[test]
    fn notation_like_texts_pass(text in pieces()) {
        fuzz::notation(text.as_bytes());
    }
}
