import { useDeferredValue, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import {
  api,
  collectionKey,
  gridThumbnailSrc,
  markShownAfterPaint,
  tileSize,
  type CollectionChoices,
  type NftFilter,
  type NftGrid,
  type ServiceNft,
} from '../../api';
import { useRefreshCooldown } from '../../hooks/useCountdown';
import { useI18n } from '../../i18n';
import { NoMatch, SEARCH_FROM, SearchField } from '../../components/Search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Skeleton } from '../../components/Skeleton';
import { VirtualList } from '../../components/VirtualList';
import { AccountSwitcher } from '../accounts/AccountSwitcher';
import { useWalletAccounts } from '../accounts/useWalletAccounts';
import { shownAccount, useChosenAccount } from '../../hooks/useAccount';
import { NftDetail } from './NftDetail';
import { useNftTiles } from './useNftTiles';
import { Thumb } from './Thumb';

/** The grid's columns (as `.grid` in styles.css) and a row's height with its gap
 * in the 400 px window, until the first rows are measured. */
const COLUMNS = 2;
const ROW_ESTIMATE = 228;
/** The longest the chain's read waits for the first row of thumbnails, in ms. */
const FIRST_ROW_WAIT = 1000;

/** A promise and what resolves it. */
function signal() {
  let resolve = () => {};
  const promise = new Promise<void>((go) => {
    resolve = go;
  });
  return { promise, resolve };
}


/** The person's collection choices, as sets to look keys up in. */
interface Choices {
  hidden: Set<string>;
  shown: Set<string>;
}
const NO_CHOICES: Choices = { hidden: new Set(), shown: new Set() };
const choicesOf = (got: CollectionChoices): Choices => ({ hidden: new Set(got.hidden), shown: new Set(got.shown) });

/** Left out of the grid: its collection hidden by the person, or likely spam
 * whose collection they did not choose to see. */
const hiddenBy = (choices: Choices, key: string, likelySpam: boolean) =>
  choices.hidden.has(key) || (likelySpam && !choices.shown.has(key));

export function Nfts() {
  const { t } = useI18n();
  // The grid the app keeps: which one, and how many NFTs it has.
  const [grid, setGrid] = useState<NftGrid | null>(null);
  // The shown account's NFTs only.
  const { accounts } = useWalletAccounts();
  const shownAddress = shownAccount(accounts ?? [], useChosenAccount());
  // The NFT whose detail shows, in full, and where in the grid it is.
  const [selected, setSelected] = useState<{ nft: ServiceNft; position: number } | null>(null);
  const { busy, error, run } = useAction();
  const cooldown = useRefreshCooldown('nfts');
  const page = useRef<HTMLElement>(null);

  // What the app has stored, or (`refresh`) what it reads from the chain, which
  // starts its cooldown. The same grid again changes nothing on the page.
  const load = (refresh: boolean) =>
    run(async () => {
      try {
        const got = await api.getNftGrid(refresh);
        setGrid((shown) => (shown?.version === got.version ? shown : got));
      } finally {
        if (refresh) void cooldown.sync();
      }
    });

  // On entry, show what is stored at once, then read the chain when the cooldown
  // allows: once the first row of thumbnails is drawn (the chain's answer, as
  // long as the stored one, would compete with them), at most a second later.
  // Once per visit, also when React runs effects twice (StrictMode).
  const [firstRowDrawn] = useState(signal);
  const enter = useEffectEvent(async () => {
    await load(false);
    await Promise.race([firstRowDrawn.promise, new Promise((go) => setTimeout(go, FIRST_ROW_WAIT))]);
    if ((await cooldown.sync()) === 0) await load(true);
  });
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    void enter();
  }, []);

  // Left out unless the person asks to see them: the collections they hid, and
  // likely spam (see `likelySpam`) unless they chose to show its collection.
  // The app applies them; the page keeps them for an NFT's detail.
  const [choices, setChoices] = useState<Choices>(NO_CHOICES);
  const [choicesRevision, setChoicesRevision] = useState(0);
  const choose = (got: CollectionChoices) => {
    setChoices(choicesOf(got));
    setChoicesRevision((r) => r + 1);
  };
  const [showHidden, setShowHidden] = useState(false);
  useEffect(() => {
    api.getCollectionChoices().then(
      (got) => setChoices(choicesOf(got)),
      () => undefined,
    );
  }, []);

  const [network, setNetwork] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  // Typing stays quick however many NFTs the app filters.
  const wanted = useDeferredValue(query);
  const filterOf: NftFilter = useMemo(
    () => ({
      ...(shownAddress === null ? {} : { account: shownAddress }),
      ...(network === null ? {} : { network }),
      ...(wanted.trim() === '' ? {} : { search: wanted }),
      ...(showHidden ? { showHidden } : {}),
    }),
    [shownAddress, network, wanted, showHidden],
  );
  const tiles = useNftTiles(grid?.version ?? null, filterOf, choicesRevision);
  const counts = tiles.counts;
  const matching = tiles.shownFilter ? (counts?.matching ?? 0) : null;

  // The first row's thumbnails drawn: what the desktop benchmark times.
  const firstRow = useRef(new Set<number>());
  const markedFirstRow = useRef(false);
  const settleFirstRow = (position: number) => {
    if (markedFirstRow.current) return;
    firstRow.current.add(position);
    if (firstRow.current.size >= Math.min(COLUMNS, counts?.matching ?? 0)) {
      markedFirstRow.current = true;
      markShownAfterPaint('nfts');
      firstRowDrawn.resolve();
    }
  };
  // Nothing to draw: the chain may be read at once.
  const nothingShown = matching === 0 || error !== null || tiles.error !== null;
  useEffect(() => {
    if (nothingShown) firstRowDrawn.resolve();
  }, [nothingShown, firstRowDrawn]);

  // A new filter shows its matches from the top.
  const filter = (apply: () => void) => {
    apply();
    tiles.fromTop();
    if (page.current) page.current.scrollTop = 0;
  };

  // The grid stays (hidden) under an NFT's detail; back from it, the grid is
  // where it was and the NFT's tile has the focus.
  const scrolled = useRef(0);
  const opened = useRef<number | null>(null);
  const open = (id: string, position: number) =>
    run(async () => {
      const nft = await api.getNftDetail(id);
      scrolled.current = page.current?.scrollTop ?? 0;
      setSelected({ nft, position });
    });
  useLayoutEffect(() => {
    if (selected || opened.current === null || !page.current) return;
    page.current.scrollTop = scrolled.current;
    page.current.querySelector<HTMLElement>(`.grid > [data-index="${opened.current}"] .tile`)?.focus();
    opened.current = null;
  }, [selected]);
  const detail = selected?.nft ?? null;
  const listed = counts?.listed ?? null;
  const hiddenCount = counts?.hidden ?? 0;
  const networks = counts?.networks ?? [];
  const shownError = error ?? tiles.error;

  return (
    <>
      {detail && selected && (
        <NftDetail
          nft={detail}
          hidden={hiddenBy(choices, collectionKey(detail.contract.network, detail.contract.address), detail.likelySpam)}
          onChoices={choose}
          onBack={() => {
            opened.current = selected.position;
            setSelected(null);
          }}
        />
      )}
      <main className="page" ref={page} hidden={detail !== null}>
        {accounts && accounts.length > 1 && <AccountSwitcher accounts={accounts} shown={shownAddress} />}
        <div className="toolbar">
          {networks.length > 1 ? (
            <div className="segmented" role="group" aria-label={t('nfts.network')}>
              {[null, ...networks].map((n) => (
                <button key={n ?? ''} aria-pressed={network === n} onClick={() => filter(() => setNetwork(n))}>
                  {n ?? t('nfts.allNetworks')}
                </button>
              ))}
            </div>
          ) : (
            <span />
          )}
          {hiddenCount > 0 && (
            <button id="nfts-hidden" type="button" className="link-button" aria-pressed={showHidden} onClick={() => filter(() => setShowHidden(!showHidden))}>
              {t(showHidden ? 'nfts.hideHidden' : 'nfts.showHidden', { count: hiddenCount })}
            </button>
          )}
          <button id="nfts-refresh" className="secondary" onClick={() => load(true)} disabled={busy || cooldown.seconds > 0}>
            {cooldown.seconds > 0 ? t('wallet.refreshIn', { seconds: cooldown.seconds }) : t('wallet.refresh')}
          </button>
        </div>
        {(listed ?? 0) >= SEARCH_FROM && (
          <SearchField id="nfts-search" label={t('nfts.search')} value={query} onChange={(q) => filter(() => setQuery(q))} />
        )}
        <ErrorNotice error={shownError} onRetry={() => load(false)} />
        {listed === null && !shownError && (
          <div className="grid" aria-busy="true">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={170} />
            ))}
          </div>
        )}
        {listed === 0 && !busy && <div className="card muted">{t('nfts.empty')}</div>}
        {listed !== null && listed > 0 && matching === 0 && wanted.trim() !== '' && (
          <NoMatch id="nfts-no-match" onClear={() => filter(() => setQuery(''))}>
            {t('nfts.noMatch', { query: wanted.trim() })}
          </NoMatch>
        )}
        {listed !== null && listed > 0 && matching === 0 && wanted.trim() === '' && <div className="card muted">{t('nfts.allHidden')}</div>}
        {counts !== null && counts.matching > 0 && (
          <VirtualList
            // A new filter is a new list, drawn from the top.
            key={`${network ?? ''}\n${wanted}\n${showHidden}`}
            className="grid"
            label={t('nfts.title')}
            count={counts.matching}
            columns={COLUMNS}
            estimate={ROW_ESTIMATE}
            itemKey={(position) => position}
            onRange={tiles.onRange}
            renderItem={(position) => {
              const nft = tiles.tileAt(position);
              // Asked for: a placeholder of the tile's size until it comes.
              if (nft === undefined) return <Skeleton height={170} />;
              return (
                // The title names it in full where the caption is cut short.
                <button className="tile" title={nft.name} onClick={() => void open(nft.id, position)}>
                  <Thumb
                    src={nft.picture === undefined ? null : gridThumbnailSrc(nft.picture, tileSize())}
                    name={nft.name}
                    video={nft.video === true}
                    spam={nft.spam === true}
                    onSettled={position < COLUMNS ? () => settleFirstRow(position) : undefined}
                  />
                  <span className="caption">
                    <span>{nft.name}</span>
                    {nft.scheme === 'ERC1155' && <span className="muted">×{nft.quantity}</span>}
                  </span>
                </button>
              );
            }}
          />
        )}
      </main>
    </>
  );
}
