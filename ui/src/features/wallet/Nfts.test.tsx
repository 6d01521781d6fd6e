// Tiles are found by the NFT's name in their caption.
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Nfts } from './Nfts';
import type { ServiceNft } from '../../api';
import { deferred, fail, mockCommands, nft, nftCommands, renderPage, seconds, tick } from '../../test/harness';
import { ASKS_KEPT, TILES_PER_ASK } from './useNftTiles';
import { layOut } from '../../test/layout';

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
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => answer.promise) });
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
      ...nftCommands((refresh) => (refresh ? chain.promise : [nft({ name: 'Stored' })])),
    });
    const first = renderPage(<Nfts />);
    await tick();
    expect(ipc.argsOf('getNftGrid').map((a) => a.refresh)).toEqual([false, true]);
    expect(tile('Stored')).toBeInTheDocument();

    chain.resolve([nft({ name: 'Stored' }), nft({ name: 'From the chain' })]);
    await tick();
    expect(tile('From the chain')).toBeInTheDocument();
    first.unmount();

    ipc = mockCommands({ getRefreshWait: stored(20), ...nftCommands(() => []) });
    renderPage(<Nfts />);
    await tick();
    expect(ipc.argsOf('getNftGrid')).toEqual([{ refresh: false }]);
    expect(screen.getByRole('button', { name: 'Refresh in 20 s' })).toBeDisabled();
  });

  it('keeps the tiles it shows when the chain has the same, asking the app for none again', async () => {
    const ipc = mockCommands({ getRefreshWait: stored(0), ...nftCommands(() => [nft({ name: 'Stored' })]) });
    renderPage(<Nfts />);
    await tick();

    expect(ipc.argsOf('getNftGrid')).toEqual([{ refresh: false }, { refresh: true }]);
    // One ask, for the first tiles; the chain's read found the same grid.
    expect(ipc.argsOf('getNftTiles').map((a) => [a.from, a.count])).toEqual([[0, 60]]);
    expect(tile('Stored')).toBeInTheDocument();
    expect(screen.queryByText(/No NFTs here yet/)).not.toBeInTheDocument();
  });

  it('leaves hidden collections out until asked, and hides one from its detail', async () => {
    const spam = nft({ name: 'Free airdrop', contract: { name: 'Spam', address: '0x00000000000000000000000000000000000000Aa', scheme: 'ERC721', network: 'ethereum' } });
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [nft({ name: 'Fox #1' }), spam], { hidden: ['ethereum:0x00000000000000000000000000000000000000aa'], shown: [] }),
    });
    const page = renderPage(<Nfts />);
    await tick();
    expect(tile('Fox #1')).toBeInTheDocument();
    expect(screen.queryByText('Free airdrop')).toBeNull();
    await page.user.click(screen.getByRole('button', { name: 'Show hidden (1)' }));
    await tick(); // the tiles, from the app
    expect(tile('Free airdrop')).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Leave hidden out (1)' }));
    await tick();
    await page.user.click(tile('Fox #1'));
    await tick(); // the detail, from the app
    await page.user.click(screen.getByRole('button', { name: 'Hide this collection' }));
    await tick();
    expect(ipc.argsOf('hideCollection')).toStrictEqual([{ network: 'ethereum', contract: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' }]);
    expect(screen.queryByText('Fox #1', { selector: '.caption > span' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Show hidden (2)' })).toBeInTheDocument();
  });

  it('hides likely spam until asked, says why on its detail, and shows its collection when the person says so', async () => {
    const airdrop = nft({
      name: 'Claim your prize',
      likelySpam: true,
      receivedFrom: '0x9999999999999999999999999999999999999999',
      contract: { name: 'Prize', address: '0x00000000000000000000000000000000000000Bb', scheme: 'ERC721', network: 'ethereum' },
    });
    const minted = nft({ name: 'Minted to you', likelySpam: true });
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [airdrop, minted, nft({ name: 'Fox #1', receivedFrom: '0x1111111111111111111111111111111111111111' })]),
    });
    layOut();
    const page = renderPage(<Nfts />);
    await tick();
    expect(tile('Fox #1')).toBeInTheDocument();
    expect(within(tile('Fox #1')).queryByText('Likely spam')).toBeNull();
    expect(screen.queryByText('Claim your prize')).toBeNull();
    expect(screen.queryByText('Minted to you')).toBeNull();

    await page.user.click(screen.getByRole('button', { name: 'Show hidden (2)' }));
    await tick(); // the tiles, from the app
    expect(within(tile('Claim your prize')).getByText('Likely spam')).toBeInTheDocument();
    expect(within(tile('Minted to you')).getByText('Likely spam')).toBeInTheDocument();
    await page.user.click(tile('Minted to you'));
    await tick(); // the detail, from the app
    expect(screen.getByTestId('nft-spam-notice')).toHaveTextContent('minted to you in a transaction none of your accounts sent');
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    await page.user.click(tile('Claim your prize'));
    await tick(); // the detail, from the app
    expect(screen.getByTestId('nft-spam-notice')).toHaveTextContent('Hidden as likely spam: 0x9999…9999 sent it');
    expect(screen.getByTestId('nft-received-from')).toHaveTextContent('0x9999…9999');
    await page.user.click(screen.getByRole('button', { name: 'Show this collection' }));
    await tick();
    expect(ipc.argsOf('showCollection')).toStrictEqual([{ network: 'ethereum', contract: '0x00000000000000000000000000000000000000Bb' }]);
    expect(screen.queryByTestId('nft-spam-notice')).toBeNull();
    expect(screen.getByRole('button', { name: 'Hide this collection' })).toBeInTheDocument();

    // Back on the grid with hidden ones left out, the collection the person chose stays.
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    await page.user.click(screen.getByRole('button', { name: 'Leave hidden out (1)' }));
    await tick();
    expect(tile('Claim your prize')).toBeInTheDocument();
    expect(within(tile('Claim your prize')).queryByText('Likely spam')).toBeNull();
    expect(screen.queryByText('Minted to you')).toBeNull();
  });

  it('says there are no NFTs yet and how they arrive', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => []) });
    renderPage(<Nfts />);
    await tick();

    expect(screen.getByText('No NFTs here yet. NFTs sent to your address show up after a refresh.')).toBeInTheDocument();
  });

  it('names each picture after its NFT, and shows a placeholder when a picture cannot be loaded', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [nft({ name: 'Fox #1', imageUrl: 'https://example.com/fox.png' })]),
    });
    renderPage(<Nfts />);
    await tick();

    const picture = within(tile('Fox #1')).getByRole('img', { name: 'Fox #1' });
    fireEvent.error(picture);
    expect(within(tile('Fox #1')).queryByRole('img')).not.toBeInTheDocument();
    expect(tile('Fox #1')).toHaveTextContent('◇');
  });

  it('asks for each tile drawn at the size it is shown on this screen', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [nft({ name: 'Fox #1', imageUrl: 'https://example.com/fox.png' })]),
    });
    const src = () => within(tile('Fox #1')).getByRole('img').getAttribute('src') ?? '';
    renderPage(<Nfts />);
    await tick();
    expect(decodeURIComponent(src())).toMatch(/\/tile\/nft\/https:\/\/example\.com\/fox\.png$/);

    vi.stubGlobal('devicePixelRatio', 2);
    try {
      renderPage(<Nfts />);
      await tick();
      const sources = [...document.querySelectorAll('.tile img')].map((img) => decodeURIComponent(img.getAttribute('src') ?? ''));
      expect(sources.some((s) => s.endsWith('/tile2x/nft/https://example.com/fox.png'))).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('marks a video NFT with a Video badge, and an image NFT with none', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [nft({ name: 'Clip', contentType: 'video' }), nft({ name: 'Still', contentType: 'image' })]),
    });
    renderPage(<Nfts />);
    await tick();

    expect(within(tile('Clip')).getByText(/Video/)).toBeInTheDocument();
    expect(within(tile('Still')).queryByText(/Video/)).not.toBeInTheDocument();
  });

  it('shows the quantity of an ERC1155 token as ×N, and none for an ERC721 one', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [
        nft({
          name: 'Potion',
          quantity: 3,
          contract: { name: 'Items', address: '0x3333333333333333333333333333333333333333', scheme: 'ERC1155', network: 'polygon' },
        }),
        nft({ name: 'Fox #1' }),
      ]),
    });
    renderPage(<Nfts />);
    await tick();

    expect(within(tile('Potion')).getByText('×3')).toBeInTheDocument();
    expect(within(tile('Fox #1')).queryByText(/×/)).not.toBeInTheDocument();
  });

  it('opens an NFT in detail and goes back to the grid without loading again', async () => {
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [
        nft({ name: 'Fox #1', description: 'A fox in a satchel.', externalLink: 'https://foxes.example/1' }),
        nft({ name: 'Fox #2', contentType: 'video' }),
      ]),
    });
    const page = renderPage(<Nfts />);
    await tick();

    await page.user.click(tile('Fox #1'));

    await tick(); // the detail, from the app

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
    expect(screen.getByText('Fox #2')).not.toBeVisible();

    await page.user.click(screen.getByRole('button', { name: 'Back' }));

    expect(screen.queryByRole('heading', { name: 'Fox #1' })).not.toBeInTheDocument();
    expect(tile('Fox #1')).toBeInTheDocument();
    expect(tile('Fox #2')).toBeInTheDocument();
    expect(ipc.count('getNftGrid')).toBe(1);
  });

  it('shows a failed request to the service (ApiRequestError) with its message and a retry that recovers', async () => {
    let tries = 0;
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => {
        tries += 1;
        return tries === 1 ? fail('ApiRequestError', "the network's node failed") : [nft({ name: 'Fox #1' })];
      }),
    });
    const page = renderPage(<Nfts />);
    await tick();

    const alert = screen.getByRole('alert');
    // No words of its own for this code: the generic sentence with the service's message.
    expect(alert).toHaveTextContent("Something went wrong: the network's node failed");
    expect(alert).not.toHaveTextContent('ApiRequestError');

    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await tick();

    expect(ipc.argsOf('getNftGrid')).toEqual([{ refresh: false }, { refresh: false }]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(tile('Fox #1')).toBeInTheDocument();
  });

  it('refreshes from the chain when Refresh is pressed and then counts the cooldown down', async () => {
    let wait = 0;
    let refreshes = 0;
    const ipc = mockCommands({
      getRefreshWait: () => ({ balances: 0, nfts: wait }),
      ...nftCommands((refresh) => {
        if (!refresh) return [];
        wait = 60;
        refreshes += 1;
        return refreshes > 1 ? [nft({ name: 'New arrival' })] : [];
      }),
    });
    const page = renderPage(<Nfts />);
    await tick();
    // Entry read the chain (cooldown was 0): now it must wait.
    expect(screen.getByRole('button', { name: 'Refresh in 60 s' })).toBeDisabled();

    wait = 0; // as the app's own clock runs out
    await seconds(60);
    await page.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await tick();

    expect(ipc.argsOf('getNftGrid').at(-1)?.refresh).toBe(true);
    expect(tile('New arrival')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh in 60 s' })).toBeDisabled();
  });

  // StrictMode runs effects twice in development; the entry refresh must not.
  it('refreshes only once on entry under StrictMode and shows no error', async () => {
    // The app's cooldown: none until the first refresh, which starts it.
    let refreshed = false;
    const ipc = mockCommands({
      getRefreshWait: () => ({ balances: 0, nfts: refreshed ? 60 : 0 }),
      ...nftCommands((refresh) => {
        if (!refresh) return [nft({ name: 'Fox #1' })];
        if (refreshed) return fail('TooManyRequests', 'refreshed a moment ago');
        refreshed = true;
        return [nft({ name: 'Fox #1' })];
      }),
    });
    renderPage(<Nfts />, { strict: true });
    await tick();

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(ipc.argsOf('getNftGrid').filter((a) => a.refresh === true)).toHaveLength(1);
  });

  it('filters the grid by network when the NFTs are on more than one', async () => {
    mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [
        nft({ name: 'Fox #1' }),
        nft({ name: 'Owl #1', contract: { ...nft({ name: 'x' }).contract, network: 'base' } }),
      ]),
    });
    const page = renderPage(<Nfts />);
    await tick();

    const filter = screen.getByRole('group', { name: 'Network' });
    await page.user.click(within(filter).getByRole('button', { name: 'base' }));
    await tick(); // the tiles, from the app
    expect(screen.queryByText('Fox #1')).not.toBeInTheDocument();
    expect(tile('Owl #1')).toBeInTheDocument();

    await page.user.click(within(filter).getByRole('button', { name: 'All' }));
    await tick();
    expect(tile('Fox #1')).toBeInTheDocument();
    expect(tile('Owl #1')).toBeInTheDocument();
  });

  it('opens an NFT\'s link in the browser only after the person confirms', async () => {
    const link = 'https://foxes.example/1';
    const ipc = mockCommands({
      getRefreshWait: stored(30),
      ...nftCommands(() => [nft({ name: 'Fox #1', externalLink: link })]),
      openNftLink: () => null,
    });
    const page = renderPage(<Nfts />);
    await tick();
    await page.user.click(tile('Fox #1'));
    await tick(); // the detail, from the app

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

describe('Nfts with 10,000', () => {
  // Pal #0 to Pal #9999, two to a row; a row with its gap is 228 px until one is
  // measured (jsdom measures nothing), the page's view 600 px.
  const many = Array.from({ length: 10_000 }, (_, i) => nft({ name: `Pal #${i}`, imageUrl: `https://pals.example/${i}.png` }));
  const ROW = 228;

  beforeEach(() => {
    vi.useFakeTimers();
    layOut({ view: 600 });
  });

  const page = () => document.querySelector<HTMLElement>('main.page')!;
  const drawn = () => screen.queryAllByText(/^Pal #\d+$/, { selector: '.caption > span' }).map((s) => s.textContent);
  const scrollTo = async (top: number) => {
    fireEvent.scroll(page(), { target: { scrollTop: top } });
    await tick();
  };

  it('has only the tiles in view (and a row or two more) in the document, with pictures for those only', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    renderPage(<Nfts />);
    await tick();
    // The next frame looks at the view.
    await tick(20);

    // Rows 0 to 2 in view, two more below.
    expect(drawn()).toEqual(Array.from({ length: 10 }, (_, i) => `Pal #${i}`));
    expect(document.querySelectorAll('.tile img')).toHaveLength(10);
    for (const img of document.querySelectorAll('.tile img')) expect(img).toHaveAttribute('loading', 'lazy');
    const grid = screen.getByRole('list', { name: 'NFTs' });
    expect(grid).toHaveClass('grid');
    // The rows not drawn are padding of their height: the scroll bar is as for 10,000.
    expect(grid.style.paddingTop).toBe('0px');
    expect(grid.style.paddingBottom).toBe(`${(5000 - 5) * ROW}px`);
    expect(within(grid).getAllByRole('listitem')[0]).toHaveAttribute('aria-setsize', '10000');
  });

  it('draws other tiles as the page scrolls, and only those', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    renderPage(<Nfts />);
    await tick();

    // Row 2,500 at the top of the view: rows 2,498 to 2,504 drawn.
    await scrollTo(2500 * ROW);
    expect(drawn()).toEqual(Array.from({ length: 14 }, (_, i) => `Pal #${4996 + i}`));
    expect(screen.getByRole('list', { name: 'NFTs' }).style.paddingTop).toBe(`${2498 * ROW}px`);

    // The very end: the last rows, nothing past them.
    await scrollTo(5000 * ROW - 600);
    expect(drawn().at(-1)).toBe('Pal #9999');
    expect(drawn().length).toBeLessThanOrEqual(14);
    expect(screen.getByRole('list', { name: 'NFTs' }).style.paddingBottom).toBe('0px');

    await scrollTo(0);
    expect(drawn()[0]).toBe('Pal #0');
    expect(screen.queryByText('Pal #9999')).not.toBeInTheDocument();
  });

  it('asks the app for the tiles in view a window at a time, and keeps only the windows near the view', async () => {
    const ipc = mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    renderPage(<Nfts />);
    await tick();
    expect(ipc.argsOf('getNftTiles').map((a) => [a.from, a.count])).toEqual([[0, TILES_PER_ASK]]);

    // Far down and back: each place asks for its own window, no more.
    for (const row of [1000, 2000, 3000, 4000, 4500, 4999 - 2]) {
      await scrollTo(row * ROW);
      expect(drawn()[0]).toBe(`Pal #${(row - 2) * 2}`);
    }
    const asked = ipc.argsOf('getNftTiles');
    expect(asked.every((a) => a.count === TILES_PER_ASK && Number(a.from) % TILES_PER_ASK === 0)).toBe(true);
    expect(asked.length).toBeLessThanOrEqual(2 * 7);
    // The first window was let go (more than ASKS_KEPT since): asked again.
    await scrollTo(0);
    expect(drawn()[0]).toBe('Pal #0');
    expect(ipc.argsOf('getNftTiles').filter((a) => a.from === 0)).toHaveLength(2);
    expect(ASKS_KEPT).toBeLessThan(7);
  });

  it('filters by name, case-insensitive, from the top, with an empty state that clears the search', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    const { user } = renderPage(<Nfts />);
    await tick();
    await scrollTo(1000 * ROW);

    const search = screen.getByRole('searchbox', { name: 'Search NFTs' });
    await user.type(search, 'PAL #999');
    await tick();
    // Pal #999 and Pal #9990 to #9999: 11, all drawn.
    expect(drawn()).toEqual(['Pal #999', ...Array.from({ length: 10 }, (_, i) => `Pal #${9990 + i}`)]);
    expect(page().scrollTop).toBe(0);

    // The collection's name matches too.
    await user.clear(search);
    await user.type(search, 'satchel friends');
    await tick();
    expect(drawn()[0]).toBe('Pal #0');

    await user.clear(search);
    await user.type(search, 'zebra');
    await tick();
    expect(drawn()).toEqual([]);
    expect(screen.getByRole('status')).toHaveTextContent('No NFT matches “zebra”.');
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    await tick(20);
    expect(search).toHaveValue('');
    expect(drawn()).toHaveLength(10);

    // Esc empties the field too.
    await user.type(search, 'Pal #5{Escape}');
    await tick();
    expect(search).toHaveValue('');
  });

  it('offers no search for a few NFTs', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many.slice(0, 7)) });
    renderPage(<Nfts />);
    await tick();
    expect(drawn()).toHaveLength(7);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('moves the focus with the arrow keys, Home and End, drawing the tile it reaches', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    const { user } = renderPage(<Nfts />);
    await tick();

    tile('Pal #0').focus();
    await user.keyboard('{ArrowRight}');
    expect(tile('Pal #1')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(tile('Pal #3')).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowUp}');
    expect(tile('Pal #0')).toHaveFocus();

    await user.keyboard('{End}');
    await tick();
    expect(tile('Pal #9999')).toHaveFocus();
    expect(page().scrollTop).toBe(5000 * ROW - 600);
    expect(screen.queryByText('Pal #0')).not.toBeInTheDocument();

    await user.keyboard('{Home}');
    await tick();
    expect(tile('Pal #0')).toHaveFocus();
    expect(page().scrollTop).toBe(0);
  });

  it('comes back from a detail to the same place in the grid, the NFT focused', async () => {
    mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    const { user } = renderPage(<Nfts />);
    await tick();
    await scrollTo(3000 * ROW);

    await user.click(tile('Pal #6001'));

    await tick(); // the detail, from the app
    expect(screen.getByRole('heading', { name: 'Pal #6001' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await tick();

    expect(page().scrollTop).toBe(3000 * ROW);
    expect(tile('Pal #6001')).toHaveFocus();
  });

  it('reads the chain once the first row of thumbnails is drawn, or a second after the stored list shows', async () => {
    const refreshes = (ipc: ReturnType<typeof mockCommands>) =>
      ipc.argsOf('getNftGrid').filter((a) => a.refresh === true).length;
    let ipc = mockCommands({ getRefreshWait: stored(0), ...nftCommands(() => many) });
    const first = renderPage(<Nfts />);
    await tick(100);
    expect(refreshes(ipc)).toBe(0);
    fireEvent.load(within(tile('Pal #0')).getByRole('img'));
    fireEvent.load(within(tile('Pal #1')).getByRole('img'));
    await tick();
    expect(refreshes(ipc)).toBe(1);
    first.unmount();

    // Pictures that never arrive hold it back a second at most.
    ipc = mockCommands({ getRefreshWait: stored(0), ...nftCommands(() => many) });
    renderPage(<Nfts />);
    await tick(900);
    expect(refreshes(ipc)).toBe(0);
    await tick(100);
    expect(refreshes(ipc)).toBe(1);
  });

  it('tells the app once the first row of thumbnails is drawn', async () => {
    const ipc = mockCommands({ getRefreshWait: stored(30), ...nftCommands(() => many) });
    renderPage(<Nfts />);
    await tick();

    fireEvent.load(within(tile('Pal #0')).getByRole('img'));
    await tick(100);
    expect(ipc.count('markShown')).toBe(0);
    fireEvent.load(within(tile('Pal #1')).getByRole('img'));
    fireEvent.load(within(tile('Pal #2')).getByRole('img'));
    await tick(100);
    expect(ipc.argsOf('markShown')).toEqual([{ what: 'nfts' }]);
  });
});
