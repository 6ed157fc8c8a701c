//! Lookup tables built from a [`Variant`] for one board length.
//!
//! Pieces are small ints: a *face* is numbered from 1 (each kind has its
//! unpromoted face and, unless it never flips, a promoted one, in the order of
//! the kinds) and a piece on the board is the *value* `face << 1 | colour`
//! (Black 0, White 1); 0 is an empty square.  Every table is indexed by those
//! ints, so the hot paths never look at a name.

use crate::rules::colour::Colour;
use crate::rules::error::{EngineError, Result};
use crate::rules::square::{bit, board_mask, Mask, Square};
use crate::rules::variant::{Face, PieceKind, RideMode, Stalemate, Variant};
use crate::rules::zobrist::Zobrist;

/// Stands for "unlimited" where a distance is compared.
pub const FAR: u8 = u8::MAX;

/// The most piece values (`face << 1 | colour`, face 0 unused).
pub const MAX_VALUES: usize = 64;

/// One ride of a piece value from one square: its landing squares in order.
#[derive(Clone, Copy, Debug)]
pub struct Path {
    start: u32,
    len: u8,
    /// How it reaches empty squares.
    pub move_mode: RideMode,
    /// How it reaches an enemy piece.
    pub capture: RideMode,
    /// Its landing squares.
    pub mask: Mask,
}

/// The ride attackers of one direction and stride, seen from the attacked square.
#[derive(Clone, Debug)]
pub struct RayGroup {
    /// `[k]`: the squares from which such a ride lands on `k`.
    pub lattice: Vec<Mask>,
    /// The attackers stand on lower squares than the target (the nearest is the highest bit).
    pub down: bool,
    /// `[v]`: how far value `v` captures the first piece met (0: not at all).
    pub slide_range: [u8; MAX_VALUES],
    /// `[v]`: how far value `v` captures the first piece beyond one screen.
    pub hop_range: [u8; MAX_VALUES],
    /// Does any value hop along this line?
    pub has_hop: bool,
}

impl RayGroup {
    /// The nearest square of a non-empty mask of this group's line.
    #[inline(always)]
    pub fn nearest(&self, m: Mask) -> Square {
        if self.down {
            crate::rules::square::highest(m)
        } else {
            crate::rules::square::lowest(m)
        }
    }
}

/// Everything a position needs, precomputed for one variant and board length.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The variant.
    pub variant: Variant,
    /// The number of squares.
    pub n: usize,
    n1: usize,
    /// The number of faces (numbered `1..=nfaces`).
    pub nfaces: usize,
    /// The number of piece values (`(nfaces + 1) * 2`).
    pub nvalues: usize,
    /// The number of kinds.
    pub nkinds: usize,
    /// The royal kind's index.
    pub royal_kind: usize,
    /// `[f]`: the kind of face `f`.
    pub face_kind: Vec<u8>,
    /// `[f]`: is face `f` a promoted one?
    pub face_promoted: Vec<bool>,
    /// `[f]`: the letter of face `f` (`P` or `+P`).
    pub face_letter: Vec<String>,
    /// `[f]`: the name of face `f`.
    pub face_name: Vec<String>,
    /// `[kind]`: its letter.
    pub kind_letter: Vec<char>,
    /// `[kind]`: how many the set holds.
    pub kind_count: Vec<u8>,
    /// `[kind]`: its unpromoted face.
    pub unpromoted_face: Vec<u8>,
    /// `[kind]`: its promoted face (0 if it never flips).
    pub promoted_face: Vec<u8>,
    /// `[kind]`: the faces it may be dropped as.
    pub drop_faces: Vec<Vec<u8>>,
    /// `[v]`: the value after it captures (turned over, a king stays).
    pub flip: [u8; MAX_VALUES],
    /// `[v]`: is it a king?
    pub royal: [bool; MAX_VALUES],
    /// `[v]`: the kind it becomes in hand.
    pub hand_kind: [u8; MAX_VALUES],
    /// `[v]`: has it at least one ride?
    pub rider: [bool; MAX_VALUES],
    leap_idx: Vec<u32>,
    leap_sq: Vec<u8>,
    path_idx: Vec<u32>,
    paths: Vec<Path>,
    path_sq: Vec<u8>,
    reach: Vec<Mask>,
    leap_reach: Vec<Mask>,
    leap_mask: Vec<Mask>,
    span: Vec<Mask>,
    leap_zone: Vec<Mask>,
    leap_from: Vec<u64>,
    /// `[colour]`: the ride attackers of that colour by line.
    pub ray_att: [Vec<RayGroup>; 2],
    /// All squares.
    pub board_mask: Mask,
    low: Vec<Mask>,
    high: Vec<Mask>,
    between: Vec<Mask>,
    /// The Zobrist keys.
    pub zobrist: Zobrist,
    /// The most pieces of one kind a hand can hold.
    pub max_count: usize,
    /// A drop may mate.
    pub drop_mate: bool,
    /// The stalemate rule makes a stalemating move illegal.
    pub stalemate_illegal: bool,
    /// The game repetition rule.
    pub repetition: bool,
    /// No drop behind or next to the own king.
    pub drop_king_limits: bool,
}

