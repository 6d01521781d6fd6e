import { Fragment, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, qrSrc, type AccountRef, type ReceiveInfo } from '../../api';
import { copyText } from '../../lib/copy';
import { useI18n } from '../../i18n';
import { CoinMark } from '../../components/CoinMark';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { Skeleton } from '../../components/Skeleton';
import { useEscape } from '../../hooks/useEscape';
import { addressGroups } from '../../lib/format';

/**
 * Receiving into one of the user's accounts: the coin's, or (`account.contract`)
 * a token's. The app names the network and its chain, checksums the address and
 * draws the QR code of its EIP-681 payment URI; the page shows them, the address
 * whole, in blocks of four for reading, with Copy. Esc goes back.
 */
export function Receive({ account, onBack }: { account: AccountRef; onBack: () => void }) {
  const { t } = useI18n();
  const [info, setInfo] = useState<ReceiveInfo | null>(null);
  const [copied, setCopied] = useState(false);
  const [qrBroken, setQrBroken] = useState(false);
  const { error, run } = useAction();
  useEscape(onBack);

  const load = () =>
    run(async () => {
      setInfo(await api.receive(account));
      setQrBroken(false);
    });

  // Once per visit, also when React runs effects twice (StrictMode).
  const enter = useEffectEvent(() => void load());
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    enter();
  }, []);

  // The heading takes the focus once the address shows, so a keyboard or screen
  // reader starts there.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [info]);

  async function copy() {
    if (info && (await copyText(info.address))) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  }

  const token = account.contract !== undefined;
  return (
    <div className="subpage" id="receive-page">
      <Header title={t('receive.title')} onBack={onBack} />
      <main className="page">
        <ErrorNotice error={error} onRetry={load} />
        {info === null && !error && (
          <div className="card receive" aria-busy="true" aria-label={t('common.loading')}>
            <div className="row">
              <Skeleton height={32} width={32} />
              <Skeleton height={16} width="60%" />
            </div>
            <Skeleton height={256} width={256} />
            <Skeleton height={16} />
            <Skeleton height={16} width="70%" />
          </div>
        )}
        {info && (
          <section className="card receive" aria-labelledby="receive-heading">
            <div className="receive-head">
              <CoinMark symbol={info.symbol} />
              <div className="label">
                <h2 id="receive-heading" ref={heading} tabIndex={-1}>
                  {t('receive.heading', { symbol: info.symbol })}
                </h2>
                <span id="receive-network" className="muted">
                  {t('receive.network', { network: info.network, chainId: info.chainId })}
                </span>
              </div>
            </div>
            <p id="receive-what" className="receive-what">
              {t(token ? 'receive.onlyToken' : 'receive.onlyCoin', { symbol: info.symbol, network: info.network })}
            </p>
            {qrBroken ? (
              <div id="receive-qr-failed" className="qr qr-failed muted" role="note">
                {t('receive.qrFailed')}
              </div>
            ) : (
              <img
                id="receive-qr"
                className="qr"
                src={qrSrc(info.uri)}
                alt={t('receive.qrAlt', { symbol: info.symbol, network: info.network })}
                width={232}
                height={232}
                onError={() => setQrBroken(true)}
              />
            )}
            <div className="field">
              <span className="field-label">
                {t('receive.address')}
              </span>
              {/* Blocks by CSS only: no spaces in the text, so reading or copying
                  it gives the address itself; <wbr> lets a line break between blocks. */}
              <p id="receive-address" className="full-address" translate="no">
                {addressGroups(info.address).map((group, i) => (
                  <Fragment key={i}>
                    {i > 0 && <wbr />}
                    <span>{group}</span>
                  </Fragment>
                ))}
              </p>
            </div>
            <button id="receive-copy" type="button" className="secondary" onClick={copy}>
              {copied ? t('receive.copied') : t('receive.copy')}
            </button>
            <div id="receive-warning" className="notice warning">
              {t('receive.warning', { network: info.network })}
            </div>
          </section>
        )}
      </main>
    </div>
  );
}
