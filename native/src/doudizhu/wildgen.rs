//! Laizi move generation (the reference's `wildgen.py`, `fast_wild_plays`), in the reference's
//! order: each kind's readings walked rank by rank, keeping for each partial reading the ways to
//! make it (natural cards, wild cards used).

use super::movegen::enabled;
use super::{bomb_order, counts_of, one, Combo, Kind, Rules, ACE, JOKER_B, JOKER_R, NUM_RANKS};

/// The ways to make a partial reading: (wild cards used, the sets of cards that make it).
type Ways = Vec<(u8, Vec<u128>)>;
/// A reading found: kind, rank, length, the reading's cards, every set of cards that plays it.
type Reading = (Kind, u8, u8, u128, Vec<u128>);

struct Hand<'a> {
    counts: [u8; NUM_RANKS],
    wild: usize,
    w: u8,
    rules: &'a Rules,
    /// `opts[r][n]`: the ways to make `n` cards of rank `r`, (cards, wild cards used).
    opts: Vec<Vec<Vec<(u128, u8)>>>,
    relaxed: [u8; NUM_RANKS],
}

fn row(r: usize, wild: usize, have: u8, w: u8, decks: usize) -> Vec<Vec<(u128, u8)>> {
    let one_w = one(wild);
    let most = 4 * decks;
    let mut out: Vec<Vec<(u128, u8)>> = vec![vec![(0, 0)]];
    for n in 1..=most.max(decks) {
        let nn = n as u8;
        if r == wild {
            out.push(if nn <= w {
                vec![(n as u128 * one_w, nn)]
            } else {
                vec![]
            });
        } else if r >= JOKER_B {
            out.push(if nn <= have {
                vec![(n as u128 * one(r), 0)]
            } else {
                vec![]
            });
        } else if n > most {
            out.push(vec![]);
        } else {
            let hi = nn.min(have) as i32;
            let lo = (nn as i32 - w as i32).max(0);
            let mut ways = Vec::new();
            let mut a = hi;
            while a >= lo {
                ways.push((
                    a as u128 * one(r) + (n as u128 - a as u128) * one_w,
                    nn - a as u8,
                ));
                a -= 1;
            }
            out.push(ways);
        }
    }
    out
}

