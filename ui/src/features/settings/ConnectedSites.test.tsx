import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectedSites } from './ConnectedSites';
import { mockCommands, renderPage, tick } from '../../test/harness';

describe('ConnectedSites', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('lists the connected sites and programs, and Disconnect forgets one', async () => {
    let apps = [
      { key: 'https://dapp.example', origin: 'https://dapp.example', local: false, connectedAt: 1_764_000_000, throughExtension: false },
      { key: 'local', origin: 'a program on this computer', local: true, connectedAt: 1_764_000_100, throughExtension: false },
      { key: 'https://shop.example', origin: 'https://shop.example', local: false, connectedAt: 1_764_000_200, throughExtension: true },
    ];
    const ipc = mockCommands({
      getConnectedSites: () => apps,
      disconnectSite: (args) => {
        apps = apps.filter((a) => a.key !== args.key);
        return true;
      },
    });
    const page = renderPage(<ConnectedSites />);
    await tick();
    const rows = screen.getAllByTestId('connected-site');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('https://dapp.example');
    expect(rows[0]).toHaveTextContent('a program on this computer could claim this name');
    expect(rows[1]).toHaveTextContent('A program on this computer');
    expect(within(rows[1]).queryByTestId('connected-site-how')).toBeNull();
    expect(rows[2]).toHaveTextContent('Through Satchel Connector');
    await page.user.click(within(rows[0]).getByTestId('connected-site-disconnect'));
    await tick();
    expect(ipc.argsOf('disconnectSite')).toStrictEqual([{ key: 'https://dapp.example' }]);
    expect(screen.getAllByTestId('connected-site')).toHaveLength(2);
  });

  it('says when nothing is connected', async () => {
    mockCommands({});
    renderPage(<ConnectedSites />);
    await tick();
    expect(screen.getByText('No site or program is connected.')).toBeInTheDocument();
  });
});
