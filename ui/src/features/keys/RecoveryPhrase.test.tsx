import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RecoveryPhrase } from './RecoveryPhrase';
import { WORDS, answerWord, askedWord, deferred, fail, mockCommands, pinStatus, renderPage, tick } from '../../test/harness';

function renderFlow(props: { pin?: string; skip?: boolean; back?: boolean } = {}) {
  const handlers = { onDone: vi.fn(), onSkip: vi.fn(), onBack: vi.fn() };
  const page = renderPage(
    <RecoveryPhrase
      pin={props.pin}
      onDone={handlers.onDone}
      onSkip={props.skip ? handlers.onSkip : undefined}
      onBack={props.back ? handlers.onBack : undefined}
    />,
  );
  return { ...handlers, ...page };
}

const shown = () => Array.from({ length: 12 }, (_, i) => document.getElementById(`phrase-word-${i + 1}`)?.textContent);

/** Nothing of the phrase anywhere but the page: storage, address, console. */
function expectNoWordsOutside(consoleCalls: unknown[][]) {
  const stored = [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((k) => `${k}=${s.getItem(k)}`)).join(' ');
  for (const word of WORDS) {
    expect(stored).not.toContain(word);
    expect(window.location.href).not.toContain(word);
    expect(JSON.stringify(consoleCalls)).not.toContain(word);
  }
}

