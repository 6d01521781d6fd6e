import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallQuote } from '../../api';
import { SendNft } from './SendNft';
import { ADDRESS, RECIPIENT, activityEntry, fail, mockCommands, nft, pinStatus, renderPage, sendQuote, tick } from '../../test/harness';

const PALS = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

function quoted(overrides: Partial<CallQuote> = {}): CallQuote {
  return {
    quote: sendQuote({ to: RECIPIENT, amount: '0' }),
    changes: [{ direction: 'out', kind: 'erc721', amount: '1', contract: PALS, tokenId: '4', counterparty: RECIPIENT }],
    ...overrides,
  };
}

const pal = nft({ name: 'Pal #4', tokenId: '4', contract: { name: 'Satchel Pals', address: PALS, scheme: 'ERC721', network: 'anvil' } });
const items = nft({ name: 'Potion', tokenId: '7', quantity: 5, contract: { name: 'Satchel Items', address: PALS, scheme: 'ERC1155', network: 'anvil' } });

describe('SendNft', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('sends an ERC-721 to a recipient: the review shows it leaving, the fee, and signs with the PIN', async () => {
    const ipc = mockCommands({ prepareNftSend: () => quoted(), confirmSend: () => activityEntry(), getPinStatus: () => pinStatus() });
    const onSent = vi.fn();
    const page = renderPage(<SendNft nft={pal} onBack={() => undefined} onSent={onSent} />);
    expect(screen.queryByLabelText(/How many/)).toBeNull();
    await page.user.type(screen.getByLabelText('To'), RECIPIENT);
    await page.user.click(screen.getByRole('button', { name: 'Review' }));
    await tick();
    expect(ipc.argsOf('prepareNftSend')).toStrictEqual([
      { form: { account: { network: 'ethereum', address: ADDRESS }, contract: PALS, tokenId: '4', erc1155: false, to: RECIPIENT, amount: '1' } },
    ]);
    expect(screen.getByTestId('nft-send-summary')).toHaveTextContent('Send Pal #4 (#4)');
    expect(screen.getByTestId('nft-send-changes')).toHaveTextContent(`You send NFT #4 of ${PALS}`);
    await page.user.type(screen.getByTestId('nft-send-pin'), '246810');
    await page.user.click(screen.getByTestId('nft-send-submit'));
    await tick();
    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'q-1', speed: 'normal', pin: '246810', acceptHighFee: false } }]);
    expect(onSent).toHaveBeenCalledOnce();
  });

  it('takes an ERC-1155 amount up to what is held', async () => {
    const ipc = mockCommands({ prepareNftSend: () => quoted(), getPinStatus: () => pinStatus() });
    const page = renderPage(<SendNft nft={items} onBack={() => undefined} onSent={() => undefined} />);
    await page.user.type(screen.getByLabelText('To'), RECIPIENT);
    const amount = screen.getByLabelText('How many (you hold 5)');
    await page.user.clear(amount);
    await page.user.type(amount, '6');
    expect(screen.getByRole('button', { name: 'Review' })).toBeDisabled();
    await page.user.clear(amount);
    await page.user.type(amount, '2');
    await page.user.click(screen.getByRole('button', { name: 'Review' }));
    await tick();
    expect((ipc.argsOf('prepareNftSend')[0] as { form: { amount: string; erc1155: boolean } }).form).toMatchObject({ amount: '2', erc1155: true });
    expect(screen.getByTestId('nft-send-summary')).toHaveTextContent('Send 2 × Potion');
  });

  it('says why a send was refused, and keeps the form', async () => {
    mockCommands({ prepareNftSend: () => fail('TransactionWouldFail', 'the transaction would fail: not the owner'), getPinStatus: () => pinStatus() });
    const page = renderPage(<SendNft nft={pal} onBack={() => undefined} onSent={() => undefined} />);
    await page.user.type(screen.getByLabelText('To'), RECIPIENT);
    await page.user.click(screen.getByRole('button', { name: 'Review' }));
    await tick();
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(screen.getByLabelText('To')).toHaveValue(RECIPIENT);
  });

  it('holds a look-alike recipient until the person checked it', async () => {
    mockCommands({
      prepareNftSend: () => quoted({ quote: sendQuote({ to: RECIPIENT, warnings: [{ kind: 'lookAlike', of: ADDRESS }] }) }),
      getPinStatus: () => pinStatus(),
    });
    const page = renderPage(<SendNft nft={pal} onBack={() => undefined} onSent={() => undefined} />);
    await page.user.type(screen.getByLabelText('To'), RECIPIENT);
    await page.user.click(screen.getByRole('button', { name: 'Review' }));
    await tick();
    expect(screen.getByTestId('send-recipient-danger')).toHaveTextContent('looks like one you sent to');
    await page.user.type(screen.getByTestId('nft-send-pin'), '246810');
    expect(screen.getByTestId('nft-send-submit')).toBeDisabled();
    await page.user.click(screen.getByTestId('send-accept-recipient'));
    expect(screen.getByTestId('nft-send-submit')).toBeEnabled();
  });
});
