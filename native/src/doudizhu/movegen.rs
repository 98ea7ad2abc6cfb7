//! Move generation: every legal play of a hand, in the reference's order (`movegen.py`:
//! `natural_plays` and its fast paths, which list the same plays in the same order).

#![allow(clippy::needless_range_loop)]

use super::{
    beats, bomb_order, counts_of, one, Combo, Kind, Rules, ACE, JOKER_B, JOKER_R, NUM_RANKS,
};

type Counts = [u8; NUM_RANKS];

#[inline]
fn run_mask(s: usize, length: usize, per: u128) -> u128 {
    (s..s + length).map(|i| per * one(i)).sum()
}

#[inline]
fn run_combo(per: usize, s: usize, length: usize) -> Combo {
    let kind = match per {
        1 => Kind::Chain,
        2 => Kind::PairChain,
        _ => Kind::Plane,
    };
    Combo::plain(
        kind,
        s + length + 2,
        length,
        run_mask(s, length, per as u128),
    )
}

fn both_jokers(mask: u128) -> bool {
    (mask >> (5 * JOKER_B)) & 31 != 0 && (mask >> (5 * JOKER_R)) & 31 != 0
}

/// Packed multisets of `need` units from `cands` = [(rank index, most units)] (`_choose`).
fn choose(cands: &[(usize, u8)], need: usize, unit: u128, out: &mut Vec<u128>) {
    if need == 1 {
        out.extend(cands.iter().map(|&(r, _)| one(r) * unit));
        return;
    }
    if need == 2 {
        for i in 0..cands.len() {
            let a = one(cands[i].0) * unit;
            for c in &cands[i + 1..] {
                out.push(a + one(c.0) * unit);
            }
        }
        for &(r, most) in cands {
            if most >= 2 {
                out.push(2 * one(r) * unit);
            }
        }
        return;
    }
    fn rec(
        cands: &[(usize, u8)],
        i: usize,
        need: usize,
        acc: u128,
        unit: u128,
        out: &mut Vec<u128>,
    ) {
        if need == 0 {
            out.push(acc);
            return;
        }
        if i == cands.len() {
            return;
        }
        let (r, most) = cands[i];
        let o = one(r) * unit;
        for k in 0..=(most as usize).min(need) {
            rec(cands, i + 1, need - k, acc + o * k as u128, unit, out);
        }
    }
    rec(cands, 0, need, 0, unit, out);
}

