// A dapp that uses Satchel as its wallet, as any dapp would: an EIP-1193
// provider (@satchel/provider, announced with EIP-6963) under viem's wallet
// client. Connect; Sign-In with Ethereum (checked here: the signature must
// recover to the account); an EIP-2612 permit for the demo token; a mint.
// The local stack serves it with ./config.json naming the demo contracts.
import { announceSatchel, satchelProvider } from '@satchel/provider';
import {
  type Address,
  type Hex,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  parseSignature,
  parseUnits,
  verifyMessage,
} from 'viem';
import { createSiweMessage, generateSiweNonce } from 'viem/siwe';

interface Config {
  chainId: number;
  /** The demo ERC-20 with EIP-2612's permit ("Demo Token"). */
  token: Address;
  tokenName: string;
  /** The demo ERC-721 with `claim(uri)`. */
  nft: Address;
  /** Satchel's endpoint. */
  providerUrl: string;
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const show = (id: string, text: string, kind: 'ok' | 'error' | '' = '') => {
  const out = byId<HTMLOutputElement>(id);
  out.textContent = text;
  out.className = kind;
};
const failure = (error: unknown) => {
  const e = error as { code?: number; shortMessage?: string; message?: string; details?: string; cause?: { code?: number } };
  const code = e.code ?? e.cause?.code;
  // viem names the error by its code; the wallet's own words are its details.
  const details = e.details && e.details !== e.shortMessage ? ` (${e.details})` : '';
  return `${code !== undefined ? `${code}: ` : ''}${e.shortMessage ?? e.message ?? String(error)}${details}`;
};

const config: Config = await fetch('./config.json')
  .then((r) => (r.ok ? (r.json() as Promise<Config>) : Promise.reject(new Error('no config'))))
  .catch(() => ({
    chainId: 31337,
    token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    tokenName: 'Demo Token',
    nft: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    providerUrl: 'http://127.0.0.1:1248',
  }));

/** The wallets the page found by EIP-6963, as a dapp's wallet list shows them. */
interface Announced {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: EIP1193;
}
type EIP1193 = Parameters<typeof custom>[0] & { on(event: string, listener: (...args: unknown[]) => void): unknown };

/** Satchel as a dapp that knows nothing of it finds it: the wallet a browser
 * extension announced (EIP-6963) with Satchel's rdns. */
function discoverSatchel(): Promise<EIP1193> {
  const found: Announced[] = [];
  return new Promise((resolve) => {
    window.addEventListener('eip6963:announceProvider', (event) => {
      const detail = (event as CustomEvent<Announced>).detail;
      if (found.some((f) => f.info.uuid === detail.info.uuid)) return;
      found.push(detail);
      byId('wallets').textContent = found.map((f) => `${f.info.name} (${f.info.rdns})`).join(', ');
      if (detail.info.rdns === 'dev.satchel') resolve(detail.provider);
    });
    window.dispatchEvent(new Event('eip6963:requestProvider'));
  });
}

// `?wallet=discover`: find Satchel as any dapp would (the extension);
// otherwise through @satchel/provider, announced for the page's libraries.
const discovering = new URLSearchParams(location.search).get('wallet') === 'discover';
byId('how').textContent = discovering ? 'found by EIP-6963' : '@satchel/provider';
const provider: EIP1193 = discovering ? await discoverSatchel() : satchelProvider({ url: config.providerUrl });
if (!discovering) announceSatchel(provider as ReturnType<typeof satchelProvider>);
const wallet = createWalletClient({ transport: custom(provider) });
const chain = createPublicClient({ transport: custom(provider) });
let account: Address | undefined;

const events: string[] = [];
const logEvent = (text: string) => {
  events.push(text);
  byId('events').textContent = events.join('\n');
};
provider.on('accountsChanged', (accounts) => {
  const list = accounts as Address[];
  account = list[0];
  logEvent(`accountsChanged ${JSON.stringify(list)}`);
  show('account', account ?? 'not connected');
  for (const id of ['sign-in', 'sign-in-foreign', 'permit', 'mint']) byId<HTMLButtonElement>(id).disabled = !account;
});
provider.on('chainChanged', (chainId) => logEvent(`chainChanged ${String(chainId)}`));

byId('connect').onclick = async () => {
  try {
    [account] = await wallet.requestAddresses();
    show('account', account ?? '', 'ok');
    for (const id of ['sign-in', 'sign-in-foreign', 'permit', 'mint']) byId<HTMLButtonElement>(id).disabled = false;
  } catch (error) {
    show('account', failure(error), 'error');
  }
};

/** Signs in with Ethereum for `domain`; checks the signature recovers to the account. */
async function signIn(domain: string) {
  if (!account) return;
  try {
    const message = createSiweMessage({
      domain,
      address: account,
      statement: 'Sign in to the Satchel example dapp.',
      uri: `${location.protocol}//${domain}`,
      version: '1',
      chainId: config.chainId,
      nonce: generateSiweNonce(),
    });
    const signature = await wallet.signMessage({ account, message });
    const valid = await verifyMessage({ address: account, message, signature });
    const out = byId<HTMLOutputElement>('sign-in-result');
    out.dataset.message = message;
    out.dataset.signature = signature;
    show('sign-in-result', valid ? `signed in: ${signature}` : `the signature does not recover to ${account}`, valid ? 'ok' : 'error');
  } catch (error) {
    show('sign-in-result', `refused: ${failure(error)}`, 'error');
  }
}
byId('sign-in').onclick = () => signIn(location.host);
byId('sign-in-foreign').onclick = () => signIn('evil.example');

byId('permit').onclick = async () => {
  if (!account) return;
  try {
    const value = parseUnits('1.5', 18);
    const deadline = 4_000_000_000n;
    const spender: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const signature = await wallet.signTypedData({
      account,
      domain: { name: config.tokenName, version: '1', chainId: config.chainId, verifyingContract: config.token },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: { owner: account, spender, value, nonce: 0n, deadline },
    });
    const { r, s, v } = parseSignature(signature);
    const out = byId<HTMLOutputElement>('permit-result');
    out.dataset.signature = signature;
    out.dataset.spender = spender;
    show('permit-result', `permit signed: v=${v} r=${r} s=${s}`, 'ok');
  } catch (error) {
    show('permit-result', `refused: ${failure(error)}`, 'error');
  }
};

const claimAbi = [{ type: 'function', name: 'claim', stateMutability: 'nonpayable', inputs: [{ name: 'uri', type: 'string' }], outputs: [{ name: 'id', type: 'uint256' }] }] as const;

byId('mint').onclick = async () => {
  if (!account) return;
  try {
    const uri = 'data:application/json,{"name":"Pal from the example dapp"}';
    const hash: Hex = await wallet.sendTransaction({
      account,
      chain: null,
      to: config.nft,
      data: encodeFunctionData({ abi: claimAbi, functionName: 'claim', args: [uri] }),
    });
    show('mint-result', `sent: ${hash}`, 'ok');
    byId<HTMLOutputElement>('mint-result').dataset.hash = hash;
    const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 500 });
    show('mint-result', `minted in block ${receipt.blockNumber}: ${hash}`, receipt.status === 'success' ? 'ok' : 'error');
  } catch (error) {
    show('mint-result', `refused: ${failure(error)}`, 'error');
  }
};
