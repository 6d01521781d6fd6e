// Wepin's own web client, `@wepin/fetch-js` as published, against Satchel's
// service: the four REST operations through the package's own methods, with the
// headers it builds itself (X-API-KEY, X-API-DOMAIN, X-SDK-TYPE, X-SDK-VERSION,
// Authorization), and the shapes of what comes back. scripts/interop.sh runs it
// against the local stack, once for an app with a real domain and once for a
// localhost-only one (for which the client sends an empty X-API-DOMAIN).
//
// Inputs, as `--name=value` or the environment variable beside each:
//   --base-url      SATCHEL_INTEROP_BASE_URL      the service, e.g. http://127.0.0.1:8787/
//   --app-id        SATCHEL_INTEROP_APP_ID
//   --app-key       SATCHEL_INTEROP_APP_KEY
//   --domain        SATCHEL_INTEROP_DOMAIN        the app's domain as the web page knows it
//   --user-id       SATCHEL_INTEROP_USER_ID
//   --wallet-id     SATCHEL_INTEROP_WALLET_ID     a wallet funded with the demo assets
//   --access-token  SATCHEL_INTEROP_ACCESS_TOKEN  (minted for at least two minutes)
//   --sdk-type      SATCHEL_INTEROP_SDK_TYPE      optional, default web_rest_api
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { WepinFetch } from '@wepin/fetch-js';

const inputs = {
  baseUrl: 'SATCHEL_INTEROP_BASE_URL',
  appId: 'SATCHEL_INTEROP_APP_ID',
  appKey: 'SATCHEL_INTEROP_APP_KEY',
  domain: 'SATCHEL_INTEROP_DOMAIN',
  userId: 'SATCHEL_INTEROP_USER_ID',
  walletId: 'SATCHEL_INTEROP_WALLET_ID',
  accessToken: 'SATCHEL_INTEROP_ACCESS_TOKEN',
  sdkType: 'SATCHEL_INTEROP_SDK_TYPE',
};
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((arg) => /^--([a-z-]+)=(.*)$/s.exec(arg))
    .filter(Boolean)
    .map(([, name, value]) => [name.replace(/-([a-z])/g, (_, c) => c.toUpperCase()), value]),
);
const config = Object.fromEntries(
  Object.entries(inputs).map(([name, variable]) => [name, args[name] ?? process.env[variable]]),
);
config.sdkType ||= 'web_rest_api';
for (const [name, variable] of Object.entries(inputs)) {
  if (!config[name]) {
    console.error(`wepin-fetch: --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} (or ${variable}) is needed`);
    process.exit(2);
  }
}

