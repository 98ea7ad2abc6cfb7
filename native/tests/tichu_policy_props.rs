//! Properties of the native heuristic policy: it always picks one of the legal actions, the
//! rounds it plays end with the 56 cards whole, and the hand partition it plans with covers the
//! hand exactly with as many combinations as its cost counts.

use pagoda_native::tichu::batch::{random_round, random_step, Rng};
use pagoda_native::tichu::policy::{heuristic_action, partition, partition_cost};
use pagoda_native::tichu::state::{Phase, Rules, State};
use pagoda_native::tichu::{classify, FULL_DECK};
use proptest::prelude::*;

fn rules(bits: u8) -> Rules {
    Rules {
        phoenix_choice: bits & 1 != 0,
        one_call_per_team: bits & 2 != 0,
        wish_required: bits & 4 != 0,
        small_tichu_after_exchange_only: bits & 8 != 0,
        last_tricks_to_opponents: bits & 16 != 0,
    }
}

/// A random round played at random into its play phase, `extra` random steps further.
fn position(seed: u64, bits: u8, extra: usize) -> State {
    let mut rng = Rng::new(seed);
    let mut s = random_round(rules(bits), &mut rng);
    let mut acts = Vec::new();
    while s.phase != Phase::Play && random_step(&mut s, &mut rng, &mut acts) {}
    for _ in 0..extra {
        if !random_step(&mut s, &mut rng, &mut acts) {
            break;
        }
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_policy_picks_a_legal_action_and_rounds_end(seed in any::<u64>(), bits in 0u8..32, extra in 0usize..60) {
        let mut s = position(seed, bits, extra);
        let mut acts = Vec::new();
        let mut steps = 0;
        while s.first_asked() >= 0 {
            let seat = s.first_asked() as u32;
            acts.clear();
            s.legal(seat, &mut acts);
            let act = heuristic_action(&s, seat, &acts);
            prop_assert!(act.is_some(), "no choice in {:?}", s);
            let act = act.unwrap();
            prop_assert!(acts.contains(&act), "{:?} is not among {:?}", act, acts);
            s.apply(seat, &act);
            prop_assert!(s.cards_conserved(), "{:?}", s);
            steps += 1;
            prop_assert!(steps < 3000);
        }
        prop_assert_eq!(s.phase, Phase::Over);
        prop_assert_eq!(s.hands.iter().chain(s.taken.iter()).fold(0, |m, &h| m | h) | s.trick_cards, FULL_DECK);
    }

    #[test]
    fn the_partition_covers_the_hand(cards in proptest::collection::vec(0u32..56, 1..=14)) {
        let hand = cards.iter().fold(0u64, |m, &c| m | 1 << c);
        let parts = partition(hand);
        let mut seen = 0u64;
        for c in &parts {
            prop_assert_eq!(c.mask & seen, 0);
            seen |= c.mask;
            prop_assert!(classify(c.mask, None).is_some());
        }
        prop_assert_eq!(seen, hand);
        prop_assert_eq!(parts.len() as u32, partition_cost(hand) / 100);
    }
}
