import { useEffect, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, thumbnailSrc, type CollectionChoices, type ServiceNft } from '../../api';
import { useI18n } from '../../i18n';
import { SendNft } from '../send/SendNft';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { shortAddress } from '../../lib/format';
import { Thumb } from './Thumb';

/** One NFT over the whole window, with what a wallet knows of it; Esc goes back. */
export function NftDetail({
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
