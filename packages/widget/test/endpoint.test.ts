import { describe, expect, it } from 'vitest';
import { SatchelWidget, endpointTransport } from '../src/index';

/** A stand-in for the Satchel app's endpoint: records each JSON-RPC request
 * and answers from `answers` (a result, or an `{error}`). */
function endpoint(answers: Record<string, (params: unknown[]) => unknown>) {
  const requests: { url: string; method: string; params: unknown[]; contentType: string | null }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { id: number; method: string; params: unknown[] };
    requests.push({ url, method: body.method, params: body.params, contentType: new Headers(init.headers).get('content-type') });
    const answer = answers[body.method]?.(body.params) ?? { error: { code: -32601, message: `no ${body.method}` } };
    const envelope = typeof answer === 'object' && answer !== null && 'error' in answer ? answer : { result: answer };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...envelope }));
  }) as typeof globalThis.fetch;
  return { requests, fetch };
}

describe('endpointTransport', () => {
  it('introduces the app with satchel_init, then calls satchel_<method> with positional params', async () => {
    const { requests, fetch } = endpoint({
      satchel_init: () => 'before_login',
      satchel_getAccounts: () => [{ network: 'anvil', address: '0xabc' }],
      satchel_send: () => ({ txId: '0x01' }),
      satchel_register: () => ({ userId: 'u' }),
    });
    const widget = new SatchelWidget({ appId: 'quest', appKey: 'sk_1', transport: endpointTransport({ domain: 'dev.example.quest', fetch }) });
    await widget.init();
    expect(await widget.getAccounts({ networks: ['anvil'] })).toEqual([{ network: 'anvil', address: '0xabc' }]);
    await widget.send({ network: 'anvil', address: '0xabc' }, { to: '0xdef', amount: '0.5' });
    await widget.register();
    expect(requests.map((r) => [r.method, r.params])).toEqual([
      ['satchel_init', [{ appId: 'quest', appKey: 'sk_1', domain: 'dev.example.quest' }]],
      ['satchel_getAccounts', [{ networks: ['anvil'] }]],
      ['satchel_send', [{ network: 'anvil', address: '0xabc' }, { to: '0xdef', amount: '0.5' }]],
      ['satchel_register', []],
    ]);
    expect(requests[0]).toMatchObject({ url: 'http://127.0.0.1:1248', contentType: 'application/json' });
  });

  it("gives the spec's error code from data.code, 4001 as UserCancelled, 4100 as itself", async () => {
    const { fetch } = endpoint({
      satchel_init: () => 'before_login',
      satchel_loginWithUI: () => ({ error: { code: 4001, message: 'the login was cancelled', data: { code: 'UserCancelled' } } }),
      satchel_getBalance: () => ({ error: { code: -32000, message: 'no one is logged in', data: { code: 'InvalidLoginSession' } } }),
      satchel_getStatus: () => ({ error: { code: 4100, message: 'call satchel_init first' } }),
    });
    const widget = new SatchelWidget({ appId: 'quest', appKey: 'sk_1', transport: endpointTransport({ domain: 'q', fetch }) });
    await widget.init();
    await expect(widget.loginWithUI()).rejects.toMatchObject({ name: 'SatchelError', code: 'UserCancelled' });
    await expect(widget.getBalance()).rejects.toMatchObject({ code: 'InvalidLoginSession', message: 'no one is logged in' });
    await expect(widget.getStatus()).rejects.toMatchObject({ code: '4100' });
  });

  it('says Satchel is not running when nothing answers', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const widget = new SatchelWidget({ appId: 'quest', appKey: 'sk_1', transport: endpointTransport({ domain: 'q', fetch }) });
    await expect(widget.init()).rejects.toMatchObject({ code: 'NotInitialized', message: expect.stringContaining('Satchel is not running') });
    expect(widget.isInitialized()).toBe(false);
  });

  it("getProvider('ethereum') makes plain EIP-1193 requests, refusals as ProviderRpcErrors", async () => {
    const { requests, fetch } = endpoint({
      eth_chainId: () => '0x7a69',
      personal_sign: () => ({ error: { code: 4001, message: 'the person rejected the request' } }),
    });
    const widget = new SatchelWidget({ appId: 'quest', appKey: 'sk_1', transport: endpointTransport({ domain: 'q', fetch }) });
    const provider = widget.getProvider('ethereum');
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
    await expect(provider.request({ method: 'personal_sign', params: ['0x68690a', '0xabc'] })).rejects.toMatchObject({
      name: 'ProviderRpcError',
      code: 4001,
    });
    expect(requests.map((r) => [r.method, r.params])).toEqual([
      ['eth_chainId', []],
      ['personal_sign', ['0x68690a', '0xabc']],
    ]);
    const down = new SatchelWidget({
      appId: 'quest',
      appKey: 'sk_1',
      transport: endpointTransport({ domain: 'q', fetch: (async () => { throw new TypeError('fetch failed'); }) as typeof globalThis.fetch }),
    });
    await expect(down.getProvider('ethereum').request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: 4900 });
  });
});
