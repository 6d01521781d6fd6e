// personal_sign: the message as text when it is plain text, else its bytes; a
// Sign-In with Ethereum message shown as the sign-in it is, refused in red when
// its site, account or chain is not the asker's.
import type { ConnectPrompt, MessageReview, SignIn } from '../../api';
import { useI18n } from '../../i18n';
import { FullAddress } from '../../components/FullAddress';
import { AskingPage, Fact, SignAnswer } from './Asking';

export function SignMessage({ prompt, review }: { prompt: ConnectPrompt; review: MessageReview }) {
  const { t } = useI18n();
  const signIn = review.signIn;
  return (
    <AskingPage prompt={prompt} title={t(signIn ? 'sign.signInTitle' : 'sign.messageTitle')} refusal={review.refusal}>
      {signIn ? (
        <SignInFacts signIn={signIn} refused={review.refusal !== undefined} />
      ) : review.text !== undefined ? (
        <>
          <p className="muted small">{t('sign.messageIntro')}</p>
          <pre className="sign-message" data-testid="sign-text">
            {review.text}
          </pre>
        </>
      ) : (
        <>
          <p className="muted small">{t('sign.bytesIntro')}</p>
          <pre className="sign-message hex" translate="no" data-testid="sign-hex">
            {review.hex}
          </pre>
          {review.looksLikeHash === true && (
            <div className="notice warning" role="note" data-testid="sign-hash-warning">
              {t('sign.hashWarning')}
            </div>
          )}
        </>
      )}
      <dl className="facts">
        <Fact label={t('sign.account')}>
          <FullAddress address={review.account} />
        </Fact>
      </dl>
      <SignAnswer prompt={prompt} refused={review.refusal !== undefined} submitLabel={t(signIn ? 'sign.signIn' : 'sign.sign')} />
    </AskingPage>
  );
}

function SignInFacts({ signIn, refused }: { signIn: SignIn; refused: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <p className={`sign-in-to${refused ? ' refused' : ''}`} data-testid="sign-in-domain">
        {t('sign.signInTo', { domain: signIn.domain })}
      </p>
      {signIn.statement !== undefined && (
        <pre className="sign-message" data-testid="sign-in-statement">
          {signIn.statement}
        </pre>
      )}
      <dl className="facts">
        <Fact label={t('sign.uri')}>{signIn.uri}</Fact>
        <Fact label={t('sign.chain')}>{signIn.chainId}</Fact>
        <Fact label={t('sign.issuedAt')}>{signIn.issuedAt}</Fact>
        {signIn.expirationTime !== undefined && <Fact label={t('sign.expires')}>{signIn.expirationTime}</Fact>}
        <Fact label={t('sign.nonce')}>{signIn.nonce}</Fact>
        {signIn.resources.length > 0 && (
          <Fact label={t('sign.resources')}>
            {signIn.resources.map((r) => (
              <div key={r}>{r}</div>
            ))}
          </Fact>
        )}
      </dl>
    </>
  );
}
