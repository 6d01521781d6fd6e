// A transaction's status as a pill.
import { type TransactionStatus } from '../api';
import { useI18n } from '../i18n';

/** Pending, Confirmed, Failed, Replaced: a coloured pill. */
export function StatusBadge({ status }: { status: TransactionStatus }) {
  const { t } = useI18n();
  return (
    <span className="status-badge" data-status={status}>
      {t(`activity.status.${status}`)}
    </span>
  );
}
