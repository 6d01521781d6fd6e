// Send an NFT from its detail page: to whom (and how many, for an ERC-1155 up
// to what is held), then the review as every send has it (what leaves, as the
// node simulates it; the fee by speed; the recipient's warnings) and the PIN.
import { useState, type FormEvent } from 'react';
import { api, type ActivityEntry, type CallQuote, type FeeSpeed, type ServiceNft } from '../../api';
import { useI18n } from '../../i18n';
import { useAction } from '../../hooks/useAction';
import { Header } from '../../components/Header';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ExpectedChanges } from '../../components/ExpectedChanges';
import { FeeFacts } from '../../components/FeeFacts';
import { HighFeeNotice } from '../../components/HighFeeNotice';
import { FullAddress } from '../../components/FullAddress';
import { PinPrompt } from '../../components/Pin';
import { RecipientWarnings, SpeedPicker, optionFor } from './SendReview';

export function SendNft({ nft, onBack, onSent }: { nft: ServiceNft; onBack: () => void; onSent: (entry: ActivityEntry) => void }) {
  const { t } = useI18n();
  const erc1155 = nft.contract.scheme === 'ERC1155';
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('1');
  const [prepared, setPrepared] = useState<CallQuote | null>(null);
  const [speed, setSpeed] = useState<FeeSpeed>('normal');
  const [acceptedHighFee, setAcceptedHighFee] = useState(false);
  const [acceptedDanger, setAcceptedDanger] = useState(false);
  const { busy, error, run } = useAction();
  const count = Number(amount);
  const amountOk = !erc1155 || (Number.isInteger(count) && count >= 1 && count <= nft.quantity);

  function review(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      setPrepared(
        await api.prepareNftSend({
          account: { network: nft.account.network, address: nft.account.address },
          contract: nft.contract.address,
          tokenId: nft.tokenId,
          erc1155,
          to: to.trim(),
          amount: erc1155 ? amount : '1',
        }),
      );
    });
  }

  const quote = prepared?.quote;
  const option = quote ? optionFor(quote, speed) : undefined;
  const highFee = option?.highFee;
  const danger = quote?.warnings.some((w) => w.kind !== 'firstTransfer') ?? false;

  return (
    <div className="subpage">
      <Header title={t('nftSend.title', { name: nft.name })} onBack={prepared ? () => setPrepared(null) : onBack} />
      <main className="page">
        {!prepared && (
          <form className="card" onSubmit={review}>
            <div className="field">
              <label htmlFor="nft-send-to">{t('send.to')}</label>
              <input id="nft-send-to" className="text-input" value={to} onChange={(e) => setTo(e.target.value)} placeholder={t('send.toPlaceholder')} spellCheck={false} autoComplete="off" translate="no" />
            </div>
            {erc1155 && (
              <div className="field">
                <label htmlFor="nft-send-amount">{t('nftSend.amount', { held: nft.quantity })}</label>
                <input id="nft-send-amount" className="text-input" inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value.replace(/\D/g, ''))} aria-invalid={!amountOk} />
              </div>
            )}
            <ErrorNotice error={error} />
            <button id="nft-send-review" type="submit" className="primary" disabled={busy || !to.trim() || !amountOk}>
              {busy ? t('send.quoting') : t('send.review')}
            </button>
          </form>
        )}
        {prepared && quote && option && (
          <section className="card review" aria-labelledby="nft-send-review-heading">
            <h2 id="nft-send-review-heading">{t('send.reviewTitle')}</h2>
            <p className="review-amount" data-testid="nft-send-summary">
              {erc1155 ? t('nftSend.summaryMany', { count: amount, name: nft.name }) : t('nftSend.summary', { name: nft.name, id: nft.tokenId })}
            </p>
            <dl className="facts">
              <dt>{t('send.to')}</dt>
              <dd>
                <FullAddress address={quote.to} className="compact" testId="nft-send-to-confirm" />
              </dd>
              <dt>{t('send.network')}</dt>
              <dd>{t('receive.network', { network: quote.network, chainId: quote.chainId })}</dd>
            </dl>
            <h3 className="small">{t('tx.changes')}</h3>
            {prepared.changes === undefined ? <p className="muted small">{t('tx.noSimulation')}</p> : <ExpectedChanges changes={prepared.changes} testId="nft-send-changes" />}
            <SpeedPicker speed={speed} onChange={setSpeed} />
            <dl className="facts">
              <FeeFacts quote={quote} option={option} />
            </dl>
            {highFee && <HighFeeNotice id="nft" highFee={highFee} quote={quote} option={option} accepted={acceptedHighFee} onAccept={setAcceptedHighFee} />}
            <RecipientWarnings quote={quote} accepted={acceptedDanger} onAccept={setAcceptedDanger} />
            <PinPrompt
              id="nft-send-pin"
              framed={false}
              label={t('send.pinLabel')}
              submitLabel={t('send.confirm')}
              disabled={!option.enough || (highFee !== undefined && !acceptedHighFee) || (danger && !acceptedDanger)}
              onSubmit={async (pin) =>
                onSent(await api.confirmSend({ quoteId: quote.quoteId, speed: option.speed, pin, acceptHighFee: highFee !== undefined && acceptedHighFee }))
              }
              onCancel={() => setPrepared(null)}
              testIds={{ field: 'nft-send-pin', submit: 'nft-send-submit' }}
            />
          </section>
        )}
      </main>
    </div>
  );
}
