import { useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, type ServiceUser } from '../../api';
import { useI18n } from '../../i18n';
import { isPasswordForm, passwordChecks } from '../../lib/rules';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { PasswordField } from '../../components/PasswordField';
import { EmailField } from '../../components/EmailField';

export function SignUp({
  onVerificationSent,
  onSignedIn,
  onBack,
}: {
  onVerificationSent: (email: string) => void;
  onSignedIn: (user: ServiceUser) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, run } = useAction();
  const checks = passwordChecks(password);
  const mismatch = confirm.length > 0 && confirm !== password;
  const ready = email !== '' && isPasswordForm(password) && confirm === password;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!ready) return;
    void run(async () => {
      const outcome = await api.signUpWithEmailAndPassword(email, password);
      if (outcome.user) onSignedIn(outcome.user);
      else onVerificationSent(email);
    });
  }

  return (
    <>
      <Header title={t('signup.title')} onBack={onBack} />
      <main className="page">
        <form className="card" onSubmit={submit} noValidate>
          <EmailField id="signup-email" value={email} onChange={setEmail} />
          <PasswordField id="signup-password" label={t('common.password')} value={password} onChange={setPassword} autoComplete="new-password" />
          <ul className="rules" aria-live="polite">
            <Rule met={checks.length} text={t('signup.rule.length')} />
            <Rule met={checks.letter} text={t('signup.rule.letter')} />
            <Rule met={checks.digit} text={t('signup.rule.digit')} />
          </ul>
          <PasswordField id="signup-confirm" label={t('signup.confirm')} value={confirm} onChange={setConfirm} autoComplete="new-password" />
          {mismatch && <span className="field-error">{t('signup.mismatch')}</span>}
          <ErrorNotice error={error} />
          <button id="signup-submit" className="primary" type="submit" disabled={busy || !ready}>
            {busy ? t('signup.busy') : t('signup.submit')}
          </button>
          <button type="button" className="secondary" onClick={onBack}>
            {t('signup.haveAccount')}
          </button>
        </form>
      </main>
    </>
  );
}

/** A password rule: its mark and colour for the eye, its state in words for a screen reader. */
function Rule({ met, text }: { met: boolean; text: string }) {
  const { t } = useI18n();
  return (
    <li className={met ? 'ok' : ''}>
      <span className="visually-hidden">{met ? t('signup.rule.met') : t('signup.rule.unmet')} </span>
      <span>{text}</span>
    </li>
  );
}