impl Tables {
    /// The tables of `variant` on a board of `n` squares.
    pub fn new(variant: &Variant, n: usize) -> Result<Tables> {
        variant.validate()?;
        if !variant.fits(n) {
            return Err(EngineError::Variant(format!(
                "variant {}: a board of {n} squares is outside {}..{}",
                variant.name, variant.min_length, variant.max_length
            )));
        }
        let n1 = n + 1;
        let kinds = &variant.kinds;
        let faces = Faces::of(kinds);
        let nfaces = faces.kind.len() - 1;
        let nvalues = (nfaces + 1) * 2;
        let moves = ValueMoves::build(kinds, &faces, n);
        let (leap_idx, leap_sq) = flatten(&moves.leaps);
        let rides = RideTable::build(&moves.paths, &moves.leap_mask);
        let (leap_zone, leap_from) = leap_attackers(&moves.leaps, nfaces, n1);
        let ray_att = [Colour::Black, Colour::White].map(|c| ray_groups(&faces.def, c, n));
        let drop_faces = (0..kinds.len())
            .map(|i| {
                let mut fs = vec![faces.unpromoted[i]];
                if variant.drop_promoted && faces.promoted[i] != 0 {
                    fs.push(faces.promoted[i]);
                }
                fs
            })
            .collect();
        let lines = Lines::new(n);
        let max_count: usize = kinds.iter().map(|k| k.count as usize).sum();
        let zobrist = Zobrist::new(
            &format!("{}/{n}", variant.name),
            nvalues,
            n1,
            kinds.len(),
            max_count,
        );
        Ok(Tables {
            variant: variant.clone(),
            n,
            n1,
            nfaces,
            nvalues,
            nkinds: kinds.len(),
            royal_kind: variant.royal_kind(),
            face_kind: faces.kind,
            face_promoted: faces.is_promoted,
            face_letter: faces.letter,
            face_name: faces.name,
            kind_letter: kinds
                .iter()
                .map(|k| k.letter.chars().next().unwrap_or('?'))
                .collect(),
            kind_count: kinds.iter().map(|k| k.count as u8).collect(),
            unpromoted_face: faces.unpromoted,
            promoted_face: faces.promoted,
            drop_faces,
            flip: moves.flip,
            royal: moves.royal,
            hand_kind: moves.hand_kind,
            rider: moves.rider,
            leap_idx,
            leap_sq,
            path_idx: rides.idx,
            paths: rides.paths,
            path_sq: rides.squares,
            reach: moves.reach,
            leap_reach: moves.leap_reach,
            leap_mask: moves.leap_mask,
            span: rides.span,
            leap_zone,
            leap_from,
            ray_att,
            board_mask: board_mask(n),
            low: lines.low,
            high: lines.high,
            between: lines.between,
            zobrist,
            max_count,
            drop_mate: variant.drop_mate,
            stalemate_illegal: variant.stalemate == Stalemate::Illegal,
            repetition: variant.repetition,
            drop_king_limits: variant.drop_king_limits,
        })
    }

