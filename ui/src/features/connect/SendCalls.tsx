// wallet_sendCalls (EIP-5792): a batch of transactions on one page, each as
// its own page would show it (what it does, what it moves as simulated), the
// fee of each and of them all, then one PIN. Satchel sends them one after
// another and says so: a call that would fail on today's state alone (a swap
// that needs the approval before it) is shown with why, and checked again when
// its turn comes; the batch stops there if it would fail then.
import { useState } from 'react';
import type { CallsPrompt, ConnectPrompt, FeeSpeed } from '../../api';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { Amount } from '../../components/Amount';
import { HighFeeNotice } from '../../components/HighFeeNotice';
import { PinPrompt } from '../../components/Pin';
import { formatUnits, parseUnits } from '../../lib/amount';
import { AskingPage, Fact, SignAnswer, reject } from './Asking';
import { CallChanges, CallSummary } from './SendTransaction';
import { RecipientWarnings, SpeedPicker, optionFor } from '../send/SendReview';

export function SendCalls({ prompt, request }: { prompt: ConnectPrompt; request: CallsPrompt }) {
  const { t } = useI18n();
  const [speed, setSpeed] = useState<FeeSpeed>('normal');
  const [acceptedHighFee, setAcceptedHighFee] = useState(false);
  const [acceptedDanger, setAcceptedDanger] = useState(false);
  const first = request.calls[0];
  const quotes = request.calls.flatMap((call) => (call.prepared ? [call.prepared.quote] : []));
  const firstQuote = first?.prepared?.quote;
  const coin = firstQuote?.coinSymbol ?? '';
  // The most all the fees can be, at the speed chosen (of the calls prepared).
  const wei = (fee: string) => {
    const parsed = parseUnits(fee, 18);
    return parsed.ok ? parsed.value : 0n;
  };
  const total = quotes.reduce((sum, quote) => sum + wei(optionFor(quote, speed)?.fee ?? '0'), 0n);
  const highFee = quotes.map((quote) => ({ quote, option: optionFor(quote, speed) })).find(({ option }) => option?.highFee !== undefined);
  const dangerous = quotes.find((quote) => quote.warnings.some((w) => w.kind !== 'firstTransfer'));
  const firstOption = firstQuote ? optionFor(firstQuote, speed) : undefined;
  const refused = first?.refusal !== undefined || !firstQuote || !firstOption;
  return (
    <AskingPage prompt={prompt} title={t('calls.title', { count: request.calls.length })} refusal={first?.refusal}>
      <p className="muted small" data-testid="calls-not-atomic">
        {t('calls.oneAfterAnother')}
      </p>
      <ol className="batch-calls">
        {request.calls.map((call, n) => (
          <li key={n} className="batch-call" data-testid="calls-call">
            <h3 className="small">{t('calls.call', { n: n + 1, count: request.calls.length })}</h3>
            <CallSummary review={call.call} coin={coin} />
            {call.prepared && <CallChanges prepared={call.prepared} />}
            {n > 0 && call.refusal !== undefined && (
              <div className="notice warning" role="note" data-testid="calls-fails-alone">
                {t('calls.failsAlone', { reason: call.refusal })}
              </div>
            )}
            {call.prepared && (
              <dl className="facts">
                <Fact label={t('send.fee')}>
                  <Amount value={optionFor(call.prepared.quote, speed)?.fee ?? '0'} symbol={coin} />
                </Fact>
              </dl>
            )}
          </li>
        ))}
      </ol>
      {firstQuote && firstOption && (
        <>
          <div className="field">
            <span className="field-label">{t('send.speed')}</span>
            <SpeedPicker speed={speed} onChange={setSpeed} />
          </div>
          <dl className="facts">
            <Fact label={t('send.network')}>{t('receive.network', { network: firstQuote.network, chainId: firstQuote.chainId })}</Fact>
            <Fact label={t('calls.totalFee')}>
              <Amount value={formatUnits(total, 18)} symbol={coin} testId="calls-total-fee" />
            </Fact>
          </dl>
          {!firstOption.enough && (
            <div className="notice warning" role="note">
              {t('send.notEnough', { symbol: coin })}
            </div>
          )}
          {highFee?.option?.highFee && (
            <HighFeeNotice id="calls" highFee={highFee.option.highFee} quote={highFee.quote} option={highFee.option} accepted={acceptedHighFee} onAccept={setAcceptedHighFee} />
          )}
        </>
      )}
      {dangerous && <RecipientWarnings quote={dangerous} accepted={acceptedDanger} onAccept={setAcceptedDanger} />}
      {refused || !firstOption ? (
        <SignAnswer prompt={prompt} refused submitLabel="" />
      ) : (
        <PinPrompt
          id="calls-pin"
          framed={false}
          label={t('send.pinLabel')}
          submitLabel={t('calls.confirm', { count: request.calls.length })}
          disabled={!firstOption.enough || (highFee !== undefined && !acceptedHighFee) || (dangerous !== undefined && !acceptedDanger)}
          onSubmit={(pin) => api.answerConnectRequest(prompt.id, true, pin, { speed, acceptHighFee: highFee !== undefined && acceptedHighFee })}
          onCancel={() => reject(prompt.id)}
          testIds={{ field: 'sign-pin', submit: 'sign-approve' }}
        />
      )}
    </AskingPage>
  );
}
