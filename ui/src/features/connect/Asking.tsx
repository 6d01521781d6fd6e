// What every approval page of an application's request shares: who asks, large
// and plain (text only: whatever a page sends is never shown as HTML), how many
// more wait, and the answer: the PIN where the key signs, or only Reject when
// Satchel refuses to sign what was asked (the shell refuses it too).
import { useEffect, type ReactNode } from 'react';
import { api, markShownAfterPaint, type ConnectPrompt } from '../../api';
import { useI18n, type TextId } from '../../i18n';
import { Header } from '../../components/Header';
import { PinPrompt } from '../../components/Pin';

export const reject = (id: number) => void api.answerConnectRequest(id, false).catch(() => undefined);

/** The page: who asks, and (first, in red) why Satchel refuses it, if it does. */
export function AskingPage({
  prompt,
  title,
  refusal,
  refusedLabel,
  children,
}: {
  prompt: ConnectPrompt;
  title: string;
  refusal?: string;
  /** What the red notice says Satchel will not do (by default: sign). */
  refusedLabel?: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  // Each request once it is on the screen (the desktop benchmark's mark).
  useEffect(() => markShownAfterPaint('approval'), [prompt.id]);
  const intro = {
    connect: prompt.local ? 'connect.askLocal' : 'connect.askWeb',
    signMessage: prompt.local ? 'sign.askLocal' : 'sign.askWeb',
    signTypedData: prompt.local ? 'sign.askLocal' : 'sign.askWeb',
    sendTransaction: prompt.local ? 'tx.askLocal' : 'tx.askWeb',
    sendCalls: prompt.local ? 'calls.askLocal' : 'calls.askWeb',
    watchAsset: prompt.local ? 'tokens.askLocal' : 'tokens.askWeb',
    useWidget: prompt.local ? 'embed.askLocal' : 'embed.askWeb',
  } as const satisfies Record<ConnectPrompt['request']['kind'], TextId>;
  return (
    <>
      <Header title={title} />
      <main className="page">
        <section className="card connect" data-testid="connect-request" data-kind={prompt.request.kind} aria-labelledby="connect-origin">
          <p className="muted">{t(intro[prompt.request.kind])}</p>
          <p id="connect-origin" className="connect-origin" translate="no" data-testid="connect-origin">
            {prompt.local ? t('connect.local') : prompt.origin}
          </p>
          {refusal !== undefined && (
            <div className="notice danger" role="alert" data-testid="sign-refusal">
              <p>
                <strong>{refusedLabel ?? t('sign.refused')}</strong>
              </p>
              {refusal}
            </div>
          )}
          {children}
          {prompt.waiting > 0 && (
            <p className="muted small" data-testid="connect-waiting">
              {t('connect.waiting', { count: prompt.waiting })}
            </p>
          )}
        </section>
      </main>
    </>
  );
}

/** Sign with the PIN, or reject; only Reject when Satchel refuses it. */
export function SignAnswer({ prompt, refused, submitLabel }: { prompt: ConnectPrompt; refused: boolean; submitLabel: string }) {
  const { t } = useI18n();
  if (refused) {
    return (
      <div className="actions">
        <button type="button" className="primary" onClick={() => reject(prompt.id)} data-testid="sign-reject">
          {t('sign.reject')}
        </button>
      </div>
    );
  }
  return (
    <PinPrompt
      id="sign-pin"
      framed={false}
      label={t('sign.pinLabel')}
      submitLabel={submitLabel}
      onSubmit={(pin) => api.answerConnectRequest(prompt.id, true, pin)}
      onCancel={() => reject(prompt.id)}
      testIds={{ field: 'sign-pin', submit: 'sign-approve' }}
    />
  );
}

/** A label and its value, in the page's fact list. */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}
