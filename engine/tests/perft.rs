//! Perft of the benchmark positions against the counts of the package's former
//! Python engine (an independent implementation of the same rules).

use tsume_engine::rules::perft;
use tsume_engine::{Position, Variant};

fn variant(name: &str) -> Variant {
    Variant::list_from_json(tsume_engine::rules::variant::BUILTIN_JSON)
        .unwrap()
        .into_iter()
        .find(|v| v.name == name)
        .unwrap()
}

fn count(name: &str, fen: &str, depth: u32) -> u64 {
    let mut p = Position::from_fen(&variant(name), fen).unwrap();
    let n = perft::perft(&mut p, depth);
    assert_eq!(p.ply(), 0);
    n
}

#[test]
fn ito_positions() {
    assert_eq!(count("ito", "k3fg1hc2tp5PT2CH1GF3K b -", 4), 13_456);
    assert_eq!(count("ito", "2k1p2+f3h4c2G5PT2K1 b TCHfg", 3), 210_643);
    assert_eq!(count("ito", "1k1t1g4c3+h3P3C2F1K3 w HGtpf", 2), 4_444);
    assert_eq!(count("ito", "1t1k17C1G5K1 b 2PTH2F", 3), 16_316);
}

#[test]
fn rutherford_positions() {
    assert_eq!(count("rutherford", "klsnbp9PBNSLK b -", 6), 86_371);
    assert_eq!(count("rutherford", "2k3b1n4P2L3+S2K1 b BNLsp", 2), 5_464);
}

#[test]
fn divide_sums_to_perft() {
    let mut p = Position::from_fen(&variant("rutherford"), "2k3b1n4P2L3+S2K1 b BNLsp").unwrap();
    let d = perft::divide(&mut p, 2, &mut || true).unwrap();
    assert_eq!(d.len(), 102);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 5_464);
}
