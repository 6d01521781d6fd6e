import { describe, expect, it } from 'vitest';
import { isLinuxDesktop, markPlatform } from './platform';

describe('platform', () => {
  it('knows the Linux webview (WebKitGTK) and not macOS, Windows or Android', () => {
    expect(isLinuxDesktop('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)')).toBe(true);
    expect(isLinuxDesktop('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)')).toBe(false);
    expect(isLinuxDesktop('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0')).toBe(false);
    expect(isLinuxDesktop('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko)')).toBe(false);
  });

  it('marks <html> on Linux only', () => {
    const linux = document.createElement('html');
    markPlatform(linux, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15');
    expect(linux.dataset.platform).toBe('linux');
    const mac = document.createElement('html');
    markPlatform(mac, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)');
    expect(mac.dataset.platform).toBeUndefined();
  });
});
