//! The statistics against SciPy / statsmodels on seeded random cases
//! (`tests/reference/stats/make_stats_reference.py` → `stats_reference.json`).

use memaudit::stats::{agreement, correlation, friedman, mcnemar, multiplicity, posterior, proportions};
use memaudit::stats::{studentized_range, wilcoxon};
use serde_json::Value;

fn reference() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/stats/stats_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn vecf(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(f).collect()
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: {a} vs {b}");
}

#[test]
fn wilson_and_clopper_pearson_match_statsmodels() {
    let r = reference();
    for c in r["proportions"].as_array().unwrap() {
        let (x, n, conf) = (f(&c["x"]), f(&c["n"]), f(&c["confidence"]));
        let w = proportions::wilson_interval(x, n, conf).unwrap();
        close(w.low, f(&c["wilson"][0]), 1e-9, "wilson low");
        close(w.high, f(&c["wilson"][1]), 1e-9, "wilson high");
        let cp = proportions::clopper_pearson_interval(x as u64, n as u64, conf).unwrap();
        close(cp.low, f(&c["clopper_pearson"][0]), 1e-8, "cp low");
        close(cp.high, f(&c["clopper_pearson"][1]), 1e-8, "cp high");
    }
}

#[test]
fn two_proportion_z_matches_statsmodels() {
    for c in reference()["two_proportion_z"].as_array().unwrap() {
        let t = proportions::two_proportion_z(f(&c["x1"]), f(&c["n1"]), f(&c["x2"]), f(&c["n2"])).unwrap();
        close(t.z, f(&c["z"]), 1e-9, "z");
        close(t.p, f(&c["p"]), 1e-9, "p");
    }
}

#[test]
fn mcnemar_matches_statsmodels() {
    for c in reference()["mcnemar"].as_array().unwrap() {
        let m = mcnemar::mcnemar(c["b"].as_u64().unwrap(), c["c"].as_u64().unwrap());
        close(m.exact_p, f(&c["exact_p"]), 1e-10, "exact");
        close(m.chi2_cc.unwrap(), f(&c["chi2_cc"]), 1e-9, "chi2 cc");
        close(m.p_chi2_cc.unwrap(), f(&c["p_cc"]), 1e-9, "p cc");
        close(m.chi2.unwrap(), f(&c["chi2"]), 1e-9, "chi2");
        close(m.p_chi2.unwrap(), f(&c["p"]), 1e-9, "p");
    }
}

#[test]
fn posterior_superiority_matches_quadrature() {
    for c in reference()["posterior_superiority"].as_array().unwrap() {
        let p = posterior::posterior_superiority(f(&c["s1"]), f(&c["n1"]), f(&c["s2"]), f(&c["n2"])).unwrap();
        close(p, f(&c["p"]), 1e-7, "P(θ1 > θ2)");
    }
}

#[test]
fn friedman_matches_scipy() {
    for c in reference()["friedman"].as_array().unwrap() {
        let blocks: Vec<Vec<f64>> = c["blocks"].as_array().unwrap().iter().map(vecf).collect();
        let r = friedman::friedman(&blocks, true).unwrap();
        close(r.chi2_tie_corrected, f(&c["chi2_tie_corrected"]), 1e-9, "chi2");
        close(r.p_tie_corrected, f(&c["p_tie_corrected"]), 1e-9, "p");
        assert_eq!(r.mean_ranks.len(), vecf(&c["mean_ranks"]).len(), "mean ranks");
        for (a, b) in r.mean_ranks.iter().zip(vecf(&c["mean_ranks"])) {
            close(*a, b, 1e-12, "mean rank");
        }
    }
}

#[test]
fn studentized_range_beyond_the_table() {
    for c in reference()["studentized_range"].as_array().unwrap() {
        let q = studentized_range::range_quantile(f(&c["p"]), c["k"].as_u64().unwrap() as usize).unwrap();
        close(q, f(&c["q"]), 2e-6, "q");
    }
}

#[test]
fn holm_and_bh_match_statsmodels() {
    for c in reference()["multiplicity"].as_array().unwrap() {
        let p = vecf(&c["p"]);
        assert_eq!((multiplicity::holm(&p).len(), multiplicity::benjamini_hochberg(&p).len()), (p.len(), p.len()));
        assert_eq!((vecf(&c["holm"]).len(), vecf(&c["bh"]).len()), (p.len(), p.len()));
        for (a, b) in multiplicity::holm(&p).iter().zip(vecf(&c["holm"])) {
            close(*a, b, 1e-12, "holm");
        }
        for (a, b) in multiplicity::benjamini_hochberg(&p).iter().zip(vecf(&c["bh"])) {
            close(*a, b, 1e-12, "bh");
        }
    }
}

#[test]
fn kappas_match_statsmodels() {
    let r = reference();
    for c in r["cohens_kappa"].as_array().unwrap() {
        let a: Vec<u64> = c["a"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        let b: Vec<u64> = c["b"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        close(agreement::cohens_kappa(&a, &b).unwrap().kappa, f(&c["kappa"]), 1e-12, "cohen");
    }
    for c in r["fleiss_kappa"].as_array().unwrap() {
        let counts: Vec<Vec<f64>> = c["counts"].as_array().unwrap().iter().map(vecf).collect();
        close(agreement::fleiss_kappa(&counts).unwrap().kappa, f(&c["kappa"]), 1e-12, "fleiss");
    }
}

#[test]
fn spearman_matches_scipy() {
    for c in reference()["spearman"].as_array().unwrap() {
        let (x, y) = (vecf(&c["x"]), vecf(&c["y"]));
        let rho = correlation::spearman(&x, &y).unwrap();
        close(rho, f(&c["rho"]), 1e-12, "rho");
        let ci = correlation::fisher_z_interval(rho, x.len(), 0.95).unwrap();
        close(ci.low, f(&c["fisher"][0]), 1e-9, "fisher low");
        close(ci.high, f(&c["fisher"][1]), 1e-9, "fisher high");
    }
}

#[test]
fn wilcoxon_matches_scipy() {
    for c in reference()["wilcoxon"].as_array().unwrap() {
        let w = wilcoxon::wilcoxon_signed_rank(&vecf(&c["d"])).unwrap();
        close(w.statistic, f(&c["statistic"]), 1e-12, "T");
        close(w.p, f(&c["p"]), 1e-9, &format!("p ({} method, n = {})", w.method, w.n));
    }
}
