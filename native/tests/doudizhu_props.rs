//! Properties of the native Dou Di Zhu core: move generation against a brute-force enumerator
//! (every sub-multiset of a small hand, read by the per-kind readers), the text of actions read
//! back (and arbitrary text never panics), and random rounds that keep the pack whole and score
//! to zero.

use pagoda_native::doudizhu::batch::{play_out, random_round, Rng};
use pagoda_native::doudizhu::movegen::legal_plays;
use pagoda_native::doudizhu::readings::{hand_allows, readings};
use pagoda_native::doudizhu::state::{deck, Act, Phase, State, Step};
use pagoda_native::doudizhu::{
    beats, counts_of, format_mask, one, parse_canonical, Kind, Rules, JOKER_B, NUM_RANKS,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

const PRESETS: [&str; 4] = ["classic", "rlcard", "openspiel", "four_player"];

fn hand_strategy(most: usize) -> impl Strategy<Value = (u128, usize)> {
    (
        0..PRESETS.len(),
        proptest::collection::vec(0usize..108, 0..=most),
    )
        .prop_map(|(p, picks)| {
            let rules = Rules::preset(PRESETS[p]).unwrap();
            let pool = deck(rules.decks);
            let mut seen = BTreeSet::new();
            let mut mask = 0u128;
            for j in picks {
                let j = j % pool.len();
                if seen.insert(j) {
                    mask += one(pool[j]);
                }
            }
            (mask, p)
        })
}

fn sub_multisets(mask: u128) -> Vec<u128> {
    let c = counts_of(mask);
    let mut out = vec![0u128];
    for (i, &n) in c.iter().enumerate() {
        let mut next = Vec::with_capacity(out.len() * (n as usize + 1));
        for &m in &out {
            for k in 0..=n as u128 {
                next.push(m + k * one(i));
            }
        }
        out = next;
    }
    out.into_iter().filter(|&m| m != 0).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn leads_equal_brute_force((mask, p) in hand_strategy(12)) {
        let rules = Rules::preset(PRESETS[p]).unwrap();
        let c = counts_of(mask);
        let mut leads = Vec::new();
        legal_plays(mask, None, &rules, -1, true, &mut leads);
        let generated: BTreeSet<u128> = leads.iter().map(|p| p.mask).collect();
        prop_assert_eq!(generated.len(), leads.len(), "a set of cards is listed once");
        let expected: BTreeSet<u128> = sub_multisets(mask)
            .into_iter()
            .filter(|&s| readings(s, &rules).iter().any(|r| hand_allows(r, &c, &rules)))
            .collect();
        prop_assert_eq!(&generated, &expected);
        for lead in &leads {
            // each lead is a reading of its cards, the preferred one
            let rs = readings(lead.mask, &rules);
            prop_assert!(rs.contains(lead), "{:?} not among {:?}", lead, rs);
            let best = rs.iter().min_by_key(|r| (r.kind.preference(), -(r.rank as i32))).unwrap();
            prop_assert_eq!(best.kind, lead.kind);
        }
    }

    #[test]
    fn follows_equal_brute_force((mask, p) in hand_strategy(12), (other, _) in hand_strategy(14), pick in 0usize..1000) {
        let rules = Rules::preset(PRESETS[p]).unwrap();
        let c = counts_of(mask);
        // a play to beat: a lead of some of the cards the hand does not hold
        let oc = counts_of(other);
        let rest: u128 = (0..NUM_RANKS)
            .map(|i| {
                let free = rules.decks as u128 * if i >= JOKER_B { 1 } else { 4 } - c[i] as u128;
                free.min(oc[i] as u128) * one(i)
            })
            .sum();
        let mut ons = Vec::new();
        legal_plays(rest, None, &rules, -1, true, &mut ons);
        prop_assume!(!ons.is_empty());
        let on = ons[pick % ons.len()];
        let mut follows = Vec::new();
        legal_plays(mask, Some(&on), &rules, -1, true, &mut follows);
        for f in &follows {
            prop_assert!(beats(f, Some(&on)));
            prop_assert!(readings(f.mask, &rules).contains(f));
        }
        let generated: BTreeSet<u128> = follows.iter().map(|p| p.mask).collect();
        prop_assert_eq!(generated.len(), follows.len(), "a set of cards is listed once");
        let expected: BTreeSet<u128> = sub_multisets(mask)
            .into_iter()
            .filter(|&s| readings(s, &rules).iter().any(|r| beats(r, Some(&on)) && hand_allows(r, &c, &rules)))
            .collect();
        prop_assert_eq!(generated, expected);
    }

    #[test]
    fn action_text_reads_back(text in "\\PC{0,24}") {
        // arbitrary text never panics; what reads back is the canonical text of an action
        if let Some(act) = Act::from_text(&text) {
            prop_assert_eq!(act.text(), text.clone());
        }
        if let Some(mask) = parse_canonical(&text) {
            prop_assert_eq!(format_mask(mask), text);
        }
    }

    #[test]
    fn action_notation_round_trip(counts in proptest::collection::vec(0u8..5, NUM_RANKS), bid in 0u8..10) {
        let mask: u128 = counts.iter().enumerate().map(|(i, &n)| n as u128 * one(i)).sum();
        prop_assume!(mask != 0);
        let act = Act::Play(pagoda_native::doudizhu::Combo::plain(Kind::Solo, 0, 0, mask));
        prop_assert_eq!(Act::from_text(&act.text()), Some(act));
        prop_assert_eq!(Act::from_text(&Act::Bid(bid).text()), Some(Act::Bid(bid)));
    }

    #[test]
    fn random_rounds_keep_the_pack((p, seed) in (0usize..6, any::<u64>())) {
        let names = ["classic", "rlcard", "openspiel", "four_player", "laizi", "classic"];
        let mut rules = Rules::preset(names[p]).unwrap();
        if p == 5 {
            rules.rob = true;
        }
        let mut rng = Rng::new(seed);
        let mut s: State = random_round(&rules, &mut rng);
        s.keep_history = true;
        let start = s.clone();
        // every listed action applies at the start of play of a copy
        let mut plays = Vec::new();
        play_out(&mut s, &mut rng, &mut plays);
        prop_assert!(s.is_over());
        prop_assert_eq!(s.phase, Phase::Over);
        let score = s.score();
        prop_assert_eq!(score.iter().sum::<i64>(), 0);
        prop_assert!(score[..rules.players].iter().all(|&v| v != 0));
        let played: u128 = s.history_vec().iter().map(|(_, a)| if let Act::Play(c) = a { c.mask } else { 0 }).sum();
        let held: u128 = s.hands[..rules.players].iter().sum();
        let pack: u128 = deck(rules.decks).into_iter().map(one).sum();
        if s.deal_no == 1 {
            prop_assert_eq!(played + held, start.hands.iter().sum::<u128>() + start.kitty);
        }
        prop_assert_eq!(played + held, pack);
        prop_assert_eq!(s.hands[s.winner as usize], 0);
    }

    #[test]
    fn listed_actions_apply((p, seed, steps) in (0usize..5, any::<u64>(), 0usize..60)) {
        let rules = Rules::preset(["classic", "rlcard", "openspiel", "four_player", "laizi"][p]).unwrap();
        let mut rng = Rng::new(seed);
        let mut s = random_round(&rules, &mut rng);
        for _ in 0..steps {
            if s.is_over() { break; }
            let mut acts = Vec::new();
            s.legal(s.to_move, &mut acts);
            for a in &acts {
                let mut t = s.clone();
                prop_assert_ne!(t.apply(s.to_move, a), Step::Illegal, "{:?}", a);
            }
            let a = acts[rng.below(acts.len())];
            match s.apply(s.to_move, &a) {
                Step::Redeal => { let (h, k) = pagoda_native::doudizhu::batch::random_deal(&rules, &mut rng); s.redeal(&h[..rules.players], k); }
                Step::DrawWild => s.wild = 3,
                _ => {}
            }
        }
    }
}
