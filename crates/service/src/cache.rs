//! The read cache: answers to the lookups every request makes (app key, access
//! token, session, account list), remembered for a fixed time. A `moka` cache
//! bounded by entry count: when full, the least useful entries go, never the
//! whole map.

use std::borrow::Borrow;
use std::fmt;
use std::hash::Hash;
use std::time::Duration;

pub struct TtlCache<K, V> {
    ttl: Duration,
    /// `None` when `ttl` is zero: nothing is cached.
    entries: Option<moka::sync::Cache<K, V>>,
}

/// Says how full the cache is, never what is in it (tokens' claims, sessions).
impl<K, V> fmt::Debug for TtlCache<K, V>
where
    K: Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TtlCache")
            .field("ttl", &self.ttl)
            .field(
                "entries",
                &self.entries.as_ref().map_or(0, |c| c.entry_count()),
            )
            .finish()
    }
}

impl<K, V> TtlCache<K, V>
where
    K: Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    /// A cache of at most `capacity` entries that live for `ttl`; a zero `ttl`
    /// caches nothing.
    pub fn new(ttl: Duration, capacity: u64) -> Self {
        Self::weighed(ttl, capacity, |_| 1)
    }

    /// A cache whose entries weigh what `weigh` says (its size in some unit),
    /// at most `max_weight` in all, each living for `ttl`; a zero `ttl` caches
    /// nothing.
    pub fn weighed(ttl: Duration, max_weight: u64, weigh: fn(&V) -> u32) -> Self {
        let entries = (!ttl.is_zero()).then(|| {
            moka::sync::Cache::builder()
                .max_capacity(max_weight.max(1))
                .weigher(move |_: &K, value: &V| weigh(value))
                .time_to_live(ttl)
                .build()
        });
        Self { ttl, entries }
    }

    pub fn get<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.as_ref()?.get(key)
    }

    pub fn insert(&self, key: K, value: V) {
        if let Some(entries) = &self.entries {
            entries.insert(key, value);
        }
    }

    pub fn remove<Q>(&self, key: &Q)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        if let Some(entries) = &self.entries {
            entries.invalidate(key);
        }
    }

    /// How many entries are kept, once pending evictions are done.
    #[cfg(test)]
    pub fn len(&self) -> u64 {
        self.entries.as_ref().map_or(0, |entries| {
            entries.run_pending_tasks();
            entries.entry_count()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_and_can_be_removed() {
        let cache = TtlCache::new(Duration::from_millis(200), 8);
        cache.insert("a".to_owned(), 1);
        assert_eq!(cache.get("a"), Some(1));
        cache.remove("a");
        assert_eq!(cache.get("a"), None);
        cache.insert("b".to_owned(), 2);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(cache.get("b"), None);
    }

    #[test]
    fn a_full_cache_stays_bounded_without_starting_over() {
        let cache = TtlCache::new(Duration::from_secs(60), 100);
        for i in 0..1_000 {
            cache.insert(i, i);
        }
        let entries = cache.entries.as_ref().expect("caching");
        entries.run_pending_tasks();
        let count = entries.entry_count();
        assert!((1..=100).contains(&count), "{count} entries");
    }

    #[test]
    fn a_weighed_cache_stays_within_its_weight() {
        let cache = TtlCache::weighed(Duration::from_secs(60), 100, |v: &Vec<u8>| {
            u32::try_from(v.len()).unwrap_or(u32::MAX)
        });
        for i in 0..1_000u32 {
            cache.insert(i, vec![0; 10]);
        }
        let entries = cache.entries.as_ref().expect("caching");
        entries.run_pending_tasks();
        let weight = entries.weighted_size();
        assert!((10..=100).contains(&weight), "weight {weight}");
        assert!(entries.entry_count() <= 10);
    }

    #[test]
    fn a_zero_ttl_caches_nothing() {
        let cache = TtlCache::new(Duration::ZERO, 8);
        cache.insert(1, 1);
        assert_eq!(cache.get(&1), None);
    }
}
