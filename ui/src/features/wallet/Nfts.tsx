import { useDeferredValue, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import {
  api,
  collectionKey,
  gridThumbnailSrc,
  markShownAfterPaint,
  thumbnailSrc,
  type CollectionChoices,
  type GridCollection,
  type GridNft,
  type NftGrid,
  type ServiceNft,
} from '../../api';
import { useRefreshCooldown } from '../../hooks/useCountdown';
import { useI18n } from '../../i18n';
import { SendNft } from '../send/SendNft';
import { NoMatch, SEARCH_FROM, SearchField, matches } from '../../components/Search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { Skeleton } from '../../components/Skeleton';
import { shortAddress } from '../../lib/format';
import { VirtualList } from '../../components/VirtualList';
import { AccountSwitcher } from '../accounts/AccountSwitcher';
import { useWalletAccounts } from '../accounts/useWalletAccounts';
import { isShown, shownAccount, useChosenAccount } from '../../hooks/useAccount';

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

/** Leaving the page (a tile scrolled away), a picture lets go of its image at
 * once: the element itself may wait for the page's next garbage collection, and
 * would hold the image that long. */
function releaseOnLeave(img: HTMLImageElement | null) {
  if (!img) return;
  return () => img.removeAttribute('src');
}

/** `src`: the thumbnail's address, null when the NFT has no picture; `onSettled`:
 * called once the picture has loaded or failed, or at once when there is none;
 * `spam`: marked as likely spam (shown when hidden ones are). */
function Thumb({
  src,
  name,
  video,
  spam = false,
  onSettled,
}: {
  src: string | null;
  name: string;
  video: boolean;
  spam?: boolean;
  onSettled?: () => void;
}) {
  const { t } = useI18n();
  const [broken, setBroken] = useState(false);
  const picture = src !== null && !broken;
  const settled = useEffectEvent(() => onSettled?.());
  useEffect(() => {
    if (!picture) settled();
  }, [picture]);
  return (
    <div className="thumb">
      {picture ? (
        <img
          ref={releaseOnLeave}
          src={src}
          alt={name}
          loading="lazy"
          decoding="async"
          onLoad={() => onSettled?.()}
          onError={() => setBroken(true)}
        />
      ) : (
        <span aria-hidden="true">◇</span>
      )}
      {video && <span className="badge">▶ {t('nfts.video')}</span>}
      {spam && (
        <span className="badge spam" data-testid="nft-spam-badge">
          {t('nfts.spamBadge')}
        </span>
      )}
    </div>
  );
}

/** One NFT of the grid, with where it is in it (its key) and its collection. */
interface Listed {
  nft: GridNft;
  index: number;
  collection: GridCollection;
  /** The key its collection is hidden (or shown) under. */
  key: string;
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

/** The grid's NFTs of the shown account (all when none is chosen). */
function listedOf(grid: NftGrid, shownAddress: string | null): Listed[] {
  const keys = grid.collections.map((c) => collectionKey(c.network, c.address));
  const shownHolders = grid.holders.map((address) => isShown(address, shownAddress));
  return grid.nfts
    .filter((nft) => shownHolders[nft.holder])
    .map((nft, index) => ({ nft, index, collection: grid.collections[nft.collection], key: keys[nft.collection] }));
}

export function Nfts() {
  const { t } = useI18n();
  const [grid, setGrid] = useState<NftGrid | null>(null);
  // The shown account's NFTs only.
  const { accounts } = useWalletAccounts();
  const shownAddress = shownAccount(accounts ?? [], useChosenAccount());
  const listed = useMemo(() => (grid ? listedOf(grid, shownAddress) : null), [grid, shownAddress]);
  // The NFT whose detail shows, in full, and where in the grid it is.
  const [selected, setSelected] = useState<{ nft: ServiceNft; position: number } | null>(null);
  const { busy, error, run } = useAction();
  const cooldown = useRefreshCooldown('nfts');
  const page = useRef<HTMLElement>(null);

  // What the app has stored, or (`refresh`) what it reads from the chain, which
  // starts its cooldown.
  const load = (refresh: boolean) =>
    run(async () => {
      try {
        setGrid(await api.getNftGrid(refresh));
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
  const [choices, setChoices] = useState<Choices>(NO_CHOICES);
  const [showHidden, setShowHidden] = useState(false);
  useEffect(() => {
    api.getCollectionChoices().then(
      (got) => setChoices(choicesOf(got)),
      () => undefined,
    );
  }, []);
  const hiddenCount = useMemo(() => (listed ?? []).filter(({ nft, key }) => hiddenBy(choices, key, nft.likelySpam === true)).length, [listed, choices]);

  const [network, setNetwork] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  // Typing stays quick however many NFTs the grid filters.
  const wanted = useDeferredValue(query);
  const networks = useMemo(() => [...new Set((listed ?? []).map((n) => n.collection.network))], [listed]);
  const shown = useMemo(
    () =>
      (listed ?? []).filter(
        ({ nft, collection, key }) =>
          (network === null || collection.network === network) &&
          (showHidden || !hiddenBy(choices, key, nft.likelySpam === true)) &&
          matches(wanted, nft.name, collection.name),
      ),
    [listed, network, wanted, choices, showHidden],
  );

  // The first row's thumbnails drawn: what the desktop benchmark times.
  const firstRow = useRef(new Set<number>());
  const markedFirstRow = useRef(false);
  const settleFirstRow = (position: number) => {
    if (markedFirstRow.current) return;
    firstRow.current.add(position);
    if (firstRow.current.size >= Math.min(COLUMNS, shown.length)) {
      markedFirstRow.current = true;
      markShownAfterPaint('nfts');
      firstRowDrawn.resolve();
    }
  };
  // Nothing to draw: the chain may be read at once.
  const nothingShown = (listed !== null && shown.length === 0) || error !== null;
  useEffect(() => {
    if (nothingShown) firstRowDrawn.resolve();
  }, [nothingShown, firstRowDrawn]);

  // A new filter shows its matches from the top.
  const filter = (apply: () => void) => {
    apply();
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

  return (
    <>
      {detail && selected && (
        <NftDetail
          nft={detail}
          hidden={hiddenBy(choices, collectionKey(detail.contract.network, detail.contract.address), detail.likelySpam)}
          onChoices={(got) => setChoices(choicesOf(got))}
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
        {(listed?.length ?? 0) >= SEARCH_FROM && (
          <SearchField id="nfts-search" label={t('nfts.search')} value={query} onChange={(q) => filter(() => setQuery(q))} />
        )}
        <ErrorNotice error={error} onRetry={() => load(false)} />
        {listed === null && !error && (
          <div className="grid" aria-busy="true">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={170} />
            ))}
          </div>
        )}
        {listed?.length === 0 && !busy && <div className="card muted">{t('nfts.empty')}</div>}
        {listed !== null && listed.length > 0 && shown.length === 0 && wanted.trim() !== '' && (
          <NoMatch id="nfts-no-match" onClear={() => filter(() => setQuery(''))}>
            {t('nfts.noMatch', { query: wanted.trim() })}
          </NoMatch>
        )}
        {listed !== null && listed.length > 0 && shown.length === 0 && wanted.trim() === '' && <div className="card muted">{t('nfts.allHidden')}</div>}
        {shown.length > 0 && (
          <VirtualList
            // A new filter is a new list, drawn from the top.
            key={`${network ?? ''}\n${wanted}`}
            className="grid"
            label={t('nfts.title')}
            items={shown}
            columns={COLUMNS}
            estimate={ROW_ESTIMATE}
            itemKey={({ index }) => index}
            renderItem={({ nft, collection, key }, position) => (
              // The title names it in full where the caption is cut short.
              <button className="tile" title={nft.name} onClick={() => void open(nft.id, position)}>
                <Thumb
                  src={nft.picture === undefined ? null : gridThumbnailSrc(nft.picture, 'tile')}
                  name={nft.name}
                  video={nft.video === true}
                  spam={nft.likelySpam === true && hiddenBy(choices, key, true)}
                  onSettled={position < COLUMNS ? () => settleFirstRow(position) : undefined}
                />
                <span className="caption">
                  <span>{nft.name}</span>
                  {collection.scheme === 'ERC1155' && <span className="muted">×{nft.quantity}</span>}
                </span>
              </button>
            )}
          />
        )}
      </main>
    </>
  );
}

/** One NFT over the whole window, with what a wallet knows of it; Esc goes back. */
function NftDetail({
  nft,
  hidden,
  onChoices,
  onBack,
}: {
  nft: ServiceNft;
  /** It is left out of the grid (its collection hidden, or likely spam). */
  hidden: boolean;
  /** The collection choices after a hide or show. */
  onChoices: (choices: CollectionChoices) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  // The send page, over the detail; once sent, the detail says so.
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const { error, run } = useAction();
  // Left out as likely spam (not because the person hid it): the detail says why.
  const spam = hidden && nft.likelySpam;
  useEffect(() => {
    const back = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || sending) return;
      if (confirming) setConfirming(false);
      else onBack();
    };
    window.addEventListener('keydown', back);
    return () => window.removeEventListener('keydown', back);
  }, [onBack, confirming, sending]);

  function open() {
    setConfirming(false);
    void run(() => api.openNftLink(nft.externalLink));
  }

  if (sending) {
    return (
      <SendNft
        nft={nft}
        onBack={() => setSending(false)}
        onSent={() => {
          setSending(false);
          setSent(true);
        }}
      />
    );
  }

  return (
    <div className="detail-view">
      <Header title={nft.name} onBack={onBack} />
      <main className="page detail">
        {spam && (
          <div className="notice warning" role="note" data-testid="nft-spam-notice">
            {nft.receivedFrom === undefined
              ? t('nfts.spamNoticeMint')
              : t('nfts.spamNotice', { from: shortAddress(nft.receivedFrom) })}
          </div>
        )}
        <Thumb src={nft.imageUrl === '' ? null : thumbnailSrc(nft.imageUrl, 'detail')} name={nft.name} video={nft.contentType === 'video'} />
        {nft.description && <p>{nft.description}</p>}
        <dl>
          {nft.contract.name !== nft.contract.address && (
            <>
              <dt>{t('nfts.collection')}</dt>
              <dd>{nft.contract.name}</dd>
            </>
          )}
          {nft.contract.description && (
            <>
              <dt>{t('nfts.collectionAbout')}</dt>
              <dd>{nft.contract.description}</dd>
            </>
          )}
          <dt>{t('nfts.contract')}</dt>
          <dd title={nft.contract.address}>{shortAddress(nft.contract.address)}</dd>
          {nft.receivedFrom !== undefined && (
            <>
              <dt>{t('nfts.receivedFrom')}</dt>
              <dd title={nft.receivedFrom} data-testid="nft-received-from">
                {shortAddress(nft.receivedFrom)}
              </dd>
            </>
          )}
          <dt>{t('nfts.network')}</dt>
          <dd>{nft.contract.network}</dd>
          <dt>{t('nfts.standard')}</dt>
          <dd>{nft.contract.scheme === 'ERC1155' ? 'ERC-1155' : 'ERC-721'}</dd>
          {nft.contract.scheme === 'ERC1155' && (
            <>
              <dt>{t('nfts.quantity')}</dt>
              <dd>{nft.quantity}</dd>
            </>
          )}
          {nft.externalLink && (
            <>
              <dt>{t('nfts.link')}</dt>
              <dd>{nft.externalLink}</dd>
            </>
          )}
        </dl>
        {sent ? (
          <div className="notice success" role="status" data-testid="nft-sent">
            {t('nftSend.sent')}
          </div>
        ) : (
          <button id="nft-send" className="primary" onClick={() => setSending(true)}>
            {t('nfts.send')}
          </button>
        )}
        <button
          id="nft-hide"
          type="button"
          className="link-button"
          onClick={() =>
            void run(async () => {
              const { network, address } = nft.contract;
              onChoices(await (hidden ? api.showCollection(network, address) : api.hideCollection(network, address)));
              if (!hidden) onBack();
            })
          }
        >
          {t(spam ? 'nfts.showSpamCollection' : hidden ? 'nfts.showCollection' : 'nfts.hideCollection')}
        </button>
        {nft.externalLink && (
          <button id="nft-open-link" className="secondary" onClick={() => setConfirming(true)}>
            {t('nfts.openLink')}
          </button>
        )}
        <ErrorNotice error={error} />
      </main>
      {confirming && (
        <div className="dialog-backdrop">
          <div className="card dialog" role="dialog" aria-modal="true" aria-labelledby="open-link-title">
            <h2 id="open-link-title">{t('nfts.openLinkTitle')}</h2>
            <p className="muted">{t('nfts.openLinkBody')}</p>
            <p className="link-text">{nft.externalLink}</p>
            <div className="dialog-actions">
              <button className="secondary" onClick={() => setConfirming(false)} autoFocus>
                {t('common.cancel')}
              </button>
              <button id="nft-open-link-confirm" className="primary" onClick={open}>
                {t('nfts.openLinkConfirm')}
              </button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
