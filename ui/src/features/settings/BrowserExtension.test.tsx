import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserExtension } from './BrowserExtension';
import { mockCommands, renderPage, tick } from '../../test/harness';

const CHROME = 'chrome-extension://codbncmilehhbbmpfkfhobodieagnmca';

describe('BrowserExtension', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows a one-time code, lists the browser once linked, and Unlink forgets it', async () => {
    let linked: { extension: string; browser: string; linkedAt: number }[] = [];
    const ipc = mockCommands({
      getLinkedExtensions: () => linked,
      linkBrowserExtension: () => 'ABCD2345',
      unlinkBrowserExtension: (args) => {
        linked = linked.filter((l) => l.extension !== args.extension);
        return true;
      },
    });
    const page = renderPage(<BrowserExtension />);
    await tick();
    expect(screen.getByText('No browser is linked.')).toBeInTheDocument();
    await page.user.click(screen.getByTestId('extension-link'));
    await tick();
    expect(screen.getByTestId('extension-code')).toHaveTextContent('ABCD-2345');
    // The person types it into the extension; the list shows the link soon after.
    linked = [{ extension: CHROME, browser: 'Chromium', linkedAt: 1_764_000_000 }];
    await tick(2000);
    const row = screen.getByTestId('linked-extension');
    expect(row).toHaveTextContent('Chromium, linked');
    await page.user.click(within(row).getByTestId('linked-extension-unlink'));
    await tick();
    expect(ipc.argsOf('unlinkBrowserExtension')).toStrictEqual([{ extension: CHROME }]);
    expect(screen.queryByTestId('linked-extension')).toBeNull();
    // The code is gone once its time is up.
    await tick(120_000);
    expect(screen.queryByTestId('extension-code')).toBeNull();
  });
});
