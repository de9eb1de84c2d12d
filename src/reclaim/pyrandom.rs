//! A bit-exact port of CPython's `random.Random` (Mersenne Twister MT19937, Matsumoto &
//! Nishimura 1998; CPython `Modules/_randommodule.c` and `Lib/random.py`, stable since 3.2,
//! checked against CPython 3.11), so that reclaim-eval's bootstrap intervals reproduce to the
//! last bit (seed-003-004 notes § C1, § C4).
//!
//! * `Random(seed)` for an integer seed: key = the 32-bit little-endian words of |seed|
//!   (`[0]` for 0), then `init_by_array(key)`, which starts from `init_genrand(19650218)`.
//! * `getrandbits(k)`: for k ≤ 32, `genrand_uint32() >> (32 − k)`; for larger k, 32-bit words
//!   least significant first, the last one shifted right to keep k bits in total.
//! * `random()`: `(a·2²⁶ + b) / 2⁵³` with a = `genrand >> 5`, b = `genrand >> 6`.
//! * `randrange(n)` = `_randbelow_with_getrandbits(n)`: k = bit_length(n), draw
//!   r = getrandbits(k) until r < n.

const N: usize = 624;
const M: usize = 397;

/// CPython's `random.Random`, for the calls reclaim-eval makes.
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyRandom").field("index", &self.index).finish_non_exhaustive()
    }
}

impl PyRandom {
    fn init_genrand(s: u32) -> PyRandom {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        PyRandom { mt, index: N }
    }

    /// MT19937 `init_by_array`.
    pub fn from_key(key: &[u32]) -> PyRandom {
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let mut r = PyRandom::init_genrand(19_650_218);
        let mt = &mut r.mt;
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
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    /// `random.Random(seed)` for an integer seed (CPython hashes |seed|; 128-bit covers every
    /// seed memaudit accepts).
    pub fn new(seed: i128) -> PyRandom {
        let mut s = seed.unsigned_abs();
        let mut key = Vec::new();
        while s > 0 {
            key.push(s as u32);
            s >>= 32;
        }
        PyRandom::from_key(&key)
    }

    /// The next tempered 32-bit output (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            for kk in 0..N {
                let y = (self.mt[kk] & 0x8000_0000) | (self.mt[(kk + 1) % N] & 0x7fff_ffff);
                let mut v = self.mt[(kk + M) % N] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.mt[kk] = v;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for 0 ≤ k ≤ 64 (k = 0 gives 0, as in CPython ≥ 3.9).
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let k = k.min(64);
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `randrange(n)` (= `_randbelow_with_getrandbits(n)`) for n ≥ 1; 0 for n = 0.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // seed-003-004 § C1 anchors (CPython 3.11)
    #[test]
    fn cpython_anchors() {
        let mut r = PyRandom::new(0);
        assert_eq!([r.next_u32(), r.next_u32(), r.next_u32()], [3_626_764_237, 1_654_615_998, 3_255_389_356]);
        assert_eq!(PyRandom::new(0).random(), 0.844_421_851_525_048_1);
        let mut r = PyRandom::new(0);
        let v: Vec<u64> = (0..5).map(|_| r.randbelow(96)).collect();
        assert_eq!(v, vec![49, 53, 5, 33, 65]);
        assert_eq!(PyRandom::new(0).randbelow(0), 0);
        assert_eq!(PyRandom::new(3).getrandbits(0), 0);
        assert_eq!(PyRandom::new(-7).next_u32(), PyRandom::new(7).next_u32(), "CPython seeds |seed|");
    }
}
