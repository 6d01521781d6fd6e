// What a transaction is expected to move to or from the account (the node's
// simulation, through the service: a prediction the heading says is one).
import type { ExpectedApproval, ExpectedChange } from '../api';
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

// The approvals the same simulation saw the account give or withdraw: one
// that can take everything (an unlimited allowance, an operator) in red.
export function ExpectedApprovals({ approvals, testId }: { approvals: ExpectedApproval[]; testId?: string }) {
  const { t } = useI18n();
  return (
    <>
      <h3 className="small">{t('tx.grants')}</h3>
      <ul className="tx-changes" data-testid={testId}>
        {approvals.map((approval, i) => (
          <li key={i} className={approval.takesEverything ? 'out' : undefined} data-kind={approval.kind} data-takes-everything={approval.takesEverything}>
            <ApprovalText approval={approval} />
          </li>
        ))}
      </ul>
    </>
  );
}

function ApprovalText({ approval }: { approval: ExpectedApproval }) {
  const { t } = useI18n();
  const { spender, contract } = approval;
  if (approval.withdrawn) return <>{t('tx.grantWithdrawn', { spender, contract })}</>;
  if (approval.kind === 'operator') return <>{t('tx.grantOperator', { spender, contract })}</>;
  const token = approval.symbol ?? t('tx.tokenOf', { contract });
  return <>{approval.takesEverything ? t('tx.grantUnlimited', { spender, token }) : t('tx.grantAllowance', { spender, amount: approval.amount ?? '', token })}</>;
}
