// How the widget SDK reaches the widget:
// - in a Tauri app, the Satchel plugin's commands over Tauri's IPC
//   (`plugin:satchel|<method>`), which the host's capability grants
//   (`satchel:default`: the spec's application methods);
// - anywhere else (Node, Electron, a page), the installed Satchel app's local
//   endpoint: JSON-RPC `satchel_<method>` on http://127.0.0.1:1248, the
//   program's app its own (Satchel asks the person at the first `init`).

/** Calls one of the widget's methods with its arguments. A failure rejects
 * with the widget's `{code, message}` (or the host's permission refusal).
 * `init`, when the transport has one, introduces the application first. */
export interface Transport {
  call<T>(method: string, args?: Record<string, unknown>): Promise<T>;
  init?(app: { appId: string; appKey: string }): Promise<void>;
  /** An EIP-1193 request (`getProvider('ethereum')`); rejects with `{code, message}`. */
  request?(method: string, params: unknown): Promise<unknown>;
}

/** The Satchel Tauri plugin, from a page of the host application. Loaded on
 * first use, so a program without Tauri never needs `@tauri-apps/api`. */
export function tauriTransport(): Transport {
  return {
    call: async <T>(method: string, args?: Record<string, unknown>) => {
      const { invoke } = await import('@tauri-apps/api/core');
      return invoke<T>(`plugin:satchel|${method}`, args ?? {});
    },
    request: async (method: string, params: unknown) => {
      const { invoke } = await import('@tauri-apps/api/core');
      return invoke('plugin:satchel|request', { method, params });
    },
  };
}

/** The endpoint's names where the plugin's differ. */
const ENDPOINT_METHOD: Record<string, string> = { registerWithUI: 'register' };

/** Each method's named arguments, in the endpoint's (positional) order. */
const POSITIONS: Record<string, readonly string[]> = {
  loginWithUI: ['providers', 'email'],
  getAccounts: ['options'],
  getBalance: ['accounts'],
  getNFTs: ['options'],
  send: ['account', 'txData'],
  receive: ['account'],
  changeLanguage: ['language', 'asDefault'],
};

/** Where the installed Satchel app listens (Frame's port, as it does). */
export const DEFAULT_ENDPOINT = 'http://127.0.0.1:1248';

/** A refusal from the endpoint: the spec's code is in `data.code`. */
interface RpcError {
  code: number;
  message: string;
  data?: { code?: string };
}

/** The installed Satchel app's local endpoint, for a program that is not a
 * Tauri app. `domain` is the program's identifier as the app is registered
 * at the service (its bundle identifier, as Wepin's mobile SDKs send theirs). */
export function endpointTransport(options: {
  domain: string;
  url?: string;
  fetch?: typeof fetch;
}): Transport {
  const url = options.url ?? DEFAULT_ENDPOINT;
  const send = options.fetch ?? fetch;
  let id = 0;
  /** One JSON-RPC request; a refusal rejects with its `{code, message, data}`,
   * and nothing answering with `NotInitialized`, saying Satchel is not running. */
  const send1193 = async (method: string, params: unknown): Promise<unknown> => {
    id += 1;
    let response: Response;
    try {
      response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
    } catch (e) {
      throw { code: 'NotInitialized', message: `Satchel is not running (nothing answers at ${url}): ${String(e)}` };
    }
    const answer = (await response.json()) as { result?: unknown; error?: RpcError };
    if (answer.error) throw answer.error;
    return answer.result;
  };
  /** A widget method: its refusal as the widget's `{code, message}`. */
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    try {
      return (await send1193(method, params)) as T;
    } catch (e) {
      const error = e as RpcError | { code: string; message: string };
      if (typeof error.code === 'string') throw error;
      const refusal = error as RpcError;
      throw { code: refusal.data?.code ?? (refusal.code === 4001 ? 'UserCancelled' : String(refusal.code)), message: refusal.message };
    }
  };
  return {
    request: send1193,
    init: async ({ appId, appKey }) => {
      await rpc('satchel_init', [{ appId, appKey, domain: options.domain }]);
    },
    call: <T>(method: string, args?: Record<string, unknown>) => {
      const params = (POSITIONS[method] ?? []).map((name) => args?.[name] ?? null);
      while (params.length > 0 && params[params.length - 1] === null) params.pop();
      return rpc<T>(`satchel_${ENDPOINT_METHOD[method] ?? method}`, params);
    },
  };
}
