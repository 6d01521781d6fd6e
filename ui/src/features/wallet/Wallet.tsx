import { useDeferredValue, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { useShownAgain } from '../../hooks/useShownAgain';
import { api, collectionKey, earlyBalances, markShownAfterPaint, markStartStep, markStartStepOnce, type AccountBalanceInfo, type AccountRef, type ActivityEntry, type TokenBalanceInfo } from '../../api';
import { useRefreshCooldown } from '../../hooks/useCountdown';
import { useI18n } from '../../i18n';
import { CoinMark } from '../../components/CoinMark';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Skeleton } from '../../components/Skeleton';
import { displayAmount, shortAddress } from '../../lib/format';
import { copyText } from '../../lib/copy';
import { NoMatch, SEARCH_FROM, SearchField, matches } from '../../components/Search';
import { VirtualList } from '../../components/VirtualList';
import { Activity, ActivityDetail } from './Activity';
import { RowValue, WalletTotal, useWalletValues } from './Values';
import { Receive } from './Receive';
import { RecoveryPhrase } from '../keys/RecoveryPhrase';
import { PinPrompt } from '../../components/Pin';
import { AddToken } from '../tokens/AddToken';
import type { SendTarget } from '../send/Send';
import { AccountSwitcher } from '../accounts/AccountSwitcher';
import { Accounts } from '../accounts/Accounts';
import { useWalletAccounts } from '../accounts/useWalletAccounts';
import { isShown, shownAccount, useChosenAccount } from '../../hooks/useAccount';

/** A token row's height in the 400 px window, until the first rows are measured. */
const TOKEN_ROW_ESTIMATE = 57;

/** The time, renewed once a minute from `from` on (a new `from` starts it
 * again): for "updated N min ago" and the prices' age. Not once a second: a
 * change a second has WebKit draw frames at the screen's rate all the while the
 * page is open. */
function useMinuteClock(from: number | null): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, [from]);
  return now;
}

/** A row's quiet Receive: an icon, its name "Receive ETH" for the reader and on hover. */
function ReceiveButton({ id, symbol, onClick }: { id: string; symbol: string; onClick: () => void }) {
  const { t } = useI18n();
  const label = t('wallet.receive', { symbol });
  return (
    <button id={id} type="button" className="icon-button" onClick={onClick} aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d="M12 4v11 M7 10l5 5 5-5 M5 20h14" />
      </svg>
    </button>
  );
}

/** A row's quiet Send: an icon, its name "Send ETH" for the reader and on hover. */
function SendButton({ id, symbol, onClick }: { id: string; symbol: string; onClick: () => void }) {
  const { t } = useI18n();
  const label = t('wallet.send', { symbol });
  return (
    <button id={id} type="button" className="icon-button" onClick={onClick} aria-label={label} title={label} data-testid={`send-${symbol}`}>
      <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d="M12 20V9 M7 14l5-5 5 5 M5 4h14" />
      </svg>
    </button>
  );
}

/**
 * The balances per network, each account's coin and tokens with Send and Receive,
 * and the activity under them. `onSend`: opens the send page for a row;
 * `showActivity`: the activity's heading takes the focus on entry.
 */
