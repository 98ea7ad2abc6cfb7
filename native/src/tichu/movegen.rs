//! Move generation, one generator per kind, each listing its plays in the reference's order
//! (`generators.py`): by rank, and within a rank by the cards' masks, lowest first; a lead lists
//! every kind in turn (`leads.lead_reference`), the bombs last.

use super::*;

/// `SUBSETS[suits][size]`: the `size`-card subsets of a 4-bit mask of suits, increasing.
static SUBSETS: std::sync::LazyLock<Vec<Vec<Vec<u64>>>> = std::sync::LazyLock::new(|| {
    (0u64..16)
        .map(|suits| {
            (0..5)
                .map(|size| {
                    (0u64..16)
                        .filter(|&s| s & !suits == 0 && s.count_ones() == size)
                        .collect()
                })
                .collect()
        })
        .collect()
});

/// The sets of `size` cards of `rank` in `hand`, as masks in increasing order.
#[inline]
fn rank_sets(hand: u64, rank: u32, size: usize) -> impl Iterator<Item = u64> + 'static {
    let shift = rank_shift(rank);
    SUBSETS[((hand >> shift) & 0xF) as usize][size]
        .iter()
        .map(move |&s| s << shift)
}

/// The single cards `hand` plays on `on` (a single, or None: leading).
pub fn single_plays(hand: u64, on: Option<&Combo>, out: &mut Vec<Combo>) {
    if on.is_none() && hand & MAH_JONG_BIT != 0 {
        out.push(Combo::new(Kind::Single, 1, MAH_JONG_BIT, 0));
    }
    let above = on.map_or(1, |c| c.rank());
    let floor = if above + 1 >= 16 {
        u64::MAX
    } else {
        (1u64 << rank_shift(above + 1)) - 1
    };
    for card in bits(hand & NORMAL_CARDS & !floor) {
        out.push(Combo::new(Kind::Single, card_rank(card), 1 << card, 0));
    }
    if hand & PHOENIX_BIT != 0 && on.is_none_or(|c| c.mask != DRAGON_BIT) {
        let rank2 = on.map_or(3, |c| c.rank2 + 1);
        out.push(Combo {
            mask: PHOENIX_BIT,
            kind: Kind::Single,
            rank2,
            phoenix: 0,
        });
    }
    if hand & DRAGON_BIT != 0 {
        out.push(Combo::new(Kind::Single, 15, DRAGON_BIT, 0));
    }
    if on.is_none() && hand & DOG_BIT != 0 {
        out.push(Combo::new(Kind::Dog, 0, DOG_BIT, 0));
    }
}

fn same_rank(hand: u64, on: Option<&Combo>, size: usize, kind: Kind, out: &mut Vec<Combo>) {
    let phoenix = hand & PHOENIX_BIT != 0;
    let enough = if phoenix { size - 1 } else { size } as u32;
    let first = on.map_or(2, |c| c.rank() + 1);
    for rank in first..15 {
        if (hand & rank_mask(rank)).count_ones() < enough {
            continue;
        }
        for cards in rank_sets(hand, rank, size) {
            out.push(Combo::new(kind, rank, cards, 0));
        }
        if phoenix {
            for cards in rank_sets(hand, rank, size - 1) {
                out.push(Combo::new(kind, rank, cards | PHOENIX_BIT, rank));
            }
        }
    }
}

/// The pairs `hand` plays on `on`.
pub fn pair_plays(hand: u64, on: Option<&Combo>, out: &mut Vec<Combo>) {
    same_rank(hand, on, 2, Kind::Pair, out)
}

/// The triples `hand` plays on `on`.
pub fn triple_plays(hand: u64, on: Option<&Combo>, out: &mut Vec<Combo>) {
    same_rank(hand, on, 3, Kind::Triple, out)
}

/// The full houses `hand` plays on `on` (with `choice`, the lower reading of two pairs and the
/// Phoenix too).
pub fn full_house_plays(hand: u64, on: Option<&Combo>, choice: bool, out: &mut Vec<Combo>) {
    let phoenix = hand & PHOENIX_BIT != 0;
    let above = on.map_or(1, |c| c.rank());
    let counts = rank_counts(hand);
    let need = if phoenix { 2 } else { 3 };
    for t in above + 1..15 {
        if counts[t as usize] < need {
            continue;
        }
        for p in 2..15 {
            if p == t || counts[p as usize] == 0 {
                continue;
            }
            for triple in rank_sets(hand, t, 3) {
                for pair in rank_sets(hand, p, 2) {
                    out.push(Combo::new(Kind::FullHouse, t, triple | pair, 0));
                }
                if phoenix {
                    for card in rank_sets(hand, p, 1) {
                        out.push(Combo::new(
                            Kind::FullHouse,
                            t,
                            triple | card | PHOENIX_BIT,
                            p,
                        ));
                    }
                }
            }
            if p < t && phoenix {
                for two in rank_sets(hand, t, 2) {
                    for pair in rank_sets(hand, p, 2) {
                        let cards = two | pair | PHOENIX_BIT;
                        out.push(Combo::new(Kind::FullHouse, t, cards, t));
                        if choice && p > above {
                            out.push(Combo::new(Kind::FullHouse, p, cards, p));
                        }
                    }
                }
            }
        }
    }
}

