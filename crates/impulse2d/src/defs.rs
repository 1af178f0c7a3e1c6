//! The one declaration every definition struct (`WorldDef`, `BodyDef`,
//! `ShapeDef`, `ChainDef`, `ExplosionDef`, `Filter`, …) goes through.

/// Declares a definition struct: the struct with its documented fields,
/// serde support behind the `serde` feature (a missing field takes its
/// default), and `Default` from the value written after each field
/// (`pub field: Type = default,`). A field may name its check
/// (`= default => check("what"),`: `check(value, "what")` gives the error);
/// the optional `pub fn validate(&self);` row (last) then writes
/// `validate`, which runs the checks in field order, so the first bad field
/// is the one named. The `impl Default for Name;` row carries the
/// doc of `default()` (its `Box2D:` tag, which scripts/api_parity.py reads as
/// `Name::default`).
macro_rules! def_struct {
    (@validate $name:ident [$($validate_meta:tt)*]
        $(
            $(#[$field_meta:meta])*
            pub $field:ident: $ty:ty = $default:expr $(=> $check:ident($what:literal))?,
        )*
    ) => {
        impl $name {
            $($validate_meta)*
            pub fn validate(&self) -> $crate::error::Result<()> {
                $($($check(self.$field, $what)?;)?)*
                Ok(())
            }
        }
    };

    (
        $(#[$meta:meta])*
        pub struct $name:ident { $($fields:tt)* }
        $(#[$default_meta:meta])* impl Default for $default_name:ident;
        $(#[$validate_meta:meta])* pub fn validate(&self);
    ) => {
        def_struct! {
            $(#[$meta])*
            pub struct $name { $($fields)* }
            $(#[$default_meta])* impl Default for $default_name;
        }
        def_struct!(@validate $name [$(#[$validate_meta])*] $($fields)*);
    };

    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                pub $field:ident: $ty:ty = $default:expr $(=> $check:ident($what:literal))?,
            )*
        }
        $(#[$default_meta:meta])* impl Default for $default_name:ident;
    ) => {
        $(#[$meta])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(default)
        )]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl Default for $name {
            $(#[$default_meta])*
            fn default() -> Self {
                $name {
                    $($field: $default,)*
                }
            }
        }
    };
}
