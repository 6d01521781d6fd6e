// eth_signTypedData_v4: a permit said in words first ("allows … to spend … until
// …", unlimited amounts in red), then the domain and the message as a tree, as
// the device read them from what it signs.
import type { Allowance, ConnectPrompt, OrderItem, Permit, SeaportOrder, TypedField, TypedReview } from '../../api';
import { useI18n } from '../../i18n';
import { FullAddress } from '../../components/FullAddress';
import { formatUnits } from '../../lib/amount';
import { dateTime } from '../../lib/format';
import { AskingPage, Fact, SignAnswer } from './Asking';

export function SignTypedData({ prompt, review }: { prompt: ConnectPrompt; review: TypedReview }) {
  const { t } = useI18n();
  return (
    <AskingPage prompt={prompt} title={t(review.permit ? 'sign.permitTitle' : review.order ? 'order.title' : 'sign.typedTitle')} refusal={review.refusal}>
      {review.permit && <PermitSummary permit={review.permit} />}
      {review.order && <OrderSummary order={review.order} />}
      {/* A permit or an order is said in words above; what is signed stays one click away. */}
      <details className="typed-data" open={review.permit === undefined && review.order === undefined}>
        <summary>{t('sign.signedData')}</summary>
        <h3 className="small">{t('sign.domain')}</h3>
        <Fields fields={review.domain} testId="typed-domain" />
        <h3 className="small">
          {t('sign.message')} <span className="muted">({review.primaryType})</span>
        </h3>
        <Fields fields={review.message} testId="typed-message" />
        {review.truncated && <p className="muted small">{t('sign.truncated')}</p>}
      </details>
      <dl className="facts">
        <Fact label={t('sign.account')}>
          <FullAddress address={review.account} />
        </Fact>
      </dl>
      <SignAnswer prompt={prompt} refused={review.refusal !== undefined} submitLabel={t('sign.sign')} />
    </AskingPage>
  );
}

function PermitSummary({ permit }: { permit: Permit }) {
  const { t, language } = useI18n();
  const until =
    permit.until === undefined
      ? t('sign.forever')
      : dateTime(permit.until, language);
  const unlimited = permit.allowances.some((a) => a.unlimited);
  return (
    <div className={`notice ${unlimited ? 'danger' : 'warning'}`} role="note" data-testid="permit-summary">
      <p>{t('sign.permitAllows')}</p>
      <p className="permit-spender">
        <FullAddress address={permit.spender} testId="permit-spender" />
      </p>
      <p>{t('sign.permitToSpend')}</p>
      <ul className="permit-allowances">
        {permit.allowances.map((a, i) => (
          <li key={i} data-testid="permit-allowance" className={a.unlimited ? 'unlimited' : undefined}>
            <AllowanceText allowance={a} />
          </li>
        ))}
      </ul>
      <p data-testid="permit-until">{t('sign.permitUntil', { until })}</p>
      {permit.chainId !== undefined && <p data-testid="permit-chain">{t('sign.permitChain', { chainId: permit.chainId })}</p>}
    </div>
  );
}

/** A Seaport order: what the signer gives, what comes back, what others get. */
function OrderSummary({ order }: { order: SeaportOrder }) {
  const { t, language } = useI18n();
  const until = order.until === undefined ? t('sign.forever') : dateTime(order.until, language);
  return (
    <div className={`notice ${order.givesForNothing ? 'danger' : 'warning'}`} role="note" data-testid="order-summary">
      <p>
        <strong>{t('order.gives')}</strong>
      </p>
      <ul className="permit-allowances" data-testid="order-gives">
        {order.gives.map((item, i) => (
          <li key={i}>
            <OrderItemText item={item} />
          </li>
        ))}
      </ul>
      <p>
        <strong>{t('order.receives')}</strong>
      </p>
      {order.receives.length === 0 ? (
        <p data-testid="order-receives">{t('order.nothing')}</p>
      ) : (
        <ul className="permit-allowances" data-testid="order-receives">
          {order.receives.map((item, i) => (
            <li key={i}>
              <OrderItemText item={item} />
            </li>
          ))}
        </ul>
      )}
      {order.othersReceive.length > 0 && (
        <>
          <p>{t('order.others')}</p>
          <ul className="permit-allowances" data-testid="order-others">
            {order.othersReceive.map((item, i) => (
              <li key={i}>
                <OrderItemText item={item} /> → <FullAddress address={item.recipient ?? ''} className="compact" />
              </li>
            ))}
          </ul>
        </>
      )}
      {order.givesForNothing && (
        <p data-testid="order-for-nothing">
          <strong>{t('order.forNothing')}</strong>
        </p>
      )}
      <p>{t('order.until', { until })}</p>
    </div>
  );
}

function OrderItemText({ item }: { item: OrderItem }) {
  const { t } = useI18n();
  switch (item.kind) {
    case 'coin':
      return <>{formatUnits(BigInt(item.amount), 18)} ETH</>;
    case 'erc20':
      return item.decimals !== undefined ? (
        <>
          {formatUnits(BigInt(item.amount), item.decimals)} {item.symbol ?? t('sign.unknownToken', { token: item.token })}
        </>
      ) : (
        <>{t('sign.units', { token: item.token })} {item.amount}</>
      );
    case 'erc721':
    case 'erc1155':
      return <>{t('order.nft', { id: item.tokenId ?? '', amount: item.amount, contract: item.token })}</>;
    case 'anyErc721':
    case 'anyErc1155':
      return <>{t('order.anyNft', { amount: item.amount, contract: item.token })}</>;
  }
}

function AllowanceText({ allowance }: { allowance: Allowance }) {
  const { t } = useI18n();
  const token = allowance.symbol ?? t('sign.unknownToken', { token: allowance.token });
  if (allowance.unlimited) return <strong>{t('sign.unlimited', { token })}</strong>;
  const amount = allowance.decimals !== undefined ? formatUnits(BigInt(allowance.amount), allowance.decimals) : allowance.amount;
  return (
    <>
      {amount} {allowance.decimals !== undefined ? token : t('sign.units', { token })}
    </>
  );
}

/** Fields as a nested list: name, value (or the fields inside), and type. */
function Fields({ fields, testId }: { fields: TypedField[]; testId?: string }) {
  return (
    <ul className="typed-fields" data-testid={testId}>
      {fields.map((field, i) => (
        <li key={i}>
          <span className="typed-name">{field.name}</span> <span className="muted small">{field.typeName}</span>
          {field.value !== undefined ? (
            <div className="typed-value" translate="no">
              {field.value}
            </div>
          ) : (
            <Fields fields={field.fields} />
          )}
        </li>
      ))}
    </ul>
  );
}
