import { useCallback, useEffect, useState } from 'react';
import { api, asAppError, type AppError, type ServiceNft } from '../api';
import { useI18n } from '../i18n';
import { ErrorNotice, Header, Skeleton, shortAddress } from '../ui';
import { useCooldown } from '../cooldown';

function Thumb({ nft }: { nft: ServiceNft }) {
  const { t } = useI18n();
  const [broken, setBroken] = useState(false);
  return (
    <div className="thumb">
      {nft.imageUrl && !broken ? (
        <img src={nft.imageUrl} alt={nft.name} loading="lazy" onError={() => setBroken(true)} />
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
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const { wait, sync } = useCooldown('nfts');

  const load = useCallback(async (refresh: boolean) => {
    setError(null);
    setBusy(true);
    try {
      setNfts(await api.getNFTs(refresh));
    } catch (err) {
      setError(asAppError(err));
    } finally {
      setBusy(false);
      if (refresh) void sync();
    }
  }, [sync]);

  // On entry, read the chain when the cooldown allows; show what is stored else.
  useEffect(() => {
    void api
      .getRefreshWait()
      .then((waits) => load(waits.nfts === 0))
      .catch(() => load(false));
  }, [load]);

  if (selected) {
    return (
      <>
        <Header title={selected.name} onBack={() => setSelected(null)} />
        <main className="page detail">
          <Thumb nft={selected} />
          {selected.description && <p>{selected.description}</p>}
          <dl>
            <dt>{t('nfts.contract')}</dt>
            <dd>{selected.contract.name ? `${selected.contract.name} · ` : ''}{shortAddress(selected.contract.address)}</dd>
            <dt>{t('nfts.network')}</dt>
            <dd>{selected.contract.network}</dd>
            <dt>{t('nfts.quantity')}</dt>
            <dd>{selected.quantity}</dd>
          </dl>
        </main>
      </>
    );
  }

  return (
    <main className="page">
      <div className="toolbar">
        <span />
        <button id="nfts-refresh" className="secondary" onClick={() => load(true)} disabled={busy || wait > 0}>
          {wait > 0 ? t('wallet.refreshIn', { seconds: wait }) : t('wallet.refresh')}
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
      {nfts?.length === 0 && <div className="card muted">{t('nfts.empty')}</div>}
      {nfts && nfts.length > 0 && (
        <div className="grid">
          {nfts.map((nft) => (
            <button className="tile" key={`${nft.contract.address}:${nft.name}:${nft.account.address}`} onClick={() => setSelected(nft)}>
              <Thumb nft={nft} />
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