/// The reference's `_spans`: rank windows `(lo, hi)` whose lack the Phoenix can fill.
fn spans(
    lack: &[u8; 15],
    phoenix: u32,
    lowest: u32,
    shortest: u32,
    on: Option<&Combo>,
    per: u32,
    out: &mut Vec<(u32, u32)>,
) {
    let mut lo = lowest;
    let mut lacking = 0u32;
    for hi in lowest..15 {
        lacking += lack[hi as usize] as u32;
        while lacking > phoenix {
            lacking -= lack[lo as usize] as u32;
            lo += 1;
        }
        let width = (hi + 1).saturating_sub(lo);
        match on {
            None => {
                if width >= shortest {
                    let mut bottom = hi + 1 - shortest;
                    loop {
                        out.push((bottom, hi));
                        if bottom == lo {
                            break;
                        }
                        bottom -= 1;
                    }
                }
            }
            Some(c) => {
                let n = c.len() / per;
                if hi > c.rank() && width >= n {
                    out.push((hi + 1 - n, hi));
                }
            }
        }
    }
}

/// The pair runs `hand` plays on `on`.
pub fn pair_run_plays(hand: u64, on: Option<&Combo>, out: &mut Vec<Combo>) {
    let counts = rank_counts(hand);
    if counts[2..].iter().all(|&n| n < 2) {
        return;
    }
    let phoenix = (hand & PHOENIX_BIT != 0) as u32;
    let mut lack = [2u8; 15];
    for r in 2..15 {
        let n = counts[r];
        lack[r] = if n >= 2 { 0 } else { 2 - n };
    }
    let mut windows = Vec::new();
    spans(&lack, phoenix, 2, 2, on, 2, &mut windows);
    let mut built: Vec<(u64, u32)> = Vec::new();
    let mut grown: Vec<(u64, u32)> = Vec::new();
    for (lo, hi) in windows {
        built.clear();
        built.push((0, 0));
        for rank in lo..=hi {
            grown.clear();
            for &(cards, spot) in &built {
                for pair in rank_sets(hand, rank, 2) {
                    grown.push((cards | pair, spot));
                }
            }
            if phoenix == 1 {
                for &(cards, spot) in &built {
                    if spot == 0 {
                        for card in rank_sets(hand, rank, 1) {
                            grown.push((cards | card | PHOENIX_BIT, rank));
                        }
                    }
                }
            }
            std::mem::swap(&mut built, &mut grown);
        }
        for &(cards, spot) in &built {
            out.push(Combo::new(Kind::PairRun, hi, cards, spot));
        }
    }
}

/// The straights `hand` plays on `on` (the one-suit sets are bombs, listed with them).
pub fn straight_plays(hand: u64, on: Option<&Combo>, choice: bool, out: &mut Vec<Combo>) {
    let counts = rank_counts(hand);
    let phoenix = (hand & PHOENIX_BIT != 0) as u32;
    let held = counts[1..].iter().filter(|&&n| n > 0).count() as u32;
    if held + phoenix < 5 {
        return;
    }
    let mut lack = [2u8; 15];
    lack[1] = if counts[1] > 0 { 0 } else { 2 };
    for r in 2..15 {
        lack[r] = (counts[r] == 0) as u8;
    }
    let mut windows = Vec::new();
    spans(&lack, phoenix, 1, 5, on, 1, &mut windows);
    let mut spots: Vec<u32> = Vec::with_capacity(16);
    let mut built: Vec<u64> = Vec::new();
    let mut grown: Vec<u64> = Vec::new();
    for (lo, hi) in windows {
        // the reference's phoenix_spots
        spots.clear();
        let gap = (lo..=hi).find(|&r| counts[r as usize] == 0);
        if let Some(g) = gap {
            if !(g == lo && hi < 14 && !choice) {
                spots.push(g);
            }
        } else if phoenix == 0 {
            spots.push(0);
        } else {
            for r in lo.max(2)..=hi {
                if r != lo || hi == 14 || choice {
                    spots.push(r);
                }
            }
            spots.push(0);
        }
        for &spot in &spots {
            built.clear();
            built.push(if spot != 0 { PHOENIX_BIT } else { 0 });
            for rank in lo..=hi {
                if rank == spot {
                    continue;
                }
                grown.clear();
                for &cards in &built {
                    if rank == 1 {
                        if hand & MAH_JONG_BIT != 0 {
                            grown.push(cards | MAH_JONG_BIT);
                        }
                    } else {
                        for card in rank_sets(hand, rank, 1) {
                            grown.push(cards | card);
                        }
                    }
                }
                std::mem::swap(&mut built, &mut grown);
            }
            for &cards in &built {
                if spot == 0 && lo > 1 && SUIT_MASKS.iter().any(|&s| cards & !s == 0) {
                    continue;
                }
                out.push(Combo::new(Kind::Straight, hi, cards, spot));
            }
        }
    }
}

