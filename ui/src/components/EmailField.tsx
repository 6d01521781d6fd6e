// The e-mail field of the login, sign-up, password-reset and e-mail
// registration forms: one label, one input, the error under it.
import { useI18n } from '../i18n';

export function EmailField({
  id,
  value,
  onChange,
  error,
  autoComplete = 'username',
  testIds,
}: {
  id: string;
  value: string;
  onChange: (email: string) => void;
  /** Said under the field, and the field marked invalid, when given. */
  error?: string;
  autoComplete?: 'username' | 'email';
  /** `data-testid`s of the input and its error (the tests' handles). */
  testIds?: { input: string; error: string };
}) {
  const { t } = useI18n();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{t('common.email')}</label>
      <div className="input-row">
        <input
          id={id}
          data-testid={testIds?.input}
          type="email"
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          autoFocus
        />
      </div>
      {error && (
        <span id={errorId} className="field-error" data-testid={testIds?.error}>
          {error}
        </span>
      )}
    </div>
  );
}
