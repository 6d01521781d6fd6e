import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectPrompt } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { mockCommands, renderPage, tick } from '../../test/harness';

const prompt: ConnectPrompt = {
  id: 4,
  origin: 'a program on this computer',
  local: true,
  waiting: 0,
  request: { kind: 'useWidget', appId: 'pixel-quest', name: 'Pixel Quest', domain: 'dev.example.quest' },
};

describe('UseWidget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('names the app a program embeds Satchel for, and says its wallet is its own', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null });
    const page = renderPage(<ConnectRequest prompt={prompt} loggedIn={false} />);
    expect(screen.getByText("A program asks to use Satchel's wallet for its own app:")).toBeInTheDocument();
    expect(screen.getByTestId('connect-origin')).toHaveTextContent('A program on this computer');
    expect(screen.getByTestId('embed-name')).toHaveTextContent('Pixel Quest');
    expect(screen.getByTestId('embed-app')).toHaveTextContent('pixel-quest');
    expect(screen.getByTestId('embed-domain')).toHaveTextContent('dev.example.quest');
    expect(screen.getByText(/never sees your Satchel wallet, nor your PIN/)).toBeInTheDocument();
    await page.user.click(screen.getByTestId('embed-allow'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 4, approve: true }]);
  });

  it('cancels: the program hears 4001', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null });
    const page = renderPage(<ConnectRequest prompt={prompt} loggedIn />);
    await page.user.click(screen.getByTestId('connect-cancel'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 4, approve: false }]);
  });
});
