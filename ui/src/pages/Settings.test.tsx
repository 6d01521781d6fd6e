import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Settings } from './Settings';
import ja from '../locales/ja.json';
import ko from '../locales/ko.json';
import { fail, mockCommands, renderPage, serviceUser, tick } from '../test/harness';

function renderSettings() {
  const onLoggedOut = vi.fn();
  return { onLoggedOut, ...renderPage(<Settings user={serviceUser()} onLoggedOut={onLoggedOut} />) };
}

describe('Settings', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows who is signed in and how', () => {
    mockCommands({});
    renderSettings();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Signed in with: email')).toBeInTheDocument();
  });

  it('switches the visible texts to 한국어 and to 日本語, and remembers the choice', async () => {
    mockCommands({});
    const page = renderSettings();
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

    await page.user.click(screen.getByRole('button', { name: '한국어' }));
    expect(screen.getByRole('button', { name: ko['settings.logout'] })).toBeInTheDocument();
    expect(screen.getByText(ko['settings.language'])).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ko['settings.theme.dark'] })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '한국어' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'false');
    expect(localStorage.getItem('satchel.language')).toBe('ko');
    expect(document.documentElement.lang).toBe('ko');

    await page.user.click(screen.getByRole('button', { name: '日本語' }));
    expect(screen.getByRole('button', { name: ja['settings.logout'] })).toBeInTheDocument();
    expect(screen.getByText(ja['settings.account'])).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ko['settings.logout'] })).not.toBeInTheDocument();
    expect(localStorage.getItem('satchel.language')).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');

    await page.user.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('starts in the language chosen before', () => {
    localStorage.setItem('satchel.language', 'ko');
    mockCommands({});
    renderSettings();
    expect(screen.getByRole('button', { name: ko['settings.logout'] })).toBeInTheDocument();
  });

  it('starts in the system language when none was chosen, and in English for one it does not have', () => {
    mockCommands({});
    Object.defineProperty(window.navigator, 'language', { value: 'ja-JP', configurable: true });
    const first = renderSettings();
    expect(screen.getByRole('button', { name: ja['settings.logout'] })).toBeInTheDocument();
    first.unmount();

    Object.defineProperty(window.navigator, 'language', { value: 'de-DE', configurable: true });
    renderSettings();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('applies and remembers the theme chosen', async () => {
    mockCommands({});
    const page = renderSettings();
    await page.user.click(screen.getByRole('button', { name: 'Dark' }));
    expect(screen.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('satchel.theme')).toBe('dark');
  });

  it('logs out through the app’s logout command, then leaves the page', async () => {
    const ipc = mockCommands({ logout: () => null });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    expect(ipc.count('logout')).toBe(1);
    expect(page.onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('leaves for the login page even when the keychain refuses the logout', async () => {
    mockCommands({ logout: () => fail('KeychainUnavailable', 'locked') });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    // The app has forgotten the user on this device whatever it answered.
    expect(page.onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('leaves for the login page even when the app answers that no one is logged in any more', async () => {
    mockCommands({ logout: () => fail('Already logout', 'no one is logged in') });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    expect(page.onLoggedOut).toHaveBeenCalledTimes(1);
  });
});