impl<'a> Hand<'a> {
    fn new(counts: [u8; NUM_RANKS], wild: usize, rules: &'a Rules) -> Hand<'a> {
        let w = counts[wild];
        let most = (4 * rules.decks) as u8;
        let opts = (0..NUM_RANKS)
            .map(|r| row(r, wild, counts[r], w, rules.decks))
            .collect();
        let mut relaxed = counts;
        for (r, v) in relaxed.iter_mut().enumerate() {
            if r != wild && r < JOKER_B {
                *v = (*v + w).min(most);
            }
        }
        Hand {
            counts,
            wild,
            w,
            rules,
            opts,
            relaxed,
        }
    }

    #[inline]
    fn opt(&self, r: usize, n: usize) -> &[(u128, u8)] {
        self.opts[r].get(n).map_or(&[], |v| v.as_slice())
    }

    fn start(&self, r: usize, n: usize) -> Ways {
        self.opt(r, n).iter().map(|&(q, v)| (v, vec![q])).collect()
    }

    fn extend(&self, ways: &Ways, r: usize, n: usize) -> Ways {
        let w = self.w;
        let more = self.opt(r, n);
        if more.len() == 1 {
            let (q, v) = more[0];
            return ways
                .iter()
                .filter(|(u, _)| u + v <= w)
                .map(|(u, ms)| (u + v, ms.iter().map(|a| a + q).collect()))
                .collect();
        }
        let mut acc: Vec<Vec<u128>> = vec![Vec::new(); w as usize + 1];
        for (u, ms) in ways {
            for &(q, v) in more {
                let t = u + v;
                if t > w {
                    break;
                }
                acc[t as usize].extend(ms.iter().map(|a| a + q));
            }
        }
        acc.into_iter()
            .enumerate()
            .filter(|(_, ms)| !ms.is_empty())
            .map(|(t, ms)| (t as u8, ms))
            .collect()
    }

    fn kicker_cands(&self, lo: usize, hi: usize, pairs: bool, plane: bool) -> Vec<(usize, u8)> {
        let rules = self.rules;
        let mut out = Vec::new();
        if pairs {
            for (k, &n) in self.relaxed.iter().enumerate() {
                if n < 2 || (lo <= k && k <= hi) {
                    continue;
                }
                let mut units = n.min(rules.kicker_max_same) / 2;
                if !rules.pair_kickers_same_rank {
                    units = units.min(1);
                }
                if units > 0 {
                    out.push((k, units));
                }
            }
            return out;
        }
        let cap_same = if rules.solo_kickers_same_rank {
            rules.kicker_max_same
        } else {
            1
        };
        for (k, &n) in self.relaxed.iter().enumerate() {
            if n == 0 || (lo <= k && k <= hi) {
                continue;
            }
            let mut cap = n.min(cap_same);
            if plane && !rules.kickers_extend_plane && (k + 1 == lo || k == hi + 1) && k <= ACE {
                cap = cap.min(2);
            }
            out.push((k, cap));
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn with_kickers(
        &self,
        kind: Kind,
        rank: u8,
        length: u8,
        base: u128,
        ways: &Ways,
        lo: usize,
        hi: usize,
        need: usize,
        pairs: bool,
        sink: &mut Vec<Reading>,
    ) {
        let cands = self.kicker_cands(
            lo,
            hi,
            pairs,
            matches!(kind, Kind::PlaneSolo | Kind::PlanePair),
        );
        let count = cands.len();
        let unit = if pairs { 2 } else { 1 };
        let mut room = vec![0usize; count + 1];
        for i in (0..count).rev() {
            room[i] = room[i + 1] + cands[i].1 as usize;
        }
        struct Ctx<'b, 'a> {
            hand: &'b Hand<'a>,
            cands: &'b [(usize, u8)],
            room: &'b [usize],
            unit: usize,
            kind: Kind,
            rank: u8,
            length: u8,
        }
        fn rec(
            cx: &Ctx<'_, '_>,
            start: usize,
            need: usize,
            mask: u128,
            ways: &Ways,
            sink: &mut Vec<Reading>,
        ) {
            let b_field = 31 * one(JOKER_B);
            let r_field = 31 * one(JOKER_R);
            for i in start..cx.cands.len() {
                if cx.room[i] < need {
                    return;
                }
                let (r, most) = cx.cands[i];
                let step = cx.unit as u128 * one(r);
                let mut broke = false;
                for j in 1..=(most as usize).min(need.saturating_sub(1)) {
                    let more = cx.hand.extend(ways, r, j * cx.unit);
                    if more.is_empty() {
                        broke = true;
                        break;
                    }
                    rec(cx, i + 1, need - j, mask + j as u128 * step, &more, sink);
                }
                if broke || (most as usize) < need {
                    continue;
                }
                let full = mask + need as u128 * step;
                if !cx.hand.rules.kicker_rocket && full & b_field != 0 && full & r_field != 0 {
                    continue;
                }
                let last = cx.hand.opt(r, need * cx.unit);
                let w = cx.hand.w;
                let mut cards = Vec::new();
                for (u, ms) in ways {
                    for &(q, v) in last {
                        if u + v <= w {
                            cards.extend(ms.iter().map(|a| a + q));
                        }
                    }
                }
                if !cards.is_empty() {
                    sink.push((cx.kind, cx.rank, cx.length, full, cards));
                }
            }
        }
        let cx = Ctx {
            hand: self,
            cands: &cands,
            room: &room,
            unit,
            kind,
            rank,
            length,
        };
        rec(&cx, 0, need, base, ways, sink);
    }
}

fn emit(out: &mut Vec<Combo>, kind: Kind, rank: usize, length: usize, reading: u128, ways: &Ways) {
    for (_, ms) in ways {
        for &a in ms {
            out.push(Combo {
                kind,
                rank: rank as u8,
                length: length as u8,
                mask: a,
                reading,
                order: 0,
            });
        }
    }
}

fn gen_simple(hand: &Hand<'_>, above: i32, n: usize, kind: Kind, top: usize, out: &mut Vec<Combo>) {
    for r in ((above + 1) as usize)..top {
        let reading = n as u128 * one(r);
        for &(q, _) in hand.opt(r, n) {
            out.push(Combo {
                kind,
                rank: r as u8 + 3,
                length: 1,
                mask: q,
                reading,
                order: 0,
            });
        }
    }
}

type Run = (usize, usize, u128, Ways);

fn gen_runs(
    hand: &Hand<'_>,
    per: usize,
    least: usize,
    above: i32,
    length: usize,
    kind: Kind,
    mut out: Option<&mut Vec<Combo>>,
) -> Vec<Run> {
    let mut found = Vec::new();
    for s in 0..=ACE {
        if hand.opt(s, per).is_empty() {
            continue;
        }
        let mut ways = hand.start(s, per);
        let mut mask = per as u128 * one(s);
        let mut n = 1;
        while !ways.is_empty() {
            let e = s + n - 1;
            if n >= least && e as i32 > above && (length == 0 || n == length) {
                match out.as_deref_mut() {
                    None => found.push((s, n, mask, ways.clone())),
                    Some(o) => emit(o, kind, e + 3, n, mask, &ways),
                }
            }
            if e == ACE || (length > 0 && n >= length) {
                break;
            }
            ways = hand.extend(&ways, e + 1, per);
            mask += per as u128 * one(e + 1);
            n += 1;
        }
    }
    found
}

fn gen_trio_with(hand: &Hand<'_>, above: i32, kind: Kind, unit: usize, out: &mut Vec<Combo>) {
    let w = hand.w;
    for t in ((above + 1) as usize)..JOKER_B {
        let mains = hand.opt(t, 3);
        if mains.is_empty() {
            continue;
        }
        let main = 3 * one(t);
        for k in 0..NUM_RANKS {
            let kick = hand.opt(k, unit);
            if k == t || kick.is_empty() {
                continue;
            }
            let reading = main + unit as u128 * one(k);
            for &(a, u) in mains {
                for &(b, v) in kick {
                    if u + v <= w {
                        out.push(Combo {
                            kind,
                            rank: t as u8 + 3,
                            length: 1,
                            mask: a + b,
                            reading,
                            order: 0,
                        });
                    }
                }
            }
        }
    }
}

fn gen_four_with(hand: &Hand<'_>, above: i32, kind: Kind, pairs: bool, sink: &mut Vec<Reading>) {
    for f in ((above + 1) as usize)..JOKER_B {
        if !hand.opt(f, 4).is_empty() {
            hand.with_kickers(
                kind,
                f as u8 + 3,
                1,
                4 * one(f),
                &hand.start(f, 4),
                f,
                f,
                2,
                pairs,
                sink,
            );
        }
    }
}

fn gen_plane_with(
    hand: &Hand<'_>,
    rules: &Rules,
    above: i32,
    length: usize,
    kind: Kind,
    pairs: bool,
    sink: &mut Vec<Reading>,
) {
    let least = rules.plane_min.max(1);
    for (s, n, mask, ways) in gen_runs(hand, 3, least, above, length, kind, None) {
        hand.with_kickers(
            kind,
            (s + n + 2) as u8,
            n as u8,
            mask,
            &ways,
            s,
            s + n - 1,
            n,
            pairs,
            sink,
        );
    }
}

fn gen_bombs(hand: &Hand<'_>, rules: &Rules, above_order: i32, out: &mut Vec<Combo>) {
    let (wild, w) = (hand.wild, hand.w);
    let one_w = one(wild);
    for r in 0..JOKER_B {
        let have = if r == wild { w } else { hand.counts[r] } as usize;
        for size in 4..=have.min(rules.max_bomb) {
            let order = bomb_order(size, r, true, rules.wild_bomb_top && r == wild);
            if order > above_order {
                let m = size as u128 * one(r);
                out.push(Combo {
                    kind: Kind::Bomb,
                    rank: r as u8 + 3,
                    length: 1,
                    mask: m,
                    reading: m,
                    order,
                });
            }
        }
        if r == wild || rules.max_bomb < 4 {
            continue;
        }
        let order = bomb_order(4, r, false, false);
        if order <= above_order {
            continue;
        }
        let reading = 4 * one(r);
        let from = 1.max(4 - (hand.counts[r] as i32).min(4)) as usize;
        for k in from..=(w as usize).min(3) {
            let mask = (4 - k) as u128 * one(r) + k as u128 * one_w;
            out.push(Combo {
                kind: Kind::Bomb,
                rank: r as u8 + 3,
                length: 1,
                mask,
                reading,
                order,
            });
        }
    }
}

fn gen_rocket(hand: &Hand<'_>, rules: &Rules, on: Option<&Combo>, out: &mut Vec<Combo>) {
    let d = rules.decks as u8;
    if hand.counts[JOKER_B] >= d && hand.counts[JOKER_R] >= d {
        let rocket = rules.rocket();
        if on.is_none_or(|o| o.kind != Kind::Rocket || rocket.order > o.order) {
            out.push(rocket);
        }
    }
}

fn better(a: &Reading, b: &Reading) -> bool {
    (a.0.preference(), -(a.1 as i32)) < (b.0.preference(), -(b.1 as i32))
}

/// Readings into plays, one per set of cards read (the preferred kind, then the highest rank).
fn flush(found: Vec<Reading>, out: &mut Vec<Combo>) {
    let mut best: Vec<Reading> = Vec::new();
    for entry in found {
        match best.iter_mut().find(|b| b.3 == entry.3) {
            Some(old) => {
                if better(&entry, old) {
                    *old = entry;
                }
            }
            None => best.push(entry),
        }
    }
    for (kind, rank, length, reading, cards) in best {
        for a in cards {
            out.push(Combo {
                kind,
                rank,
                length,
                mask: a,
                reading,
                order: 0,
            });
        }
    }
}

fn gen_kind(
    hand: &Hand<'_>,
    rules: &Rules,
    kind: Kind,
    above: i32,
    length: usize,
    out: &mut Vec<Combo>,
    clashing: &mut Vec<Reading>,
) {
    match kind {
        Kind::Solo => gen_simple(hand, above, 1, kind, NUM_RANKS, out),
        Kind::Pair => gen_simple(hand, above, 2, kind, NUM_RANKS, out),
        Kind::Trio => gen_simple(hand, above, 3, kind, JOKER_B, out),
        Kind::TrioSolo => gen_trio_with(hand, above, kind, 1, out),
        Kind::TrioPair => gen_trio_with(hand, above, kind, 2, out),
        Kind::Chain => {
            gen_runs(hand, 1, rules.chain_min, above, length, kind, Some(out));
        }
        Kind::PairChain => {
            gen_runs(
                hand,
                2,
                rules.pair_chain_min,
                above,
                length,
                kind,
                Some(out),
            );
        }
        Kind::Plane => {
            for (s, n, mask, ways) in gen_runs(hand, 3, rules.plane_min, above, length, kind, None)
            {
                let cards = ways.into_iter().flat_map(|(_, ms)| ms).collect();
                clashing.push((Kind::Plane, (s + n + 2) as u8, n as u8, mask, cards));
            }
        }
        Kind::PlaneSolo => gen_plane_with(hand, rules, above, length, kind, false, clashing),
        Kind::PlanePair => gen_plane_with(hand, rules, above, length, kind, true, clashing),
        Kind::FourTwoSolo => {
            let mut four = Vec::new();
            gen_four_with(hand, above, kind, false, &mut four);
            for (k, rank, n, reading, cards) in four {
                for a in cards {
                    out.push(Combo {
                        kind: k,
                        rank,
                        length: n,
                        mask: a,
                        reading,
                        order: 0,
                    });
                }
            }
        }
        Kind::FourTwoPair => gen_four_with(hand, above, kind, true, clashing),
        Kind::Bomb | Kind::Rocket => {}
    }
}

const GENERATED: [Kind; 12] = [
    Kind::Solo,
    Kind::Pair,
    Kind::Trio,
    Kind::TrioSolo,
    Kind::TrioPair,
    Kind::Chain,
    Kind::PairChain,
    Kind::Plane,
    Kind::PlaneSolo,
    Kind::PlanePair,
    Kind::FourTwoSolo,
    Kind::FourTwoPair,
];

/// Whether the laizi generator covers `rules` (the reference's `wildgen.supported`).
pub fn supported(rules: &Rules) -> bool {
    !rules.kicker_own_rank && rules.bomb_head_chains
}

/// Every legal play of `hand` (which holds wild cards of rank index `wild`) on `on`, one per
/// (cards, reading). The rules are [`supported`] ones.
pub fn wild_plays(
    hand: u128,
    on: Option<&Combo>,
    rules: &Rules,
    wild: usize,
    out: &mut Vec<Combo>,
) {
    let h = Hand::new(counts_of(hand), wild, rules);
    let mut clashing = Vec::new();
    match on {
        None => {
            for kind in GENERATED {
                if enabled(kind, rules) {
                    gen_kind(&h, rules, kind, -1, 0, out, &mut clashing);
                }
            }
            gen_bombs(&h, rules, -1, out);
            gen_rocket(&h, rules, None, out);
            flush(clashing, out);
        }
        Some(on) if on.is_bomb() => {
            gen_bombs(&h, rules, on.order, out);
            gen_rocket(&h, rules, Some(on), out);
        }
        Some(on) => {
            if enabled(on.kind, rules) {
                gen_kind(
                    &h,
                    rules,
                    on.kind,
                    on.rank as i32 - 3,
                    on.length as usize,
                    out,
                    &mut clashing,
                );
                flush(clashing, out);
            }
            gen_bombs(&h, rules, -1, out);
            gen_rocket(&h, rules, None, out);
        }
    }
}