/// The Jade cards of the ranks whose four cards `hand` holds.
#[inline]
pub fn four_of_a_kind_starts(hand: u64) -> u64 {
    hand & (hand >> 1) & (hand >> 2) & (hand >> 3) & SUIT_MASKS[0]
}

/// The cards of `hand` that start five cards of one suit in a row.
#[inline]
pub fn straight_flush_starts(hand: u64) -> u64 {
    let n = hand & NORMAL_CARDS;
    n & (n >> 4) & (n >> 8) & (n >> 12) & (n >> 16)
}

/// Does `hand` hold a bomb?
#[inline]
pub fn has_bomb(hand: u64) -> bool {
    four_of_a_kind_starts(hand) | straight_flush_starts(hand) != 0
}

/// The bombs of `hand` that may be played on `on`: fours of a kind by rank, then straight
/// flushes by suit, lowest first, the shorter first.
pub fn bomb_plays(hand: u64, on: Option<&Combo>, out: &mut Vec<Combo>) {
    let start = out.len();
    for r in 2..15 {
        let m = rank_mask(r);
        if hand & m == m {
            out.push(Combo::new(Kind::FourOfAKind, r, m, 0));
        }
    }
    if straight_flush_starts(hand) != 0 {
        for suit in 0..4 {
            for lo in 2..11 {
                let mut cards = 0u64;
                for hi in lo..15 {
                    let card = 1u64 << card_index(hi, suit);
                    if hand & card == 0 {
                        break;
                    }
                    cards |= card;
                    if hi - lo >= 4 {
                        out.push(Combo::new(Kind::StraightFlush, hi, cards, 0));
                    }
                }
            }
        }
    }
    if let Some(on) = on {
        if on.is_bomb() {
            let key = on.bomb_key();
            let mut k = start;
            for i in start..out.len() {
                if out[i].bomb_key() > key {
                    out[k] = out[i];
                    k += 1;
                }
            }
            out.truncate(k);
        }
    }
}

/// Does `hand` hold a bomb that may be played on `top` (the reference's `raw_bombs` not empty)?
pub fn has_bomb_on(hand: u64, top: &Combo) -> bool {
    if top.kind == Kind::Dog || !has_bomb(hand) {
        return false;
    }
    if !top.is_bomb() {
        return true;
    }
    let mut v = Vec::with_capacity(8);
    bomb_plays(hand, Some(top), &mut v);
    !v.is_empty()
}

/// Every play `hand` leads, each kind's in turn (with `choice`, every reading).
pub fn lead_plays(hand: u64, choice: bool, out: &mut Vec<Combo>) {
    single_plays(hand, None, out);
    if hand.count_ones() < 2 {
        return;
    }
    pair_plays(hand, None, out);
    triple_plays(hand, None, out);
    full_house_plays(hand, None, choice, out);
    pair_run_plays(hand, None, out);
    straight_plays(hand, None, choice, out);
    bomb_plays(hand, None, out);
}

/// Every play of `hand` on `on` (None: leading), the reference's `raw_plays`; `bombs=false`
/// leaves out the bombs of a hand known to hold none.
pub fn plays(hand: u64, on: Option<&Combo>, choice: bool, bombs: bool, out: &mut Vec<Combo>) {
    let Some(top) = on else {
        lead_plays(hand, choice, out);
        return;
    };
    match top.kind {
        Kind::Dog => return,
        Kind::Single => single_plays(hand, on, out),
        Kind::Pair => pair_plays(hand, on, out),
        Kind::Triple => triple_plays(hand, on, out),
        Kind::FullHouse => full_house_plays(hand, on, choice, out),
        Kind::PairRun => pair_run_plays(hand, on, out),
        Kind::Straight => straight_plays(hand, on, choice, out),
        Kind::FourOfAKind | Kind::StraightFlush => {}
    }
    if bombs {
        bomb_plays(hand, on, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> u64 {
        parse_cards(text).unwrap()
    }

    fn count(hand: &str, on: Option<&str>) -> usize {
        let top = on.map(|t| classify(m(t), None).unwrap());
        let mut out = Vec::new();
        plays(m(hand), top.as_ref(), false, true, &mut out);
        out.len()
    }

    #[test]
    fn counts_as_the_reference_docs() {
        assert_eq!(count("2g 2k Ph", None), 7);
        assert_eq!(count("Mj 2g 3g 4k 5k 6k 6r Ph", None), 48);
        assert_eq!(count("5g 5r 9k 9b 9r", Some("8g 8r")), 3);
        let mut out = Vec::new();
        let top = classify(m("3g 3k 3b 3r"), None).unwrap();
        bomb_plays(m("4g 4k 4b 4r 5g 6g 7g 8g"), Some(&top), &mut out);
        let names: Vec<String> = out.iter().map(|c| format_cards(c.mask)).collect();
        assert_eq!(names, vec!["4g 4k 4b 4r", "4g 5g 6g 7g 8g"]);
    }
}