fn solo_cands(
    avail: &Counts,
    lo: usize,
    hi: usize,
    rules: &Rules,
    plane: bool,
) -> Vec<(usize, u8)> {
    let cap_same = if rules.solo_kickers_same_rank {
        rules.kicker_max_same
    } else {
        1
    };
    let mut out = Vec::new();
    for (k, &n) in avail.iter().enumerate() {
        if n == 0 || (lo <= k && k <= hi && !rules.kicker_own_rank) {
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

fn pair_cands(avail: &Counts, lo: usize, hi: usize, rules: &Rules) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    for (k, &n) in avail.iter().enumerate() {
        if n < 2 || (lo <= k && k <= hi && !rules.kicker_own_rank) {
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
    out
}

fn kickers(
    avail: &Counts,
    lo: usize,
    hi: usize,
    rules: &Rules,
    need: usize,
    pairs: bool,
    plane: bool,
) -> Vec<u128> {
    let mut found = Vec::new();
    if pairs {
        choose(&pair_cands(avail, lo, hi, rules), need, 2, &mut found);
    } else {
        choose(
            &solo_cands(avail, lo, hi, rules, plane),
            need,
            1,
            &mut found,
        );
    }
    if !rules.kicker_rocket {
        found.retain(|&m| !both_jokers(m));
    }
    found
}

fn gen_simple(c: &Counts, above: i32, per: u8, top: usize, kind: Kind, out: &mut Vec<Combo>) {
    for i in ((above + 1) as usize)..top {
        if c[i] >= per {
            out.push(Combo::plain(kind, i + 3, 1, per as u128 * one(i)));
        }
    }
}

/// Every run of at least `least` in a pattern of ranks (`_runs_of`), by start then length.
fn runs_of(pattern: u32, per: usize, least: usize, out: &mut Vec<Combo>) {
    let mut starts = pattern;
    for _ in 1..least {
        starts &= starts >> 1;
    }
    if starts == 0 {
        return;
    }
    for s in 0..=ACE {
        if pattern >> s & 1 == 0 {
            continue;
        }
        let mut e = s;
        while e < ACE && pattern >> (e + 1) & 1 == 1 {
            e += 1;
        }
        for n in least..=(e - s + 1) {
            out.push(run_combo(per, s, n));
        }
    }
}

fn gen_run(
    c: &Counts,
    rules: &Rules,
    above: i32,
    length: usize,
    per: usize,
    least: usize,
    out: &mut Vec<Combo>,
) {
    let p = per as u8;
    let mut pattern = 0u32;
    for i in 0..=ACE {
        if c[i] >= p && (rules.bomb_head_chains || c[i] != 4 || (i > 0 && c[i - 1] >= p)) {
            pattern |= 1 << i;
        }
    }
    let mut found = Vec::new();
    runs_of(pattern, per, least, &mut found);
    for r in found {
        let start = r.rank as usize - 3 + 1 - r.length as usize;
        if !rules.bomb_head_chains && c[start] == 4 {
            continue;
        }
        let top = r.rank as i32 - 3;
        if length > 0 {
            if r.length as usize != length || top <= above {
                continue;
            }
        } else if above >= 0 && top <= above {
            continue;
        }
        out.push(r);
    }
}

fn trio_with(unit: usize, t: usize, k: usize) -> Combo {
    let kind = if unit == 1 {
        Kind::TrioSolo
    } else {
        Kind::TrioPair
    };
    Combo::plain(kind, t + 3, 1, 3 * one(t) + unit as u128 * one(k))
}

fn gen_trio_with(c: &Counts, rules: &Rules, above: i32, unit: usize, out: &mut Vec<Combo>) {
    let u = unit as u8;
    for t in ((above + 1) as usize)..JOKER_B {
        if c[t] < 3 {
            continue;
        }
        for k in 0..NUM_RANKS {
            if c[k] >= u && k != t {
                out.push(trio_with(unit, t, k));
            }
        }
        if rules.kicker_own_rank && c[t] - 3 >= u {
            out.push(trio_with(unit, t, t));
        }
    }
}

fn gen_plane_with(
    c: &Counts,
    rules: &Rules,
    above: i32,
    length: usize,
    kind: Kind,
    pairs: bool,
    out: &mut Vec<Combo>,
) {
    let least = rules.plane_min.max(1);
    for s in 0..=ACE {
        if c[s] < 3 {
            continue;
        }
        let mut e = s;
        while e < ACE && c[e + 1] >= 3 {
            e += 1;
        }
        let (from, to) = if length > 0 {
            (length, length)
        } else {
            (least, e - s + 1)
        };
        for n in from..=to {
            if n < least || s + n - 1 > e || (s + n - 1) as i32 <= above {
                continue;
            }
            let run = run_mask(s, n, 3);
            let mut avail = *c;
            for a in avail.iter_mut().skip(s).take(n) {
                *a -= 3;
            }
            for km in kickers(&avail, s, s + n - 1, rules, n, pairs, true) {
                out.push(Combo::plain(kind, s + n + 2, n, run + km));
            }
        }
    }
}

fn gen_four_with(
    c: &Counts,
    rules: &Rules,
    above: i32,
    kind: Kind,
    pairs: bool,
    out: &mut Vec<Combo>,
) {
    for f in ((above + 1) as usize)..JOKER_B {
        if c[f] < 4 {
            continue;
        }
        let mut avail = *c;
        avail[f] -= 4;
        let base = 4 * one(f);
        for km in kickers(&avail, f, f, rules, 2, pairs, false) {
            out.push(Combo::plain(kind, f + 3, 1, base + km));
        }
    }
}

/// Bombs (4 to `max_bomb` of a kind) stronger than `above_order`.
pub fn gen_bombs(c: &Counts, rules: &Rules, above_order: i32, out: &mut Vec<Combo>) {
    for (i, &n) in c.iter().enumerate().take(JOKER_B) {
        if n >= 4 {
            for k in 4..=(n as usize).min(rules.max_bomb) {
                let order = bomb_order(k, i, true, false);
                if order > above_order {
                    let m = k as u128 * one(i);
                    out.push(Combo {
                        kind: Kind::Bomb,
                        rank: i as u8 + 3,
                        length: 1,
                        mask: m,
                        reading: m,
                        order,
                    });
                }
            }
        }
    }
}

/// The rocket, if the hand holds every joker of it.
pub fn gen_rocket(c: &Counts, rules: &Rules, out: &mut Vec<Combo>) {
    let d = rules.decks as u8;
    if c[JOKER_B] >= d && c[JOKER_R] >= d {
        out.push(rules.rocket());
    }
}

fn gen_kind(
    kind: Kind,
    c: &Counts,
    rules: &Rules,
    above: i32,
    length: usize,
    out: &mut Vec<Combo>,
) {
    match kind {
        Kind::Solo => gen_simple(c, above, 1, NUM_RANKS, Kind::Solo, out),
        Kind::Pair => gen_simple(c, above, 2, NUM_RANKS, Kind::Pair, out),
        Kind::Trio => gen_simple(c, above, 3, JOKER_B, Kind::Trio, out),
        Kind::TrioSolo => gen_trio_with(c, rules, above, 1, out),
        Kind::TrioPair => gen_trio_with(c, rules, above, 2, out),
        Kind::Chain => gen_run(c, rules, above, length, 1, rules.chain_min, out),
        Kind::PairChain => gen_run(c, rules, above, length, 2, rules.pair_chain_min, out),
        Kind::Plane => gen_run(c, rules, above, length, 3, rules.plane_min, out),
        Kind::PlaneSolo => gen_plane_with(c, rules, above, length, Kind::PlaneSolo, false, out),
        Kind::PlanePair => gen_plane_with(c, rules, above, length, Kind::PlanePair, true, out),
        Kind::FourTwoSolo => gen_four_with(c, rules, above, Kind::FourTwoSolo, false, out),
        Kind::FourTwoPair => gen_four_with(c, rules, above, Kind::FourTwoPair, true, out),
        Kind::Bomb | Kind::Rocket => {}
    }
}

/// Whether `rules` allows the kind (the kinds with kickers can be switched off).
pub fn enabled(kind: Kind, rules: &Rules) -> bool {
    match kind {
        Kind::TrioSolo => rules.trio_solo,
        Kind::PlaneSolo => rules.plane_solo,
        Kind::FourTwoSolo => rules.four_two_solo,
        Kind::FourTwoPair => rules.four_two_pair,
        Kind::Bomb | Kind::Rocket => false,
        _ => true,
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

#[inline]
fn better(p: &Combo, old: &Combo) -> bool {
    (p.kind.preference(), -(p.rank as i32)) < (old.kind.preference(), -(old.rank as i32))
}

/// One play per set of cards, first place kept, the preferred reading (`_dedupe`).
fn dedupe_into(found: Vec<Combo>, out: &mut Vec<Combo>) {
    let start = out.len();
    for p in found {
        match out[start..].iter_mut().find(|o| o.mask == p.mask) {
            Some(old) => {
                if better(&p, old) {
                    *old = p;
                }
            }
            None => out.push(p),
        }
    }
}

/// Every legal play of the counts `c` without wild cards on `on` (`natural_plays`).
pub fn natural_plays(c: &Counts, rules: &Rules, on: Option<&Combo>, out: &mut Vec<Combo>) {
    match on {
        None => {
            let mut clashing = Vec::new();
            for kind in GENERATED {
                if !enabled(kind, rules) {
                    continue;
                }
                let clash = rules.kicker_own_rank
                    || matches!(
                        kind,
                        Kind::Plane | Kind::PlaneSolo | Kind::PlanePair | Kind::FourTwoPair
                    );
                gen_kind(
                    kind,
                    c,
                    rules,
                    -1,
                    0,
                    if clash { &mut clashing } else { out },
                );
            }
            gen_bombs(
                c,
                rules,
                -1,
                if rules.kicker_own_rank {
                    &mut clashing
                } else {
                    out
                },
            );
            gen_rocket(c, rules, out);
            if !clashing.is_empty() {
                dedupe_into(clashing, out);
            }
        }
        Some(on) if on.is_bomb() => {
            gen_bombs(c, rules, on.order, out);
            let d = rules.decks as u8;
            if c[JOKER_B] >= d && c[JOKER_R] >= d {
                let r = rules.rocket();
                if beats(&r, Some(on)) {
                    out.push(r);
                }
            }
        }
        Some(on) => {
            let kind = on.kind;
            if enabled(kind, rules) {
                let above = on.rank as i32 - 3;
                if matches!(kind, Kind::PlaneSolo | Kind::PlanePair | Kind::FourTwoPair) {
                    let mut found = Vec::new();
                    gen_kind(kind, c, rules, above, on.length as usize, &mut found);
                    dedupe_into(found, out);
                } else {
                    gen_kind(kind, c, rules, above, on.length as usize, out);
                }
            }
            gen_bombs(c, rules, -1, out);
            gen_rocket(c, rules, out);
        }
    }
}

/// Every legal play of the packed `hand` on `on` with rank index `wild` wild (-1: none)
/// (`legal_plays`); `bombs` false leaves out the bombs and the rocket (a spent `bomb_limits`).
pub fn legal_plays(
    hand: u128,
    on: Option<&Combo>,
    rules: &Rules,
    wild: i32,
    bombs: bool,
    out: &mut Vec<Combo>,
) {
    let start = out.len();
    if wild >= 0 && (hand >> (5 * wild)) & 31 != 0 {
        super::wildgen::wild_plays(hand, on, rules, wild as usize, out);
    } else {
        natural_plays(&counts_of(hand), rules, on, out);
    }
    if !bombs {
        let mut i = start;
        while i < out.len() {
            if out[i].is_bomb() {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}
