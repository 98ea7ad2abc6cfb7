//! The readings of a set of cards (`combos.readings`): each kind's rule as one reader, asked in
//! the reference's order. The tests hold the move generator against these on every sub-multiset
//! of small hands (a brute-force enumerator independent of the generator's tables).

use super::{bomb_order, counts_of, Combo, Kind, Rules, ACE, JOKER_B, JOKER_R, NUM_RANKS};

type Counts = [u8; NUM_RANKS];

fn one_rank(c: &Counts, n: usize) -> Option<usize> {
    let i = c.iter().position(|&k| k > 0)?;
    (c[i] as usize == n).then_some(i)
}

fn solo_kickers_ok(rest: &Counts, lo: usize, hi: usize, rules: &Rules, plane: bool) -> bool {
    for (k, &n) in rest.iter().enumerate() {
        if n == 0 {
            continue;
        }
        if lo <= k && k <= hi && !rules.kicker_own_rank {
            return false;
        }
        if n > 1 && !rules.solo_kickers_same_rank {
            return false;
        }
        if n > rules.kicker_max_same {
            return false;
        }
        if plane
            && n >= 3
            && !rules.kickers_extend_plane
            && (k + 1 == lo || k == hi + 1)
            && k <= ACE
        {
            return false;
        }
    }
    !(rest[JOKER_B] > 0 && rest[JOKER_R] > 0 && !rules.kicker_rocket)
}

fn pair_kickers_ok(rest: &Counts, lo: usize, hi: usize, rules: &Rules, _plane: bool) -> bool {
    for (k, &n) in rest.iter().enumerate() {
        if n == 0 {
            continue;
        }
        if n & 1 == 1 {
            return false;
        }
        if lo <= k && k <= hi && !rules.kicker_own_rank {
            return false;
        }
        if n > 2 && !rules.pair_kickers_same_rank {
            return false;
        }
        if n > rules.kicker_max_same {
            return false;
        }
    }
    !(rest[JOKER_B] > 0 && rest[JOKER_R] > 0 && !rules.kicker_rocket)
}

type KickersOk = fn(&Counts, usize, usize, &Rules, bool) -> bool;

fn mains(c: &Counts, per: u8, length: usize, rules: &Rules, ok: KickersOk) -> Vec<usize> {
    let mut found = Vec::new();
    for s in 0..(JOKER_B + 1).saturating_sub(length) {
        if length > 1 && (s + length - 1 > ACE || (s..s + length).any(|i| c[i] < per)) {
            continue;
        }
        if length == 1 && c[s] < per {
            continue;
        }
        let mut rest = *c;
        for r in rest.iter_mut().skip(s).take(length) {
            *r -= per;
        }
        if ok(&rest, s, s + length - 1, rules, length > 1) {
            found.push(s);
        }
    }
    found
}

/// Every way to read all the cards `mask` as one combination under `rules`.
pub fn readings(mask: u128, rules: &Rules) -> Vec<Combo> {
    let c = counts_of(mask);
    let n: usize = c.iter().map(|&k| k as usize).sum();
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let plain = |kind, rank: usize, length: usize| Combo::plain(kind, rank, length, mask);
    let d = rules.decks as u8;
    if n == 2 * rules.decks && c[JOKER_B] == d && c[JOKER_R] == d {
        out.push(rules.rocket());
    }
    let r = one_rank(&c, n);
    for (kind, size) in [(Kind::Solo, 1), (Kind::Pair, 2), (Kind::Trio, 3)] {
        if let Some(r) = r {
            if n == size {
                out.push(plain(kind, r + 3, 1));
            }
        }
    }
    if let Some(r) = r {
        if (4..=rules.max_bomb).contains(&n) && r < JOKER_B {
            out.push(Combo {
                order: bomb_order(n, r, true, false),
                ..plain(Kind::Bomb, r + 3, 1)
            });
        }
    }
    let present: Vec<usize> = (0..NUM_RANKS).filter(|&i| c[i] > 0).collect();
    for (kind, per, least) in [
        (Kind::Chain, 1, rules.chain_min),
        (Kind::PairChain, 2, rules.pair_chain_min),
        (Kind::Plane, 3, rules.plane_min),
    ] {
        let (lo, hi) = (present[0], present[present.len() - 1]);
        let span = hi - lo + 1;
        if span == present.len()
            && hi <= ACE
            && present.iter().all(|&i| c[i] == per)
            && span >= least
        {
            out.push(plain(kind, hi + 3, span));
        }
    }
    if n == 4 && rules.trio_solo {
        out.extend(
            mains(&c, 3, 1, rules, solo_kickers_ok)
                .into_iter()
                .map(|t| plain(Kind::TrioSolo, t + 3, 1)),
        );
    }
    if n == 5 {
        out.extend(
            mains(&c, 3, 1, rules, pair_kickers_ok)
                .into_iter()
                .map(|t| plain(Kind::TrioPair, t + 3, 1)),
        );
    }
    if n == 6 && rules.four_two_solo {
        out.extend(
            mains(&c, 4, 1, rules, solo_kickers_ok)
                .into_iter()
                .map(|f| plain(Kind::FourTwoSolo, f + 3, 1)),
        );
    }
    if n == 8 && rules.four_two_pair {
        out.extend(
            mains(&c, 4, 1, rules, pair_kickers_ok)
                .into_iter()
                .map(|f| plain(Kind::FourTwoPair, f + 3, 1)),
        );
    }
    if n.is_multiple_of(4) && n / 4 >= rules.plane_min && rules.plane_solo {
        let len = n / 4;
        out.extend(
            mains(&c, 3, len, rules, solo_kickers_ok)
                .into_iter()
                .map(|s| plain(Kind::PlaneSolo, s + len + 2, len)),
        );
    }
    if n.is_multiple_of(5) && n / 5 >= rules.plane_min {
        let len = n / 5;
        out.extend(
            mains(&c, 3, len, rules, pair_kickers_ok)
                .into_iter()
                .map(|s| plain(Kind::PlanePair, s + len + 2, len)),
        );
    }
    out
}

/// Whether the hand `counts` may make the play (`wild.hand_allows`): under
/// `bomb_head_chains=false` no chain starts at a rank of which the hand holds four.
pub fn hand_allows(combo: &Combo, counts: &Counts, rules: &Rules) -> bool {
    if !rules.bomb_head_chains && matches!(combo.kind, Kind::Chain | Kind::PairChain | Kind::Plane)
    {
        let head = combo.rank as usize - 3 + 1 - combo.length as usize;
        return counts[head] != 4;
    }
    true
}
