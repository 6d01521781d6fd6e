// Satchel as your dapp's or program's wallet: an EIP-1193 provider over the
// endpoint the Satchel desktop app serves on this computer (JSON-RPC over HTTP
// and WebSocket on 127.0.0.1:1248 by default), announced with EIP-6963 so
// wagmi, RainbowKit and other libraries list it.
//
//   import { satchelProvider } from '@satchel/provider';
//   const provider = satchelProvider();
//   const [address] = await provider.request({ method: 'eth_requestAccounts' });
//
// Every request that moves or signs anything waits for the person's approval
// in Satchel's own window; this package never sees a key.

/** Satchel's own port: Frame's, so dapps that know Frame find Satchel. */
export const DEFAULT_URL = 'http://127.0.0.1:1248';

/** An EIP-1193 request. */
export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

/** An EIP-1193 / EIP-1474 error: 4001 rejected, 4100 unauthorized, 4200
 * unsupported, 4900 disconnected, 4901 chain disconnected, -32xxx JSON-RPC. */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** Another program answers on Satchel's port (Frame uses the same one). */
export class NotSatchelError extends ProviderRpcError {
  constructor(url: string, says: unknown) {
    super(4900, `the program at ${url} is not Satchel (it says it is ${JSON.stringify(says)}): start Satchel, or give this provider Satchel's port`);
    this.name = 'NotSatchelError';
  }
}

/** Satchel is not running on this computer (or not on this port). */
export class SatchelNotRunningError extends ProviderRpcError {
  constructor(url: string) {
    super(4900, `Satchel is not running at ${url}: start the Satchel app (its provider port is set in its settings)`);
    this.name = 'SatchelNotRunningError';
  }
}

export type ProviderEvent = 'connect' | 'disconnect' | 'accountsChanged' | 'chainChanged' | 'message';

/** How Satchel says who it is (`web3_clientVersion`). */
const IS_SATCHEL = /^Satchel\//;
type Listener = (...args: unknown[]) => void;

/** The EIP-1193 provider (viem's `EIP1193Provider` takes it: `custom(provider)`). */
export interface SatchelProvider {
  request(args: RequestArguments): Promise<unknown>;
  on(event: ProviderEvent, listener: Listener): SatchelProvider;
  removeListener(event: ProviderEvent, listener: Listener): SatchelProvider;
  /** Closes the WebSocket, if one is open. */
  close(): void;
  readonly isSatchel: true;
}

/** The WebSocket class to use (the browser's, or `ws` in Node). */
type WebSocketClass = new (url: string) => WebSocket;

export interface SatchelProviderOptions {
  /** Satchel's endpoint (`http://127.0.0.1:1248` by default). */
  url?: string;
  /** `websocket` (events: accountsChanged, chainChanged) or `http` (requests
   * only). By default a WebSocket where the platform has one. */
  transport?: 'websocket' | 'http';
  /** The WebSocket class, where the platform has none (Node before 22: `ws`). */
  WebSocket?: WebSocketClass;
  /** How long a connection attempt may take, in ms (a request waiting for the
   * person's approval has no time limit). */
  connectTimeoutMs?: number;
  /** The longest wait between attempts to reconnect after Satchel went away
   * while events were listened to, in ms (from 1 s, doubling; 30 s by default). */
  maxReconnectDelayMs?: number;
}

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
  params?: { subscription?: string; result?: unknown };
}

const toError = (error: { code: number; message: string; data?: unknown }) => new ProviderRpcError(error.code, error.message, error.data);

/**
 * An EIP-1193 provider over Satchel's local endpoint. Over the WebSocket it
 * emits `connect` ({chainId}) when the socket opens, `accountsChanged` and
 * `chainChanged` as the person connects, disconnects, switches or logs out,
 * and `disconnect` (4900) when Satchel goes away; the next request connects
 * again. When Satchel is not running, requests reject with
 * `SatchelNotRunningError` (code 4900).
 */
