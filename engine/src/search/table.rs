//! The transposition table: one array of entries, sized by the memory budget.
//!
//! Entries are placed by their board key with linear probing, so every entry
//! of one board lies in the run of used slots that starts at the board's
//! home slot: a lookup reads that run to its end and finds the position's
//! own entry and every other hand on the same board, whose proofs and
//! disproofs serve it by hand dominance ([`crate::search::hands`]).
//!
//! Beside each slot a 32-bit *tag* says whether it is used, which board and
//! which position (hashes of 15 bits each) it holds, and whether its entry
//! can serve other hands (a proof or disproof not kept to its own hand): a
//! lookup reads the tags of the run and only the entries that may answer,
//! however many other hands of its board the run holds.
//!
//! The array starts small and doubles as it fills, in place, up to the most
//! entries the budget allows: its memory is reserved for that many at once
//! and used as it grows ([`Slab`]), and each entry moves to where a copy into
//! a new array would put it ([`Table::grow`]).  Past that, a garbage collection drops the entries with the
//! least work below them until half the slots are free: first entries that
//! hold no proof, which any search may drop; proofs only when that is not
//! enough, and then every older proof is distrusted from that moment on
//! ([`crate::search::anchors`]).  A collection moves entries and sets, so it
//! bumps the table's *generation*: a node being searched looks its children
//! up again when the generation changed.
//!
//! Growing or collecting a large table takes a fraction of a second, longer
//! than a search may take to stop: that work polls the search's [`Watch`],
//! and when the search must stop it empties the table instead of finishing
//! (an empty table is always right; the stopped search answers nothing).

use crate::rules::hand::Hand;
use crate::search::anchors::Anchors;
use crate::search::bits::Bits;
use crate::search::entry::Entry;
use crate::search::key::Key;
use crate::search::line::Line;
use crate::search::mate_len::MateLen;
use crate::search::monitor::Watch;
use crate::search::numbers::PnDn;
use crate::search::result::{Disproof, Proof, Rep, SearchResult};
use crate::search::sets::{SetRef, Sets};
use crate::search::slab::Slab;

/// The proof number of a position looked up at a bound it has not been
/// searched to, but found not mated within a smaller one: likely not mated
/// within this one either, so a proof is looked for elsewhere first.
pub const DISPROVEN_BELOW_PN: PnDn = 4;

/// The fewest entries a table holds, whatever the budget.
pub const MIN_ENTRIES: usize = 4096;

/// The entries a table starts with.
const START_ENTRIES: usize = 8192;

/// The table fills to this fraction (eighths) before it grows or collects.
const FILL_EIGHTHS: usize = 4;

/// Slots between two polls of the watch while the table grows or collects.
const POLL_SLOTS: usize = 1 << 16;

/// Counts for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Entries in use.
    pub entries: usize,
    /// Slots allocated.
    pub capacity: usize,
    /// The most slots the budget allows.
    pub max_capacity: usize,
    /// Garbage collections run.
    pub gc_runs: u64,
    /// Lookups answered by another hand's result.
    pub dominance_hits: u64,
    /// Lookups, and the slots they read.
    pub lookups: u64,
    pub probes: u64,
    /// Bytes allocated for entries and sets.
    pub bytes: usize,
}

/// The table.
pub struct Table {
    slots: Slab<Entry>,
    tags: Slab<u32>,
    /// While the table grows: the new slots taken, and the old slots whose
    /// entries have yet to move (kept for the next growth).
    taken: Bits,
    moving: Bits,
    count: usize,
    max_capacity: usize,
    sets: Sets,
    set_words: usize,
    dominance: bool,
    watch: Option<Watch>,
    /// Growth or a collection was given up for the watch: the table is to be emptied.
    given_up: bool,
    generation: u64,
    gc_runs: u64,
    dominance_hits: u64,
    lookups: u64,
    probes: u64,
}

/// What a lookup found in a run: the position's own entry, and the first
/// entries of other hands that serve it with a proof and with a disproof.
#[derive(Default)]
struct Found {
    own: Option<usize>,
    proof: Option<usize>,
    disproof: Option<usize>,
}

/// The numbers a lookup at bound `b` takes from a position's own entry
/// `e` that neither proves nor disproves it there, if any.
fn guess(e: &Entry, b: MateLen) -> Option<(PnDn, PnDn)> {
    let open = e.open_bound();
    if open == Some(b) {
        return Some(e.numbers());
    }
    if e.disproof_bound().is_some() {
        // Not mated within a smaller bound: likely not within this one either.
        return Some((DISPROVEN_BELOW_PN, 1));
    }
    // Left open at a smaller bound: its numbers there are a better guess than (1, 1).
    open.filter(|&o| MateLen::ZERO <= o && o < b)
        .map(|_| e.numbers())
}

/// The size after `len` on the way to `max`: the sizes are `max` halved,
/// rounded up, so each is at most half the next and about double the last.
fn next_size(len: usize, max: usize) -> usize {
    let mut n = max;
    while n.div_ceil(2) > len {
        n = n.div_ceil(2);
    }
    n
}

/// The size a table starts with on its way to `max`: `max` halved, rounded
/// up, until it is at most [`START_ENTRIES`].
fn start_size(max: usize) -> usize {
    let mut start = max;
    while start > START_ENTRIES {
        start = start.div_ceil(2);
    }
    start
}

#[inline(always)]
fn home(bkey: u64, capacity: usize) -> usize {
    // Zobrist keys may leave the top bits empty: mix before taking the high part.
    let mixed = bkey.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((mixed as u128 * capacity as u128) >> 64) as usize
}

const TAG_USED: u32 = 1 << 31;
const TAG_OTHERS: u32 = 1 << 30;
const TAG_BOARD: u32 = 0x7fff << 15;
const TAG_POSITION: u32 = 0x7fff;

