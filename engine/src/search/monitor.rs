//! The search monitor: counts nodes and stops the search at its limits.
//!
//! A *node* is one expansion of a position by the search (one call of the
//! node search: its children generated and looked up, then searched until
//! its thresholds are reached).  Every node is counted, in nested searches
//! too; every [`TICK`] nodes, and exactly at the node limit and at the end
//! of a question's budget, the monitor looks at the clock, the cancel flag
//! and its hooks (the caller's interrupt check and progress report, which
//! run at most every [`POLL`] and at the progress interval).
//!
//! Once a limit is reached the search stays stopped: every later question
//! stops at its first node.  A *budget* bounds one question of a caller that
//! has an answer without it; spending it stops that question only.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Nodes between two looks at the clock and the flags.
pub const TICK: u64 = 1024;

/// The least time between two calls of the interrupt hook.
pub const POLL: Duration = Duration::from_millis(20);

const NO_BUDGET: u64 = u64::MAX;

/// Why a search stopped before its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node limit.
    Nodes,
    /// The time limit.
    Time,
    /// A search path longer than the depth limit.
    Depth(u32),
    /// [`Monitor::cancel_flag`] was set.
    Cancelled,
    /// The interrupt hook said stop (the caller keeps the reason).
    Interrupted,
    /// The current question's budget is spent: later questions go on.
    Budget,
}

impl Stop {
    /// The reason as a result reports it.
    pub fn reason(&self) -> String {
        match self {
            Stop::Nodes => "node limit".into(),
            Stop::Time => "time limit".into(),
            Stop::Depth(d) => format!("depth limit ({d} plies on the search path)"),
            Stop::Cancelled => "cancelled".into(),
            Stop::Interrupted => "interrupted".into(),
            Stop::Budget => "node budget".into(),
        }
    }
}

/// Why a question got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A limit or the question's budget.
    Stop(Stop),
    /// A bug: the search contradicted itself.
    Internal(String),
}

impl From<Stop> for Halt {
    fn from(s: Stop) -> Halt {
        Halt::Stop(s)
    }
}

/// What the caller is told of, and asked, while the search runs.
pub trait Hooks: Send {
    /// May the search go on?  (Called at most every [`POLL`].)
    fn keep_going(&mut self) -> bool {
        true
    }
    /// The search's progress, at the progress interval: nodes, time, table
    /// entries and the collections the table has had.  May the search go on?
    fn progress(
        &mut self,
        _nodes: u64,
        _elapsed: Duration,
        _entries: usize,
        _gc_runs: u64,
    ) -> bool {
        true
    }
}

/// No hooks.
pub struct NoHooks;
impl Hooks for NoHooks {}

/// The monitor.
pub struct Monitor {
    nodes: u64,
    climb_nodes: u64,
    next_tick: u64,
    node_limit: Option<u64>,
    started: Instant,
    budget_end: u64,
    stopped: Option<Stop>,
    // The flags, the time limit and the hooks, shared with the copies that
    // long table work polls.
    watch: Watch,
    progress_interval: Option<Duration>,
    next_progress: Instant,
    /// A progress report is due (the search makes it, with its table's size).
    pub(crate) progress_due: bool,
    /// The node count as of the last tick, readable from any thread.
    live: Arc<AtomicU64>,
}

impl Monitor {
    /// A monitor with a node limit and a time limit (either may be absent).
    pub fn new(node_limit: Option<u64>, time_limit: Option<Duration>) -> Monitor {
        let now = Instant::now();
        let mut m = Monitor {
            nodes: 0,
            climb_nodes: 0,
            next_tick: 0,
            node_limit,
            started: now,
            budget_end: NO_BUDGET,
            stopped: None,
            watch: Watch {
                cancel: Arc::new(AtomicBool::new(false)),
                // (A limit past the clock's range is no limit.)
                deadline: time_limit.and_then(|t| now.checked_add(t)),
                hooks: Arc::new(Mutex::new(Box::new(NoHooks))),
                interrupted: Arc::new(AtomicBool::new(false)),
                next_poll: now,
            },
            progress_interval: None,
            next_progress: now,
            progress_due: false,
            live: Arc::new(AtomicU64::new(0)),
        };
        m.next_tick = m.tick_after(0);
        m
    }

    /// Installs the caller's hooks; progress is reported every `interval` (None: never).
    pub fn set_hooks(&mut self, hooks: Box<dyn Hooks>, interval: Option<Duration>) {
        *lock(&self.watch.hooks) = hooks;
        self.progress_interval = interval;
        let now = Instant::now();
        self.next_progress = now.checked_add(interval.unwrap_or_default()).unwrap_or(now);
    }

