//! Predictive packing: the compact, exact coding a
//! [`RollbackState`](super::RollbackState) keeps the world's stores in.
//!
//! One function per store element says, field by field, how the field is
//! coded, and the same function runs in both directions: a [`Packer`] reads
//! each field and appends it, an [`Unpacker`] overwrites it from the buffer.
//! The coding is exact by construction: a field is elided only when it
//! equals, bit for bit, a guess both directions can compute from what has
//! already been coded (the same field of the previous element, an identity
//! such as "the box the shape's body transform gives"); otherwise the value
//! itself follows. A wrong guess costs bytes, never exactness.
//!
//! Two streams: bytes (raw little-endian `f32` words and LEB128 varints) and
//! one bit per guess.

use crate::collision::{Aabb, ManifoldPoint, SimplexCache};
use crate::joint::JointSim;
use crate::math::{Rot, Transform, Vec2};

/// One direction of the coding. Each method takes the field in place: the
/// packer reads it (and leaves it as it was), the unpacker overwrites it.
pub(crate) trait Coder {
    /// Whether this coder writes the world (unpacks) rather than reading it.
    const UNPACKS: bool;
    /// Four raw bytes.
    fn word(&mut self, v: &mut u32);
    /// A LEB128 varint (1 byte below 128, at most 5).
    fn varint(&mut self, v: &mut u32);
    /// One bit.
    fn bit(&mut self, v: &mut bool);
    /// The `n` (1 to 32) low bits of `v` (the unpacker clears the others).
    fn bits(&mut self, v: &mut u32, n: u32);
    /// A string: its length, then its bytes.
    fn text(&mut self, v: &mut String);
    /// A whole vector of joint sims, kept aside unpacked (they are few and
    /// large).
    fn joint_sims(&mut self, v: &mut Vec<JointSim>);
    /// The `n` (1 to 4) low bytes of `v` (the unpacker clears the others).
    fn low_bytes(&mut self, v: &mut u32, n: u32);
    /// Bytes as they are, in one go (a column of a block, see
    /// `code_block` in `rollback.rs`): the packer appends `b`, the
    /// unpacker fills it.
    fn raw(&mut self, b: &mut [u8]);
    /// Where a block's column of up to `N` bytes is written (`code_block`
    /// in `rollback.rs`): the packer's next `N` bytes of the state in
    /// place when it has them, else `buf` (copied at `column_done`).
    #[inline]
    fn column_out<'b, const N: usize>(&'b mut self, buf: &'b mut [u8; N]) -> &'b mut [u8; N] {
        buf
    }
    /// Keeps the first `len` bytes of the column `column_out` gave (in
    /// place: passes over them; else appends them from `buf`).
    #[inline]
    fn column_done<const N: usize>(&mut self, buf: &mut [u8; N], len: usize) {
        self.raw(&mut buf[..len.min(N)]);
    }
    /// Where a block's column of `n` bytes is read from, passed over: the
    /// unpacker's next `N` bytes in place when it has them, else `b`
    /// filled as `raw` fills it (the bytes past `n` are any bytes).
    #[inline]
    fn column_in<'b, const N: usize>(&'b mut self, b: &'b mut [u8; N], n: usize) -> &'b [u8; N] {
        self.raw(&mut b[..n.min(N)]);
        b
    }
    /// A count of items that each put at least `min_bytes` (1 or more)
    /// bytes in the byte stream, as a varint. The unpacker cuts it to what
    /// its bytes can hold, so a corrupted count cannot ask for more memory
    /// than the state's own size or loop longer than that.
    #[inline]
    fn count(&mut self, v: &mut u32, _min_bytes: usize) {
        self.varint(v);
    }
    /// The unpacker's check that a block's items read exactly the `len`
    /// bytes its column held (their cursor ended `at`); a mismatch is a
    /// coding bug, and `Unpacker::at_end` reports it. Nothing otherwise.
    #[inline]
    fn column_read(&mut self, _len: usize, _at: usize) {}
    /// Starts counting what follows under `label` (see
    /// [`Packer::counting`]); nothing otherwise.
    #[inline]
    fn mark(&mut self, _label: &'static str) {}
}

/// Appends the coded fields to a state's buffers. The bytes are written by
/// index into the buffer's whole capacity (made its length, then cut back by
/// [`Packer::finish`]), so that the hot path makes no call that could grow
/// the buffer and the coder's state stays in registers. `STATS`: whether it
/// counts bits per label ([`Packer::counting`]), so that the labels cost
/// nothing otherwise.
pub(crate) struct Packer<'a, const STATS: bool = false> {
    bytes: &'a mut Vec<u8>,
    at: usize,
    bits: &'a mut Vec<u64>,
    joint_sims: &'a mut Vec<JointSim>,
    word: u64,
    fill: u32,
    /// Bits spent per label, when asked for ([`Packer::counting`]).
    stats: Option<&'a mut Vec<(&'static str, usize)>>,
    label: &'static str,
    label_from: usize,
}

