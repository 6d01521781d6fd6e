// What a transaction is expected to move to or from the account (the node's
// simulation, through the service: a prediction the heading says is one).
import type { ExpectedChange } from '../api';
import { useI18n } from '../i18n';

export function ExpectedChanges({ changes, testId }: { changes: ExpectedChange[]; testId?: string }) {
  return (
    <ul className="tx-changes" data-testid={testId}>
      {changes.map((change, i) => (
        <li key={i} className={change.direction === 'out' ? 'out' : 'in'}>
          <ChangeText change={change} />
        </li>
      ))}
    </ul>
  );
}

function ChangeText({ change }: { change: ExpectedChange }) {
  const { t } = useI18n();
  const asset =
    change.kind === 'erc721' || change.kind === 'erc1155'
      ? t('tx.nft', { id: change.tokenId ?? '', contract: change.contract ?? '' })
      : `${change.amount} ${change.symbol ?? t('tx.tokenAt', { contract: change.contract ?? '' })}`;
  const count = change.kind === 'erc1155' ? `${change.amount} × ` : '';
  return <>{t(change.direction === 'out' ? 'tx.sends' : 'tx.receives', { asset: `${count}${asset}` })}</>;
}