describe('RecoveryPhrase', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('explains the phrase, shows the 12 words numbered in order, checks three picks and confirms', async () => {
    const consoleCalls: unknown[][] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleCalls.push(args));
    }
    const ipc = mockCommands({ showRecoveryPhrase: () => WORDS, confirmRecoveryPhrase: () => null });
    const page = renderFlow({ pin: '246810' });

    expect(screen.getByRole('heading', { name: 'Your recovery phrase' })).toBeInTheDocument();
    expect(screen.getByText('It is 12 words that restore your wallet on any device.')).toBeInTheDocument();
    expect(screen.getByText(/Anyone who has them can take your funds/)).toBeInTheDocument();
    expect(screen.getByText(/Write them on paper .* Never in a screenshot/)).toBeInTheDocument();
    expect(ipc.count('showRecoveryPhrase')).toBe(0);

    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await tick();
    expect(ipc.argsOf('showRecoveryPhrase')).toEqual([{ pin: '246810' }]);
    expect(shown()).toEqual(WORDS);
    const list = screen.getByRole('list', { name: 'Your recovery phrase' });
    expect(list.querySelectorAll('li')).toHaveLength(12);

    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));
    expect(document.getElementById('phrase-word-1')).not.toBeInTheDocument();
    const asked: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect(screen.getByText(`Check your words · ${i + 1} of 3`)).toBeInTheDocument();
      asked.push(askedWord());
      const choices = screen.getAllByRole('button').filter((b) => WORDS.includes(b.textContent ?? ''));
      expect(choices).toHaveLength(4);
      expect(ipc.count('confirmRecoveryPhrase')).toBe(0);
      await answerWord(page.user, WORDS);
    }
    await tick();
    expect(new Set(asked).size).toBe(3);
    expect(ipc.count('confirmRecoveryPhrase')).toBe(1);
    expect(screen.getByRole('status')).toHaveTextContent('Your recovery phrase is confirmed.');
    // The words are gone from the page once checked.
    for (const word of WORDS) expect(document.body).not.toHaveTextContent(new RegExp(`\\b${word}\\b`));

    await page.user.click(screen.getByRole('button', { name: 'Done' }));
    expect(page.onDone).toHaveBeenCalledTimes(1);
    expectNoWordsOutside(consoleCalls);
  });

  it('says a wrong pick is wrong, confirms nothing, and shows the words again for a new check', async () => {
    const ipc = mockCommands({ showRecoveryPhrase: () => WORDS, confirmRecoveryPhrase: () => null });
    const page = renderFlow({ pin: '246810' });
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));

    await answerWord(page.user, WORDS);
    const second = askedWord();
    await answerWord(page.user, WORDS, false);
    expect(screen.getByRole('alert')).toHaveTextContent(`That is not word #${second}. Look at your words again.`);
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    await tick();
    expect(ipc.count('confirmRecoveryPhrase')).toBe(0);

    await page.user.click(screen.getByRole('button', { name: 'Show my words again' }));
    expect(shown()).toEqual(WORDS);
    // Asked once: the words are kept for the look again.
    expect(ipc.count('showRecoveryPhrase')).toBe(1);

    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));
    expect(screen.getByText('Check your words · 1 of 3')).toBeInTheDocument();
    for (let i = 0; i < 3; i++) await answerWord(page.user, WORDS);
    await tick();
    expect(ipc.count('confirmRecoveryPhrase')).toBe(1);
  });

  it('keeps the check passed when saving it fails, and saves it on Try again', async () => {
    let tries = 0;
    const ipc = mockCommands({
      showRecoveryPhrase: () => WORDS,
      confirmRecoveryPhrase: () => {
        tries += 1;
        return tries === 1 ? fail('KeychainUnavailable', 'locked') : null;
      },
    });
    const page = renderFlow({ pin: '246810' });
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));
    for (let i = 0; i < 3; i++) await answerWord(page.user, WORDS);
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('The system keychain is locked or missing.');
    await page.user.click(screen.getByRole('button', { name: 'Try again' }));
    await tick();
    expect(ipc.count('confirmRecoveryPhrase')).toBe(2);
    expect(screen.getByRole('status')).toHaveTextContent('Your recovery phrase is confirmed.');
  });

  it('asks for the PIN first when it was not given, with the PIN prompt’s errors', async () => {
    const ipc = mockCommands({
      getPinStatus: () => pinStatus({ triesLeft: 4 }),
      showRecoveryPhrase: (args) => (args.pin === '135790' ? WORDS : fail('WrongPin', 'wrong PIN; 4 tries left')),
    });
    const page = renderFlow({ back: true });
    await tick();

    expect(screen.getByRole('heading', { name: 'Unlock your recovery phrase' })).toBeInTheDocument();
    await page.user.type(screen.getByLabelText('Enter your PIN'), '000000{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('That PIN is not right. 4 tries left.');

    await page.user.type(screen.getByLabelText('Enter your PIN'), '135790{Enter}');
    await tick();
    expect(ipc.argsOf('showRecoveryPhrase')).toEqual([{ pin: '000000' }, { pin: '135790' }]);
    expect(screen.getByRole('heading', { name: 'Your recovery phrase' })).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    expect(shown()).toEqual(WORDS);
    expect(ipc.count('showRecoveryPhrase')).toBe(2);
  });

  it('goes back a step with Esc and the back button, and leaves from the first step without the words', async () => {
    mockCommands({ getPinStatus: () => pinStatus(), showRecoveryPhrase: () => WORDS });
    const page = renderFlow({ back: true });
    await tick();
    await page.user.type(screen.getByLabelText('Enter your PIN'), '135790{Enter}');
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));

    await page.user.keyboard('{Escape}');
    expect(shown()).toEqual(WORDS);
    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('heading', { name: 'Your recovery phrase' })).toBeInTheDocument();
    expect(document.getElementById('phrase-word-1')).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(page.onBack).toHaveBeenCalledTimes(1);
  });

  it('offers Skip for now at every step before the check is done', async () => {
    mockCommands({ showRecoveryPhrase: () => WORDS });
    const page = renderFlow({ pin: '246810', skip: true });
    expect(screen.getByRole('button', { name: 'Skip for now' })).toBeInTheDocument();
    // No way back to the PIN just chosen: the flow starts here.
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(page.onSkip).toHaveBeenCalledTimes(1);
    expect(page.onDone).not.toHaveBeenCalled();
  });

  it('shows that it is opening the words, and a failure in words without the words', async () => {
    const answer = deferred<string[]>();
    mockCommands({ showRecoveryPhrase: () => answer.promise });
    const page = renderFlow({ pin: '246810' });
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    expect(screen.getByRole('button', { name: 'Loading…' })).toBeDisabled();
    answer.reject({ code: 'KeychainUnavailable', message: 'locked' });
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('The system keychain is locked or missing.');
    expect(screen.getByRole('button', { name: 'Show my 12 words' })).toBeEnabled();
  });
});