    #[inline(always)]
    fn vs(&self, v: u8, s: Square) -> usize {
        v as usize * self.n1 + s as usize
    }

    /// The kind whose letter this is, either case (`P` and `p` are the Pawn).
    pub fn kind_index(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.kind_letter.iter().position(|&l| l == up)
    }

    /// The leap targets of value `v` on `s`, in the order of the face's leaps.
    #[inline(always)]
    pub fn leap_targets(&self, v: u8, s: Square) -> &[u8] {
        let i = self.vs(v, s);
        &self.leap_sq[self.leap_idx[i] as usize..self.leap_idx[i + 1] as usize]
    }

    /// The rides of value `v` on `s`.
    #[inline(always)]
    pub fn paths(&self, v: u8, s: Square) -> &[Path] {
        let i = self.vs(v, s);
        &self.paths[self.path_idx[i] as usize..self.path_idx[i + 1] as usize]
    }

    /// The landing squares of a ride, in order.
    #[inline(always)]
    pub fn path_squares(&self, p: &Path) -> &[u8] {
        &self.path_sq[p.start as usize..p.start as usize + p.len as usize]
    }

    /// The squares from which value `v` may attack `k` (leaps and capturing rides, whatever the occupancy).
    #[inline(always)]
    pub fn reach(&self, v: u8, k: Square) -> Mask {
        self.reach[self.vs(v, k)]
    }

    /// The part of [`Tables::reach`] from leaps.
    #[inline(always)]
    pub fn leap_reach(&self, v: u8, k: Square) -> Mask {
        self.leap_reach[self.vs(v, k)]
    }

    /// The leap targets of value `v` on `s` as a mask.
    #[inline(always)]
    pub fn leap_mask(&self, v: u8, s: Square) -> Mask {
        self.leap_mask[self.vs(v, s)]
    }

    /// Every square value `v` on `s` could move to, whatever the occupancy.
    #[inline(always)]
    pub fn span(&self, v: u8, s: Square) -> Mask {
        self.span[self.vs(v, s)]
    }

    /// The squares from which some piece of colour `c` leaps to `k`.
    #[inline(always)]
    pub fn leap_zone(&self, c: usize, k: Square) -> Mask {
        self.leap_zone[c * self.n1 + k as usize]
    }

    /// The set of values (bit `v`) of colour `c` that leap from `p` to `k`.
    #[inline(always)]
    pub fn leap_from(&self, c: usize, k: Square, p: Square) -> u64 {
        self.leap_from[(c * self.n1 + k as usize) * self.n1 + p as usize]
    }

    /// The squares strictly between `a` and `b` (`0..=n`).
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Mask {
        self.between[a as usize * self.n1 + b as usize]
    }

    /// The squares below `k` (`k` in `0..=n+1`).
    #[inline(always)]
    pub fn below(&self, k: usize) -> Mask {
        self.low[k]
    }

    /// The squares above `k` (`k` in `0..=n+1`).
    #[inline(always)]
    pub fn above(&self, k: usize) -> Mask {
        self.high[k]
    }

    /// Does value `v` on `s` capture on `t` along a ride, with occupancy `occ`?
    ///
    /// Only the squares strictly between count (a slide needs none occupied, a hop exactly one).
    #[inline]
    pub fn ride_hits(&self, v: u8, s: Square, t: Square, occ: Mask) -> bool {
        for p in self.paths(v, s) {
            if p.mask & bit(t) == 0 || p.capture == RideMode::None {
                continue;
            }
            let before = (occ & p.mask & self.between(s, t)).count_ones();
            let want = if p.capture == RideMode::Slide { 0 } else { 1 };
            if before == want {
                return true;
            }
        }
        false
    }
}