impl<'a> Packer<'a, false> {
    /// A packer writing into emptied buffers.
    pub(crate) fn new(
        bytes: &'a mut Vec<u8>,
        bits: &'a mut Vec<u64>,
        joint_sims: &'a mut Vec<JointSim>,
    ) -> Packer<'a> {
        Packer::with_stats(bytes, bits, joint_sims, None)
    }
}

impl<'a> Packer<'a, true> {
    /// A packer writing into emptied buffers that also counts the bits
    /// spent under each label that [`Coder::mark`] names, adding them to
    /// `stats`.
    pub(crate) fn counting(
        bytes: &'a mut Vec<u8>,
        bits: &'a mut Vec<u64>,
        joint_sims: &'a mut Vec<JointSim>,
        stats: &'a mut Vec<(&'static str, usize)>,
    ) -> Packer<'a, true> {
        Packer::with_stats(bytes, bits, joint_sims, Some(stats))
    }
}

impl<'a, const STATS: bool> Packer<'a, STATS> {
    fn with_stats(
        bytes: &'a mut Vec<u8>,
        bits: &'a mut Vec<u64>,
        joint_sims: &'a mut Vec<JointSim>,
        stats: Option<&'a mut Vec<(&'static str, usize)>>,
    ) -> Packer<'a, STATS> {
        // The last state's bytes stay until the packer writes over them;
        // past them only an eighth more is zeroed, not the whole capacity
        // each time (`grow` lengthens the buffer if this state is larger).
        let room = (bytes.len() + bytes.len() / 8 + 64).min(bytes.capacity());
        bytes.resize(room, 0);
        bits.clear();
        joint_sims.clear();
        Packer {
            bytes,
            at: 0,
            bits,
            joint_sims,
            word: 0,
            fill: 0,
            stats,
            label: "",
            label_from: 0,
        }
    }

    /// Bits written so far (bytes count eight).
    pub(crate) fn position(&self) -> usize {
        self.at * 8 + self.bits.len() * 64 + self.fill as usize
    }

    /// Flushes the last bits and cuts the bytes to what was written.
    pub(crate) fn finish(mut self) {
        self.mark("");
        if self.fill > 0 {
            self.bits.push(self.word);
        }
        self.bytes.truncate(self.at);
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        match self.bytes.get_mut(self.at) {
            Some(slot) => *slot = b,
            None => self.grow(b),
        }
        self.at += 1;
    }

    /// Appends `b` to a full buffer (then lengthened to its new capacity).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, b: u8) {
        self.bytes.push(b);
        let room = self.bytes.capacity();
        self.bytes.resize(room, 0);
    }
}