/// The board part of a tag.
#[inline(always)]
fn board_tag(bkey: u64) -> u32 {
    TAG_USED | ((bkey >> 20) as u32 & 0x7fff) << 15
}

/// The tag of a position (without [`TAG_OTHERS`]).
#[inline(always)]
fn position_tag(key: Key) -> u32 {
    board_tag(key.board) | (scramble(key.board ^ key.hand.packed()) >> 49) as u32 & TAG_POSITION
}

/// The tag of an entry as it stands.
#[inline(always)]
fn tag_of(e: &Entry) -> u32 {
    let others =
        (e.proof_len().is_some() && !e.p_exact()) || (e.disproof_bound().is_some() && !e.d_exact());
    position_tag(e.key()) | if others { TAG_OTHERS } else { 0 }
}

/// A hash of a key unrelated to its home slot (SplitMix64's finaliser).
#[inline]
fn scramble(x: u64) -> u64 {
    let mut z = x ^ 0x5851_f42d_4c95_7f2d;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Table {
    /// A table within `bytes` bytes (entries and sets; at least [`MIN_ENTRIES`]
    /// entries whatever the budget), reusing results for other hands if `dominance`.
    pub fn new(bytes: usize, dominance: bool) -> Table {
        let entry = std::mem::size_of::<Entry>() + 4;
        // An eighth for the sets; the entries get the rest, counting the old
        // array beside the new one while the table grows.
        let set_words = (bytes / 8 / 8).max(16 * 1024);
        // The last size is two thirds of the room; the sizes before it are its
        // halves (rounded up), so the old array beside the new one fits too.
        let room = (bytes - bytes / 8) / entry;
        // (Slots are numbered in 32 bits.)
        let max_capacity = (room * 2 / 3)
            .saturating_sub(2)
            .clamp(MIN_ENTRIES, u32::MAX as usize);
        let start = start_size(max_capacity);
        let slots = Slab::zeroed(max_capacity, start);
        let tags = Slab::zeroed(max_capacity, start);
        // (As much room as the system gives.)
        let max_capacity = max_capacity.min(slots.capacity()).min(tags.capacity());
        Table {
            slots,
            tags,
            taken: Bits::default(),
            moving: Bits::default(),
            count: 0,
            max_capacity,
            sets: Sets::new(set_words),
            set_words,
            dominance,
            watch: None,
            given_up: false,
            generation: 0,
            gc_runs: 0,
            dominance_hits: 0,
            lookups: 0,
            probes: 0,
        }
    }

    /// Lets growth and collections stop early for `watch` (emptying the table).
    pub fn set_watch(&mut self, watch: Watch) {
        self.watch = Some(watch);
    }

    /// Polls the watch every [`POLL_SLOTS`] slots of long work (`i` counts them).
    fn must_stop(&mut self, i: usize) -> bool {
        if i % POLL_SLOTS == POLL_SLOTS - 1 && self.watch.as_mut().is_some_and(|w| w.must_stop()) {
            self.given_up = true;
        }
        self.given_up
    }

    /// Forgets every entry and set, back to the starting size.
    fn empty(&mut self, anchors: &mut Anchors) {
        let start = start_size(self.max_capacity);
        self.slots.resize(0);
        self.tags.resize(0);
        self.slots.resize(start);
        self.tags.resize(start);
        self.sets = Sets::new(0);
        self.sets = Sets::new(self.set_words);
        self.count = 0;
        self.generation += 1;
        self.gc_runs += 1;
        self.given_up = false;
        anchors.collected();
    }

    /// Bumped by every change that moves entries or sets.
    #[inline(always)]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Statistics.
    pub fn stats(&self) -> TableStats {
        TableStats {
            entries: self.count,
            capacity: self.slots.len(),
            max_capacity: self.max_capacity,
            gc_runs: self.gc_runs,
            dominance_hits: self.dominance_hits,
            lookups: self.lookups,
            probes: self.probes,
            bytes: self.slots.len() * (std::mem::size_of::<Entry>() + 4) + self.sets.bytes(),
        }
    }

    /// Entries in use.
    pub fn len(&self) -> usize {
        self.count
    }

    /// No entry in use?
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// What the entries hold, for diagnostics: how many hold a proof, a
    /// disproof at any length, a disproof within a bound only (a
    /// repetition's too), and neither (positions left open).
    pub fn census(&self) -> [usize; 4] {
        let mut out = [0; 4];
        for e in self.slots.iter().filter(|e| !e.is_empty()) {
            let kind = if e.holds_proof() {
                0
            } else if e.disproof_bound().is_some_and(|d| !d.is_bounded()) {
                1
            } else if e.disproof_bound().is_some() || e.rep != 0 {
                2
            } else {
                3
            };
            out[kind] += 1;
        }
        out
    }

    /// The entries in use.
    #[cfg(test)]
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.slots.iter().filter(|e| !e.is_empty())
    }

    /// The longest run of used slots, and the most entries of one board.
    #[cfg(test)]
    pub fn crowding(&self) -> (usize, usize) {
        let mut longest = 0;
        let mut run = 0;
        for e in self.slots.iter() {
            if e.is_empty() {
                run = 0;
            } else {
                run += 1;
                longest = longest.max(run);
            }
        }
        let mut boards: std::collections::HashMap<u64, usize> = Default::default();
        for e in self.slots.iter().filter(|e| !e.is_empty()) {
            *boards.entry(e.bkey).or_default() += 1;
        }
        (longest, boards.values().copied().max().unwrap_or(0))
    }

    /// The slot of a position's entry, if it has one.
    #[inline]
    fn find(&self, key: Key) -> Option<usize> {
        let cap = self.slots.len();
        let want = position_tag(key);
        let mut i = home(key.board, cap);
        loop {
            let tag = self.tags[i];
            if tag == 0 {
                return None;
            }
            if tag & !TAG_OTHERS == want && self.slots[i].is_for(key) {
                return Some(i);
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// Starts loading the home slot of a board into the cache: the lookups
    /// of a node's children are independent, so their memory latencies
    /// overlap when all are asked for first.
    #[inline(always)]
    pub fn prefetch(&self, bkey: u64) {
        let i = home(bkey, self.slots.len());
        let tag = self.tags.as_ptr().wrapping_add(i) as *const i8;
        let entry = self.slots.as_ptr().wrapping_add(i) as *const i8;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint: it reads nothing and cannot fault,
        // whatever the address (here inside the tags and the slots).
        #[allow(unused_unsafe)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(tag);
            _mm_prefetch::<_MM_HINT_T0>(entry);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (tag, entry);
    }

    /// The entry of a position, if it has one.
    pub fn get(&self, key: Key) -> Option<&Entry> {
        self.find(key).map(|i| &self.slots[i])
    }

    /// Has the position an entry?
    pub fn known(&self, key: Key) -> bool {
        self.find(key).is_some()
    }

    /// A stored set: its bound, epoch and positions.
    #[inline]
    pub fn set(&self, r: SetRef) -> (MateLen, u32, &[u64]) {
        let (b, epoch, set) = self.sets.get(r);
        (MateLen::plies(b), epoch, set)
    }

    fn line_proof_holds(&self, e: &Entry, b: MateLen, line: &Line, floor: u32) -> Option<MateLen> {
        if e.lp == 0 {
            return None;
        }
        let (lp_b, epoch, rep) = self.set(e.lp);
        (lp_b <= b && epoch >= floor && line.contains_all(rep)).then_some(lp_b)
    }

    /// What the table knows of a position at bound `b`.
    pub fn lookup(&mut self, key: Key, b: MateLen, line: &Line, anchors: &Anchors) -> SearchResult {
        let found = self.scan(key, b, anchors);
        if let Some(i) = found.own {
            if let Some(r) = self.own_result(&self.slots[i], b, line, anchors.floor()) {
                return r;
            }
        }
        if let Some(j) = found.proof {
            self.dominance_hits += 1;
            let exact = false;
            return SearchResult::Proven(Proof {
                exact,
                ..self.slots[j].proof()
            });
        }
        if let Some(j) = found.disproof {
            self.dominance_hits += 1;
            let exact = false;
            return SearchResult::Disproven(Disproof {
                exact,
                ..self.slots[j].disproof()
            });
        }
        let (pn, dn) = found
            .own
            .and_then(|i| guess(&self.slots[i], b))
            .unwrap_or((1, 1));
        SearchResult::unknown(pn, dn)
    }

    /// Reads the run of a position's board: its own entry, and the first
    /// entries of other hands whose proof or disproof within `b` serves it.
    fn scan(&mut self, key: Key, b: MateLen, anchors: &Anchors) -> Found {
        let Key { board: bkey, hand } = key;
        let cap = self.slots.len();
        let floor = anchors.floor();
        let mut found = Found::default();
        let want = position_tag(key);
        let board = board_tag(bkey);
        let mut i = home(bkey, cap);
        self.lookups += 1;
        loop {
            let tag = self.tags[i];
            self.probes += 1;
            if tag == 0 {
                return found;
            }
            if tag & TAG_BOARD == board & TAG_BOARD {
                if tag & !TAG_OTHERS == want && self.slots[i].is_for(key) {
                    found.own = Some(i);
                } else if tag & TAG_OTHERS != 0 && self.dominance {
                    let e = &self.slots[i];
                    if e.bkey == bkey {
                        if found.proof.is_none()
                            && e.proven_within(b)
                            && !e.p_exact()
                            && e.p_epoch >= floor
                            && anchors.allows_other_hands(e.pa())
                            && hand.covers(e.proof_hand())
                        {
                            found.proof = Some(i);
                        } else if found.disproof.is_none()
                            && e.disproven_within(b)
                            && !e.d_exact()
                            && e.disproof_hand().covers(hand)
                        {
                            found.disproof = Some(i);
                        }
                    }
                }
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// The proof or disproof within `b` a position's own entry `e` gives on
    /// this line (proofs of epochs from `floor` up), if it gives one.
    fn own_result(&self, e: &Entry, b: MateLen, line: &Line, floor: u32) -> Option<SearchResult> {
        if e.proven_within(b) && e.p_epoch >= floor {
            return Some(SearchResult::Proven(e.proof()));
        }
        if let Some(len) = self.line_proof_holds(e, b, line, floor) {
            return Some(SearchResult::Proven(Proof {
                len,
                hand: Hand::EMPTY,
                exact: true,
                pa: true,
                rep: Rep::Stored(e.lp),
            }));
        }
        if e.disproven_within(b) {
            return Some(SearchResult::Disproven(e.disproof()));
        }
        if e.rep != 0 {
            let (bound, _, rep) = self.set(e.rep);
            if bound >= b && line.contains_all(rep) {
                return Some(SearchResult::Disproven(Disproof {
                    bound,
                    hand: Hand::EMPTY,
                    exact: true,
                    rep: Rep::Stored(e.rep),
                }));
            }
        }
        None
    }

    /// The proven length of a position's own entry usable on this line, if any.
    pub fn proof_length(&self, key: Key, line: &Line, anchors: &Anchors) -> Option<MateLen> {
        let e = &self.slots[self.find(key)?];
        let floor = anchors.floor();
        let own = e.proof_len().filter(|_| e.p_epoch >= floor);
        let on_line = self.line_proof_holds(e, MateLen::plies(i32::MAX - 1), line, floor);
        match (own, on_line) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    // --- stores -------------------------------------------------------------

    /// Makes room for one more entry and `words` words of sets: grows the
    /// table or collects garbage.  Returns whether proofs were dropped.
    fn make_room(&mut self, words: usize, anchors: &mut Anchors) -> bool {
        let mut dropped = false;
        if self.count + 1 > self.slots.len() * FILL_EIGHTHS / 8 {
            if self.slots.len() < self.max_capacity {
                self.grow();
            } else {
                dropped |= self.collect(anchors, words);
            }
        }
        if !self.given_up && self.sets.used() + words + 2 > self.sets.capacity() {
            self.compact_sets();
            if self.sets.used() + words + 2 > self.sets.capacity() / 2 {
                dropped |= self.collect(anchors, words);
            }
        }
        if self.given_up {
            self.empty(anchors);
            return true;
        }
        dropped
    }

    /// The slot of a position's entry, made if there is none (room made beforehand).
    fn slot(&mut self, key: Key, work: u64) -> usize {
        let cap = self.slots.len();
        let want = position_tag(key);
        let mut i = home(key.board, cap);
        loop {
            let tag = self.tags[i];
            if tag == 0 {
                let mut e = Entry::new(key);
                e.add_work(work);
                self.slots[i] = e;
                self.tags[i] = want;
                self.count += 1;
                return i;
            }
            if tag & !TAG_OTHERS == want && self.slots[i].is_for(key) {
                self.slots[i].add_work(work);
                return i;
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// Stores `result`, found by a search of `key` to bound `b`, resting on
    /// the line positions `rests_on` (empty: it holds on any line); returns
    /// it as a lookup here gives it (resting on its stored set, if any).
    ///
    /// A proof is not stored if proofs were dropped to make room for it (it
    /// may pass through one of them); anything else holds whatever was
    /// dropped.  A useless interposition is its parent's business: never
    /// stored.
    pub fn store(
        &mut self,
        key: Key,
        b: MateLen,
        result: SearchResult,
        rests_on: &[u64],
        work: u64,
        anchors: &mut Anchors,
    ) -> SearchResult {
        if self.make_room(rests_on.len(), anchors) && result.is_proven() {
            return result;
        }
        let i = self.slot(key, work);
        let e = &mut self.slots[i];
        let stored = match result {
            SearchResult::Unknown { pn, dn } => {
                e.set_open(b, pn, dn);
                return result;
            }
            SearchResult::Proven(p) if rests_on.is_empty() => {
                e.set_proof(
                    p.len,
                    p.hand,
                    p.exact,
                    p.pa,
                    anchors.epoch(),
                    anchors.floor(),
                );
                result
            }
            SearchResult::Disproven(d) if rests_on.is_empty() => {
                e.set_disproof(d.bound, d.hand, d.exact);
                result
            }
            // A result that rests on the line replaces the entry's last such one.
            SearchResult::Proven(p) => {
                let r = self.keep_set(i, p.len, anchors.epoch(), rests_on);
                self.slots[i].lp = r;
                SearchResult::Proven(Proof {
                    rep: Rep::Stored(r),
                    ..p
                })
            }
            SearchResult::Disproven(d) => {
                let r = self.keep_set(i, d.bound, 0, rests_on);
                self.slots[i].rep = r;
                SearchResult::Disproven(Disproof {
                    rep: Rep::Stored(r),
                    ..d
                })
            }
            SearchResult::Useless(_) => unreachable!("a useless interposition is not stored"),
        };
        self.tags[i] = tag_of(&self.slots[i]);
        stored
    }

    /// Stores the set of positions a result of the entry in slot `i` rests on.
    fn keep_set(&mut self, i: usize, b: MateLen, epoch: u32, set: &[u64]) -> SetRef {
        self.sets
            .alloc(i as u32, b.get(), epoch, set)
            .expect("room was made for the set")
    }

    // --- memory -----------------------------------------------------------

    /// Puts an entry taken out of its slot back from its home slot; returns where.
    fn reinsert(&mut self, e: Entry) -> usize {
        let cap = self.slots.len();
        let mut i = home(e.bkey, cap);
        while self.tags[i] != 0 {
            i += 1;
            if i == cap {
                i = 0;
            }
        }
        self.tags[i] = tag_of(&e);
        self.slots[i] = e;
        i
    }

    /// Empties slot `i`.
    fn clear_slot(&mut self, i: usize) {
        self.slots[i].clear();
        self.tags[i] = 0;
    }

    /// Grows the table in place.  Every entry goes where inserting the
    /// entries one by one, in slot order, into an empty array of the new
    /// size would put it, as a copy did: a first pass finds each entry's new
    /// slot (kept in its tag meanwhile), a second moves the entries there,
    /// following the chain when an entry's new slot holds one yet to move.
    fn grow(&mut self) {
        let old = self.slots.len();
        let n = next_size(old, self.max_capacity);
        let (mut taken, mut moving) = (
            std::mem::take(&mut self.taken),
            std::mem::take(&mut self.moving),
        );
        taken.reset(n);
        moving.reset(old);
        let mut stopped = false;
        for k in 0..old {
            if self.must_stop(k) {
                stopped = true;
                break;
            }
            if self.tags[k] == 0 {
                continue;
            }
            let mut i = home(self.slots[k].bkey, n);
            while taken.has(i) {
                i += 1;
                if i == n {
                    i = 0;
                }
            }
            taken.set(i);
            moving.set(k);
            self.tags[k] = i as u32;
        }
        if !stopped {
            self.slots.resize(n);
            self.tags.resize(n);
            // From the top down: an entry's new slot is about twice its old
            // one, so it is mostly free by then, and the moves run in order.
            for k in (0..old).rev() {
                if !moving.has(k) {
                    continue;
                }
                moving.unset(k);
                let (mut e, mut to) = (self.slots[k], self.tags[k] as usize);
                while to < old && moving.has(to) {
                    moving.unset(to);
                    let (next, next_to) = (self.slots[to], self.tags[to] as usize);
                    self.put(to, e);
                    (e, to) = (next, next_to);
                }
                self.put(to, e);
            }
            // The old slots no entry moved to are free.
            for k in (0..old).filter(|&k| !taken.has(k)) {
                self.clear_slot(k);
            }
        }
        (self.taken, self.moving) = (taken, moving);
    }

    /// Puts `e` in slot `i`, its sets told where it is.
    fn put(&mut self, i: usize, e: Entry) {
        self.tags[i] = tag_of(&e);
        self.slots[i] = e;
        self.claim_sets(i, &e);
    }

    /// Tells the sets of `e`, the entry in slot `i`, where their owner is
    /// (from the caller's copy: the slot may still be on its way to memory).
    #[inline]
    fn claim_sets(&mut self, i: usize, e: &Entry) {
        if e.rep != 0 {
            self.sets.set_owner(e.rep, i as u32);
        }
        if e.lp != 0 {
            self.sets.set_owner(e.lp, i as u32);
        }
    }

    /// Moves the live sets over the garbage ones.
    fn compact_sets(&mut self) {
        let slots = &mut self.slots;
        self.sets.compact(|owner, old, new| {
            let e = &mut slots[owner as usize];
            if e.is_empty() {
                false
            } else if e.rep == old {
                e.rep = new;
                true
            } else if e.lp == old {
                e.lp = new;
                true
            } else {
                false
            }
        });
        self.generation += 1;
    }

    /// Drops entries with the least work until half the slots and half the
    /// sets' words are free (those without a proof first); `words` more
    /// words of sets must then fit.  Returns whether proofs were dropped.
    fn collect(&mut self, anchors: &mut Anchors, words: usize) -> bool {
        let set_len = |sets: &Sets, r: SetRef| if r == 0 { 0 } else { sets.get(r).2.len() + 2 };
        // Priority classes: (holds a proof, log2 of its work); the lowest goes first.
        let class = |e: &Entry| {
            (e.holds_proof() as usize) * 65 + (64 - (e.work() + 1).leading_zeros() as usize)
        };
        let mut counts = [0usize; 130];
        let mut sizes = [0usize; 130];
        let mut live_words = 0;
        for k in 0..self.slots.len() {
            if self.must_stop(k) {
                return false;
            }
            let e = &self.slots[k];
            if e.is_empty() {
                continue;
            }
            let c = class(e);
            let w = set_len(&self.sets, e.rep) + set_len(&self.sets, e.lp);
            counts[c] += 1;
            sizes[c] += w;
            live_words += w;
        }
        let keep_entries = self.slots.len() * FILL_EIGHTHS / 8 / 2;
        let keep_words = (self.sets.capacity() / 2).saturating_sub(words);
        let mut entries = self.count;
        // Whole classes go until what is left fits; the last one partly.
        let mut cut = 0;
        while cut < 130 && (entries > keep_entries || live_words > keep_words) {
            entries -= counts[cut];
            live_words -= sizes[cut];
            cut += 1;
        }
        // Of the last class, keep what fits, chosen by a hash of the key and
        // not by slot (that would keep the entries of low home slots, and
        // collection after collection pile them into one long run).
        let last = cut.saturating_sub(1);
        let spare = keep_entries.saturating_sub(entries) as u128;
        let in_last = counts[last].max(1) as u128;
        let mut spare_words = keep_words.saturating_sub(live_words);
        let mut dropped_proofs = false;
        for i in 0..self.slots.len() {
            if self.must_stop(i) {
                return dropped_proofs;
            }
            let e = self.slots[i];
            if e.is_empty() {
                continue;
            }
            let c = class(&e);
            if c > last || cut == 0 {
                continue;
            }
            let w = set_len(&self.sets, e.rep) + set_len(&self.sets, e.lp);
            if c == last {
                let draw = scramble(
                    e.bkey ^ e.hand().packed() ^ self.gc_runs.wrapping_mul(0x2545_f491_4f6c_dd1d),
                ) >> 32;
                if (draw as u128 * in_last) >> 32 < spare && spare_words >= w {
                    spare_words -= w;
                    continue;
                }
            }
            dropped_proofs |= e.holds_proof();
            self.clear_slot(i);
            self.count -= 1;
        }
        self.compact_slots();
        if self.given_up {
            return dropped_proofs;
        }
        self.compact_sets();
        if dropped_proofs {
            anchors.collected();
        }
        self.gc_runs += 1;
        dropped_proofs
    }

    /// Closes the gaps that dropped entries left in the runs of used slots.
    fn compact_slots(&mut self) {
        let cap = self.slots.len();
        let Some(start) = self.tags.iter().position(|&t| t == 0) else {
            return;
        };
        for k in 1..=cap {
            if self.must_stop(k) {
                return;
            }
            let i = (start + k) % cap;
            if self.tags[i] == 0 {
                continue;
            }
            let e = self.slots[i];
            self.clear_slot(i);
            let j = self.reinsert(e);
            if j != i {
                self.claim_sets(j, &e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::hands::any_hand;

    fn len(n: i32) -> MateLen {
        MateLen::plies(n)
    }

    fn key(board: u64, hand: Hand) -> Key {
        Key { board, hand }
    }

    fn proven(len: MateLen, hand: Hand, exact: bool, pa: bool) -> SearchResult {
        SearchResult::Proven(Proof {
            len,
            hand,
            exact,
            pa,
            rep: Rep::None,
        })
    }

    fn disproven(bound: MateLen, hand: Hand, exact: bool) -> SearchResult {
        SearchResult::Disproven(Disproof {
            bound,
            hand,
            exact,
            rep: Rep::None,
        })
    }

    fn h(counts: &[u8]) -> Hand {
        Hand::from_counts(counts).unwrap()
    }

    fn table() -> (Table, Line, Anchors) {
        (Table::new(1 << 20, true), Line::new(), Anchors::new())
    }

    #[test]
    fn an_unknown_position_starts_at_one_one() {
        let (mut t, line, anchors) = table();
        assert_eq!(
            t.lookup(key(5, Hand::EMPTY), len(9), &line, &anchors),
            SearchResult::unknown(1, 1)
        );
    }

    #[test]
    fn a_proof_holds_for_larger_bounds_and_more_attacker_pieces() {
        let (mut t, line, mut anchors) = table();
        let mine = h(&[1, 1]);
        t.store(
            key(5, mine),
            len(7),
            proven(len(7), h(&[1, 0]), false, false),
            &[],
            10,
            &mut anchors,
        );
        assert!(t.lookup(key(5, mine), len(7), &line, &anchors).is_proven());
        assert!(t.lookup(key(5, mine), len(9), &line, &anchors).is_proven());
        assert!(!t.lookup(key(5, mine), len(5), &line, &anchors).is_proven());
        // Another hand on the board: at least the proof hand.
        let more = t.lookup(key(5, h(&[2, 0])), len(9), &line, &anchors);
        assert!(matches!(more, SearchResult::Proven(p) if !p.exact));
        assert!(!t
            .lookup(key(5, h(&[0, 3])), len(9), &line, &anchors)
            .is_proven());
        // Another board: nothing.
        assert!(!t.lookup(key(6, mine), len(9), &line, &anchors).is_proven());
        assert_eq!(t.stats().dominance_hits, 1);
    }

    #[test]
    fn an_exact_proof_serves_its_own_hand_only() {
        let (mut t, line, mut anchors) = table();
        t.store(
            key(5, h(&[1])),
            len(3),
            proven(len(3), Hand::EMPTY, true, false),
            &[],
            1,
            &mut anchors,
        );
        assert!(t
            .lookup(key(5, h(&[1])), len(3), &line, &anchors)
            .is_proven());
        assert!(!t
            .lookup(key(5, h(&[2])), len(3), &line, &anchors)
            .is_proven());
    }

    #[test]
    fn a_disproof_holds_for_smaller_bounds_and_fewer_attacker_pieces() {
        let (mut t, line, mut anchors) = table();
        t.store(
            key(5, h(&[1, 1])),
            len(9),
            disproven(len(9), h(&[1, 2]), false),
            &[],
            3,
            &mut anchors,
        );
        assert!(t
            .lookup(key(5, h(&[1, 1])), len(9), &line, &anchors)
            .is_disproven());
        assert!(t
            .lookup(key(5, h(&[1, 1])), len(3), &line, &anchors)
            .is_disproven());
        assert!(!t
            .lookup(key(5, h(&[1, 1])), len(11), &line, &anchors)
            .is_final());
        assert!(t
            .lookup(key(5, h(&[0, 2])), len(9), &line, &anchors)
            .is_disproven());
        assert!(!t
            .lookup(key(5, h(&[2, 0])), len(9), &line, &anchors)
            .is_final());
    }

    #[test]
    fn numbers_come_from_the_same_or_a_smaller_bound() {
        let (mut t, line, mut anchors) = table();
        t.store(
            key(5, Hand::EMPTY),
            len(7),
            SearchResult::unknown(3, 8),
            &[],
            1,
            &mut anchors,
        );
        assert_eq!(
            t.lookup(key(5, Hand::EMPTY), len(7), &line, &anchors),
            SearchResult::unknown(3, 8)
        );
        assert_eq!(
            t.lookup(key(5, Hand::EMPTY), len(9), &line, &anchors),
            SearchResult::unknown(3, 8)
        );
        assert_eq!(
            t.lookup(key(5, Hand::EMPTY), len(5), &line, &anchors),
            SearchResult::unknown(1, 1)
        );
        // Not mated within a smaller bound: looks harder to prove.
        t.store(
            key(5, Hand::EMPTY),
            len(7),
            disproven(len(7), Hand::EMPTY, true),
            &[],
            1,
            &mut anchors,
        );
        assert_eq!(
            t.lookup(key(5, Hand::EMPTY), len(9), &line, &anchors),
            SearchResult::unknown(DISPROVEN_BELOW_PN, 1)
        );
    }

    #[test]
    fn results_resting_on_the_line_hold_while_it_stands() {
        let (mut t, mut line, mut anchors) = table();
        line.push(100);
        line.push(200);
        let r = t.store(
            key(5, Hand::EMPTY),
            len(9),
            disproven(len(9), Hand::EMPTY, true),
            &[100, 200],
            1,
            &mut anchors,
        );
        let v = t.lookup(key(5, Hand::EMPTY), len(9), &line, &anchors);
        assert_eq!(
            v,
            SearchResult::Disproven(Disproof {
                bound: len(9),
                hand: Hand::EMPTY,
                exact: true,
                rep: r.rep()
            })
        );
        assert!(matches!(r.rep(), Rep::Stored(_)));
        line.pop();
        assert!(!t
            .lookup(key(5, Hand::EMPTY), len(9), &line, &anchors)
            .is_final());
        line.push(200);
        let lp = t.store(
            key(6, Hand::EMPTY),
            len(5),
            proven(len(5), Hand::EMPTY, true, true),
            &[200],
            1,
            &mut anchors,
        );
        assert_eq!(
            t.lookup(key(6, Hand::EMPTY), len(7), &line, &anchors).rep(),
            lp.rep()
        );
        assert_eq!(
            t.proof_length(key(6, Hand::EMPTY), &line, &anchors),
            Some(len(5))
        );
        line.pop();
        assert!(!t
            .lookup(key(6, Hand::EMPTY), len(7), &line, &anchors)
            .is_final());
        assert_eq!(t.proof_length(key(6, Hand::EMPTY), &line, &anchors), None);
    }

    #[test]
    fn proofs_of_older_epochs_are_not_used_below_an_anchor() {
        let (mut t, line, mut anchors) = table();
        t.store(
            key(5, h(&[1])),
            len(3),
            proven(len(3), h(&[1]), false, false),
            &[],
            1,
            &mut anchors,
        );
        anchors.push(77, Some(8), false);
        assert!(!t
            .lookup(key(5, h(&[1])), len(3), &line, &anchors)
            .is_proven());
        anchors.pop();
        assert!(t
            .lookup(key(5, h(&[1])), len(3), &line, &anchors)
            .is_proven());
        // Found under the anchor: used for other hands only if clear of anchor boards.
        anchors.push(77, Some(8), false);
        t.store(
            key(6, h(&[1])),
            len(3),
            proven(len(3), h(&[1]), false, true),
            &[],
            1,
            &mut anchors,
        );
        t.store(
            key(7, h(&[1])),
            len(3),
            proven(len(3), h(&[1]), false, false),
            &[],
            1,
            &mut anchors,
        );
        assert!(!t
            .lookup(key(6, h(&[2])), len(3), &line, &anchors)
            .is_proven());
        assert!(t
            .lookup(key(6, h(&[1])), len(3), &line, &anchors)
            .is_proven());
        assert!(t
            .lookup(key(7, h(&[2])), len(3), &line, &anchors)
            .is_proven());
        anchors.pop();
        assert!(t
            .lookup(key(6, h(&[2])), len(3), &line, &anchors)
            .is_proven());
    }

    #[test]
    fn growth_stays_within_the_budget_and_uses_it() {
        let entry = std::mem::size_of::<Entry>() + 4;
        let mut last = 0;
        for mb in [1usize, 5, 40, 100, 256, 300, 500, 1000] {
            let bytes = mb << 20;
            let room = bytes - bytes / 8;
            let t = Table::new(bytes, true);
            let max = t.stats().max_capacity;
            // Every step of the growth fits, the old array beside the new one.
            let mut len = t.slots.len();
            assert!(len <= START_ENTRIES);
            while len < max {
                let n = next_size(len, max);
                assert!(
                    n <= 2 * len && (len + n) * entry <= room,
                    "{mb} MB: {len} to {n}"
                );
                len = n;
            }
            // A larger budget gives a larger table (no power-of-two steps),
            // and the last size uses the room.
            assert!(max > last, "{mb} MB: {max} slots");
            assert!(
                max * entry * 3 / 2 > room - 8 * entry,
                "{mb} MB: {max} slots"
            );
            last = max;
        }
    }

    #[test]
    fn the_table_grows_then_collects_keeping_the_most_work() {
        let mut t = Table::new(0, true); // the smallest table
        let (line, mut anchors) = (Line::new(), Anchors::new());
        assert_eq!(t.stats().max_capacity, MIN_ENTRIES);
        let n = MIN_ENTRIES as u64 * 2;
        for k in 0..n {
            t.store(
                key(k * 7919, Hand::EMPTY),
                len(5),
                disproven(len(5), any_hand(), false),
                &[],
                k,
                &mut anchors,
            );
        }
        let s = t.stats();
        assert!(s.gc_runs > 0 && s.entries <= s.capacity * FILL_EIGHTHS / 8);
        // The last entries stored (the most work) are there; the first are gone.
        assert!(t
            .lookup(key((n - 1) * 7919, Hand::EMPTY), len(5), &line, &anchors)
            .is_disproven());
        assert!(!t
            .lookup(key(7919, Hand::EMPTY), len(5), &line, &anchors)
            .is_final());
        // No proof was dropped: the epoch did not move.
        assert_eq!(anchors.floor(), 0);
        // Every entry left is still found.
        let found = (0..n)
            .filter(|k| t.known(key(k * 7919, Hand::EMPTY)))
            .count();
        assert_eq!(found, t.len());
    }

    #[test]
    fn growth_stopped_by_the_watch_empties_the_table() {
        use crate::search::monitor::Monitor;
        use std::sync::atomic::Ordering;
        // A table large enough to grow past one poll of the watch.
        let mut t = Table::new(64 << 20, true);
        let (line, mut anchors) = (Line::new(), Anchors::new());
        let monitor = Monitor::new(None, None);
        t.set_watch(monitor.watch());
        let mut k = 0u64;
        while t.stats().capacity < 2 * POLL_SLOTS {
            t.store(
                key(k * 7919, Hand::EMPTY),
                len(5),
                disproven(len(5), any_hand(), false),
                &[],
                k,
                &mut anchors,
            );
            k += 1;
        }
        let (capacity, generation) = (t.stats().capacity, t.generation());
        assert!(t.known(key(0, Hand::EMPTY)));
        monitor.cancel_flag().store(true, Ordering::Relaxed);
        while t.stats().capacity == capacity && !t.is_empty() {
            t.store(
                key(k * 7919, Hand::EMPTY),
                len(3),
                proven(len(3), Hand::EMPTY, false, false),
                &[],
                k,
                &mut anchors,
            );
            if !t.known(key(k * 7919, Hand::EMPTY)) {
                break; // not stored
            }
            k += 1;
        }
        // The growth was given up: the table is empty and starts again, and
        // the proofs of before are distrusted.
        assert_eq!(t.len(), 0);
        assert!(t.stats().capacity < capacity);
        assert!(t.generation() > generation);
        assert!(anchors.floor() > 0);
        assert!(!t.known(key(0, Hand::EMPTY)));
        t.store(
            key(1, Hand::EMPTY),
            len(5),
            disproven(len(5), any_hand(), false),
            &[],
            1,
            &mut anchors,
        );
        assert!(t
            .lookup(key(1, Hand::EMPTY), len(5), &line, &anchors)
            .is_disproven());
    }

    #[test]
    fn collections_keep_the_runs_short_and_every_entry_findable() {
        // Entries of equal work are kept by a hash of their key, not their
        // slot: keeping low slots piled the survivors into one long run.
        let mut t = Table::new(0, true);
        let mut anchors = Anchors::new();
        let mut x: u64 = 0x1234_5678;
        let mut collections = 0;
        for k in 0..40_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let before = t.stats().gc_runs;
            t.store(
                key(x >> 2, Hand::EMPTY),
                len(5),
                disproven(len(5), Hand::EMPTY, false),
                &[],
                k % 1000,
                &mut anchors,
            );
            if t.stats().gc_runs == before {
                continue;
            }
            collections += 1;
            let cap = t.slots.len();
            let (longest, _) = t.crowding();
            assert!(
                longest < 100,
                "a run of {longest} after collection {collections}"
            );
            assert!(t.len() < cap / 2, "{} entries kept of {cap}", t.len());
            for i in 0..cap {
                let e = &t.slots[i];
                if !e.is_empty() {
                    // Every slot from its home to its own is used: linear probing finds it.
                    let mut j = home(e.bkey, cap);
                    while j != i {
                        assert!(!t.slots[j].is_empty());
                        j = (j + 1) % cap;
                    }
                }
            }
        }
        assert!(collections > 10);
    }

    #[test]
    fn proofs_go_last_and_then_start_an_epoch() {
        let mut t = Table::new(0, true);
        let (line, mut anchors) = (Line::new(), Anchors::new());
        let mut refused = 0;
        for k in 0..(MIN_ENTRIES as u64 * 2) {
            t.store(
                key(k * 7919, Hand::EMPTY),
                len(5),
                proven(len(5), Hand::EMPTY, true, false),
                &[],
                1,
                &mut anchors,
            );
            refused += !t.known(key(k * 7919, Hand::EMPTY)) as u32;
        }
        assert!(refused > 0 && anchors.floor() > 0);
        // Proofs kept from before the last collection are no longer used; later ones are.
        let kept_old = (0..MIN_ENTRIES as u64)
            .filter(|k| t.known(key(k * 7919, Hand::EMPTY)))
            .count();
        let used_old = (0..MIN_ENTRIES as u64)
            .filter(|k| {
                t.lookup(key(k * 7919, Hand::EMPTY), len(5), &line, &anchors)
                    .is_proven()
            })
            .count();
        assert!(kept_old > 0 && used_old == 0, "{kept_old} {used_old}");
        assert!(t
            .lookup(
                key((MIN_ENTRIES as u64 * 2 - 1) * 7919, Hand::EMPTY),
                len(5),
                &line,
                &anchors
            )
            .is_proven());
    }

    #[test]
    fn sets_survive_collections_and_compaction() {
        let mut t = Table::new(0, true);
        let (mut line, mut anchors) = (Line::new(), Anchors::new());
        line.push(1);
        line.push(2);
        let mut kept = vec![];
        for k in 0..(MIN_ENTRIES as u64 * 2) {
            let r = t.store(
                key(k * 7919, Hand::EMPTY),
                len(5),
                disproven(len(5), Hand::EMPTY, true),
                &[1, 2],
                k,
                &mut anchors,
            );
            kept.push(r);
        }
        assert!(t.stats().gc_runs > 0);
        let mut resting = 0;
        for k in 0..(MIN_ENTRIES as u64 * 2) {
            let v = t.lookup(key(k * 7919, Hand::EMPTY), len(5), &line, &anchors);
            if let Rep::Stored(r) = v.rep() {
                assert_eq!(t.set(r).2, &[1, 2]);
                resting += 1;
            }
        }
        assert_eq!(resting, t.len());
    }

    #[test]
    fn growth_puts_every_entry_where_a_copy_would() {
        // Keys crowded into runs (homes collide and wrap around the end).
        let mut t = Table::new(64 << 20, true);
        let mut anchors = Anchors::new();
        let mut x: u64 = 0x9e37_79b9;
        for round in 0..4 {
            while t.count < t.slots.len() * FILL_EIGHTHS / 8 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let board = if x % 3 == 0 { x % 97 } else { x };
                let hand = Hand::from_counts(&[(x >> 60) as u8]).unwrap();
                let rests: &[u64] = if x % 11 == 0 { &[1, 2] } else { &[] };
                t.store(
                    key(board, hand),
                    len(3),
                    disproven(len(3), hand, false),
                    rests,
                    x % 50,
                    &mut anchors,
                );
            }
            // What a copy into a new array gives: each entry, in slot order,
            // at the first free slot from its home.
            let n = next_size(t.slots.len(), t.max_capacity);
            let mut want: Vec<Option<Entry>> = vec![None; n];
            for (k, e) in t.slots.iter().enumerate() {
                if t.tags[k] != 0 {
                    let mut i = home(e.bkey, n);
                    while want[i].is_some() {
                        i = (i + 1) % n;
                    }
                    want[i] = Some(*e);
                }
            }
            t.grow();
            assert_eq!(t.slots.len(), n, "round {round}");
            for (i, w) in want.iter().enumerate() {
                match w {
                    None => assert!(t.tags[i] == 0 && t.slots[i].is_empty(), "slot {i}"),
                    Some(e) => {
                        assert!(t.slots[i].is_for(e.key()) && t.tags[i] == tag_of(e));
                        for r in [e.rep, e.lp] {
                            if r != 0 {
                                assert_eq!(t.sets.owner(r), i as u32);
                            }
                        }
                    }
                }
            }
        }
    }
}