/// The faces of a variant's kinds, numbered from 1 in the order of the
/// kinds (each kind's unpromoted face, then its promoted one); index 0 is
/// unused, so a face indexes these lists directly.
struct Faces<'a> {
    /// `[f]`: its kind.
    kind: Vec<u8>,
    /// `[f]`: is it a promoted face?
    is_promoted: Vec<bool>,
    /// `[f]`: its letter (`P` or `+P`).
    letter: Vec<String>,
    /// `[f]`: its name.
    name: Vec<String>,
    /// `[f]`: its moves.
    def: Vec<Option<&'a Face>>,
    /// `[kind]`: its unpromoted face.
    unpromoted: Vec<u8>,
    /// `[kind]`: its promoted face (0 if it never flips).
    promoted: Vec<u8>,
}

impl<'a> Faces<'a> {
    fn of(kinds: &'a [PieceKind]) -> Faces<'a> {
        let mut f = Faces {
            kind: vec![0],
            is_promoted: vec![false],
            letter: vec![String::new()],
            name: vec![String::new()],
            def: vec![None],
            unpromoted: vec![],
            promoted: vec![],
        };
        for (i, k) in kinds.iter().enumerate() {
            f.push(i, k.letter.clone(), &k.unpromoted, false);
            f.unpromoted.push((f.kind.len() - 1) as u8);
            if let Some(p) = &k.promoted {
                f.push(i, format!("+{}", k.letter), p, true);
                f.promoted.push((f.kind.len() - 1) as u8);
            } else {
                f.promoted.push(0);
            }
        }
        f
    }

    fn push(&mut self, kind: usize, letter: String, face: &'a Face, promoted: bool) {
        self.kind.push(kind as u8);
        self.is_promoted.push(promoted);
        self.letter.push(letter);
        self.name.push(face.name.clone());
        self.def.push(Some(face));
    }
}

/// What each piece value does from each square (indexed `v * (n + 1) + s`),
/// and what it is by value.
struct ValueMoves {
    flip: [u8; MAX_VALUES],
    royal: [bool; MAX_VALUES],
    hand_kind: [u8; MAX_VALUES],
    rider: [bool; MAX_VALUES],
    /// `[v, s]`: the leap targets, in the face's order, once each.
    leaps: Vec<Vec<u8>>,
    /// `[v, s]`: each ride's landing squares in order, with its modes.
    paths: Vec<Vec<(Vec<u8>, RideMode, RideMode)>>,
    /// `[v, k]`: the squares from which `v` attacks `k` (leaps and capturing rides).
    reach: Vec<Mask>,
    /// `[v, k]`: the same by leaps only.
    leap_reach: Vec<Mask>,
    /// `[v, s]`: the leap targets as a mask.
    leap_mask: Vec<Mask>,
}

impl ValueMoves {
    fn build(kinds: &[PieceKind], faces: &Faces, n: usize) -> ValueMoves {
        let n1 = n + 1;
        let nvalues = faces.kind.len() * 2;
        let mut m = ValueMoves {
            flip: [0; MAX_VALUES],
            royal: [false; MAX_VALUES],
            hand_kind: [0; MAX_VALUES],
            rider: [false; MAX_VALUES],
            leaps: vec![vec![]; nvalues * n1],
            paths: vec![vec![]; nvalues * n1],
            reach: vec![0; nvalues * n1],
            leap_reach: vec![0; nvalues * n1],
            leap_mask: vec![0; nvalues * n1],
        };
        for f in 1..faces.kind.len() {
            let ki = faces.kind[f] as usize;
            let kind = &kinds[ki];
            let other = if faces.is_promoted[f] {
                faces.unpromoted[ki]
            } else {
                faces.promoted[ki]
            } as usize;
            let face = faces.def[f].expect("faces 1..=nfaces are defined");
            for c in [Colour::Black, Colour::White] {
                let v = f << 1 | c.index();
                m.royal[v] = kind.royal;
                // A king is never captured in legal play; a hand slot keeps a
                // bad pseudo-legal capture harmless (it is never dropped).
                m.hand_kind[v] = ki as u8;
                m.flip[v] = if kind.promoted.is_none() {
                    v
                } else {
                    other << 1 | c.index()
                } as u8;
                for s in 1..=n as i32 {
                    m.add_leaps(face, v, s, c.forward(), n);
                    m.add_rides(face, v, s, c.forward(), n);
                }
            }
        }
        m
    }