impl<const STATS: bool> Coder for Packer<'_, STATS> {
    const UNPACKS: bool = false;

    #[inline]
    fn word(&mut self, v: &mut u32) {
        match self.bytes.get_mut(self.at..self.at + 4) {
            Some(dst) => {
                dst.copy_from_slice(&v.to_le_bytes());
                self.at += 4;
            }
            None => {
                for b in v.to_le_bytes() {
                    self.byte(b);
                }
            }
        }
    }

    #[inline]
    fn varint(&mut self, v: &mut u32) {
        let mut x = *v;
        if x < 0x80 {
            self.byte(x as u8);
            return;
        }
        while x >= 0x80 {
            self.byte(x as u8 | 0x80);
            x >>= 7;
        }
        self.byte(x as u8);
    }

    #[inline]
    fn bit(&mut self, v: &mut bool) {
        self.word |= u64::from(*v) << self.fill;
        self.fill += 1;
        if self.fill == 64 {
            self.bits.push(self.word);
            self.word = 0;
            self.fill = 0;
        }
    }

    #[inline]
    fn bits(&mut self, v: &mut u32, n: u32) {
        let x = u64::from(*v) & (u64::MAX >> (64 - n));
        self.word |= x << self.fill;
        let fill = self.fill + n;
        if fill >= 64 {
            self.bits.push(self.word);
            // the bits of `x` that did not fit (none when it ended the word)
            self.word = x.checked_shr(64 - self.fill).unwrap_or(0);
            self.fill = fill - 64;
        } else {
            self.fill = fill;
        }
    }

    fn text(&mut self, v: &mut String) {
        let mut n = v.len() as u32;
        self.varint(&mut n);
        for &b in v.as_bytes() {
            self.byte(b);
        }
    }

    fn joint_sims(&mut self, v: &mut Vec<JointSim>) {
        let mut n = v.len() as u32;
        self.varint(&mut n);
        self.joint_sims.extend_from_slice(v);
    }

    #[inline]
    fn low_bytes(&mut self, v: &mut u32, n: u32) {
        let n = n.clamp(1, 4) as usize;
        // all four bytes when there is room (the ones past `n` are
        // overwritten next), so that the count steers no branch
        match self.bytes.get_mut(self.at..self.at + 4) {
            Some(dst) => {
                dst.copy_from_slice(&v.to_le_bytes());
                self.at += n;
            }
            None => {
                for &b in &v.to_le_bytes()[..n] {
                    self.byte(b);
                }
            }
        }
    }

    #[inline]
    fn raw(&mut self, b: &mut [u8]) {
        match self.bytes.get_mut(self.at..self.at + b.len()) {
            Some(dst) => {
                dst.copy_from_slice(b);
                self.at += b.len();
            }
            None => {
                for &x in b.iter() {
                    self.byte(x);
                }
            }
        }
    }

    #[inline]
    fn column_out<'b, const N: usize>(&'b mut self, buf: &'b mut [u8; N]) -> &'b mut [u8; N] {
        let at = self.at;
        match self
            .bytes
            .get_mut(at..at.saturating_add(N))
            .and_then(|room| <&mut [u8; N]>::try_from(room).ok())
        {
            Some(room) => room,
            None => buf,
        }
    }

    #[inline]
    fn column_done<const N: usize>(&mut self, buf: &mut [u8; N], len: usize) {
        // (the same test as `column_out`'s: nothing was written between)
        if self.at.saturating_add(N) <= self.bytes.len() {
            self.at += len.min(N);
        } else {
            self.raw(&mut buf[..len.min(N)]);
        }
    }

    #[inline]
    fn mark(&mut self, label: &'static str) {
        if STATS {
            self.count(label);
        }
    }
}

impl<const STATS: bool> Packer<'_, STATS> {
    /// Adds the bits spent since the last label to its count (`mark`).
    #[cold]
    fn count(&mut self, label: &'static str) {
        let at = self.position();
        if let Some(stats) = self.stats.as_deref_mut() {
            let spent = at - self.label_from;
            match stats.iter_mut().find(|(l, _)| *l == self.label) {
                Some(entry) => entry.1 += spent,
                None => stats.push((self.label, spent)),
            }
            self.label = label;
            self.label_from = at;
        }
    }
}

/// Reads the coded fields back, in the order they were packed. Reading past
/// the end (which only a bug could cause: the buffers are private to the
/// state) gives zeros, never a panic.
pub(crate) struct Unpacker<'a> {
    bytes: &'a [u8],
    at: usize,
    bits: &'a [u64],
    /// The next word of `bits` to read.
    next_word: usize,
    /// The bits of the current word not read yet (the next one lowest),
    /// and how many.
    word: u64,
    left: u32,
    joint_sims: &'a [JointSim],
    joint_at: usize,
    /// A block's items read other than the bytes its column held
    /// (`Coder::column_read`).
    drifted: bool,
}

impl<'a> Unpacker<'a> {
    /// An unpacker at the start of a state's buffers.
    pub(crate) fn new(bytes: &'a [u8], bits: &'a [u64], joint_sims: &'a [JointSim]) -> Self {
        Unpacker {
            bytes,
            at: 0,
            bits,
            next_word: 0,
            word: 0,
            left: 0,
            joint_sims,
            joint_at: 0,
            drifted: false,
        }
    }

    /// Whether every byte and joint sim was read, and every block's items
    /// read exactly their column.
    pub(crate) fn at_end(&self) -> bool {
        self.at == self.bytes.len() && self.joint_at == self.joint_sims.len() && !self.drifted
    }

    #[inline]
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
}

