// The provider against a stand-in for Satchel's endpoint (HTTP and WebSocket on
// a free loopback port, answering as Satchel's does): requests and errors over
// both transports, the events a dapp listens to, "not running", viem over it,
// and the EIP-6963 announcement. The real endpoint is tested end to end with
// the app (tests/ui/connect.rs and tests/ui/dapp.rs).
// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createPublicClient, createWalletClient, custom } from 'viem';
import { NotSatchelError, ProviderRpcError, SatchelNotRunningError, announceSatchel, satchelProvider, type SatchelProvider } from '../src/index';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** Who the stand-in says it is (`web3_clientVersion`). */
let says = 'Satchel/0.1.0';

/** What the stand-in answers, as Satchel does for a connected page. */
function answer(method: string): { result?: unknown; error?: { code: number; message: string } } {
  switch (method) {
    case 'eth_chainId':
      return { result: '0x7a69' };
    case 'web3_clientVersion':
      return { result: says };
    case 'eth_accounts':
    case 'eth_requestAccounts':
      return { result: [ADDRESS] };
    case 'personal_sign':
      return { error: { code: 4001, message: 'the person rejected the request' } };
    default:
      return { error: { code: -32601, message: `the method "${method}" does not exist` } };
  }
}

interface StandIn {
  url: string;
  server: Server;
  sockets: Set<WebSocket>;
  /** Tells every socket's accountsChanged subscribers `accounts`. */
  accountsChanged: (accounts: string[]) => void;
  /** Tells every socket's newHeads subscribers `block`. */
  newHead: (block: unknown) => void;
}

async function standIn(onPort = 0): Promise<StandIn> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as { id: number; method: string };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer(request.method) }));
    });
  });
  const wss = new WebSocketServer({ server });
  const sockets = new Set<WebSocket>();
  const subscribed = new Map<WebSocket, string>();
  const heads = new Map<WebSocket, string>();
  let next = 0;
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data) => {
      const request = JSON.parse(String(data)) as { id: number; method: string; params: unknown[] };
      if (request.method === 'eth_subscribe') {
        const id = `0x${(next += 1).toString(16)}`;
        if (request.params[0] === 'accountsChanged') subscribed.set(ws, id);
        if (request.params[0] === 'newHeads') heads.set(ws, id);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: id }));
        return;
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer(request.method) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(onPort, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    sockets,
    accountsChanged: (accounts) => {
      for (const [ws, id] of subscribed) {
        ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: accounts } }));
      }
    },
    newHead: (block) => {
      for (const [ws, id] of heads) {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: block } }));
      }
    },
  };
}

/** Resolves with the first call of `event`'s listener. */
function first(provider: SatchelProvider, event: 'connect' | 'accountsChanged' | 'disconnect'): Promise<unknown> {
  return new Promise((resolve) => provider.on(event, resolve));
}

