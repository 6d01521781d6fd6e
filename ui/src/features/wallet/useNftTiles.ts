// The NFT grid's tiles as the page scrolls: the app keeps the NFTs and filters
// them; the page asks for the tiles in view, a few screens at a time, and
// keeps only the asks near the view. What the page holds is the same for a
// hundred NFTs and for a hundred thousand.
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { api, type NftFilter, type NftTile } from '../../api';
import { useAction } from '../../hooks/useAction';

/** Tiles asked for at once: 30 rows of two, some seven screens. */
export const TILES_PER_ASK = 60;
/** Asks kept: those nearest the view, the others asked again if needed. */
export const ASKS_KEPT = 6;

/** What the grid's toolbar says of the tiles the filter matches. */
export interface TileCounts {
  listed: number;
  hidden: number;
  networks: string[];
  matching: number;
}

interface Held extends TileCounts {
  /** The filter (and choices' revision) the tiles are of. */
  filterKey: string;
  version: string;
  /** Each ask's tiles by its number (`from / TILES_PER_ASK`). */
  asks: Map<number, NftTile[]>;
}

/** Drops the asks farthest from `center` until `ASKS_KEPT` are left. */
function keepNearest(asks: Map<number, NftTile[]>, center: number) {
  const far = [...asks.keys()].sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
  for (const ask of far.slice(0, Math.max(0, asks.size - ASKS_KEPT))) asks.delete(ask);
}

/**
 * The tiles of grid `version` (null until the app read it) that `filter`
 * matches; `revision` changes when the person's collection choices do.
 */
export function useNftTiles(version: string | null, filter: NftFilter, revision: number) {
  const filterKey = JSON.stringify([filter, revision]);
  const [held, setHeld] = useState<Held | null>(null);
  // Asks run in the background (the page's buttons stay as they are); the
  // last one's failure is shown.
  const { error, run } = useAction();
  // The grid and filter shown now, for answers that come back after a change.
  const latest = useRef({ filterKey, version });
  useLayoutEffect(() => {
    latest.current = { filterKey, version };
  });
  const inView = useRef({ first: 0, last: TILES_PER_ASK });
  const asking = useRef(new Set<string>());

  const ask = (number: number, asked: NftFilter, askedKey: string, askedVersion: string) => {
    const id = `${askedVersion}\n${askedKey}\n${number}`;
    if (asking.current.has(id)) return;
    asking.current.add(id);
    void run(async () => {
      try {
        const got = await api.getNftTiles(asked, number * TILES_PER_ASK, TILES_PER_ASK);
        // A newer filter, or grid, asks for its own.
        if (latest.current.filterKey !== askedKey || latest.current.version !== askedVersion || got.version !== askedVersion) return;
        setHeld((prev) => {
          const asks = new Map(prev !== null && prev.filterKey === askedKey && prev.version === got.version ? prev.asks : []);
          asks.set(number, got.tiles);
          keepNearest(asks, Math.floor(inView.current.first / TILES_PER_ASK));
          const { listed, hidden, networks, matching } = got;
          return { filterKey: askedKey, version: got.version, asks, listed, hidden, networks, matching };
        });
      } finally {
        asking.current.delete(id);
      }
    }, { busy: false });
  };

  /** Asks for what the items `first` up to `last` need and the grid lacks. */
  const askFor = useEffectEvent((first: number, last: number) => {
    if (version === null) return;
    const have = held !== null && held.filterKey === filterKey && held.version === version ? held.asks : new Map<number, NftTile[]>();
    const to = Math.max(first, last - 1);
    for (let n = Math.floor(first / TILES_PER_ASK); n <= Math.floor(to / TILES_PER_ASK); n++) {
      if (!have.has(n)) ask(n, filter, filterKey, version);
    }
  });

  // The list's items drawn (a new filter starts from the top): the ref for
  // the answers, the state for asking.
  const [range, setRange] = useState({ first: 0, last: TILES_PER_ASK });
  // A new grid, filter or place in it: the tiles in view, those held shown
  // until they come.
  useEffect(() => {
    askFor(range.first, range.last);
  }, [version, filterKey, range]);

  /** The list's items drawn changed. */
  const onRange = (first: number, last: number) => {
    inView.current = { first, last };
    setRange((r) => (r.first === first && r.last === last ? r : { first, last }));
  };

  /** Tile `index`, or undefined while it is asked for. */
  const tileAt = (index: number): NftTile | undefined =>
    held !== null && held.filterKey === filterKey ? held.asks.get(Math.floor(index / TILES_PER_ASK))?.[index % TILES_PER_ASK] : undefined;

  /** Starts a new filter from the top. */
  const fromTop = () => onRange(0, TILES_PER_ASK);

  const counts: TileCounts | null = held;
  return { counts, shownFilter: held?.filterKey === filterKey, tileAt, onRange, fromTop, error };
}
