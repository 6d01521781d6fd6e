import { useEffect, useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { PIN_LENGTH, PinField, PinNotice, usePinLimits } from '../../components/Pin';
import { Header } from '../../components/Header';
import { useEscape } from '../../hooks/useEscape';

/** The current PIN, then a new one twice. The service proves the current PIN, so
 * its limits (tries left, pause, lock) show here as on every PIN prompt. */
export function ChangePin({ onChanged, onBack }: { onChanged: () => void; onBack: () => void }) {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<'mismatch' | 'same' | null>(null);
  const { busy, error, run } = useAction();
  const limits = usePinLimits();
  const { read, guard } = limits;
  useEscape(onBack);

  useEffect(() => {
    void read();
  }, [read]);

  const complete = [current, next, again].every((p) => p.length === PIN_LENGTH);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!complete || busy || limits.paused) return;
    if (next !== again) {
      setProblem('mismatch');
      setNext('');
      setAgain('');
      return;
    }
    if (next === current) {
      setProblem('same');
      setNext('');
      setAgain('');
      return;
    }
    setProblem(null);
    void run(async () => {
      try {
        await guard(() => api.changePin(current, next));
      } catch (err) {
        setCurrent('');
        throw err;
      }
      onChanged();
    });
  }

  return (
    <div className="subpage">
      <Header title={t('changePin.title')} onBack={onBack} />
      <main className="page">
        <form className="card" onSubmit={submit}>
          <p className="muted">{t('changePin.why')}</p>
          <PinField id="change-pin-old" label={t('changePin.old')} value={current} onChange={setCurrent} autoFocus />
          <PinField id="change-pin-new" label={t('changePin.new')} value={next} onChange={setNext} />
          <PinField id="change-pin-again" label={t('changePin.again')} value={again} onChange={setAgain} />
          {problem && <span className="field-error">{t(problem === 'mismatch' ? 'changePin.mismatch' : 'changePin.same')}</span>}
          <PinNotice error={error} limits={limits} />
          <button id="change-pin-submit" className="primary" type="submit" disabled={!complete || busy || limits.paused}>
            {busy ? t('changePin.busy') : t('changePin.submit')}
          </button>
        </form>
      </main>
    </div>
  );
}