describe('satchelProvider', () => {
  let satchel: StandIn;
  const providers: SatchelProvider[] = [];
  const make = (options: Parameters<typeof satchelProvider>[0]) => {
    const provider = satchelProvider(options);
    providers.push(provider);
    return provider;
  };

  beforeEach(async () => {
    satchel = await standIn();
  });
  afterEach(async () => {
    for (const provider of providers.splice(0)) provider.close();
    for (const ws of satchel.sockets) ws.terminate();
    await new Promise((resolve) => satchel.server.close(resolve));
  });

  for (const transport of ['http', 'websocket'] as const) {
    it(`answers requests and rejects with the endpoint's codes over ${transport}`, async () => {
      const provider = make({ url: satchel.url, transport, WebSocket: WebSocket as never });
      expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
      expect(await provider.request({ method: 'eth_requestAccounts' })).toStrictEqual([ADDRESS]);
      const rejected = await provider.request({ method: 'personal_sign', params: ['0x00', ADDRESS] }).catch((e: unknown) => e);
      expect(rejected).toBeInstanceOf(ProviderRpcError);
      expect((rejected as ProviderRpcError).code).toBe(4001);
    });
  }

  it('says plainly when Satchel is not running', async () => {
    const port = (satchel.server.address() as AddressInfo).port;
    await new Promise((resolve) => satchel.server.close(resolve));
    for (const transport of ['http', 'websocket'] as const) {
      const provider = make({ url: `http://127.0.0.1:${port}`, transport, WebSocket: WebSocket as never });
      const error = await provider.request({ method: 'eth_chainId' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SatchelNotRunningError);
      expect((error as SatchelNotRunningError).code).toBe(4900);
      expect((error as Error).message).toContain('Satchel is not running');
    }
    satchel = await standIn();
  });

  it('emits connect and accountsChanged over the WebSocket, and disconnect when Satchel goes', async () => {
    const provider = make({ url: satchel.url, WebSocket: WebSocket as never });
    const connected = first(provider, 'connect');
    expect(await connected).toStrictEqual({ chainId: '0x7a69' });
    const changed = first(provider, 'accountsChanged');
    satchel.accountsChanged([]);
    expect(await changed).toStrictEqual([]);
    const gone = first(provider, 'disconnect');
    for (const ws of satchel.sockets) ws.close();
    expect(((await gone) as ProviderRpcError).code).toBe(4900);
    // The next request connects again.
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
  });

  it('checks that the program on the port is Satchel, not another wallet', async () => {
    says = 'Frame/v0.6.9';
    try {
      for (const transport of ['http', 'websocket'] as const) {
        const provider = make({ url: satchel.url, transport, WebSocket: WebSocket as never });
        const error = await provider.request({ method: 'eth_chainId' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NotSatchelError);
        expect((error as Error).message).toContain('Frame/v0.6.9');
      }
    } finally {
      says = 'Satchel/0.1.0';
    }
  });

  it('reconnects when Satchel comes back, with its events and the page\'s own subscriptions', async () => {
    const provider = make({ url: satchel.url, WebSocket: WebSocket as never, maxReconnectDelayMs: 200 });
    await first(provider, 'connect');
    const subscription = String(await provider.request({ method: 'eth_subscribe', params: ['newHeads'] }));
    // Satchel stops, and starts again on the same port.
    const port = (satchel.server.address() as AddressInfo).port;
    const gone = first(provider, 'disconnect');
    for (const ws of satchel.sockets) ws.terminate();
    await new Promise((resolve) => satchel.server.close(resolve));
    await gone;
    satchel = await standIn(port);
    const back = first(provider, 'connect');
    const accounts = first(provider, 'accountsChanged');
    await back;
    expect(await accounts).toStrictEqual([ADDRESS]);
    // The page's newHeads goes on under the id it was given.
    // (renewed before `connect` was emitted)
    const told = new Promise((resolve) => provider.on('message', resolve));
    satchel.newHead({ number: '0x2' });
    expect(await told).toStrictEqual({ type: 'eth_subscription', data: { subscription, result: { number: '0x2' } } });
  });

  it("is what viem's custom transport takes", async () => {
    const provider = make({ url: satchel.url, WebSocket: WebSocket as never });
    const client = createPublicClient({ transport: custom(provider) });
    expect(await client.getChainId()).toBe(31337);
    const wallet = createWalletClient({ transport: custom(provider) });
    expect(await wallet.requestAddresses()).toStrictEqual([ADDRESS]);
  });
});

describe('announceSatchel', () => {
  it('announces Satchel with EIP-6963 now and when a library asks', () => {
    const target = new EventTarget();
    const seen: { info: { name: string; rdns: string; icon: string; uuid: string }; provider: unknown }[] = [];
    target.addEventListener('eip6963:announceProvider', (event) => seen.push((event as CustomEvent).detail));
    const provider = satchelProvider({ transport: 'http' });
    const stop = announceSatchel(provider, target);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.info.name).toBe('Satchel');
    expect(seen[0]!.info.rdns).toBe('dev.satchel');
    expect(seen[0]!.info.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(seen[0]!.provider).toBe(provider);
    target.dispatchEvent(new Event('eip6963:requestProvider'));
    expect(seen).toHaveLength(2);
    expect(seen[1]!.info.uuid).toBe(seen[0]!.info.uuid);
    stop();
    target.dispatchEvent(new Event('eip6963:requestProvider'));
    expect(seen).toHaveLength(2);
  });
});

describe('the wagmi connector', () => {
  it('connects wagmi to Satchel and reads through it', async () => {
    const { createConfig, connect, getConnection, getChainId } = await import('@wagmi/core');
    const { defineChain, http } = await import('viem');
    const { satchel } = await import('../src/wagmi');
    // wagmi's injected connectors are for pages: a window, as a page has.
    const global = globalThis as { window?: unknown };
    const hadWindow = 'window' in global;
    global.window ??= globalThis;
    const endpoint = await standIn();
    try {
      const chain = defineChain({ id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [endpoint.url] } } });
      const config = createConfig({ chains: [chain], transports: { [chain.id]: http(endpoint.url) }, connectors: [satchel({ url: endpoint.url, transport: 'http' })], storage: null, multiInjectedProviderDiscovery: false });
      const connector = config.connectors[0]!;
      expect([connector.id, connector.name]).toStrictEqual(['dev.satchel', 'Satchel']);
      const { accounts } = await connect(config, { connector });
      expect(accounts).toStrictEqual([ADDRESS]);
      expect(getConnection(config).status).toBe('connected');
      expect(getChainId(config)).toBe(31337);
    } finally {
      if (!hadWindow) delete global.window;
      await new Promise((resolve) => endpoint.server.close(resolve));
    }
  });
});
