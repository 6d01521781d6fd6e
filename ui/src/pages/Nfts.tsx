import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useAction } from '../action';
import { api, thumbnailSrc, type ServiceNft } from '../api';
import { useRefreshCooldown } from '../countdown';
import { useI18n } from '../i18n';
import { ErrorNotice, Header, Skeleton, shortAddress } from '../ui';

function Thumb({ nft, size }: { nft: ServiceNft; size: 'tile' | 'detail' }) {
  const { t } = useI18n();
  const [broken, setBroken] = useState(false);
  return (
    <div className="thumb">
      {nft.imageUrl && !broken ? (
        <img
          src={thumbnailSrc(nft.imageUrl, size)}
          alt={nft.name}
          loading="lazy"
          onError={() => setBroken(true)}
        />
      ) : (
        <span aria-hidden="true">◇</span>
      )}
      {nft.contentType === 'video' && <span className="badge">▶ {t('nfts.video')}</span>}
    </div>
  );
}

export function Nfts() {
  const { t } = useI18n();
  const [nfts, setNfts] = useState<ServiceNft[] | null>(null);
  const [selected, setSelected] = useState<ServiceNft | null>(null);
  const { busy, error, run } = useAction();
  const cooldown = useRefreshCooldown('nfts');

  // What the app has stored, or (`refresh`) what it reads from the chain, which
  // starts its cooldown.
  const load = (refresh: boolean) =>
    run(async () => {
      try {
        setNfts(await api.getNFTs(refresh));
      } finally {
        if (refresh) void cooldown.sync();
      }
    });

  // On entry, show what is stored at once, then read the chain when the cooldown
  // allows. Once per visit, also when React runs effects twice (StrictMode).
  const enter = useEffectEvent(async () => {
    await load(false);
    if ((await cooldown.sync()) === 0) await load(true);
  });
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    void enter();
  }, []);

  const [network, setNetwork] = useState<string | null>(null);
  const networks = useMemo(() => [...new Set((nfts ?? []).map((n) => n.contract.network))], [nfts]);
  const shown = network === null ? nfts : (nfts ?? []).filter((n) => n.contract.network === network);

  if (selected) {
    return <NftDetail nft={selected} onBack={() => setSelected(null)} />;
  }

  return (
    <main className="page">
      <div className="toolbar">
        {networks.length > 1 ? (
          <div className="segmented" role="group" aria-label={t('nfts.network')}>
            {[null, ...networks].map((n) => (
              <button key={n ?? ''} aria-pressed={network === n} onClick={() => setNetwork(n)}>
                {n ?? t('nfts.allNetworks')}
              </button>
            ))}
          </div>
        ) : (
          <span />
        )}
        <button id="nfts-refresh" className="secondary" onClick={() => load(true)} disabled={busy || cooldown.seconds > 0}>
          {cooldown.seconds > 0 ? t('wallet.refreshIn', { seconds: cooldown.seconds }) : t('wallet.refresh')}
        </button>
      </div>
      <ErrorNotice error={error} onRetry={() => load(false)} />
      {nfts === null && !error && (
        <div className="grid" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={170} />
          ))}
        </div>
      )}
      {nfts?.length === 0 && !busy && <div className="card muted">{t('nfts.empty')}</div>}
      {shown && shown.length > 0 && (
        <div className="grid">
          {shown.map((nft, i) => (
            <button className="tile" key={`${nft.contract.address}:${nft.name}:${nft.account.address}:${i}`} onClick={() => setSelected(nft)}>
              <Thumb nft={nft} size="tile" />
              <span className="caption">
                <span>{nft.name}</span>
                {nft.contract.scheme === 'ERC1155' && <span className="muted">×{nft.quantity}</span>}
              </span>
            </button>
          ))}
        </div>
      )}
    </main>
  );
}

/** One NFT over the whole window, with what a wallet knows of it; Esc goes back. */
function NftDetail({ nft, onBack }: { nft: ServiceNft; onBack: () => void }) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const { error, run } = useAction();
  useEffect(() => {
    const back = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (confirming) setConfirming(false);
      else onBack();
    };
    window.addEventListener('keydown', back);
    return () => window.removeEventListener('keydown', back);
  }, [onBack, confirming]);

  function open() {
    setConfirming(false);
    void run(() => api.openNftLink(nft.externalLink));
  }

  return (
    <div className="detail-view">
      <Header title={nft.name} onBack={onBack} />
      <main className="page detail">
        <Thumb nft={nft} size="detail" />
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
