//! The sign-flip permutation test and the subset-sum randomization test against SciPy
//! (`tests/reference/permutation`, made by `make_permutation_reference.py`).

use memaudit::stats::permutation::{FlipMethod, sign_flip_test, subset_sum_test};
use serde_json::Value;

fn reference() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/permutation/permutation_reference.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn exact_sign_flip_p_values_equal_scipy_permutation_test() {
    let r = reference();
    let cases = r["sign_flip"].as_array().unwrap();
    assert_eq!(cases.len(), 6);
    for c in cases {
        let d: Vec<f64> = c["d"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let got = sign_flip_test(&d, 0, 1).unwrap();
        assert_eq!(got.method, FlipMethod::Exact);
        assert!((got.p - c["p"].as_f64().unwrap()).abs() < 1e-12, "{d:?}: {} vs {}", got.p, c["p"]);
    }
}

#[test]
fn subset_sum_tails_equal_scipy_multivariate_hypergeometric() {
    let r = reference();
    for c in r["subset_sum"].as_array().unwrap() {
        let g = |k: &str| c[k].as_u64().unwrap();
        let t = subset_sum_test(g("n"), g("plus"), g("minus"), g("h"), c["s"].as_i64().unwrap()).unwrap();
        assert!((t.greater - c["greater"].as_f64().unwrap()).abs() < 1e-10, "{c}: {t:?}");
        assert!((t.less - c["less"].as_f64().unwrap()).abs() < 1e-10, "{c}: {t:?}");
    }
}

#[test]
fn monte_carlo_sign_flip_is_within_its_error_of_scipys_exact_value() {
    let r = reference();
    let c = &r["monte_carlo"];
    let d: Vec<f64> = c["d"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let want = c["p"].as_f64().unwrap();
    let got = sign_flip_test(&d, 40_000, 2026).unwrap();
    assert!(got.method == FlipMethod::MonteCarlo && got.resamples == 40_000);
    // Four standard errors of a proportion estimated from 40,000 draws.
    let se = (want * (1.0 - want) / 40_000.0).sqrt();
    assert!((got.p - want).abs() < 4.0 * se + 1.0 / 40_001.0, "{} vs {want}", got.p);
}
