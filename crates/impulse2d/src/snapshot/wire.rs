//! The byte encoding of snapshots: little-endian, field by field.
//!
//! [`Wire`] writes a value to a [`Writer`] and reads it back from a
//! [`Reader`], checking as it goes (lengths against the bytes left, booleans
//! 0 or 1, enum tags in range, UTF-8 names). Structs are listed field by
//! field with [`wire_struct!`], which destructures them without `..`: a
//! field added to a struct and not to its list is a compile error, so no
//! state is silently left out of a snapshot.

use crate::error::{Error, Result};

/// The error for a buffer that is not a valid snapshot.
pub(crate) fn bad(why: &'static str) -> Error {
    Error::InvalidData(why)
}

/// Collects the bytes of a snapshot.
#[derive(Default)]
pub(crate) struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }
}

/// Reads a snapshot's bytes; every read checks that enough bytes are left.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// The number of the world being restored: ids read from the buffer
    /// (in stored events) are stamped with it.
    pub world: u16,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], world: u16) -> Reader<'a> {
        Reader {
            bytes,
            pos: 0,
            world,
        }
    }

    /// Bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(bad("the buffer ends early (truncated)"));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    /// A collection length: it cannot exceed the bytes left (every element
    /// takes at least one byte), so a corrupt length never allocates much.
    pub(crate) fn len(&mut self) -> Result<usize> {
        let n = u32::get(self)? as usize;
        if n > self.remaining() {
            return Err(bad("a length exceeds the buffer"));
        }
        Ok(n)
    }
}

/// A value with a snapshot encoding.
pub(crate) trait Wire: Sized {
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader<'_>) -> Result<Self>;
}

macro_rules! wire_int {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Writer) {
                w.raw(&self.to_le_bytes());
            }
            fn get(r: &mut Reader<'_>) -> Result<Self> {
                Ok(<$t>::from_le_bytes(r.array()?))
            }
        }
    )*};
}
wire_int!(u8, u16, u32, u64, i32);

impl Wire for f32 {
    fn put(&self, w: &mut Writer) {
        self.to_bits().put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok(f32::from_bits(u32::get(r)?))
    }
}

#[cfg(feature = "large-world")]
impl Wire for f64 {
    fn put(&self, w: &mut Writer) {
        self.to_bits().put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok(f64::from_bits(u64::get(r)?))
    }
}

/// `usize` travels as a `u64`, so 32- and 64-bit machines read each other's
/// snapshots.
impl Wire for usize {
    fn put(&self, w: &mut Writer) {
        (*self as u64).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        usize::try_from(u64::get(r)?).map_err(|_| bad("a count does not fit this machine"))
    }
}

impl Wire for bool {
    fn put(&self, w: &mut Writer) {
        u8::from(*self).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        match u8::get(r)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bad("a flag is neither 0 nor 1")),
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Writer) {
        let n = u32::try_from(self.len()).expect("a store holds fewer than 2³² items");
        n.put(w);
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        let n = r.len()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::get(r)?);
        }
        Ok(v)
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, w: &mut Writer) {
        self.is_some().put(w);
        if let Some(x) = self {
            x.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok(if bool::get(r)? {
            Some(T::get(r)?)
        } else {
            None
        })
    }
}

impl<T: Wire, const N: usize> Wire for [T; N] {
    fn put(&self, w: &mut Writer) {
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        // in place, not through a `Vec` (an allocation per array: a contact
        // sim's points, a tree node's children)
        let mut failed = None;
        let items: [Option<T>; N] = std::array::from_fn(|_| match failed {
            Some(_) => None,
            None => T::get(r).map_err(|e| failed = Some(e)).ok(),
        });
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(items.map(|x| x.expect("every item was read")))
    }
}

impl Wire for String {
    fn put(&self, w: &mut Writer) {
        let n = u32::try_from(self.len()).expect("a name shorter than 4 GiB");
        n.put(w);
        w.raw(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        let n = r.len()?;
        String::from_utf8(r.take(n)?.to_vec()).map_err(|_| bad("a name is not UTF-8"))
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok((A::get(r)?, B::get(r)?))
    }
}

impl<A: Wire, B: Wire, C: Wire> Wire for (A, B, C) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
        self.2.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok((A::get(r)?, B::get(r)?, C::get(r)?))
    }
}

/// Implements [`Wire`] for a struct from the list of its fields, in order.
/// Fields after `skip` are not data (scratch buffers): they are not written
/// and come back as their `Default`. `check f` reads the struct and then
/// refuses it when `f(&value)` is an error (an invariant the engine indexes
/// by). `and refill` also implements [`Refill`](super::raw::Refill) from
/// the same list, field by field (the skipped fields are left as they are).
/// The destructuring has no `..`, so the lists must name every field.
macro_rules! wire_struct {
    ($ty:ty { $($f:ident),* $(,)? } $(skip { $($s:ident),* $(,)? })? and refill) => {
        $crate::snapshot::wire::wire_struct!($ty { $($f),* } $(skip { $($s),* })?);
        impl $crate::snapshot::raw::Refill for $ty {
            fn refill(&mut self, src: &Self) {
                let Self { $($f,)* $($($s: _,)*)? } = src;
                $( $crate::snapshot::raw::Refill::refill(&mut self.$f, $f); )*
            }
        }
    };
    ($ty:ty { $($f:ident),* $(,)? } $(skip { $($s:ident),* $(,)? })? $(check $check:path)?) => {
        impl $crate::snapshot::wire::Wire for $ty {
            fn put(&self, w: &mut $crate::snapshot::wire::Writer) {
                let Self { $($f,)* $($($s: _,)*)? } = self;
                $( $crate::snapshot::wire::Wire::put($f, w); )*
            }
            fn get(r: &mut $crate::snapshot::wire::Reader<'_>) -> $crate::error::Result<Self> {
                let value = Self {
                    $( $f: $crate::snapshot::wire::Wire::get(r)?, )*
                    $($( $s: Default::default(), )*)?
                };
                $( $check(&value)?; )?
                Ok(value)
            }
        }
    };
}
pub(crate) use wire_struct;

/// Implements [`Wire`] for a field-less enum as a one-byte tag, in the
/// order listed (tags are part of the format: append, never reorder). The
/// `match` is exhaustive: a new variant is a compile error until listed.
macro_rules! wire_enum {
    ($ty:ident { $($v:ident = $tag:literal),* $(,)? }) => {
        impl $crate::snapshot::wire::Wire for $ty {
            fn put(&self, w: &mut $crate::snapshot::wire::Writer) {
                let tag: u8 = match self { $($ty::$v => $tag,)* };
                $crate::snapshot::wire::Wire::put(&tag, w);
            }
            fn get(r: &mut $crate::snapshot::wire::Reader<'_>) -> $crate::error::Result<Self> {
                match <u8 as $crate::snapshot::wire::Wire>::get(r)? {
                    $($tag => Ok($ty::$v),)*
                    _ => Err($crate::snapshot::wire::bad(concat!("unknown ", stringify!($ty)))),
                }
            }
        }
    };
}
pub(crate) use wire_enum;
