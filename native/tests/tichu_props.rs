//! Properties of the native Tichu core: every generated play is a reading of its cards and beats
//! the table, a brute force over the subsets of small hands finds the same plays, the beats
//! relation is a strict order within a kind, the notation of cards reads back, and random
//! rounds keep the 56 cards whole, end, and score 100 card points (or a one-two's 200).

use pagoda_native::tichu::batch::{random_round, random_step, Rng};
use pagoda_native::tichu::movegen::plays;
use pagoda_native::tichu::state::{Phase, Rules};
use pagoda_native::tichu::{
    beats, classify, format_cards, parse_cards, readings, Combo, FULL_DECK,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn hand(max: usize) -> impl Strategy<Value = u64> {
    proptest::collection::vec(0u32..56, 1..=max)
        .prop_map(|cards| cards.iter().fold(0, |m, &c| m | 1 << c))
}

fn table() -> impl Strategy<Value = Option<Combo>> {
    (hand(6), any::<bool>()).prop_map(|(m, lead)| if lead { None } else { classify(m, None) })
}

fn rules(bits: u8) -> Rules {
    Rules {
        phoenix_choice: bits & 1 != 0,
        one_call_per_team: bits & 2 != 0,
        wish_required: bits & 4 != 0,
        small_tichu_after_exchange_only: bits & 8 != 0,
        last_tricks_to_opponents: bits & 16 != 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_play_is_a_reading_that_beats_the_table(h in hand(14), on in table(), choice in any::<bool>()) {
        let h = h & !on.map_or(0, |c| c.mask);
        let mut out = Vec::new();
        plays(h, on.as_ref(), choice, true, &mut out);
        let mut seen = BTreeSet::new();
        for c in &out {
            prop_assert_eq!(c.mask & !h, 0);
            prop_assert!(readings(c.mask, on.as_ref()).contains(c), "{} is no reading", format_cards(c.mask));
            prop_assert!(beats(c, on.as_ref()), "{} does not beat", format_cards(c.mask));
            prop_assert!(seen.insert((c.mask, c.rank2, c.phoenix)), "{} listed twice", format_cards(c.mask));
            if !choice {
                prop_assert_eq!(Some(*c), classify(c.mask, on.as_ref()));
            }
        }
    }

    #[test]
    fn small_hands_match_a_brute_force(h in hand(8), on in table()) {
        let h = h & !on.map_or(0, |c| c.mask);
        let mut out = Vec::new();
        plays(h, on.as_ref(), false, true, &mut out);
        let found: BTreeSet<u64> = out.iter().map(|c| c.mask).collect();
        let mut brute = BTreeSet::new();
        let mut sub = h;
        while sub != 0 {
            if let Some(c) = classify(sub, on.as_ref()) {
                if beats(&c, on.as_ref()) {
                    brute.insert(sub);
                }
            }
            sub = (sub - 1) & h;
        }
        prop_assert_eq!(found, brute);
    }

    #[test]
    fn beats_is_a_strict_order_within_a_kind(a in hand(6), b in hand(6)) {
        if let (Some(x), Some(y)) = (classify(a, None), classify(b, None)) {
            prop_assert!(!beats(&x, Some(&x)) || x.kind == pagoda_native::tichu::Kind::Single && x.mask == 1 << 54);
            if x.kind == y.kind && x.len() == y.len() && !x.is_bomb() && x.mask != 1 << 54 && y.mask != 1 << 54 {
                prop_assert!(!(beats(&x, Some(&y)) && beats(&y, Some(&x))));
            }
        }
    }

    #[test]
    fn cards_read_back(h in hand(14)) {
        prop_assert_eq!(parse_cards(&format_cards(h)), Some(h));
        prop_assert_eq!(parse_cards(&format_cards(h).replace(' ', "")), Some(h));
    }

    #[test]
    fn text_never_panics(s in "\\PC{0,20}") {
        let _ = parse_cards(&s);
    }

    #[test]
    fn random_rounds_keep_the_cards_and_score(seed in any::<u64>(), bits in 0u8..32) {
        let mut rng = Rng::new(seed);
        let mut s = random_round(rules(bits), &mut rng);
        let mut acts = Vec::new();
        let mut steps = 0;
        while random_step(&mut s, &mut rng, &mut acts) {
            prop_assert!(s.cards_conserved(), "{:?}", s);
            steps += 1;
            prop_assert!(steps < 3000);
        }
        prop_assert_eq!(s.phase, Phase::Over);
        prop_assert_eq!(s.hands.iter().chain(s.taken.iter()).fold(0, |m, &h| m | h) | s.trick_cards, FULL_DECK);
        let (a, b) = s.card_points();
        let out = s.out();
        if (out[0] ^ out[1]) & 1 != 0 {
            prop_assert_eq!(a + b, 100);
        }
    }
}
