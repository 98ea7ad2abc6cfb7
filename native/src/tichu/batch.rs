//! Batched calls: whole random rounds and random rollouts without a step through Python.
//!
//! Each choice is uniform over the actions of the first seat the round asks (the reference's
//! `decisions()[0]`: the Grand Tichu calls, the exchange and the bomb window included), as
//! `pagoda bench tichu` plays. Deals and choices come from SplitMix64, not from the reference's
//! `random.Random`: a batched round is a random round of the same rules, not the reference's
//! deal of a seed.

use super::state::{Act, Phase, Rules, State};
pub use crate::doudizhu::batch::Rng;

/// A random deal straight into the Grand Tichu decisions.
pub fn random_round(rules: Rules, rng: &mut Rng) -> State {
    let mut cards: [u8; 56] = std::array::from_fn(|i| i as u8);
    for i in (1..56).rev() {
        let j = rng.below(i + 1);
        cards.swap(i, j);
    }
    let mut deal = [0u64; 4];
    let mut first8 = [0u64; 4];
    for s in 0..4 {
        for (k, &c) in cards[s * 14..(s + 1) * 14].iter().enumerate() {
            deal[s] |= 1 << c;
            if k < 8 {
                first8[s] |= 1 << c;
            }
        }
    }
    State::dealt(rules, deal, first8, true)
}

/// One uniform random step of the first seat asked; false once the round is over.
pub fn random_step(state: &mut State, rng: &mut Rng, acts: &mut Vec<Act>) -> bool {
    let seat = state.first_asked();
    if seat < 0 {
        return false;
    }
    let seat = seat as u32;
    acts.clear();
    state.legal(seat, acts);
    let act = if state.phase == Phase::Exchange {
        let n = state.exchange_count(seat);
        let k = rng.below(acts.len() + n);
        if k < acts.len() {
            acts[k]
        } else {
            Act::Exchange(state.exchange_at(seat, k - acts.len()))
        }
    } else {
        acts[rng.below(acts.len())]
    };
    state.apply(seat, &act);
    true
}

/// Play `state` to its end with uniform random choices; the number of actions taken.
pub fn play_out(state: &mut State, rng: &mut Rng, acts: &mut Vec<Act>) -> u64 {
    let mut steps = 0;
    while random_step(state, rng, acts) {
        steps += 1;
    }
    steps
}

/// `rounds` whole random rounds: each round's score (teams 0+2, 1+3) and the number of actions.
pub fn play_random(rules: Rules, rounds: usize, seed: u64) -> (Vec<(i32, i32)>, u64) {
    let mut rng = Rng::new(seed);
    let mut acts = Vec::with_capacity(256);
    let mut steps = 0;
    let scores = (0..rounds)
        .map(|_| {
            let mut s = random_round(rules, &mut rng);
            steps += play_out(&mut s, &mut rng, &mut acts);
            s.score()
        })
        .collect();
    (scores, steps)
}

/// `k` random rollouts from `state`: the score of each.
pub fn rollouts(state: &State, k: usize, seed: u64) -> Vec<(i32, i32)> {
    let mut rng = Rng::new(seed);
    let mut acts = Vec::with_capacity(256);
    (0..k)
        .map(|_| {
            let mut s = *state;
            play_out(&mut s, &mut rng, &mut acts);
            s.score()
        })
        .collect()
}
