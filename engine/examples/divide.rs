//! Prints perft divides as JSON lines: `cargo run --release --example divide -- VARIANT DEPTH "POSITION"`.
//!
//! The variant is one of the built-in ones (`engine/variants.json`).

use tsume_engine::rules::perft;
use tsume_engine::{Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: divide VARIANT DEPTH POSITION");
        std::process::exit(2);
    }
    let all = Variant::list_from_json(tsume_engine::rules::variant::BUILTIN_JSON)
        .expect("variants.json reads");
    let Some(v) = all.iter().find(|v| v.name == args[1]) else {
        eprintln!("unknown variant {}", args[1]);
        std::process::exit(2);
    };
    let depth: u32 = args[2].parse().unwrap_or(1);
    let mut pos = match Position::from_fen(v, &args[3]) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let d = perft::divide(&mut pos, depth, &mut || true).unwrap_or_default();
    let total: u64 = d.iter().map(|x| x.1).sum();
    for (m, n) in &d {
        println!("{} {n}", pos.move_string(*m));
    }
    let secs = start.elapsed().as_secs_f64();
    println!("total {total} ({:.0} nodes/s)", total as f64 / secs);
}
