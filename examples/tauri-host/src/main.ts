// A game launcher's page with Satchel's wallet widget: init, loginWithUI (the
// widget's own window opens for the login, sign-up and PIN), the balance and
// the items (NFTs), and "Buy" as a send to the shop, which the person
// confirms with their PIN in the widget. This page never sees the PIN, the
// recovery phrase or a token.
import { SatchelWidget, type ServiceAccount } from '@satchel/widget';
import { invoke } from '@tauri-apps/api/core';

/** The shop's address: where "Buy" sends the price. */
const SHOP = '0x000000000000000000000000000000000000dEaD';
const PRICE = '0.01';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const say = (text: string, error = false) => {
  const out = byId<HTMLOutputElement>('status');
  out.textContent = text;
  out.className = error ? 'error' : '';
};
const problem = (e: unknown) => {
  const { code, message } = e as { code?: string; message?: string };
  say(`${code ?? 'Error'}: ${message ?? String(e)}`, true);
};

// A real application writes its own app id and key here. This example runs
// against whichever local stack started it (the plugin is configured from the
// stack's SATCHEL_* variables), so it asks the plugin which app it serves.
let satchel: SatchelWidget | undefined;
let account: ServiceAccount | undefined;

async function widget(): Promise<SatchelWidget> {
  if (!satchel) {
    const info = await invoke<{ appId: string }>('plugin:satchel|getAppInfo');
    satchel = new SatchelWidget({ appId: info.appId, appKey: 'configured-in-the-plugin' });
    await satchel.init({ defaultLanguage: 'en' });
  }
  return satchel;
}

/** Shows the wallet; `refreshNfts` re-reads the items from the chain (once
 * a minute at most: the spec's refresh limit). */
async function showWallet(refreshNfts: boolean) {
  const satchel = await widget();
  const accounts = await satchel.getAccounts();
  account = accounts.find((a) => !a.contract);
  if (!account) throw new Error('no account');
  const [balance] = await satchel.getBalance([{ network: account.network, address: account.address }]);
  const nfts = await satchel.getNFTs({ refresh: refreshNfts });
  byId('address').textContent = account.address;
  byId('balance').textContent = balance?.balance ?? '0';
  byId('symbol').textContent = balance?.symbol ?? '';
  byId('nft-count').textContent = String(nfts.length);
  byId('nfts').replaceChildren(
    ...nfts.map((nft) => Object.assign(document.createElement('li'), { textContent: nft.name })),
  );
  byId('signed-out').hidden = true;
  byId('signed-in').hidden = false;
}

byId('connect').addEventListener('click', async () => {
  try {
    const satchel = await widget();
    say('Log in in the Satchel window…');
    const user = await satchel.loginWithUI();
    if (user.userStatus.loginStatus !== 'complete') await satchel.register();
    say(`Connected as ${user.userInfo?.email ?? 'you'}`);
    await showWallet(true);
  } catch (e) {
    problem(e);
  }
});

byId('buy').addEventListener('click', async () => {
  if (!account) return;
  try {
    say('Confirm the purchase in the Satchel window…');
    const { txId } = await (await widget()).send(
      { network: account.network, address: account.address },
      { to: SHOP, amount: PRICE },
    );
    say(`Bought: ${txId}`);
    byId('status').dataset.txId = txId;
    await showWallet(false);
  } catch (e) {
    problem(e);
  }
});

byId('open').addEventListener('click', () => {
  widget().then((w) => w.openWidget()).catch(problem);
});

byId('logout').addEventListener('click', async () => {
  try {
    await (await widget()).logout();
    byId('signed-in').hidden = true;
    byId('signed-out').hidden = false;
    say('Logged out');
  } catch (e) {
    problem(e);
  }
});
