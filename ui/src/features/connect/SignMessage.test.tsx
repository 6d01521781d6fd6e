import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectPrompt, MessageReview } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { fail, mockCommands, pinStatus, renderPage, tick } from '../../test/harness';

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function prompt(review: Partial<MessageReview>): ConnectPrompt {
  return {
    id: 7,
    origin: 'https://dapp.example',
    local: false,
    waiting: 0,
    request: { kind: 'signMessage', account: ACCOUNT, hex: '0x68656c6c6f', ...review },
  };
}

const signIn = {
  domain: 'dapp.example',
  address: ACCOUNT,
  statement: 'Sign in to the demo.',
  uri: 'https://dapp.example',
  version: '1',
  chainId: 31337,
  nonce: 'abcdef1234',
  issuedAt: '2026-11-25T00:00:00Z',
  resources: [],
};

async function typePin(page: ReturnType<typeof renderPage>) {
  await page.user.type(screen.getByTestId('sign-pin'), '123456');
  await page.user.click(screen.getByTestId('sign-approve'));
  await tick();
}

describe('SignMessage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows the text, the signing account, and signs with the PIN', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const page = renderPage(<ConnectRequest prompt={prompt({ text: 'hello\n<b>world</b>' })} loggedIn />);
    expect(screen.getByText('Sign a message?')).toBeInTheDocument();
    expect(screen.getByTestId('sign-text').textContent).toBe('hello\n<b>world</b>');
    expect(screen.getByTestId('sign-text').querySelector('b')).toBeNull();
    expect(screen.getByTestId('connect-origin')).toHaveTextContent('https://dapp.example');
    await typePin(page);
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 7, approve: true, pin: '123456' }]);
  });

  it('shows bytes that are not text in hex', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    renderPage(<ConnectRequest prompt={prompt({ hex: '0xdeadbeef' })} loggedIn />);
    expect(screen.getByTestId('sign-hex')).toHaveTextContent('0xdeadbeef');
    expect(screen.queryByTestId('sign-text')).toBeNull();
    expect(screen.queryByTestId('sign-hash-warning')).toBeNull();
  });

  it('warns that 32 bytes look like a hash, and still lets the person decide', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    renderPage(<ConnectRequest prompt={prompt({ hex: `0x${'ab'.repeat(32)}`, looksLikeHash: true })} loggedIn />);
    expect(screen.getByTestId('sign-hash-warning')).toHaveTextContent('look like a hash');
    expect(screen.getByTestId('sign-approve')).toBeInTheDocument();
  });

  it('shows a matching sign-in as a sign-in to its site', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const page = renderPage(<ConnectRequest prompt={prompt({ text: 'the message', signIn })} loggedIn />);
    expect(screen.getByText('Sign in with your wallet?')).toBeInTheDocument();
    expect(screen.getByTestId('sign-in-domain')).toHaveTextContent('Sign in to dapp.example');
    expect(screen.getByTestId('sign-in-statement')).toHaveTextContent('Sign in to the demo.');
    expect(screen.queryByTestId('sign-refusal')).toBeNull();
    await typePin(page);
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 7, approve: true, pin: '123456' }]);
  });

  it('refuses a sign-in for another site in red, with only Reject', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const refusal = 'This sign-in is for evil.example, but https://dapp.example asks for it.';
    const page = renderPage(
      <ConnectRequest prompt={prompt({ text: 'the message', signIn: { ...signIn, domain: 'evil.example' }, refusal })} loggedIn />,
    );
    expect(screen.getByTestId('sign-refusal')).toHaveTextContent(refusal);
    expect(screen.queryByTestId('sign-pin')).toBeNull();
    await page.user.click(screen.getByTestId('sign-reject'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 7, approve: false }]);
  });

  it('says a wrong PIN and keeps the request', async () => {
    mockCommands({ answerConnectRequest: () => fail('WrongPin', 'wrong PIN'), getPinStatus: () => pinStatus({ triesLeft: 4 }) });
    const page = renderPage(<ConnectRequest prompt={prompt({ text: 'hello' })} loggedIn />);
    await typePin(page);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByTestId('sign-pin')).toHaveValue('');
  });
});
