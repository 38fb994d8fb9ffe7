//! Remembers recent delivery ids so that a replayed or re-sent delivery is acknowledged and
//! ignored. Bounded in size and age: the senders retry within hours, not days.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct ReplayGuard {
    seen: Mutex<(HashMap<String, Instant>, VecDeque<String>)>,
    capacity: usize,
    ttl: Duration,
}

impl ReplayGuard {
    pub fn new(capacity: usize, ttl: Duration) -> ReplayGuard {
        ReplayGuard {
            seen: Mutex::new((HashMap::new(), VecDeque::new())),
            capacity,
            ttl,
        }
    }

    /// True the first time an id is seen (within the window), false for a replay.
    pub fn first_time(&self, id: &str) -> bool {
        let now = Instant::now();
        let mut guard = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let (seen, order) = &mut *guard;
        while let Some(oldest) = order.front() {
            let expired = seen.get(oldest).is_none_or(|t| now - *t > self.ttl);
            if expired || order.len() > self.capacity {
                let oldest = order.pop_front().expect("front exists");
                seen.remove(&oldest);
            } else {
                break;
            }
        }
        if seen.contains_key(id) {
            return false;
        }
        seen.insert(id.to_string(), now);
        order.push_back(id.to_string());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_are_caught_and_the_memory_is_bounded() {
        let guard = ReplayGuard::new(2, Duration::from_secs(3600));
        assert!(guard.first_time("a"));
        assert!(!guard.first_time("a"));
        assert!(guard.first_time("b"));
        assert!(guard.first_time("c"));
        assert!(guard.first_time("d"));
        // "a" fell out of the bounded window.
        assert!(guard.first_time("a"));
    }
}