export function satchelProvider(options: SatchelProviderOptions = {}): SatchelProvider {
  const httpUrl = (options.url ?? DEFAULT_URL).replace(/\/+$/, '');
  const wsUrl = httpUrl.replace(/^http/, 'ws');
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  const useSocket = options.transport !== 'http' && Socket !== undefined;
  const connectTimeout = options.connectTimeoutMs ?? 5_000;
  const maxReconnectDelay = options.maxReconnectDelayMs ?? 30_000;
  const listeners = new Map<ProviderEvent, Set<Listener>>();
  let nextId = 1;
  let closed = false;

  function emit(event: ProviderEvent, ...args: unknown[]) {
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(...args);
      } catch {
        // A listener's error is the listener's.
      }
    }
  }

  // Over HTTP, whether the program on the port is Satchel is asked once.
  let checked: Promise<void> | null = null;
  async function overHttp(args: RequestArguments): Promise<unknown> {
    checked ??= post({ method: 'web3_clientVersion' }).then(
      (says) => {
        if (typeof says !== 'string' || !IS_SATCHEL.test(says)) throw new NotSatchelError(httpUrl, says);
      },
      (error: unknown) => {
        checked = null;
        throw error;
      },
    );
    await checked;
    return post(args);
  }

  async function post(args: RequestArguments): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${httpUrl}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: args.method, params: args.params ?? [] }),
      });
    } catch {
      throw new SatchelNotRunningError(httpUrl);
    }
    if (!response.ok) throw new ProviderRpcError(-32603, `Satchel answered HTTP ${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as RpcAnswer;
    if (answer.error) throw toError(answer.error);
    return answer.result;
  }

  // The WebSocket, its requests waiting for answers, and its subscriptions.
  let socket: WebSocket | null = null;
  let opening: Promise<WebSocket> | null = null;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const topics = new Map<string, 'accountsChanged' | 'chainChanged'>();
  /** The page's own subscriptions (newHeads, logs): the id it was given, and
   * the params and the socket's id now (renewed after a reconnection). */
  const own = new Map<string, { params: unknown; current: string }>();
  let reconnectDelay = 1_000;
  /** A socket opened before: the next one is a reconnection. */
  let reconnecting = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  /** Whether anything listens for events (then Satchel's return is waited for). */
  const listening = () => own.size > 0 || [...listeners.values()].some((set) => set.size > 0);

  function scheduleReconnect() {
    if (closed || reconnectTimer || !listening()) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      open().then(
        () => {
          reconnectDelay = 1_000;
        },
        () => {
          reconnectDelay = Math.min(reconnectDelay * 2, maxReconnectDelay);
          scheduleReconnect();
        },
      );
    }, reconnectDelay);
  }

  function sendOn(ws: WebSocket, method: string, params: unknown): Promise<unknown> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? [] }));
    });
  }

  function open(): Promise<WebSocket> {
    if (socket) return Promise.resolve(socket);
    if (opening) return opening;
    opening = new Promise<WebSocket>((resolve, reject) => {
      const ws = new Socket!(`${wsUrl}/`);
      const timer = setTimeout(() => {
        ws.close();
        reject(new SatchelNotRunningError(httpUrl));
      }, connectTimeout);
      ws.onopen = () => {
        clearTimeout(timer);
        void (async () => {
          try {
            // Frame listens on the same port: be sure it is Satchel.
            const says = await sendOn(ws, 'web3_clientVersion', []);
            if (typeof says !== 'string' || !IS_SATCHEL.test(says)) {
              reject(new NotSatchelError(httpUrl, says));
              ws.close();
              return;
            }
            socket = ws;
            resolve(ws);
            for (const topic of ['accountsChanged', 'chainChanged'] as const) {
              topics.set(String(await sendOn(ws, 'eth_subscribe', [topic])), topic);
            }
            // The page's own subscriptions, renewed on the new socket.
            for (const subscription of own.values()) {
              subscription.current = String(await sendOn(ws, 'eth_subscribe', subscription.params));
            }
            emit('connect', { chainId: await sendOn(ws, 'eth_chainId', []) });
            // Back after Satchel went away: the accounts as they are now.
            if (reconnecting) emit('accountsChanged', await sendOn(ws, 'eth_accounts', []));
            reconnecting = true;
          } catch (error) {
            // The socket closed meanwhile: `disconnect` says so.
            reject(error);
          }
        })();
      };
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new SatchelNotRunningError(httpUrl));
      };
      ws.onclose = () => {
        clearTimeout(timer);
        const wasOpen = socket === ws;
        socket = null;
        opening = null;
        topics.clear();
        for (const { reject: fail } of waiting.values()) fail(new SatchelNotRunningError(httpUrl));
        waiting.clear();
        if (wasOpen) {
          emit('disconnect', new ProviderRpcError(4900, 'Satchel closed the connection'));
          scheduleReconnect();
        }
      };
      ws.onmessage = (event: MessageEvent) => {
        let message: RpcAnswer;
        try {
          message = JSON.parse(String(event.data)) as RpcAnswer;
        } catch {
          return;
        }
        if (message.method === 'eth_subscription' && message.params?.subscription) {
          const topic = topics.get(message.params.subscription);
          if (topic) {
            emit(topic, message.params.result);
            return;
          }
          // Named by the id the page was given, however often it was renewed.
          const current = message.params.subscription;
          const original = [...own].find(([, s]) => s.current === current)?.[0] ?? current;
          emit('message', { type: 'eth_subscription', data: { ...message.params, subscription: original } });
          return;
        }
        const id = typeof message.id === 'number' ? message.id : NaN;
        const pending = waiting.get(id);
        if (!pending) return;
        waiting.delete(id);
        if (message.error) pending.reject(toError(message.error));
        else pending.resolve(message.result);
      };
    }).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  }

  const provider: SatchelProvider = {
    isSatchel: true,
    async request(args: RequestArguments) {
      if (!args || typeof args.method !== 'string') throw new ProviderRpcError(-32600, 'request({ method, params }) needs a method');
      if (!useSocket) return overHttp(args);
      const ws = await open();
      if (args.method === 'eth_subscribe') {
        const id = String(await sendOn(ws, 'eth_subscribe', args.params));
        own.set(id, { params: args.params ?? [], current: id });
        return id;
      }
      if (args.method === 'eth_unsubscribe' && Array.isArray(args.params)) {
        const id = String(args.params[0]);
        const subscription = own.get(id);
        own.delete(id);
        return sendOn(ws, 'eth_unsubscribe', [subscription?.current ?? id]);
      }
      return sendOn(ws, args.method, args.params);
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      // Events come over the socket: listening opens it.
      if (useSocket && event !== 'message') void open().catch(() => undefined);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
    close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      socket?.close();
    },
  };
  return provider;
}

/** EIP-6963's provider info for Satchel. */
export interface ProviderInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

/** EIP-6963's announcement: what `eip6963:announceProvider` carries. */
export interface EIP6963ProviderDetail {
  info: ProviderInfo;
  provider: SatchelProvider;
}

/** An EIP-1193 provider, as viem names it. */
export type EIP1193Provider = SatchelProvider;

/** Satchel's mark, as a data URI (EIP-6963 wants an image URI). */
export const SATCHEL_ICON =
  'data:image/svg+xml;base64,' +
  btoa(
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 96 96'><rect width='96' height='96' rx='22' fill='#4f46e5'/>" +
      "<path d='M26 38h44l-4 34H30z' fill='#fff'/><path d='M36 38c0-8 5-14 12-14s12 6 12 14' stroke='#fff' stroke-width='6' fill='none'/></svg>",
  );

/**
 * Announces `provider` as Satchel with EIP-6963 (`eip6963:announceProvider`),
 * now and whenever a library asks (`eip6963:requestProvider`). Returns a
 * function that stops answering.
 */
export function announceSatchel(provider: SatchelProvider = satchelProvider(), target: EventTarget = window): () => void {
  const info: ProviderInfo = Object.freeze({
    uuid: crypto.randomUUID(),
    name: 'Satchel',
    icon: SATCHEL_ICON,
    rdns: 'dev.satchel',
  });
  const detail: EIP6963ProviderDetail = Object.freeze({ info, provider });
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  announce();
  target.addEventListener('eip6963:requestProvider', announce);
  return () => target.removeEventListener('eip6963:requestProvider', announce);
}