    fn add_leaps(&mut self, face: &Face, v: usize, s: i32, fw: i32, n: usize) {
        let n1 = n + 1;
        let idx = v * n1 + s as usize;
        let mut targets: Vec<u8> = vec![];
        for &off in &face.leaps {
            let t = s + off * fw;
            if (1..=n as i32).contains(&t) && !targets.contains(&(t as u8)) {
                targets.push(t as u8);
                self.reach[v * n1 + t as usize] |= bit(s as u8);
                self.leap_reach[v * n1 + t as usize] |= bit(s as u8);
                self.leap_mask[idx] |= bit(t as u8);
            }
        }
        self.leaps[idx] = targets;
    }

    fn add_rides(&mut self, face: &Face, v: usize, s: i32, fw: i32, n: usize) {
        let n1 = n + 1;
        let idx = v * n1 + s as usize;
        for ride in &face.rides {
            let step = ride.direction * fw * ride.stride;
            let limit = if ride.max_distance == 0 {
                i32::MAX
            } else {
                ride.max_distance
            };
            let mut path = vec![];
            let mut t = s + step;
            while (1..=n as i32).contains(&t) && (t - s).abs() <= limit {
                path.push(t as u8);
                if ride.capture != RideMode::None {
                    self.reach[v * n1 + t as usize] |= bit(s as u8);
                }
                t += step;
            }
            if !path.is_empty() {
                self.rider[v] = true;
                self.paths[idx].push((path, ride.move_mode, ride.capture));
            }
        }
    }
}

/// Lists of lists as one flat list and the start of each (a last index past the end).
fn flatten(lists: &[Vec<u8>]) -> (Vec<u32>, Vec<u8>) {
    let mut idx = vec![0u32];
    let mut flat = vec![];
    for l in lists {
        flat.extend_from_slice(l);
        idx.push(flat.len() as u32);
    }
    (idx, flat)
}

/// The rides of every value and square, flat.
struct RideTable {
    /// `[v, s]`: the first of its paths in `paths` (a last index past the end).
    idx: Vec<u32>,
    paths: Vec<Path>,
    /// The paths' landing squares, one after another.
    squares: Vec<u8>,
    /// `[v, s]`: every square a leap or a ride may land on.
    span: Vec<Mask>,
}

impl RideTable {
    fn build(lists: &[Vec<(Vec<u8>, RideMode, RideMode)>], leap_mask: &[Mask]) -> RideTable {
        let mut r = RideTable {
            idx: vec![0],
            paths: vec![],
            squares: vec![],
            span: leap_mask.to_vec(),
        };
        for (i, ps) in lists.iter().enumerate() {
            for (squares, mv, cap) in ps {
                let mask = squares.iter().fold(0, |m, &t| m | bit(t));
                r.span[i] |= mask;
                r.paths.push(Path {
                    start: r.squares.len() as u32,
                    len: squares.len() as u8,
                    move_mode: *mv,
                    capture: *cap,
                    mask,
                });
                r.squares.extend_from_slice(squares);
            }
            r.idx.push(r.paths.len() as u32);
        }
        r
    }
}

/// Leap attackers of each square by the square they stand on: `[c, k]`, the
/// squares from which a piece of colour `c` leaps to `k`; `[c, k, p]`, the
/// values that do so from `p` (one bit each).
fn leap_attackers(leaps: &[Vec<u8>], nfaces: usize, n1: usize) -> (Vec<Mask>, Vec<u64>) {
    let mut zone = vec![0; 2 * n1];
    let mut from = vec![0u64; 2 * n1 * n1];
    for c in 0..2 {
        for f in 1..=nfaces {
            let v = f << 1 | c;
            for p in 1..n1 {
                for &k in &leaps[v * n1 + p] {
                    zone[c * n1 + k as usize] |= bit(p as u8);
                    from[(c * n1 + k as usize) * n1 + p] |= 1 << v;
                }
            }
        }
    }
    (zone, from)
}

/// The ride attackers of colour `c`: for each stride and direction (seen
/// from the attacked square), the range at which each value captures the
/// first piece met (slide) or the first beyond one screen (hop).
fn ray_groups(faces: &[Option<&Face>], c: Colour, n: usize) -> Vec<RayGroup> {
    let mut groups: Vec<(i32, i32, [u8; MAX_VALUES], [u8; MAX_VALUES])> = vec![];
    for (f, face) in faces.iter().enumerate() {
        let Some(face) = face else { continue };
        let v = f << 1 | c.index();
        for ride in &face.rides {
            if ride.capture == RideMode::None {
                continue;
            }
            let d = -ride.direction * c.forward();
            let pos = match groups.iter().position(|g| g.0 == ride.stride && g.1 == d) {
                Some(p) => p,
                None => {
                    groups.push((ride.stride, d, [0; MAX_VALUES], [0; MAX_VALUES]));
                    groups.len() - 1
                }
            };
            let rng = if ride.max_distance == 0 {
                FAR
            } else {
                ride.max_distance.min(254) as u8
            };
            let g = &mut groups[pos];
            let target = if ride.capture == RideMode::Slide {
                &mut g.2
            } else {
                &mut g.3
            };
            target[v] = target[v].max(rng);
        }
    }
    groups.sort_by_key(|g| (g.0, g.1));
    groups
        .into_iter()
        .map(|(stride, d, slide_range, hop_range)| {
            let mut lattice = vec![0; n + 1];
            for (k, l) in lattice.iter_mut().enumerate().skip(1) {
                let mut t = k as i32 + d * stride;
                while (1..=n as i32).contains(&t) {
                    *l |= bit(t as u8);
                    t += d * stride;
                }
            }
            RayGroup {
                lattice,
                down: d < 0,
                slide_range,
                hop_range,
                has_hop: hop_range.iter().any(|&r| r != 0),
            }
        })
        .collect()
}

/// The squares below and above each square, and between any two.
struct Lines {
    low: Vec<Mask>,
    high: Vec<Mask>,
    between: Vec<Mask>,
}

impl Lines {
    fn new(n: usize) -> Lines {
        let n1 = n + 1;
        let bm = board_mask(n);
        // One entry past each end, so that "beyond the king" works for a king on square 1 or n.
        let low: Vec<Mask> = (0..=n + 1)
            .map(|k| board_mask(k.saturating_sub(1)) & bm)
            .collect();
        let high: Vec<Mask> = (0..=n + 1).map(|k| bm & !board_mask(k)).collect();
        let mut between = vec![0; n1 * n1];
        for a in 0..=n {
            for b in 0..=n {
                between[a * n1 + b] = low[a.max(b)] & high[a.min(b)];
            }
        }
        Lines { low, high, between }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::builtin;

    #[test]
    fn ito_faces_and_values() {
        let t = Tables::new(&builtin("ito"), 31).unwrap();
        assert_eq!(t.nfaces, 13);
        assert_eq!(t.nvalues, 28);
        assert_eq!(t.face_letter[1], "K");
        assert_eq!(t.face_letter[3], "+P");
        assert_eq!(t.face_kind[3], 1);
        // A Pawn (face 2) captures and becomes a Go-Between (face 3), colour kept.
        assert_eq!(t.flip[2 << 1 | 1], 3 << 1 | 1);
        assert_eq!(t.flip[1 << 1], 1 << 1);
        assert!(t.royal[2] && !t.royal[4]);
        assert_eq!(t.drop_faces[1], vec![2]);
    }

    #[test]
    fn leaps_and_rides() {
        let t = Tables::new(&builtin("ito"), 31).unwrap();
        // A Black king on 20 leaps to 19, 18 and 21 (forward is toward square 1).
        assert_eq!(t.leap_targets(2, 20), &[19, 18, 21]);
        assert_eq!(t.leap_targets(2, 1), &[2]);
        // A Black Flying Swallow (face 12) rides forward two squares at a time.
        let f = 12u8 << 1;
        assert_eq!(t.face_name[12], "Flying Swallow");
        let p = t.paths(f, 10);
        assert_eq!(p.len(), 1);
        assert_eq!(t.path_squares(&p[0]), &[8, 6, 4, 2]);
        assert_eq!(t.leap_targets(f, 10), &[11]);
        assert!(t.reach(f, 4) & bit(10) != 0);
        assert!(t.span(f, 10) & bit(11) != 0);
        assert!(t.ride_hits(f, 10, 4, 0));
        assert!(!t.ride_hits(f, 10, 4, bit(6)));
        assert!(t.ride_hits(f, 10, 4, bit(7))); // the stride ignores squares between
    }

    #[test]
    fn masks() {
        let t = Tables::new(&builtin("rutherford"), 9).unwrap();
        assert_eq!(t.board_mask, 0x1ff);
        assert_eq!(t.between(3, 7), bit(4) | bit(5) | bit(6));
        assert_eq!(t.between(7, 3), t.between(3, 7));
        assert_eq!(t.between(3, 4), 0);
        assert_eq!(t.below(3), bit(1) | bit(2));
        assert_eq!(t.above(8), bit(9));
        assert_eq!(t.above(0), t.board_mask);
        assert_eq!(t.below(10), t.board_mask);
        assert_eq!(t.drop_faces[1].len(), 2);
        // Rutherford's lance rides at most 8 squares.
        let lance = t.unpromoted_face[5] << 1;
        let r = Tables::new(&builtin("rutherford"), 20).unwrap();
        assert_eq!(r.path_squares(&r.paths(lance, 20)[0]).len(), 8);
    }

    #[test]
    fn lengths_and_limits() {
        assert!(Tables::new(&builtin("ito"), 30).is_err());
        assert!(Tables::new(&builtin("rutherford"), 8).is_err());
        assert!(Tables::new(&builtin("rutherford"), 64).is_ok());
        // The greatest stride and distance build (they land once, or all along).
        let mut v = builtin("rutherford");
        v.kinds[4].unpromoted.rides[0].stride = 64;
        v.kinds[4].unpromoted.rides[1].max_distance = i32::MAX;
        let t = Tables::new(&v, 64).unwrap();
        assert_eq!(t.paths(t.unpromoted_face[4] << 1, 1).len(), 1);
        assert_eq!(
            t.path_squares(&t.paths(t.unpromoted_face[4] << 1, 1)[0])
                .len(),
            31
        );
    }

    #[test]
    fn leap_attack_tables() {
        let t = Tables::new(&builtin("ito"), 31).unwrap();
        // A White king (value 3) on 10 leaps to 11, 12 and 9.
        assert!(t.leap_zone(1, 12) & bit(10) != 0);
        assert!(t.leap_from(1, 12, 10) >> 3 & 1 != 0);
        assert_eq!(t.ray_att[0].iter().filter(|g| g.has_hop).count(), 2);
    }
}
