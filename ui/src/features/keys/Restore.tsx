import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, type KeyState, type PinStatus, type ServiceUser } from '../../api';
import { useI18n } from '../../i18n';
import { PHRASE_WORDS, phraseWords } from '../../lib/phrase';
import { PIN_LENGTH, PinField, PinPrompt } from '../../components/Pin';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { Skeleton } from '../../components/Skeleton';
import { useEscape } from '../../hooks/useEscape';

/**
 * The wallet exists but this device cannot sign for it: its key is elsewhere, or
 * the key here is not the wallet's (then the wallet is never shown). The person
 * restores it here with the recovery phrase and a new PIN, or with the encrypted
 * backup the service keeps and the wallet's PIN, or logs out.
 */
export function Restore({ onRestored, onLogout }: { onRestored: (u: ServiceUser) => void; onLogout: () => void }) {
  const { t } = useI18n();
  const [keyState, setKeyState] = useState<KeyState | null>(null);
  const [pinStatus, setPinStatus] = useState<PinStatus | null>(null);
  const status = useAction();
  const [usingBackup, setUsingBackup] = useState(false);

  useEffect(() => {
    api.getKeyState().then(
      (key) => setKeyState(key.state),
      () => setKeyState('missing'),
    );
  }, []);

  // Whether the service keeps a backup decides what the page offers.
  const { run: runStatus } = status;
  const loadStatus = useCallback(() => runStatus(async () => setPinStatus(await api.getPinStatus()), { busy: false }), [runStatus]);
  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);

  useEscape(usingBackup ? () => setUsingBackup(false) : undefined);

  return (
    <>
      <Header title={t('restore.title')} />
      <main className="page">
        {keyState === 'mismatch' ? (
          <div id="key-mismatch" className="notice error" role="alert">
            {t('register.keyMismatch')}
          </div>
        ) : keyState === 'stale' ? (
          <div id="key-stale" className="notice info">
            {t('restore.stale')}
          </div>
        ) : (
          keyState !== null && <div className="notice info">{t('restore.missing')}</div>
        )}

        {pinStatus === null && !status.error && (
          <div className="card" aria-busy="true" aria-label={t('common.loading')}>
            <Skeleton height={20} width="60%" />
            <Skeleton height={40} />
          </div>
        )}
        <ErrorNotice error={status.error} onRetry={loadStatus} />

        {pinStatus?.hasBackup && (
          <section className="card" aria-labelledby="restore-backup-title">
            <h2 id="restore-backup-title">{t('restore.backupTitle')}</h2>
            {usingBackup ? (
              <PinPrompt
                framed={false}
                id="restore-backup-pin"
                label={t('restore.backupPin')}
                submitLabel={t('restore.backupSubmit')}
                onSubmit={async (pin) => onRestored(await api.restoreFromBackup(pin))}
                onCancel={() => setUsingBackup(false)}
              />
            ) : (
              <>
                <p className="muted">{t('restore.backupBody')}</p>
                <button id="restore-backup" type="button" className="primary" onClick={() => setUsingBackup(true)}>
                  {t('restore.useBackup')}
                </button>
              </>
            )}
          </section>
        )}

        {pinStatus && <PhraseForm onRestored={onRestored} />}

        {pinStatus && !pinStatus.hasBackup && (
          <div id="restore-no-backup" className="card muted small">
            {t('restore.noBackup')}
          </div>
        )}

        <button id="restore-logout" className="secondary" onClick={onLogout}>
          {t('settings.logout')}
        </button>
      </main>
    </>
  );
}

/** The 12 words, read as typed (spaces and case do not matter), and a new PIN twice. */
function PhraseForm({ onRestored }: { onRestored: (u: ServiceUser) => void }) {
  const { t, explain } = useI18n();
  const [phrase, setPhrase] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<'count' | 'mismatch' | null>(null);
  const { busy, error, run } = useAction();
  const words = phraseWords(phrase);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (words.length !== PHRASE_WORDS) {
      setProblem('count');
      return;
    }
    if (pin !== again) {
      setProblem('mismatch');
      setPin('');
      setAgain('');
      return;
    }
    setProblem(null);
    void run(async () => {
      const user = await api.restoreFromPhrase(words.join(' '), pin);
      setPhrase('');
      onRestored(user);
    });
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="restore-phrase-title">
      <h2 id="restore-phrase-title">{t('restore.phraseTitle')}</h2>
      <div className="field">
        <label htmlFor="restore-phrase">{t('restore.phrase')}</label>
        <textarea
          id="restore-phrase"
          className="phrase-input"
          rows={3}
          value={phrase}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="none"
          spellCheck={false}
          translate="no"
          aria-describedby="restore-count"
          aria-invalid={problem === 'count' || error?.code === 'InvalidParameters'}
          onKeyDown={(e) => {
            // Enter submits, as in every field; the words need no line breaks.
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          onChange={(e) => {
            setPhrase(e.target.value);
            if (problem === 'count') setProblem(null);
          }}
        />
        <span id="restore-count" className={problem === 'count' ? 'field-error' : 'muted small'}>
          {problem === 'count'
            ? t('restore.countWrong', { count: words.length, total: PHRASE_WORDS })
            : t('restore.count', { count: words.length, total: PHRASE_WORDS })}
        </span>
      </div>
      <PinField id="restore-pin" label={t('restore.pin')} value={pin} onChange={setPin} />
      <PinField id="restore-pin-again" label={t('restore.pinAgain')} value={again} onChange={setAgain} />
      {problem === 'mismatch' && <span className="field-error">{t('register.mismatch')}</span>}
      {error && (
        <div id="restore-error" className="notice error" role="alert">
          {error.code === 'InvalidParameters' ? t('restore.invalidPhrase') : explain(error)}
        </div>
      )}
      <button
        id="restore-submit"
        className="primary"
        type="submit"
        disabled={busy || words.length === 0 || pin.length < PIN_LENGTH || again.length < PIN_LENGTH}
      >
        {busy ? t('restore.busy') : t('restore.submit')}
      </button>
    </form>
  );
}