impl Coder for Unpacker<'_> {
    const UNPACKS: bool = true;

    #[inline]
    fn count(&mut self, v: &mut u32, min_bytes: usize) {
        self.varint(v);
        let most = self.bytes.len() / min_bytes.max(1);
        *v = (*v).min(u32::try_from(most).unwrap_or(u32::MAX));
    }

    #[inline]
    fn column_read(&mut self, len: usize, at: usize) {
        self.drifted |= len != at;
    }

    #[inline]
    fn column_in<'b, const N: usize>(
        &'b mut self,
        buf: &'b mut [u8; N],
        len: usize,
    ) -> &'b [u8; N] {
        let (bytes, at) = (self.bytes, self.at);
        match bytes
            .get(at..at.saturating_add(N))
            .and_then(|w| <&[u8; N]>::try_from(w).ok())
        {
            Some(window) => {
                self.at = at + len.min(N);
                window
            }
            None => {
                self.raw(&mut buf[..len.min(N)]);
                buf
            }
        }
    }

    #[inline]
    fn word(&mut self, v: &mut u32) {
        *v = match self.bytes.get(self.at..self.at + 4) {
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            _ => 0,
        };
        self.at += 4;
    }

    #[inline]
    fn varint(&mut self, v: &mut u32) {
        let mut x = 0u32;
        let mut shift = 0;
        loop {
            let b = self.byte();
            x |= u32::from(b & 0x7f).wrapping_shl(shift);
            shift += 7;
            if b < 0x80 || shift >= 35 {
                break;
            }
        }
        *v = x;
    }

    #[inline]
    fn bit(&mut self, v: &mut bool) {
        let mut x = 0;
        self.bits(&mut x, 1);
        *v = x != 0;
    }

    #[inline]
    fn bits(&mut self, v: &mut u32, n: u32) {
        let mask = u64::MAX >> (64 - n);
        if self.left >= n {
            *v = (self.word & mask) as u32;
            self.word >>= n;
            self.left -= n;
        } else {
            // the `left` bits of this word, then the next word's
            let next = self.bits.get(self.next_word).copied().unwrap_or(0);
            self.next_word += 1;
            *v = ((self.word | next << self.left) & mask) as u32;
            let used = n - self.left;
            self.word = next >> used;
            self.left = 64 - used;
        }
    }

    fn text(&mut self, v: &mut String) {
        let mut n = 0;
        self.varint(&mut n);
        let end = (self.at + n as usize).min(self.bytes.len());
        v.clear();
        v.push_str(std::str::from_utf8(&self.bytes[self.at.min(end)..end]).unwrap_or(""));
        self.at = end;
    }

    fn joint_sims(&mut self, v: &mut Vec<JointSim>) {
        let mut n = 0;
        self.varint(&mut n);
        let end = (self.joint_at + n as usize).min(self.joint_sims.len());
        v.clear();
        v.extend_from_slice(&self.joint_sims[self.joint_at.min(end)..end]);
        self.joint_at = end;
    }

    #[inline]
    fn low_bytes(&mut self, v: &mut u32, n: u32) {
        let n = n.clamp(1, 4);
        let x = match self.bytes.get(self.at..self.at + 4) {
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            // the buffer's last bytes (past its end: zeros)
            _ => {
                let mut b = [0u8; 4];
                for (k, slot) in b.iter_mut().enumerate() {
                    *slot = self.bytes.get(self.at + k).copied().unwrap_or(0);
                }
                u32::from_le_bytes(b)
            }
        };
        *v = x & (u32::MAX >> (32 - 8 * n));
        self.at += n as usize;
    }

    #[inline]
    fn raw(&mut self, b: &mut [u8]) {
        // (past the end: zeros)
        let from = self.at.min(self.bytes.len());
        let to = self.at.saturating_add(b.len()).min(self.bytes.len());
        let (have, past) = b.split_at_mut(to - from);
        have.copy_from_slice(&self.bytes[from..to]);
        past.fill(0);
        self.at = self.at.saturating_add(b.len());
    }
}

/// A coder that only checks whether a run of coding writes nothing but
/// hits (every bit 1, no byte): the packer's first pass of
/// [`all_or_each!`].
pub(crate) struct Check {
    /// Whether every guess so far held.
    pub(crate) all: bool,
}

impl Check {
    /// A check with nothing seen yet.
    pub(crate) fn new() -> Check {
        Check { all: true }
    }
}

