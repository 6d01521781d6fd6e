import { useEffect, useRef, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { makeQuiz, type Question } from '../../lib/phrase';
import { PinPrompt } from '../../components/Pin';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { useEscape } from '../../hooks/useEscape';

type Step = 'pin' | 'intro' | 'words' | 'confirm' | 'done';

/**
 * The recovery phrase, shown and checked: (the PIN, unless the page has it) → what
 * the phrase is → the 12 words → three of them picked back → done, which the app
 * remembers. The words live in this component's state only while it shows them or
 * asks for them; they are dropped when the check passes and when the person leaves.
 *
 * `pin`: the PIN just chosen (registration); without it the flow asks for it first.
 * `onSkip`: offers "Skip for now"; `onBack`: the way out before the words are checked.
 */
export function RecoveryPhrase({
  pin,
  onDone,
  onSkip,
  onBack,
}: {
  pin?: string;
  onDone: () => void;
  onSkip?: () => void;
  onBack?: () => void;
}) {
  const { t } = useI18n();
  const [step, setStep] = useState<Step>(pin === undefined ? 'pin' : 'intro');
  const [words, setWords] = useState<string[] | null>(null);
  const [quiz, setQuiz] = useState<Question[]>([]);
  const [answered, setAnswered] = useState(0);
  const [missed, setMissed] = useState<number | null>(null);
  const { busy, error, run } = useAction();

  /** Forgets the words, then goes on to `next`. */
  function leave(next?: () => void) {
    setWords(null);
    setQuiz([]);
    next?.();
  }

  function showWords() {
    setMissed(null);
    setStep('words');
  }

  function reveal() {
    if (words || pin === undefined) {
      showWords();
      return;
    }
    void run(async () => {
      setWords(await api.showRecoveryPhrase(pin));
      showWords();
    });
  }

  function startCheck() {
    if (!words) return;
    setQuiz(makeQuiz(words));
    setAnswered(0);
    setMissed(null);
    setStep('confirm');
  }

  const confirm = () =>
    run(async () => {
      await api.confirmRecoveryPhrase();
      leave();
      setStep('done');
    });

  function pick(word: string) {
    const question = quiz[answered];
    if (!words || !question) return;
    if (word !== words[question.position]) {
      setMissed(question.position);
      return;
    }
    setAnswered(answered + 1);
    if (answered + 1 === quiz.length) void confirm();
  }

  const exit = onBack && (() => leave(onBack));
  const back = step === 'words' ? () => setStep('intro') : step === 'confirm' ? showWords : step === 'pin' || step === 'intro' ? exit : undefined;
  useEscape(back);

  // Each step's heading takes the focus, so a keyboard or screen reader follows on.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [step, answered]);

  const skip = onSkip && step !== 'done' && (
    <button id="phrase-skip" type="button" className="link-button center" onClick={() => leave(onSkip)}>
      {t('phrase.skip')}
    </button>
  );

  return (
    <div className="subpage">
      <Header title={t('phrase.title')} onBack={back} />
      <main className="page">
        {step === 'pin' && (
          <PinPrompt
            id="phrase-pin"
            title={t('phrase.pinTitle')}
            description={t('phrase.pinBody')}
            onSubmit={async (entered) => {
              setWords(await api.showRecoveryPhrase(entered));
              setStep('intro');
            }}
            onCancel={exit}
          />
        )}

        {step === 'intro' && (
          <section className="card" aria-labelledby="phrase-heading">
            <h2 id="phrase-heading" ref={heading} tabIndex={-1}>
              {t('phrase.introTitle')}
            </h2>
            <ul className="points">
              <li>{t('phrase.introWhat')}</li>
              <li>{t('phrase.introRisk')}</li>
              <li>{t('phrase.introPaper')}</li>
            </ul>
            <ErrorNotice error={error} />
            <button id="phrase-show" type="button" className="primary" onClick={reveal} disabled={busy}>
              {busy ? t('common.loading') : t('phrase.show')}
            </button>
          </section>
        )}

        {step === 'words' && words && (
          <section className="card" aria-labelledby="phrase-heading">
            <h2 id="phrase-heading" ref={heading} tabIndex={-1}>
              {t('phrase.wordsTitle')}
            </h2>
            <p className="muted">{t('phrase.wordsHint')}</p>
            <ol className="phrase-grid" aria-label={t('phrase.wordsLabel')} translate="no">
              {words.map((word, i) => (
                <li key={i}>
                  <span className="phrase-num" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span id={`phrase-word-${i + 1}`} className="phrase-word">
                    {word}
                  </span>
                </li>
              ))}
            </ol>
            <button id="phrase-continue" type="button" className="primary" onClick={startCheck}>
              {t('phrase.continue')}
            </button>
          </section>
        )}

        {step === 'confirm' && quiz.length > 0 && (
          <section className="card" aria-labelledby="phrase-heading">
            <div className="muted small">
              {t('phrase.checkTitle')} · {t('phrase.progress', { current: Math.min(answered + 1, quiz.length), total: quiz.length })}
            </div>
            {answered < quiz.length ? (
              <>
                <h2 id="phrase-heading" ref={heading} tabIndex={-1}>
                  {t('phrase.question', { n: quiz[answered].position + 1 })}
                </h2>
                {missed === null ? (
                  <div className="choices" role="group" aria-labelledby="phrase-heading" translate="no">
                    {quiz[answered].choices.map((word, i) => (
                      <button key={i} type="button" className="secondary" onClick={() => pick(word)}>
                        {word}
                      </button>
                    ))}
                  </div>
                ) : (
                  <>
                    <div id="phrase-wrong" className="notice error" role="alert">
                      {t('phrase.wrong', { n: missed + 1 })}
                    </div>
                    <button id="phrase-again" type="button" className="primary" onClick={showWords}>
                      {t('phrase.again')}
                    </button>
                  </>
                )}
              </>
            ) : (
              <>
                <h2 id="phrase-heading" ref={heading} tabIndex={-1}>
                  {busy ? t('phrase.saving') : t('phrase.allRight')}
                </h2>
                <ErrorNotice error={error} onRetry={confirm} />
              </>
            )}
          </section>
        )}

        {step === 'done' && (
          <section className="card" aria-labelledby="phrase-heading">
            <h2 id="phrase-heading" ref={heading} tabIndex={-1}>
              {t('phrase.doneTitle')}
            </h2>
            <div id="phrase-confirmed" className="notice success" role="status">
              {t('phrase.done')}
            </div>
            <button id="phrase-done" type="button" className="primary" onClick={onDone}>
              {t('phrase.finish')}
            </button>
          </section>
        )}

        {skip}
      </main>
    </div>
  );
}
