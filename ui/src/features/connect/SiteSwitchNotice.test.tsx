import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteSwitched } from '../../api';
import { SiteSwitchNotice } from './SiteSwitchNotice';
import { mockCommands, renderPage, tick, watched } from '../../test/harness';

describe('SiteSwitchNotice', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('says which site switched to which network, until the person dismisses it', async () => {
    const switches = watched<SiteSwitched>();
    mockCommands({ watchSiteSwitches: switches.handler });
    const page = renderPage(<SiteSwitchNotice />);
    await tick();
    expect(screen.queryByTestId('site-switched')).toBeNull();

    await switches.send({ id: 1, origin: 'https://dapp.example', local: false, network: 'ethereum', chainId: 1 });
    expect(screen.getByTestId('site-switched')).toHaveTextContent('https://dapp.example switched to ethereum (chain 1)');
    await switches.send({ id: 2, origin: 'a program on this computer', local: true, network: 'anvil', chainId: 31337 });
    expect(screen.getByTestId('site-switched')).toHaveTextContent('A program on this computer switched to anvil (chain 31337)');
    await page.user.click(screen.getByTestId('site-switched-dismiss'));
    expect(screen.queryByTestId('site-switched')).toBeNull();
  });
});