impl Coder for Check {
    const UNPACKS: bool = false;
    #[inline]
    fn word(&mut self, _: &mut u32) {
        self.all = false;
    }
    #[inline]
    fn varint(&mut self, _: &mut u32) {
        self.all = false;
    }
    #[inline]
    fn bit(&mut self, v: &mut bool) {
        self.all &= *v;
    }
    #[inline]
    fn bits(&mut self, _: &mut u32, _: u32) {
        self.all = false;
    }
    #[inline]
    fn text(&mut self, _: &mut String) {
        self.all = false;
    }
    #[inline]
    fn joint_sims(&mut self, _: &mut Vec<JointSim>) {
        self.all = false;
    }
    #[inline]
    fn low_bytes(&mut self, _: &mut u32, _: u32) {
        self.all = false;
    }
    #[inline]
    fn raw(&mut self, b: &mut [u8]) {
        self.all &= b.is_empty();
    }
}

/// The unpacker of a run the packer found all hits ([`all_or_each!`]):
/// every bit reads 1. Nothing else is read in such a run; the other methods
/// give zeros.
pub(crate) struct AllHit;

impl Coder for AllHit {
    const UNPACKS: bool = true;
    #[inline]
    fn word(&mut self, v: &mut u32) {
        *v = 0;
    }
    #[inline]
    fn varint(&mut self, v: &mut u32) {
        *v = 0;
    }
    #[inline]
    fn bit(&mut self, v: &mut bool) {
        *v = true;
    }
    #[inline]
    fn bits(&mut self, v: &mut u32, _: u32) {
        *v = 0;
    }
    #[inline]
    fn text(&mut self, v: &mut String) {
        v.clear();
    }
    #[inline]
    fn joint_sims(&mut self, v: &mut Vec<JointSim>) {
        v.clear();
    }
    #[inline]
    fn low_bytes(&mut self, v: &mut u32, _: u32) {
        *v = 0;
    }
    #[inline]
    fn raw(&mut self, b: &mut [u8]) {
        b.fill(0);
    }
}

/// Whether coder `c` unpacks (for [`all_or_each!`]).
#[inline(always)]
pub(crate) fn unpacks<C: Coder>(_: &C) -> bool {
    C::UNPACKS
}

/// Codes a run of fields as one bit when every guess in it holds, else as
/// that bit and the run coded as usual: `all_or_each!(c, |c| run)`, where
/// `run` codes with the coder `c` and gives a value back. The packer first
/// runs it with a [`Check`]; the unpacker replays a run of hits with
/// [`AllHit`] (every bit 1), which sets each field to its guess in order,
/// each guess made from the fields before it, as in the usual coding. So it
/// is exact; `run` must change nothing but the fields it codes (the packer
/// runs it twice when a guess fails).
macro_rules! all_or_each {
    ($c:ident, |$k:ident| $run:expr) => {{
        let (mut all, out) = if $crate::snapshot::pack::unpacks(&*$c) {
            (false, None)
        } else {
            let mut check = $crate::snapshot::pack::Check::new();
            let out = {
                let $k = &mut check;
                $run
            };
            (check.all, Some(out))
        };
        $c.bit(&mut all);
        match (all, out) {
            (true, Some(out)) => out,
            (true, None) => {
                let $k = &mut $crate::snapshot::pack::AllHit;
                $run
            }
            (false, _) => {
                let $k = &mut *$c;
                $run
            }
        }
    }};
}
pub(crate) use all_or_each;

/// A value coded in full (no guess).
pub(crate) trait Field: Copy {
    /// Codes the value in place.
    fn code<C: Coder>(&mut self, c: &mut C);
    /// Equal bit for bit.
    fn same(&self, other: &Self) -> bool;
}

