//! `--k 1,5,10,60`: every table at the largest cutoff, the curve at each. The curve's point at
//! the largest k is the summary's mean; at k = 1 with binary relevance nDCG, Hit, MRR and top-1
//! coincide; each point equals a separate run at that k.

use crate::common;

use memaudit::audit::{Rescore, Subset};
use memaudit::capability::{Capability, assign_roles, quiet, run_once};
use memaudit::conventions::Settings;

fn report(settings: &Settings) -> memaudit::audit::Report {
    let files = assign_roles::<Rescore>(common::demo_files().into_iter().map(|f| (f, None)).collect()).unwrap();
    run_once::<Rescore>(&files, settings, &mut quiet()).unwrap().1
}

#[test]
fn the_curve_agrees_with_runs_at_each_cutoff() {
    let base = Settings { bootstrap: 0, ..Settings::default() };
    let multi = base.clone().with_cutoffs(&[10, 1, 5, 60]).unwrap();
    assert_eq!((multi.k, multi.curve.clone()), (60, vec![1, 5, 10, 60]));
    let r = report(&multi);
    assert_eq!(r.curve.len(), 4 * r.summary.len());
    for k in [1, 5, 10, 60] {
        let single = report(&Settings { k, ..base.clone() });
        assert!(single.curve.is_empty(), "one cutoff: no curve");
        for s in &single.summary {
            let c = r
                .curve
                .iter()
                .find(|c| c.k == k && c.system == s.system && c.target == s.target && c.subset == s.subset)
                .unwrap();
            assert_eq!(
                (c.n, c.ndcg, c.recall, c.hit, c.mrr, c.top1),
                (s.n, s.ndcg, s.recall, s.hit, s.mrr, s.top1),
                "k={k}"
            );
        }
    }
    // Every table is at the largest cutoff.
    assert_eq!(r.summary, report(&Settings { k: 60, ..base.clone() }).summary);
    for c in r.curve.iter().filter(|c| c.k == 1 && c.subset == Subset::All) {
        assert_eq!(c.ndcg, c.hit);
        assert_eq!(c.mrr, c.top1);
    }
    assert!(<Rescore as Capability>::render_text(&r).contains("k=1,5,10,60"));
    for bad in [&[5, 5][..], &[][..], &[0, 3][..]] {
        assert!(
            base.clone().with_cutoffs(bad).and_then(|s| { memaudit::capability::Validate::validate(&s) }).is_err(),
            "{bad:?}"
        );
    }
}
