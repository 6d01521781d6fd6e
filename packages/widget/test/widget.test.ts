import { afterEach, describe, expect, it } from 'vitest';

// Tauri's IPC mock lives on `window`, which Node has not.
(globalThis as { window?: unknown }).window ??= globalThis;
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { LIFE_CYCLE, SatchelError, SatchelWidget, type Transport } from '../src/index';

/** A transport that records each call and answers from `answers`. */
function recording(answers: Record<string, (args: Record<string, unknown>) => unknown>) {
  const calls: { method: string; args: Record<string, unknown> }[] = [];
  const transport: Transport = {
    call: async <T>(method: string, args: Record<string, unknown> = {}) => {
      calls.push({ method, args });
      const answer = answers[method];
      if (!answer) throw { code: 'UnknownError', message: `no answer for ${method}` };
      return (await answer(args)) as T;
    },
  };
  return { calls, transport };
}

const appInfo = { appId: 'app-1', name: 'Launcher', providers: [], oauth: [], networks: [], emailVerification: true, emailDomains: [], passwordRules: '' };

describe('SatchelWidget', () => {
  afterEach(() => clearMocks());

  it('calls the Satchel plugin over Tauri IPC by the spec method names', async () => {
    const invoked: string[] = [];
    mockIPC((cmd) => {
      invoked.push(cmd);
      if (cmd === 'plugin:satchel|getAppInfo') return appInfo;
      if (cmd === 'plugin:satchel|getStatus') return 'before_login';
      throw { code: 'UnknownError', message: cmd };
    });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key' });
    await widget.init();
    expect(await widget.getStatus()).toBe('before_login');
    expect(invoked).toEqual(['plugin:satchel|getAppInfo', 'plugin:satchel|getStatus']);
  });

  it('refuses to start for another app than the plugin serves, and a second init', async () => {
    const { transport } = recording({ getAppInfo: () => appInfo });
    await expect(new SatchelWidget({ appId: 'app-2', appKey: 'key', transport }).init()).rejects.toMatchObject({
      code: 'InvalidAppKey',
    });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key', transport });
    await widget.init();
    expect(widget.isInitialized()).toBe(true);
    await expect(widget.init()).rejects.toMatchObject({ code: 'AlreadyInitialized' });
  });

  it('needs an app id and key', () => {
    expect(() => new SatchelWidget({ appId: '', appKey: 'key' })).toThrow(SatchelError);
  });

  it('passes the widget error codes through as SatchelErrors', async () => {
    const { transport } = recording({
      getAccounts: () => {
        throw { code: 'InvalidLoginSession', message: 'no one is logged in' };
      },
    });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key', transport });
    const error = await widget.getAccounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SatchelError);
    expect(error).toMatchObject({ code: 'InvalidLoginSession', message: 'no one is logged in' });
  });

  it('sends the arguments in the shapes the plugin takes', async () => {
    const { calls, transport } = recording({
      loginWithUI: () => ({ status: 'success' }),
      getNFTs: () => [],
      send: () => ({ txId: '0xabc' }),
      registerWithUI: () => ({ status: 'success' }),
      getBalance: () => [],
    });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key', transport });
    await widget.loginWithUI([], 'ada@example.com');
    await widget.getNFTs({ refresh: true });
    await widget.getBalance();
    expect(await widget.send({ network: 'ethereum', address: '0x1' }, { toAddress: '0x2', amount: '0.5' })).toEqual({
      txId: '0xabc',
    });
    await widget.register();
    expect(calls).toEqual([
      { method: 'loginWithUI', args: { providers: [], email: 'ada@example.com' } },
      { method: 'getNFTs', args: { options: { refresh: true } } },
      { method: 'getBalance', args: {} },
      { method: 'send', args: { account: { network: 'ethereum', address: '0x1' }, txData: { to: '0x2', amount: '0.5' } } },
      { method: 'registerWithUI', args: {} },
    ]);
  });

  it("gives init's defaultLanguage as a default and changeLanguage as the person's language", async () => {
    const { calls, transport } = recording({ getAppInfo: () => appInfo, changeLanguage: () => null });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key', transport });
    await widget.init({ defaultLanguage: 'ko' });
    await widget.changeLanguage('ja');
    expect(calls.slice(1)).toEqual([
      { method: 'changeLanguage', args: { language: 'ko', asDefault: true } },
      { method: 'changeLanguage', args: { language: 'ja' } },
    ]);
  });

  it("getProvider('ethereum') sends EIP-1193 requests to the plugin's provider", async () => {
    const invoked: { cmd: string; args: unknown }[] = [];
    mockIPC((cmd, args) => {
      invoked.push({ cmd, args });
      if (cmd === 'plugin:satchel|request') return '0x7a69';
      throw { code: 'UnknownError', message: cmd };
    });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key' });
    expect(await widget.getProvider('ethereum').request({ method: 'eth_chainId' })).toBe('0x7a69');
    expect(invoked).toEqual([{ cmd: 'plugin:satchel|request', args: { method: 'eth_chainId', params: [] } }]);
    expect(() => widget.getProvider('solana' as 'ethereum')).toThrow(SatchelError);
  });

  it('knows the six life cycle states and ends in not_initialized after finalize', async () => {
    expect(LIFE_CYCLE).toHaveLength(6);
    const { transport } = recording({ getAppInfo: () => appInfo, finalize: () => null });
    const widget = new SatchelWidget({ appId: 'app-1', appKey: 'key', transport });
    await widget.init();
    await widget.finalize();
    expect(widget.isInitialized()).toBe(false);
  });
});