// The browser's localStorage, where the package's own storage (@wepin/storage-js)
// keeps the logged-in user's tokens.
class MemoryStorage {
  #items = new Map();
  getItem(key) {
    return this.#items.has(key) ? this.#items.get(key) : null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
}
globalThis.localStorage = new MemoryStorage();
globalThis.window ??= { localStorage: globalThis.localStorage };

// `WepinFetch.init()` first asks Wepin's own backend (chosen by the key's prefix)
// for a Firebase configuration, then makes its REST client, `WepinSdkAPI`, for
// that backend's `…/v1`. Here that same class is made with the same parameters
// init() gives it, for this service's `/v1` instead: everything after the base
// URL (paths, queries, headers, token handling) is the package's own code.
const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@wepin/fetch-js/package.json'));
const { version } = require('@wepin/fetch-js/package.json');
const { default: WepinSdkAPI } = await import(
  pathToFileURL(join(packageDir, 'dist/esm/api/wepin/WepinSdkAPI.js')).href
);

const sdk = { type: config.sdkType, version };
const wepinFetch = new WepinFetch({
  appId: config.appId,
  appKey: config.appKey,
  domain: config.domain,
  sdk,
});
wepinFetch.wepinApi = new WepinSdkAPI(new URL('v1', withSlash(config.baseUrl)).href, {
  appId: config.appId,
  appKey: config.appKey,
  domain: config.domain,
  sdk,
  wepinFetch,
});
// As after a login through the package: the service's tokens in its storage.
await wepinFetch.setToken({ accessToken: config.accessToken, refreshToken: '' });

// Every response the package's REST client gets, with the request it sent.
const api = wepinFetch.wepinApi;
const seen = [];
api.account.fetcher.on('response', (response) => {
  seen.push(response);
});

function withSlash(url) {
  return url.endsWith('/') ? url : `${url}/`;
}

/** Runs one operation through the package and checks what the service answered. */
async function operation(name, call) {
  const before = seen.length;
  const data = await call();
  assert.equal(seen.length, before + 1, `${name}: one request`);
  const { status, request } = seen[before];
  const headers = request.headers;
  assert.equal(status, 200, `${name}: HTTP ${status} ${JSON.stringify(data)}`);
  assert.equal(headers['X-API-KEY'], config.appKey, `${name}: X-API-KEY`);
  // The package blanks any domain containing "localhost".
  const expectedDomain = config.domain.includes('localhost') ? '' : config.domain;
  assert.equal(headers['X-API-DOMAIN'], expectedDomain, `${name}: X-API-DOMAIN`);
  assert.equal(headers['X-SDK-TYPE'], sdk.type, `${name}: X-SDK-TYPE`);
  assert.equal(headers['X-SDK-VERSION'], version, `${name}: X-SDK-VERSION`);
  assert.equal(headers.Authorization, `Bearer ${config.accessToken}`, `${name}: Authorization`);
  console.log(`ok - ${name} (X-API-DOMAIN: ${JSON.stringify(headers['X-API-DOMAIN'])})`);
  return data;
}

const isDecimal = (value) => typeof value === 'string' && /^\d+$/.test(value);
const wallet = { userId: config.userId, walletId: config.walletId };

// 1. GET /v1/account?userId&walletId (the web client adds its localeId).
const accounts = await operation('accounts: account.getAppAccountList', () =>
  api.account.getAppAccountList({ ...wallet, localeId: 1 }),
);
assert.equal(accounts.walletId, config.walletId, 'accounts: walletId');
assert.ok(Array.isArray(accounts.accounts) && accounts.accounts.length > 0, 'accounts: a non-empty list');
for (const account of accounts.accounts) {
  assert.equal(typeof account.accountId, 'string', `accounts: accountId of ${JSON.stringify(account)}`);
  assert.ok(account.accountId.length > 0, 'accounts: accountId not empty');
  for (const field of ['address', 'network', 'symbol', 'name', 'label', 'addressPath', 'iconUrl', 'ids']) {
    assert.equal(typeof account[field], 'string', `accounts: ${field} of ${JSON.stringify(account)}`);
  }
  assert.ok(isDecimal(account.balance), `accounts: balance of ${JSON.stringify(account)}`);
  assert.equal(typeof account.decimals, 'number', 'accounts: decimals');
}
const native = accounts.accounts.find((account) => account.coinId !== undefined);
assert.ok(native, 'accounts: a native-coin account');

// 2. GET /v1/accountbalance/{accountId}/balance
const balance = await operation('balance: balance.getAccountBalance', () =>
  api.balance.getAccountBalance({ accountId: native.accountId }),
);
assert.ok(isDecimal(balance.balance), `balance: balance ${JSON.stringify(balance)}`);
assert.notEqual(balance.balance, '0', 'balance: the demo ether arrived');
assert.equal(typeof balance.decimals, 'number', 'balance: decimals');
assert.equal(typeof balance.symbol, 'string', 'balance: symbol');
assert.ok(Array.isArray(balance.tokens), 'balance: tokens');
const tokens = Object.fromEntries(balance.tokens.map((token) => [token.symbol, token]));
for (const symbol of ['DEMO', 'DUSD']) {
  assert.ok(tokens[symbol], `balance: ${symbol} among ${JSON.stringify(balance.tokens)}`);
  assert.ok(isDecimal(tokens[symbol].balance) && tokens[symbol].balance !== '0', `balance: ${symbol}`);
  assert.equal(typeof tokens[symbol].contract, 'string', `balance: ${symbol} contract`);
  assert.equal(typeof tokens[symbol].decimals, 'number', `balance: ${symbol} decimals`);
}

// 3. GET /v1/nft?userId&walletId (before any refresh the service may know none).
const listed = await operation('NFTs: nft.getAppNFTList', () => api.nft.getAppNFTList(wallet));
assert.ok(Array.isArray(listed.nfts), 'NFTs: a list');

// 4. GET /v1/nft/refresh?userId&walletId: the demo NFTs, read from the chain.
const demoNfts = {
  'Pal #1': { scheme: 1, quantity: 1, contentType: 1 },
  'Pal #2': { scheme: 1, quantity: 1, contentType: 1 },
  'Gold Coin': { scheme: 2, quantity: 3, contentType: 1 },
  'Launch Clip': { scheme: 2, quantity: 1, contentType: 2 },
};
function checkNfts(what, nfts) {
  assert.ok(Array.isArray(nfts), `${what}: a list`);
  const accountIds = new Set(accounts.accounts.map((account) => account.accountId));
  for (const nft of nfts) {
    for (const field of ['id', 'accountId', 'name', 'description', 'tokenId', 'externalLink', 'imageUrl']) {
      assert.equal(typeof nft[field], 'string', `${what}: ${field} of ${JSON.stringify(nft)}`);
    }
    assert.ok(accountIds.has(nft.accountId), `${what}: ${nft.name} on one of the wallet's accounts`);
    for (const field of ['address', 'network', 'description', 'externalLink', 'imageUrl']) {
      assert.equal(typeof nft.contract?.[field], 'string', `${what}: contract.${field} of ${nft.name}`);
    }
  }
  for (const [name, expected] of Object.entries(demoNfts)) {
    const nft = nfts.find((n) => n.name === name);
    assert.ok(nft, `${what}: ${name} among ${JSON.stringify(nfts.map((n) => n.name))}`);
    assert.equal(nft.contract.scheme, expected.scheme, `${what}: scheme of ${name}`);
    assert.equal(nft.quantity, expected.quantity, `${what}: quantity of ${name}`);
    assert.equal(nft.contentType, expected.contentType, `${what}: contentType of ${name}`);
  }
}
const refreshed = await operation('NFT refresh: nft.refreshAppNFTList', () => api.nft.refreshAppNFTList(wallet));
checkNfts('NFT refresh', refreshed.nfts);
const after = await operation('NFTs after the refresh: nft.getAppNFTList', () => api.nft.getAppNFTList(wallet));
checkNfts('NFTs after the refresh', after.nfts);
assert.deepEqual(
  after.nfts.map((nft) => nft.id).sort(),
  refreshed.nfts.map((nft) => nft.id).sort(),
  'NFTs: the list is what the refresh read',
);

console.log(`wepin-fetch: @wepin/fetch-js ${version}, domain ${JSON.stringify(config.domain)}: the four operations answered`);