    /// A flag that stops the search (from any thread) when set.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.watch.cancel.clone()
    }

    /// What work between two nodes (the table's growth and collections,
    /// a fraction of a second on a large table) polls to stop in time.
    pub fn watch(&self) -> Watch {
        let w = &self.watch;
        Watch {
            cancel: w.cancel.clone(),
            deadline: w.deadline,
            hooks: w.hooks.clone(),
            interrupted: w.interrupted.clone(),
            next_poll: Instant::now(),
        }
    }

    /// Nodes counted so far.
    #[inline(always)]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Of the nodes, those spent climbing from a first proof to an exact length.
    pub fn climb_nodes(&self) -> u64 {
        self.climb_nodes
    }

    /// Counts `nodes` nodes spent climbing to an exact length.
    pub fn add_climb(&mut self, nodes: u64) {
        self.climb_nodes += nodes;
    }

    /// The node count as of the last tick (every [`TICK`] nodes), readable
    /// from another thread while this one searches.
    pub fn live_nodes(&self) -> Arc<AtomicU64> {
        self.live.clone()
    }

    /// Time since the monitor was made.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The limit that stopped the search for good, if one did.
    pub fn stopped(&self) -> Option<&Stop> {
        self.stopped.as_ref()
    }

    fn tick_after(&self, nodes: u64) -> u64 {
        let mut next = (nodes | (TICK - 1)) + 1;
        if let Some(limit) = self.node_limit {
            if nodes <= limit && limit < next {
                next = limit;
            }
        }
        if nodes < self.budget_end && self.budget_end < next {
            next = self.budget_end;
        }
        next
    }

    /// Counts a node, unless a limit stops the search first.
    #[inline(always)]
    pub fn visit(&mut self) -> Result<(), Stop> {
        if self.nodes >= self.next_tick {
            self.tick()?;
        }
        self.nodes += 1;
        Ok(())
    }

    #[cold]
    fn tick(&mut self) -> Result<(), Stop> {
        self.live.store(self.nodes, Ordering::Relaxed);
        if let Some(stop) = &self.stopped {
            return Err(stop.clone());
        }
        let now = Instant::now();
        let stop = self.watch.flagged().or_else(|| {
            if self.node_limit.is_some_and(|limit| self.nodes >= limit) {
                Some(Stop::Nodes)
            } else {
                self.watch.timed_or_told(now)
            }
        });
        if let Some(stop) = stop {
            self.next_tick = 0;
            self.stopped = Some(stop.clone());
            return Err(stop);
        }
        self.next_tick = self.tick_after(self.nodes);
        if let Some(interval) = self.progress_interval {
            if now >= self.next_progress {
                self.next_progress = now.checked_add(interval).unwrap_or(now);
                self.progress_due = true;
            }
        }
        if self.nodes >= self.budget_end {
            return Err(Stop::Budget);
        }
        Ok(())
    }

    /// Stops the current question once `nodes` more nodes are spent (None: no budget).
    pub fn set_budget(&mut self, nodes: Option<u64>) {
        self.budget_end = nodes.map_or(NO_BUDGET, |n| self.nodes.saturating_add(n));
        if self.stopped.is_none() {
            self.next_tick = self.tick_after(self.nodes);
        }
    }

    /// The budget's end, to restore an enclosing question's budget.
    pub fn budget_end(&self) -> u64 {
        self.budget_end
    }

    /// Restores a budget's end saved by [`Monitor::budget_end`].
    pub fn restore_budget(&mut self, end: u64) {
        self.budget_end = end;
        if self.stopped.is_none() {
            self.next_tick = self.tick_after(self.nodes);
        }
    }

    /// Reports progress (due: [`Monitor::progress_due`]); stops the search if the hook says so.
    pub fn report(&mut self, entries: usize, gc_runs: u64) -> Result<(), Stop> {
        self.progress_due = false;
        let elapsed = self.started.elapsed();
        if lock(&self.watch.hooks).progress(self.nodes, elapsed, entries, gc_runs) {
            Ok(())
        } else {
            Err(self.stop(Stop::Interrupted))
        }
    }

    /// Stops the search for good with `stop` (the depth limit, found by the search itself).
    pub fn stop(&mut self, stop: Stop) -> Stop {
        self.next_tick = 0;
        self.stopped = Some(stop.clone());
        stop
    }
}

fn lock(hooks: &Mutex<Box<dyn Hooks>>) -> std::sync::MutexGuard<'_, Box<dyn Hooks>> {
    hooks.lock().unwrap_or_else(|p| p.into_inner())
}

/// The monitor's limits as work that counts no nodes sees them: the cancel
/// flag, the time limit and the interrupt hook (at most every [`POLL`]).
/// When the hook says stop, the monitor stops at its next tick.
pub struct Watch {
    cancel: Arc<AtomicBool>,
    deadline: Option<Instant>,
    hooks: Arc<Mutex<Box<dyn Hooks>>>,
    interrupted: Arc<AtomicBool>,
    next_poll: Instant,
}

