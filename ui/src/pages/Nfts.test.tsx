// Tiles are found by the NFT's name in their caption.
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Nfts } from './Nfts';
import type { ServiceNft } from '../api';
import { deferred, fail, mockCommands, nft, renderPage, seconds, tick } from '../test/harness';

const stored = (nfts: number) => () => ({ balances: 0, nfts });

/** The grid's button for the NFT named `name`. */
function tile(name: string): HTMLElement {
  const button = screen.getByText(name, { selector: '.caption > span' }).closest('button');
  if (!button) throw new Error(`no tile for ${name}`);
  return button;
}

describe('Nfts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows busy placeholders while the NFTs load', async () => {
    const answer = deferred<ServiceNft[]>();
    mockCommands({ getRefreshWait: stored(30), getNFTs: () => answer.promise });
    const { container } = renderPage(<Nfts />);
    await tick();

    expect(container.querySelector('[aria-busy="true"]')).toBeInTheDocument();
    answer.resolve([nft({ name: 'Fox #1' })]);
    await tick();
    expect(container.querySelector('[aria-busy="true"]')).not.toBeInTheDocument();
    expect(tile('Fox #1')).toBeInTheDocument();
  });

  it('shows the stored NFTs at once, then reads the chain when the cooldown allows', async () => {
    const chain = deferred<ServiceNft[]>();
    let ipc = mockCommands({
      getRefreshWait: stored(0),
      getNFTs: (args) => ((args.options as { refresh: boolean }).refresh ? chain.promise : [nft({ name: 'Stored' })]),
    });
    const first = renderPage(<Nfts />);
    await tick();
    expect(ipc.argsOf('getNFTs')).toEqual([{ options: { refresh: false } }, { options: { refresh: true } }]);
    expect(tile('Stored')).toBeInTheDocument();

    chain.resolve([nft({ name: 'Stored' }), nft({ name: 'From the chain' })]);
    await tick();
    expect(tile('From the chain')).toBeInTheDocument();
    first.unmount();

    ipc = mockCommands({ getRefreshWait: stored(20), getNFTs: () => [] });
    renderPage(<Nfts />);
    await tick();
    expect(ipc.argsOf('getNFTs')).toEqual([{ options: { refresh: false } }]);
    expect(screen.getByRole('button', { name: 'Refresh in 20 s' })).toBeDisabled();
  });

  it('says there are no NFTs yet and how they arrive', async () => {
    mockCommands({ getRefreshWait: stored(30), getNFTs: () => [] });
    renderPage(<Nfts />);
    await tick();

    expect(screen.getByText('No NFTs here yet. NFTs sent to your address show up after a refresh.')).toBeInTheDocument();
  });

  it('names each picture after its NFT, and shows a placeholder when a picture cannot be loaded', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => [nft({ name: 'Fox #1', imageUrl: 'https://example.com/fox.png' })],
    });
    renderPage(<Nfts />);
    await tick();

    const picture = within(tile('Fox #1')).getByRole('img', { name: 'Fox #1' });
    fireEvent.error(picture);
    expect(within(tile('Fox #1')).queryByRole('img')).not.toBeInTheDocument();
    expect(tile('Fox #1')).toHaveTextContent('◇');
  });

  it('marks a video NFT with a Video badge, and an image NFT with none', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => [nft({ name: 'Clip', contentType: 'video' }), nft({ name: 'Still', contentType: 'image' })],
    });
    renderPage(<Nfts />);
    await tick();

    expect(within(tile('Clip')).getByText(/Video/)).toBeInTheDocument();
    expect(within(tile('Still')).queryByText(/Video/)).not.toBeInTheDocument();
  });

  it('shows the quantity of an ERC1155 token as ×N, and none for an ERC721 one', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => [
        nft({
          name: 'Potion',
          quantity: 3,
          contract: { name: 'Items', address: '0x3333333333333333333333333333333333333333', scheme: 'ERC1155', network: 'polygon' },
        }),
        nft({ name: 'Fox #1' }),
      ],
    });
    renderPage(<Nfts />);
    await tick();

    expect(within(tile('Potion')).getByText('×3')).toBeInTheDocument();
    expect(within(tile('Fox #1')).queryByText(/×/)).not.toBeInTheDocument();
  });

  it('opens an NFT in detail and goes back to the grid without loading again', async () => {
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => [
        nft({ name: 'Fox #1', description: 'A fox in a satchel.', externalLink: 'https://foxes.example/1' }),
        nft({ name: 'Fox #2', contentType: 'video' }),
      ],
    });
    const page = renderPage(<Nfts />);
    await tick();

    await page.user.click(tile('Fox #1'));

    expect(screen.getByRole('heading', { name: 'Fox #1' })).toBeInTheDocument();
    expect(screen.getByText('A fox in a satchel.')).toBeInTheDocument();
    const facts = Object.fromEntries(
      screen.getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    // The collection's name under Collection; its description (none here) apart.
    expect(facts).toEqual({
      Collection: 'Satchel Friends',
      Contract: '0x8ba1…BA72',
      Network: 'ethereum',
      Standard: 'ERC-721',
      Link: 'https://foxes.example/1',
    });
    expect(screen.queryByText('Fox #2')).not.toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Back' }));

    expect(screen.queryByRole('heading', { name: 'Fox #1' })).not.toBeInTheDocument();
    expect(tile('Fox #1')).toBeInTheDocument();
    expect(tile('Fox #2')).toBeInTheDocument();
    expect(ipc.count('getNFTs')).toBe(1);
  });

  it('shows a failed request to the service (ApiRequestError) with its message and a retry that recovers', async () => {
    let tries = 0;
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => {
        tries += 1;
        return tries === 1 ? fail('ApiRequestError', "the network's node failed") : [nft({ name: 'Fox #1' })];
      },
    });
    const page = renderPage(<Nfts />);
    await tick();

    const alert = screen.getByRole('alert');
    // No words of its own for this code: the generic sentence with the service's message.
    expect(alert).toHaveTextContent("Something went wrong: the network's node failed");
    expect(alert).not.toHaveTextContent('ApiRequestError');

    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await tick();

    expect(ipc.argsOf('getNFTs')).toEqual([{ options: { refresh: false } }, { options: { refresh: false } }]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(tile('Fox #1')).toBeInTheDocument();
  });

  it('refreshes from the chain when Refresh is pressed and then counts the cooldown down', async () => {
    let wait = 0;
    let refreshes = 0;
    const ipc = mockCommands({
      getRefreshWait: () => ({ balances: 0, nfts: wait }),
      getNFTs: (args) => {
        if (!(args.options as { refresh: boolean }).refresh) return [];
        wait = 60;
        refreshes += 1;
        return refreshes > 1 ? [nft({ name: 'New arrival' })] : [];
      },
    });
    const page = renderPage(<Nfts />);
    await tick();
    // Entry read the chain (cooldown was 0): now it must wait.
    expect(screen.getByRole('button', { name: 'Refresh in 60 s' })).toBeDisabled();

    wait = 0; // as the app's own clock runs out
    await seconds(60);
    await page.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await tick();

    expect(ipc.argsOf('getNFTs').at(-1)).toEqual({ options: { refresh: true } });
    expect(tile('New arrival')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh in 60 s' })).toBeDisabled();
  });

  // StrictMode runs effects twice in development; the entry refresh must not.
  it('refreshes only once on entry under StrictMode and shows no error', async () => {
    // The app's cooldown: none until the first refresh, which starts it.
    let refreshed = false;
    const ipc = mockCommands({
      getRefreshWait: () => ({ balances: 0, nfts: refreshed ? 60 : 0 }),
      getNFTs: (args) => {
        if (!(args.options as { refresh: boolean }).refresh) return [nft({ name: 'Fox #1' })];
        if (refreshed) return fail('TooManyRequests', 'refreshed a moment ago');
        refreshed = true;
        return [nft({ name: 'Fox #1' })];
      },
    });
    renderPage(<Nfts />, { strict: true });
    await tick();

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(ipc.argsOf('getNFTs').filter((a) => (a.options as { refresh: boolean }).refresh)).toHaveLength(1);
  });

  it('filters the grid by network when the NFTs are on more than one', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => [
        nft({ name: 'Fox #1' }),
        nft({ name: 'Owl #1', contract: { ...nft({ name: 'x' }).contract, network: 'base' } }),
      ],
    });
    const page = renderPage(<Nfts />);
    await tick();

    const filter = screen.getByRole('group', { name: 'Network' });
    await page.user.click(within(filter).getByRole('button', { name: 'base' }));
    expect(screen.queryByText('Fox #1')).not.toBeInTheDocument();
    expect(tile('Owl #1')).toBeInTheDocument();

    await page.user.click(within(filter).getByRole('button', { name: 'All' }));
    expect(tile('Fox #1')).toBeInTheDocument();
    expect(tile('Owl #1')).toBeInTheDocument();
  });

  it('opens an NFT\'s link in the browser only after the person confirms', async () => {
    const link = 'https://foxes.example/1';
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      getNFTs: () => [nft({ name: 'Fox #1', externalLink: link })],
      openNftLink: () => null,
    });
    const page = renderPage(<Nfts />);
    await tick();
    await page.user.click(tile('Fox #1'));

    await page.user.click(screen.getByRole('button', { name: "Open the NFT's page" }));
    const dialog = screen.getByRole('dialog', { name: 'Leave Satchel?' });
    expect(dialog).toHaveTextContent(link);
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(ipc.count('openNftLink')).toBe(0);

    await page.user.click(screen.getByRole('button', { name: "Open the NFT's page" }));
    await page.user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await tick();
    expect(ipc.argsOf('openNftLink')).toEqual([{ link }]);
  });
});