/// Values the coder has a call for, compared with `==` (exact for them).
macro_rules! direct_field {
    ($($t:ty => $call:ident),*) => {$(
        impl Field for $t {
            #[inline]
            fn code<C: Coder>(&mut self, c: &mut C) {
                c.$call(self);
            }
            #[inline]
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}
direct_field!(u32 => varint, bool => bit);

impl Field for f32 {
    #[inline]
    fn code<C: Coder>(&mut self, c: &mut C) {
        let mut b = self.to_bits();
        c.word(&mut b);
        if C::UNPACKS {
            *self = f32::from_bits(b);
        }
    }
    #[inline]
    fn same(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

#[cfg(feature = "large-world")]
impl Field for f64 {
    #[inline]
    fn code<C: Coder>(&mut self, c: &mut C) {
        let bits = self.to_bits();
        let (mut lo, mut hi) = (bits as u32, (bits >> 32) as u32);
        c.word(&mut lo);
        c.word(&mut hi);
        if C::UNPACKS {
            *self = f64::from_bits(u64::from(lo) | u64::from(hi) << 32);
        }
    }
    #[inline]
    fn same(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

/// Small unsigned integers, coded as varints.
macro_rules! narrow_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            #[inline]
            fn code<C: Coder>(&mut self, c: &mut C) {
                let mut w = *self as u32;
                c.varint(&mut w);
                if C::UNPACKS {
                    *self = w as $t;
                }
            }
            #[inline]
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}
narrow_field!(u8, u16, usize);

impl Field for u64 {
    #[inline]
    fn code<C: Coder>(&mut self, c: &mut C) {
        let (mut lo, mut hi) = (*self as u32, (*self >> 32) as u32);
        c.varint(&mut lo);
        c.varint(&mut hi);
        if C::UNPACKS {
            *self = u64::from(lo) | u64::from(hi) << 32;
        }
    }
    #[inline]
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

/// Structs of fields, coded field after field.
macro_rules! struct_field {
    ($($t:ident { $($f:ident),* })*) => {$(
        impl Field for $t {
            #[inline]
            fn code<C: Coder>(&mut self, c: &mut C) {
                let $t { $($f),* } = self;
                $($f.code(c);)*
            }
            #[inline]
            fn same(&self, other: &Self) -> bool {
                let $t { $($f),* } = self;
                true $(&& $f.same(&other.$f))*
            }
        }
    )*};
}
struct_field! {
    Vec2 { x, y }
    Rot { c, s }
    Transform { p, q }
    Aabb { lower, upper }
    SimplexCache { count, index_a, index_b }
    ManifoldPoint {
        point, anchor_a, anchor_b, separation, normal_impulse, tangent_impulse,
        total_normal_impulse, normal_velocity, id, persisted
    }
}

#[cfg(feature = "large-world")]
use crate::pos::{Pos, WorldAabb, WorldTransform};
#[cfg(feature = "large-world")]
struct_field! {
    Pos { x, y }
    WorldTransform { p, q }
    WorldAabb { lower, upper }
}

impl<T: Field, const N: usize> Field for [T; N] {
    #[inline]
    fn code<C: Coder>(&mut self, c: &mut C) {
        for v in self {
            v.code(c);
        }
    }
    #[inline]
    fn same(&self, other: &Self) -> bool {
        self.iter().zip(other).all(|(a, b)| a.same(b))
    }
}

/// Codes `v` as one bit when it equals `guess` bit for bit, else as the bit
/// and the value.
#[inline]
pub(crate) fn guess<C: Coder, T: Field>(c: &mut C, v: &mut T, guess: T) {
    let mut hit = v.same(&guess);
    c.bit(&mut hit);
    if hit {
        if C::UNPACKS {
            *v = guess;
        }
    } else {
        v.code(c);
    }
}

/// Codes `v` as one bit when it equals `guess`, else as the bit and the
/// zigzag varint of its (wrapping, non-zero) difference from `guess`: one
/// byte more when they are within ±64.
#[inline(always)]
pub(crate) fn delta<C: Coder>(c: &mut C, v: &mut u32, guess: u32) {
    let mut same = *v == guess;
    c.bit(&mut same);
    if same {
        if C::UNPACKS {
            *v = guess;
        }
    } else {
        delta_miss(c, v, guess);
    }
}

/// [`delta`] when the guess missed: the difference as a varint.
#[inline(never)]
fn delta_miss<C: Coder>(c: &mut C, v: &mut u32, guess: u32) {
    let d = v.wrapping_sub(guess) as i32;
    // not zero, so its zigzag form is at least 1
    let mut z = (((d << 1) ^ (d >> 31)) as u32).wrapping_sub(1);
    c.varint(&mut z);
    if C::UNPACKS {
        let z = z.wrapping_add(1);
        let d = ((z >> 1) as i32) ^ -((z & 1) as i32);
        *v = guess.wrapping_add(d as u32);
    }
}

/// Codes a float by the exclusive or of its bits with `guess`'s: two bits
/// for how many low bytes of it follow (one to four), then those bytes. A
/// guess with the value's sign and exponent saves a byte, a near one two or
/// three; exact whatever the guess.
#[inline(always)]
pub(crate) fn near<C: Coder>(c: &mut C, v: &mut f32, guess: f32) {
    let (mut x, mut tag) = near_tag(*v, guess);
    c.bits(&mut tag, 2);
    c.low_bytes(&mut x, tag + 1);
    if C::UNPACKS {
        *v = f32::from_bits(x ^ guess.to_bits());
    }
}

/// The exclusive or of `v`'s bits with `guess`'s, and [`near`]'s tag for
/// it: how many low bytes of it are needed, less one (0 to 3), with no
/// branch (three compares: cheaper than a leading-zero count without
/// `lzcnt`).
#[inline(always)]
pub(crate) fn near_tag(v: f32, guess: f32) -> (u32, u32) {
    let x = v.to_bits() ^ guess.to_bits();
    let tag = u32::from(x > 0xff) + u32::from(x > 0xffff) + u32::from(x > 0xff_ffff);
    (x, tag)
}

/// [`near`] for both coordinates of a world position (with `large-world`,
/// `f64`: a plain [`guess`]).
#[inline]
pub(crate) fn near_pos<C: Coder>(c: &mut C, v: &mut crate::pos::Pos, g: crate::pos::Pos) {
    #[cfg(not(feature = "large-world"))]
    {
        near(c, &mut v.x, g.x);
        near(c, &mut v.y, g.y);
    }
    #[cfg(feature = "large-world")]
    guess(c, v, g);
}

/// [`near`] for a rotation's cosine and sine.
#[inline]
pub(crate) fn near_rot<C: Coder>(c: &mut C, v: &mut Rot, guess: Rot) {
    near(c, &mut v.c, guess.c);
    near(c, &mut v.s, guess.s);
}

/// Guesses for a group of fields that usually all hold: one bit when they
/// all do, else that bit and each field's own [`guess`].
#[inline]
pub(crate) fn guess_all<C: Coder, T: Field, const N: usize>(c: &mut C, fields: [(&mut T, T); N]) {
    let mut all = fields.iter().all(|(v, g)| v.same(g));
    c.bit(&mut all);
    for (v, g) in fields {
        if all {
            if C::UNPACKS {
                *v = g;
            }
        } else {
            guess(c, v, g);
        }
    }
}

/// Codes a vector: its length (the unpacker resizes it, filling with
/// `blank`), then each element by `code(coder, element, previous, index)`,
/// the previous element being `blank` for the first.
pub(crate) fn elements<C: Coder, T: Clone>(
    c: &mut C,
    v: &mut Vec<T>,
    blank: &T,
    mut code: impl FnMut(&mut C, &mut T, &T, u32),
) {
    let mut n = v.len() as u32;
    c.varint(&mut n);
    if C::UNPACKS {
        v.resize(n as usize, blank.clone());
    }
    for i in 0..v.len() {
        let (done, rest) = v.split_at_mut(i);
        code(c, &mut rest[0], done.last().unwrap_or(blank), i as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes a fixed mix of fields: guesses that hold and that fail, deltas
    /// at the ends of the range, odd floats, a string.
    fn code_all<C: Coder>(c: &mut C, v: &mut ([u32; 6], [f32; 4], [u64; 2], String, Vec<u16>)) {
        let (ints, floats, wide, text, list) = v;
        for (i, x) in ints.iter_mut().enumerate() {
            delta(c, x, [0, u32::MAX, 5, 7, u32::MAX, 1 << 31][i]);
        }
        guess(c, &mut floats[0], 1.5);
        guess(c, &mut floats[1], 0.0);
        floats[2].code(c);
        guess(c, &mut floats[3], f32::NAN);
        for w in wide.iter_mut() {
            guess(c, w, 3);
        }
        c.text(text);
        elements(c, list, &9, |c, x, p, _| guess(c, x, *p));
    }

    #[test]
    fn every_field_comes_back_bit_for_bit() {
        let nan = f32::from_bits(0x7fc0_1234);
        let mut saved = (
            [0, u32::MAX, 0, 1 << 31, 12345, 0x7fff_ffff],
            [1.5, -0.0, nan, f32::from_bits(1)],
            [3, u64::MAX],
            "ünïcode".to_string(),
            vec![9, 9, 70, 70, 65535],
        );
        let original = saved.clone();
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        code_all(&mut p, &mut saved);
        p.finish();
        // The packer left the values as they were.
        assert_eq!(format!("{saved:?}"), format!("{original:?}"));
        // Hits cost a bit: 1.5 and the two 9s and one 70 and the 3.
        assert_eq!(bits.len(), 1);
        let mut loaded = (
            [7; 6],
            [9.0; 4],
            [0, 0],
            "something else".to_string(),
            vec![1; 9],
        );
        let mut u = Unpacker::new(&bytes, &bits, &joints);
        code_all(&mut u, &mut loaded);
        assert!(u.at_end());
        assert_eq!(loaded.0, original.0);
        let b = |f: &[f32; 4]| f.map(f32::to_bits);
        assert_eq!(b(&loaded.1), b(&original.1));
        assert_eq!(
            (loaded.2, &loaded.3, &loaded.4),
            (original.2, &original.3, &original.4)
        );
    }

    #[test]
    fn near_floats_and_grouped_guesses_come_back_bit_for_bit() {
        let nan = f32::from_bits(0x7fc0_1234);
        let values = [
            0.0,
            -0.0,
            1.0,
            1.000_000_1,
            -3.5e-20,
            f32::MAX,
            nan,
            f32::INFINITY,
        ];
        let guesses = [0.0, 0.0, 1.0, 1.0, 7.0, -f32::MAX, 0.0, f32::NAN];
        fn code<C: Coder>(c: &mut C, v: &mut ([f32; 8], [u32; 3]), guesses: &[f32; 8]) {
            for (x, g) in v.0.iter_mut().zip(guesses) {
                near(c, x, *g);
            }
            let [a, b, d] = &mut v.1;
            guess_all(c, [(a, 1), (b, 2), (d, 3)]);
        }
        for groups in [[1, 2, 3], [1, 5, 3]] {
            let mut saved = (values, groups);
            let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
            let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
            code(&mut p, &mut saved, &guesses);
            p.finish();
            let mut loaded = ([5.0; 8], [0; 3]);
            let mut u = Unpacker::new(&bytes, &bits, &joints);
            code(&mut u, &mut loaded, &guesses);
            assert!(u.at_end());
            assert_eq!(loaded.0.map(f32::to_bits), values.map(f32::to_bits));
            assert_eq!(loaded.1, groups);
        }
        // An exact guess costs one byte (and two bits), a sign apart four.
        for (v, g, n) in [
            (1.0, 1.0, 1),
            (f32::MAX, -f32::MAX, 4),
            (0.0, f32::MIN_POSITIVE, 3),
        ] {
            let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
            let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
            near(&mut p, &mut { v }, g);
            p.finish();
            assert_eq!(bytes.len(), n, "{v} against {g}");
        }
    }

    #[test]
    fn a_run_of_hits_costs_one_bit_and_a_miss_codes_the_run() {
        // a run whose second guess is made from the first field
        fn code<C: Coder>(c: &mut C, v: &mut (u32, u32, f32)) -> u32 {
            all_or_each!(c, |c| {
                delta(c, &mut v.0, 10);
                delta(c, &mut v.1, v.0 + 1);
                guess(c, &mut v.2, 0.5);
                v.0
            })
        }
        for (saved, bits_used, byte_count) in [
            ((10, 11, 0.5), 1, 0),
            // the first misses by 2 (one varint byte), the second is its guess
            ((12, 13, 0.5), 4, 1),
            // the float misses: its four bytes
            ((10, 11, -0.5), 4, 4),
        ] {
            let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
            let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
            let mut v = saved;
            assert_eq!(code(&mut p, &mut v), saved.0);
            assert_eq!(p.position(), bits_used + 8 * byte_count);
            p.finish();
            assert_eq!(bytes.len(), byte_count);
            let mut loaded = (0, 0, 9.0);
            let mut u = Unpacker::new(&bytes, &bits, &joints);
            assert_eq!(code(&mut u, &mut loaded), saved.0);
            assert!(u.at_end());
            assert_eq!(
                (loaded.0, loaded.1, loaded.2.to_bits()),
                (saved.0, saved.1, saved.2.to_bits())
            );
        }
    }

    #[test]
    fn reading_past_the_end_gives_zeros() {
        let mut u = Unpacker::new(&[0x80], &[], &[]);
        let (mut a, mut b, mut f) = (5u32, 5u32, true);
        u.varint(&mut a);
        u.word(&mut b);
        u.bit(&mut f);
        assert_eq!((a, b, f), (0, 0, false));
    }
}
