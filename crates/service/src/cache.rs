//! A small map whose entries live for a fixed time, for the lookups every request
//! makes (app key, access token, session, account list). Bounded: when full, expired
//! entries go first, and if none has expired the map starts over.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct TtlCache<K, V> {
    ttl: Duration,
    capacity: usize,
    entries: Mutex<HashMap<K, (V, Instant)>>,
}

impl<K: Eq + Hash, V: Clone> TtlCache<K, V> {
    /// A cache whose entries live for `ttl`; a zero `ttl` caches nothing.
    pub fn new(ttl: Duration, capacity: usize) -> Self {
        Self {
            ttl,
            capacity: capacity.max(1),
            entries: Mutex::new(HashMap::new()),
        }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        self.get_at(key, Instant::now())
    }

    pub fn insert(&self, key: K, value: V) {
        self.insert_at(key, value, Instant::now());
    }

    fn get_at(&self, key: &K, now: Instant) -> Option<V> {
        if self.ttl.is_zero() {
            return None;
        }
        let entries = self.lock();
        let (value, at) = entries.get(key)?;
        (now.saturating_duration_since(*at) < self.ttl).then(|| value.clone())
    }

    fn insert_at(&self, key: K, value: V, now: Instant) {
        if self.ttl.is_zero() {
            return;
        }
        let mut entries = self.lock();
        if entries.len() >= self.capacity && !entries.contains_key(&key) {
            let ttl = self.ttl;
            entries.retain(|_, (_, at)| now.saturating_duration_since(*at) < ttl);
            if entries.len() >= self.capacity {
                entries.clear();
            }
        }
        entries.insert(key, (value, now));
    }

    pub fn remove(&self, key: &K) {
        self.lock().remove(key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, (V, Instant)>> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_can_be_removed_and_stay_bounded() {
        let ttl = Duration::from_secs(2);
        let cache = TtlCache::new(ttl, 2);
        let t0 = Instant::now();
        cache.insert_at("a", 1, t0);
        assert_eq!(cache.get_at(&"a", t0), Some(1));
        cache.remove(&"a");
        assert_eq!(cache.get_at(&"a", t0), None);
        cache.insert_at("a", 1, t0);
        cache.insert_at("b", 2, t0);
        cache.insert_at("c", 3, t0);
        assert!(cache.lock().len() <= 2);
        assert_eq!(cache.get_at(&"c", t0 + ttl / 2), Some(3));
        assert_eq!(cache.get_at(&"c", t0 + ttl), None);
        // A full map drops what has expired before anything live.
        cache.insert_at("d", 4, t0 + ttl);
        cache.insert_at("e", 5, t0 + ttl * 3);
        assert_eq!(cache.get_at(&"d", t0 + ttl * 3), None);
        assert_eq!(cache.get_at(&"e", t0 + ttl * 3), Some(5));
    }

    #[test]
    fn a_zero_ttl_caches_nothing() {
        let cache = TtlCache::new(Duration::ZERO, 8);
        cache.insert(1, 1);
        assert_eq!(cache.get(&1), None);
    }
}
