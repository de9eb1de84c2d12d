//! Every capability, listed once ([`capabilities!`]), in the spirit of rust-analyzer's
//! `handlers::all()`: the worker's engines and their dispatch, the CLI's analysis subcommands,
//! the viewer's pages and their module groups, the per-capability tests and [`with`] (a
//! generic function run for an [`Analysis`] known only at run time) are all generated from this
//! one list. Adding a capability is its folder, one line here, its CLI module
//! (`src/bin/memaudit/<name>.rs`: `Args` and `run`) and its page (its results view and its
//! `web::pages::Screen` impl).
//!
//! This module stands above the units (it names each one); nothing below them imports it.

use crate::capability::{Analysis, Capability, Demo};

/// Hands the list of capabilities to the macro `$then`, as `Variant name Type;` lines: the
/// [`Analysis`] variant, a snake_case name (the worker's field, the CLI's module, the test's
/// name) and the unit's type, after the tokens given after `$then` and a `;` (a `$` there lets
/// `$then` define a macro of its own). `$then` is a `macro_rules!` name in scope where this is
/// called.
#[macro_export]
macro_rules! capabilities {
    ($then:ident $($before:tt)*) => {
        $then! {
            $($before)* ;
            Audit audit $crate::release::ReleaseAudit;
            Rescore rescore $crate::audit::Rescore;
            Compare compare $crate::compare::Compare;
            Probe probe $crate::probe::Probe;
            Reclaim reclaim $crate::reclaim::Reclaim;
            Answers answers $crate::answers::Answers;
            Ablation ablation $crate::ablation::Ablation;
            Claims claims $crate::claims::Claims;
            Rules rules $crate::rules::Rules;
            TrecEval trec_eval $crate::ireval::TrecEval;
            Labels labels $crate::label_audit::Labels;
            Calibration calibration $crate::calibration::Calibration;
            Alignment alignment $crate::alignment::Alignment;
            Compliance compliance $crate::compliance::Compliance;
        }
    };
}

/// A generic function over a capability, to run for an [`Analysis`] known at run time
/// ([`with`]).
pub trait ForCapability {
    type Output;
    fn call<C: Capability>(self) -> Self::Output;
}

macro_rules! dispatch {
    (; $($variant:ident $name:ident $unit:ty;)+) => {
        /// Runs `f` for the capability of `analysis`.
        pub fn with<F: ForCapability>(analysis: Analysis, f: F) -> F::Output {
            match analysis {
                $(Analysis::$variant => f.call::<$unit>(),)+
            }
        }

        /// The list's capabilities by [`Capability::ANALYSIS`], in the list's order.
        pub const LISTED: &[Analysis] = &[$(<$unit as Capability>::ANALYSIS),+];
    };
}
capabilities!(dispatch);

/// A per-capability constant read for an [`Analysis`] known at run time.
macro_rules! constant {
    ($(#[$doc:meta])* $fn:ident: $ty:ty = $konst:ident) => {
        $(#[$doc])*
        pub fn $fn(analysis: Analysis) -> $ty {
            struct Read;
            impl ForCapability for Read {
                type Output = $ty;
                fn call<C: Capability>(self) -> $ty {
                    C::$konst
                }
            }
            with(analysis, Read)
        }
    };
}

constant!(
    /// [`Capability::STREAMS`] of `analysis`.
    streams: bool = STREAMS
);
constant!(
    /// [`Capability::SPLITS_INTERVALS`] of `analysis`.
    splits_intervals: bool = SPLITS_INTERVALS
);
constant!(
    /// [`Capability::DEMO`] of `analysis`.
    demo: &'static [Demo] = DEMO
);
constant!(
    /// [`Capability::TITLE`] of `analysis`.
    title: &'static str = TITLE
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_holds_every_analysis_once_under_its_own_name() {
        assert_eq!(LISTED.len(), Analysis::ALL.len());
        for (listed, a) in LISTED.iter().zip(Analysis::ALL) {
            assert_eq!(listed, a, "the list follows `Analysis`");
        }
        // Each line's variant is its unit's `ANALYSIS` (a line naming another unit is caught).
        struct Own;
        impl ForCapability for Own {
            type Output = (Analysis, &'static str);
            fn call<C: Capability>(self) -> (Analysis, &'static str) {
                (C::ANALYSIS, C::ABOUT)
            }
        }
        for &a in Analysis::ALL {
            let (own, about) = with(a, Own);
            assert_eq!(own, a);
            assert!(!about.is_empty(), "{a} says what it does");
        }
        assert!(streams(Analysis::TrecEval) && streams(Analysis::Rescore) && !streams(Analysis::Compare));
        assert!(splits_intervals(Analysis::Rescore) && !splits_intervals(Analysis::Labels));
    }
}