impl Watch {
    /// Must the search stop?
    pub fn must_stop(&mut self) -> bool {
        self.flagged()
            .or_else(|| self.timed_or_told(Instant::now()))
            .is_some()
    }

    /// The cancel flag, or the hook's "stop" as a copy of this watch met it.
    fn flagged(&self) -> Option<Stop> {
        if self.cancel.load(Ordering::Relaxed) {
            Some(Stop::Cancelled)
        } else if self.interrupted.load(Ordering::Relaxed) {
            Some(Stop::Interrupted)
        } else {
            None
        }
    }

    /// The time limit, or the interrupt hook (asked at most every [`POLL`]);
    /// the hook's "stop" is kept for every copy of this watch.
    fn timed_or_told(&mut self, now: Instant) -> Option<Stop> {
        if self.deadline.is_some_and(|d| now >= d) {
            return Some(Stop::Time);
        }
        if now >= self.next_poll {
            self.next_poll = now.checked_add(POLL).unwrap_or(now);
            if !lock(&self.hooks).keep_going() {
                self.interrupted.store(true, Ordering::Relaxed);
                return Some(Stop::Interrupted);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(m: &mut Monitor, n: u64) -> Result<(), Stop> {
        for _ in 0..n {
            m.visit()?;
        }
        Ok(())
    }

    #[test]
    fn the_node_limit_is_exact_and_final() {
        let mut m = Monitor::new(Some(2500), None);
        assert_eq!(run(&mut m, 10_000), Err(Stop::Nodes));
        assert_eq!(m.nodes(), 2500);
        // Every later question stops at its first node.
        assert_eq!(m.visit(), Err(Stop::Nodes));
        assert_eq!(m.nodes(), 2500);
        assert_eq!(m.stopped(), Some(&Stop::Nodes));
    }

    #[test]
    fn a_budget_stops_one_question_only() {
        let mut m = Monitor::new(None, None);
        run(&mut m, 100).unwrap();
        m.set_budget(Some(50));
        assert_eq!(run(&mut m, 1000), Err(Stop::Budget));
        assert_eq!(m.nodes(), 150);
        m.set_budget(None);
        run(&mut m, 5000).unwrap();
        assert_eq!(m.nodes(), 5150);
    }

    #[test]
    fn the_node_limit_still_stops_a_budgeted_question() {
        let mut m = Monitor::new(Some(120), None);
        m.set_budget(Some(1000));
        assert_eq!(run(&mut m, 1000), Err(Stop::Nodes));
        assert_eq!(m.nodes(), 120);
    }

    #[test]
    fn the_time_limit_and_the_cancel_flag() {
        // The clock read before the monitor's own: the limit counts from the latter.
        let started = Instant::now();
        let mut m = Monitor::new(None, Some(Duration::from_millis(30)));
        let r = loop {
            if let Err(e) = m.visit() {
                break e;
            }
        };
        assert_eq!(r, Stop::Time);
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(30) && took < Duration::from_secs(2),
            "{took:?}"
        );
        let mut c = Monitor::new(None, None);
        c.cancel_flag().store(true, Ordering::Relaxed);
        assert_eq!(run(&mut c, 5000), Err(Stop::Cancelled));
    }

    struct Stopper(u32);
    impl Hooks for Stopper {
        fn keep_going(&mut self) -> bool {
            self.0 += 1;
            self.0 < 3
        }
    }

    #[test]
    fn a_time_limit_past_the_clock_is_no_limit() {
        let mut m = Monitor::new(None, Some(Duration::MAX));
        run(&mut m, 5000).unwrap();
    }

    #[test]
    fn a_watch_stops_the_monitor_it_came_from() {
        let mut m = Monitor::new(None, None);
        m.set_hooks(Box::new(Stopper(2)), None);
        let mut w = m.watch();
        assert!(w.must_stop());
        // The hook said stop once: the monitor stops at its next tick for good.
        assert_eq!(run(&mut m, 5000), Err(Stop::Interrupted));
        assert_eq!(m.stopped(), Some(&Stop::Interrupted));

        let c = Monitor::new(None, None);
        let mut w = c.watch();
        assert!(!w.must_stop());
        c.cancel_flag().store(true, Ordering::Relaxed);
        assert!(w.must_stop());

        let t = Monitor::new(None, Some(Duration::from_millis(5)));
        let mut w = t.watch();
        std::thread::sleep(Duration::from_millis(10));
        assert!(w.must_stop());
    }

    #[test]
    fn the_interrupt_hook_is_polled() {
        let mut m = Monitor::new(None, None);
        m.set_hooks(Box::new(Stopper(0)), None);
        let r = loop {
            if let Err(e) = m.visit() {
                break e;
            }
        };
        assert_eq!(r, Stop::Interrupted);
        assert_eq!(
            Stop::Depth(7).reason(),
            "depth limit (7 plies on the search path)"
        );
    }
}