export function Wallet({ onSend, showActivity = false }: { onSend?: (target: SendTarget) => void; showActivity?: boolean } = {}) {
  const { t } = useI18n();
  // Opened at the start, the page has its first balances already (earlyBalances.ask).
  const [balances, setBalances] = useState<AccountBalanceInfo[] | null>(() => earlyBalances.arrived());
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const cooldown = useRefreshCooldown('balances');
  const now = useMinuteClock(updatedAt);
  // The wallet's accounts, and the one whose balances, values and activity show.
  const walletAccounts = useWalletAccounts();
  const shownAddress = shownAccount(walletAccounts.accounts ?? [], useChosenAccount());
  const { values, readValues, valueOf } = useWalletValues(shownAddress);
  const [managing, setManaging] = useState(false);

  // A wallet whose recovery phrase was never checked reminds the person of it.
  const [remind, setRemind] = useState(false);
  // Accounts the service listed that are not this wallet's key's (the app hides
  // them): the page says so, as a lying service would have money sent there.
  const [refused, setRefused] = useState(0);
  // Accounts added on another device, which the PIN confirms (the phrase must
  // make them) before they show here.
  const [unconfirmed, setUnconfirmed] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [phraseOpen, setPhraseOpen] = useState(false);
  // The account (and token) the Receive page shows; the balances stay as they are.
  const [receiving, setReceiving] = useState<AccountRef | null>(null);
  // The transaction whose detail shows; the balances stay as they are.
  const [transaction, setTransaction] = useState<ActivityEntry | null>(null);
  // The network whose tokens page (add, remove, hide) shows.
  const [addingOn, setAddingOn] = useState<string | null>(null);
  // Tokens the person hid (`network:contract`, kept on this device), left out
  // of the list unless they ask to see them.
  const [hidden, setHidden] = useState<string[]>([]);
  const [showHidden, setShowHidden] = useState(false);
  useEffect(() => {
    api.getCollectionChoices().then((choices) => setHidden(choices.hidden), () => undefined);
  }, []);
  // A sub-page (recovery phrase, Receive, a transaction) shows instead of the
  // balances, which stay (hidden) as they were: back from it, the page is where
  // it was.
  const page = useRef<HTMLElement>(null);
  const scrolled = useRef(0);
  const sub = phraseOpen || receiving !== null || transaction !== null || addingOn !== null || managing;
  function leave(open: () => void) {
    scrolled.current = page.current?.scrollTop ?? 0;
    open();
  }
  // Back from Receive, the focus returns to the button that opened it.
  const opener = useRef<string | null>(null);
  function openReceive(id: string, account: AccountRef) {
    opener.current = id;
    leave(() => setReceiving(account));
  }
  useEffect(() => {
    if (receiving || !opener.current) return;
    document.getElementById(opener.current)?.focus();
    opener.current = null;
  }, [receiving]);
  useEffect(() => {
    api.getKeyState().then(
      (key) => setRemind(key.state === 'onDevice' && !key.phraseConfirmed),
      () => undefined,
    );
  }, []);

  // What the app has stored; Refresh stays as it is meanwhile.
  const load = () =>
    run(
      async () => {
        const stored = await (earlyBalances.take() ?? api.getBalance());
        markStartStep('balances');
        setBalances(stored);
        void readValues();
        // What the app refused while listing them; a keychain that cannot say
        // fails nothing here.
        api.getKeyState().then(
          (key) => {
            setRefused(key.refusedAccounts);
            setUnconfirmed(key.unconfirmedAccounts);
          },
          () => undefined,
        );
      },
      { busy: false },
    );

  // Reads the chain; the app starts its cooldown, which the page then asks for.
  const refresh = () =>
    run(async () => {
      try {
        setBalances(await api.refreshBalance());
        setUpdatedAt(Date.now());
        void readValues();
      } finally {
        void cooldown.sync();
      }
    });

  // On entry, show what is stored at once, then read the chain when the cooldown
  // allows. Once per visit, also when React runs effects twice (StrictMode).
  const visit = async () => {
    await load();
    if ((await cooldown.sync()) === 0) await refresh();
  };
  const enter = useEffectEvent(visit);
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    void enter();
  }, []);
  // The window opened again (it is kept, hidden, when closed): the same again.
  useShownAgain(() => void visit());

  // Another account chosen: its balances as stored now (a send between the
  // wallet's accounts changed them since the page opened) and its values. The
  // accounts' first answer only narrows the values to the shown one (with one
  // account, they are that one's already).
  const reread = useEffectEvent((first: boolean) => {
    if (!first) void load();
    else if ((walletAccounts.accounts?.length ?? 0) > 1) void readValues();
  });
  const lastShown = useRef(shownAddress);
  useEffect(() => {
    if (lastShown.current === shownAddress) return;
    const first = lastShown.current === null;
    lastShown.current = shownAddress;
    reread(first);
  }, [shownAddress]);

  const shown = useRef(false);
  // The start's breakdown: the render that first has balances begins here.
  if (balances && balances.length > 0) markStartStepOnce('render');
  useLayoutEffect(() => {
    if (balances && balances.length > 0 && !shown.current) {
      shown.current = true;
      // In the page's DOM now; shown after the next paint.
      markStartStep('rendered');
      markShownAfterPaint('balances');
    }
  }, [balances]);

  async function copy(address: string) {
    if (await copyText(address)) {
      setCopied(address);
      setTimeout(() => setCopied(null), 1500);
    }
  }

  // The rows the search leaves: per account its coin (by symbol) and its tokens
  // (by symbol or contract); accounts with neither are left out.
  const [query, setQuery] = useState('');
  const wanted = useDeferredValue(query);
  const ownBalances = useMemo(() => (balances ?? []).filter((a) => isShown(a.address, shownAddress)), [balances, shownAddress]);
  const rowCount = useMemo(() => ownBalances.reduce((n, a) => n + 1 + a.tokens.length, 0), [ownBalances]);
  const shownAccounts = useMemo(
    () =>
      ownBalances
        .map((account) => {
          const visible = showHidden ? account.tokens : account.tokens.filter((token) => !hidden.includes(collectionKey(account.network, token.contract)));
          return {
            account,
            coin: matches(wanted, account.symbol),
            tokens: wanted.trim() === '' ? visible : visible.filter((token) => matches(wanted, token.symbol, token.contract)),
            hiddenCount: account.tokens.length - account.tokens.filter((token) => !hidden.includes(collectionKey(account.network, token.contract))).length,
          };
        })
        .filter(({ coin, tokens }) => coin || tokens.length > 0),
    [ownBalances, wanted, hidden, showHidden],
  );
  const search = (q: string) => {
    setQuery(q);
    if (page.current) page.current.scrollTop = 0;
  };

  useLayoutEffect(() => {
    if (!sub && page.current) page.current.scrollTop = scrolled.current;
  }, [sub]);
  // Back from a transaction, the activity is read again.
  const [activityVisit, setActivityVisit] = useState(0);

  const tokenRow = (account: AccountBalanceInfo, token: TokenBalanceInfo) => (
    <div className="row">
      <CoinMark symbol={token.symbol} />
      <span className="label">
        {token.symbol}
        <small>{shortAddress(token.contract)}</small>
      </span>
      <span className="amount-stack">
        <span className="amount" title={token.balance} data-testid={`balance-${token.symbol}`}>
          {displayAmount(token.balance)}
        </span>
        <RowValue value={valueOf(account.network, account.address, token.contract)} symbol={token.symbol} currency={values?.currency ?? ''} now={now} />
      </span>
      {onSend && (
        <SendButton
          id={`send-${account.network}-${token.symbol}`}
          symbol={token.symbol}
          onClick={() =>
            onSend({
              account: { network: account.network, address: account.address, contract: token.contract },
              symbol: token.symbol,
              balance: token.balance,
            })
          }
        />
      )}
      <ReceiveButton
        id={`receive-${account.network}-${token.symbol}`}
        symbol={token.symbol}
        onClick={() =>
          openReceive(`receive-${account.network}-${token.symbol}`, {
            network: account.network,
            address: account.address,
            contract: token.contract,
          })
        }
      />
    </div>
  );

  const minutes = updatedAt === null ? null : Math.floor(Math.max(0, now - updatedAt) / 60_000);
  return (
    <>
      {phraseOpen && (
        <RecoveryPhrase
          onBack={() => setPhraseOpen(false)}
          onDone={() => {
            setRemind(false);
            setPhraseOpen(false);
          }}
        />
      )}
      {receiving && <Receive account={receiving} onBack={() => setReceiving(null)} />}
      {addingOn !== null && (
        <AddToken
          network={addingOn}
          account={ownBalances.find((a) => a.network === addingOn)?.address}
          tokens={ownBalances.find((a) => a.network === addingOn)?.tokens ?? []}
          hidden={hidden}
          onHidden={setHidden}
          onBack={() => {
            setAddingOn(null);
            void load();
          }}
        />
      )}
      {managing && walletAccounts.accounts && (
        <Accounts
          accounts={walletAccounts.accounts}
          shown={shownAddress}
          onChange={walletAccounts.setAccounts}
          onBack={() => {
            setManaging(false);
            void load();
          }}
        />
      )}
      {transaction && (
        <ActivityDetail
          entry={transaction}
          onBack={() => {
            setTransaction(null);
            setActivityVisit((n) => n + 1);
          }}
        />
      )}
      <main className="page" ref={page} hidden={sub}>
        {walletAccounts.accounts && walletAccounts.accounts.length > 0 && (
          <AccountSwitcher accounts={walletAccounts.accounts} shown={shownAddress} onManage={() => leave(() => setManaging(true))} />
        )}
        {refused > 0 && (
          <section id="refused-accounts" className="notice error" role="alert" data-testid="refused-accounts">
            {t('wallet.refusedAccounts', { count: refused })}
          </section>
        )}
        {unconfirmed > 0 && (
          <section id="unconfirmed-accounts" className="notice info stack" data-testid="unconfirmed-accounts">
            <span>{t('accounts.unconfirmed', { count: unconfirmed })}</span>
            {confirming ? (
              <PinPrompt
                id="unconfirmed-pin"
                framed={false}
                submitLabel={t('accounts.confirm')}
                onSubmit={async (pin) => {
                  walletAccounts.setAccounts(await api.confirmAccounts(pin));
                  setConfirming(false);
                  setUnconfirmed(0);
                  await load();
                }}
                onCancel={() => setConfirming(false)}
              />
            ) : (
              <button id="unconfirmed-check" type="button" className="secondary" onClick={() => setConfirming(true)}>
                {t('accounts.confirm')}
              </button>
            )}
          </section>
        )}
        {remind && (
          <section id="phrase-reminder" className="notice warning stack" aria-labelledby="phrase-reminder-title">
            <strong id="phrase-reminder-title">{t('wallet.phraseReminder')}</strong>
            <span>{t('wallet.phraseReminderBody')}</span>
            <button id="phrase-reminder-open" className="secondary" onClick={() => leave(() => setPhraseOpen(true))}>
              {t('wallet.phraseReminderOpen')}
            </button>
          </section>
        )}
        {values && balances && balances.length > 0 && <WalletTotal values={values} now={now} />}
        <div className="toolbar">
          <span id="wallet-updated">
            {minutes === null ? '' : minutes < 1 ? t('wallet.updatedJustNow') : t('wallet.updated', { minutes })}
          </span>
          <button id="wallet-refresh" className="secondary" onClick={refresh} disabled={busy || cooldown.seconds > 0}>
            {cooldown.seconds > 0 ? t('wallet.refreshIn', { seconds: cooldown.seconds }) : t('wallet.refresh')}
          </button>
        </div>
        {rowCount >= SEARCH_FROM && <SearchField id="wallet-search" label={t('wallet.search')} value={query} onChange={search} />}
        <ErrorNotice error={error} onRetry={balances ? undefined : load} />
        {balances === null && !error && (
          <div className="card" aria-busy="true" aria-label={t('common.loading')}>
            <Skeleton height={28} width="50%" />
            {[0, 1, 2].map((i) => (
              <div className="row" key={i}>
                <Skeleton height={32} width={32} />
                <Skeleton height={16} />
              </div>
            ))}
          </div>
        )}
        {balances?.length === 0 && <div className="card muted">{t('wallet.empty')}</div>}
        {balances && balances.length > 0 && shownAccounts.length === 0 && (
          <NoMatch id="wallet-no-match" onClear={() => search('')}>
            {t('wallet.noMatch', { query: wanted.trim() })}
          </NoMatch>
        )}
        {shownAccounts.map(({ account, coin, tokens, hiddenCount }) => (
          <section className="card network" key={`${account.network}:${account.address}`} aria-label={account.network}>
            <div className="network-head">
              <span className="name">{account.network}</span>
              <button className="address" onClick={() => copy(account.address)} title={t('wallet.copy')}>
                {copied === account.address ? t('wallet.copied') : shortAddress(account.address)}
              </button>
            </div>
            <div>
              {coin && (
                <div className="row">
                  <CoinMark symbol={account.symbol} />
                  <span className="label">
                    {account.symbol}
                    <small>{account.network}</small>
                  </span>
                  <span className="amount-stack">
                    <span className="amount" title={account.balance} data-testid={`balance-${account.symbol}`}>
                      {displayAmount(account.balance)}
                    </span>
                    <RowValue value={valueOf(account.network, account.address)} symbol={account.symbol} currency={values?.currency ?? ''} now={now} />
                  </span>
                  {onSend && (
                    <SendButton
                      id={`send-${account.network}`}
                      symbol={account.symbol}
                      onClick={() =>
                        onSend({
                          account: { network: account.network, address: account.address },
                          symbol: account.symbol,
                          balance: account.balance,
                        })
                      }
                    />
                  )}
                  <ReceiveButton
                    id={`receive-${account.network}`}
                    symbol={account.symbol}
                    onClick={() => openReceive(`receive-${account.network}`, { network: account.network, address: account.address })}
                  />
                </div>
              )}
              {tokens.length > 0 && (
                <VirtualList
                  // A new search, or hidden tokens shown, is a new list, drawn from the top.
                  key={`${wanted}:${showHidden}:${hidden.length}`}
                  className="token-rows"
                  label={t('wallet.tokens', { network: account.network })}
                  count={tokens.length}
                  estimate={TOKEN_ROW_ESTIMATE}
                  itemKey={(index) => tokens[index].contract}
                  renderItem={(index) => tokenRow(account, tokens[index])}
                />
              )}
            </div>
            <div className="network-foot">
              {(hiddenCount > 0 || showHidden) && (
                <button id={`hidden-tokens-${account.network}`} type="button" className="link" aria-pressed={showHidden} onClick={() => setShowHidden(!showHidden)}>
                  {showHidden ? t('tokens.hideHidden') : t('tokens.showHidden', { count: hiddenCount })}
                </button>
              )}
              <button
                id={`add-token-${account.network}`}
                type="button"
                className="link"
                onClick={() => leave(() => setAddingOn(account.network))}
              >
                {t('tokens.manage')}
              </button>
            </div>
          </section>
        ))}
        <Activity key={activityVisit} account={shownAddress} onOpen={(entry) => leave(() => setTransaction(entry))} focus={showActivity} />
      </main>
    </>
  );
}
