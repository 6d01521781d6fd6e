// An error in the app's words, with Try again where it helps.
import { useI18n } from '../i18n';
import type { AppError } from '../api';

export function ErrorNotice({ error, onRetry }: { error: AppError | null; onRetry?: () => void }) {
  const { t, explain } = useI18n();
  if (!error) return null;
  return (
    <div className="notice error" role="alert">
      {explain(error)}{' '}
      {onRetry && (
        <button className="link-button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
