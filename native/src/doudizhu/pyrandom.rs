//! CPython's `random.Random` (MT19937, seeded from a text as Python seeds it) and the parts of it
//! the reference's deal uses (`shuffle`, `randrange`), so the native deal of a seed is the
//! reference's card for card.
//!
//! Python seeds `Random(text)` with the integer of the bytes `text + sha512(text)` (big-endian);
//! the caller passes those bytes (Python's `hashlib` makes the digest).

use super::state::deck;
use super::{one, Rules};

const N: usize = 624;
const M: usize = 397;

/// The Mersenne Twister of CPython's `random` module.
pub struct Mt {
    mt: [u32; N],
    index: usize,
}

impl Mt {
    fn init_genrand(s: u32) -> Mt {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt { mt, index: N }
    }

    /// Seeded as CPython seeds with a non-negative integer, given as big-endian bytes.
    pub fn from_be_bytes(bytes: &[u8]) -> Mt {
        let digits: Vec<u8> = bytes.iter().copied().skip_while(|&b| b == 0).collect();
        let mut key: Vec<u32> = digits
            .rchunks(4)
            .map(|c| c.iter().fold(0u32, |acc, &b| (acc << 8) | b as u32))
            .collect();
        if key.is_empty() {
            key.push(0);
        }
        let mut g = Mt::init_genrand(19_650_218);
        let mt = &mut g.mt;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        g
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            let mt = &mut self.mt;
            #[inline(always)]
            fn mix(a: u32, b: u32, c: u32) -> u32 {
                let y = (a & 0x8000_0000) | (b & 0x7fff_ffff);
                c ^ (y >> 1) ^ (0u32.wrapping_sub(y & 1) & 0x9908_b0df)
            }
            for k in 0..N - M {
                mt[k] = mix(mt[k], mt[k + 1], mt[k + M]);
            }
            for k in N - M..N - 1 {
                mt[k] = mix(mt[k], mt[k + 1], mt[k + M - N]);
            }
            mt[N - 1] = mix(mt[N - 1], mt[0], mt[M - 1]);
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `1 <= k <= 32`.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        self.next_u32() >> (32 - k)
    }

    /// `_randbelow(n)` for `1 <= n < 2**32`.
    pub fn randbelow(&mut self, n: u32) -> u32 {
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `random.shuffle`.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u32 + 1) as usize;
            x.swap(i, j);
        }
    }
}

/// The reference's `deal(seed, number, rules)` from the seed bytes of `f"doudizhu {seed}
/// {number}"` (see the module text): each seat's hand, the kept cards, the face-up card's seat.
pub fn reference_deal(seed_bytes: &[u8], rules: &Rules) -> (Vec<u128>, u128, usize) {
    let mut g = Mt::from_be_bytes(seed_bytes);
    let mut cards: Vec<u128> = deck(rules.decks).into_iter().map(one).collect();
    g.shuffle(&mut cards);
    let n = rules.hand_size();
    let hands = (0..rules.players)
        .map(|s| cards[s * n..(s + 1) * n].iter().sum())
        .collect();
    let kitty = cards[rules.players * n..].iter().sum();
    let face_up = g.randbelow((rules.players * n) as u32) as usize;
    (hands, kitty, face_up / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(g: &mut Mt) -> f64 {
        let a = (g.next_u32() >> 5) as f64;
        let b = (g.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    #[test]
    fn seeds_as_cpython() {
        // random.Random(0).random() and random.Random(1).random() in CPython
        assert_eq!(random(&mut Mt::from_be_bytes(&[])), 0.844_421_851_525_048_1);
        assert_eq!(
            random(&mut Mt::from_be_bytes(&[1])),
            0.134_364_244_112_401_22
        );
    }

    #[test]
    fn deals_a_whole_pack() {
        let rules = Rules::classic();
        let (hands, kitty, seat) = reference_deal(b"doudizhu 5 1", &rules);
        assert_eq!(hands.len(), 3);
        assert!(seat < 3);
        let all: u128 = hands.iter().sum::<u128>() + kitty;
        assert_eq!(all, deck(1).into_iter().map(one).sum::<u128>());
        assert!(hands.iter().all(|&h| super::super::size_of(h) == 17));
    }
}
