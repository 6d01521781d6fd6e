import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider, fill, useI18n, type TextId } from './index';
import en from './locales/en.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';

describe('fill', () => {
  it('fills every occurrence of a placeholder, not only the first', () => {
    expect(fill('{name} and {name}, then {name}', { name: 'Ada' })).toBe('Ada and Ada, then Ada');
    expect(fill('{a}{b}{a}', { a: 1, b: 2 })).toBe('121');
  });

  it('puts a value in as it is: no $ patterns, no placeholders read inside it', () => {
    expect(fill('Something went wrong: {message}', { message: "cost $& and $' more" })).toBe(
      "Something went wrong: cost $& and $' more",
    );
    expect(fill('{a} {b}', { a: '{b}', b: 'x' })).toBe('{b} x');
  });

  it('leaves a placeholder it has no value for, and text without placeholders, as they are', () => {
    expect(fill('Send again in {seconds} s', {})).toBe('Send again in {seconds} s');
    expect(fill('Log in')).toBe('Log in');
  });
});

describe('t', () => {
  it('fills the placeholders of a text from the locale file', () => {
    function Text({ id, vars }: { id: TextId; vars: Record<string, string | number> }) {
      return <p>{useI18n().t(id, vars)}</p>;
    }
    render(
      <I18nProvider>
        <Text id="check.body" vars={{ email: 'ada@example.com' }} />
      </I18nProvider>,
    );
    expect(screen.getByText('We sent a link to ada@example.com. Open it to verify your address, then log in.')).toBeInTheDocument();
  });
});

describe('locales', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it('have the same texts in every language, each with the same placeholders as in English', () => {
    const english: Record<string, string> = en;
    for (const catalog of [ja, ko] as Record<string, string>[]) {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
      for (const [id, text] of Object.entries(english)) {
        expect(placeholders(catalog[id]), id).toEqual(placeholders(text));
        expect(catalog[id].trim(), id).not.toBe('');
      }
    }
  });
});

describe('a language chosen for the first time', () => {
  it('is loaded, and the texts switch once it is here, English until then', async () => {
    // A fresh copy of the module: only English is loaded in it.
    vi.resetModules();
    const fresh = await import('./index');
    function Switch() {
      const { t, setLanguage } = fresh.useI18n();
      return <button onClick={() => setLanguage('ja')}>{t('settings.logout')}</button>;
    }
    render(
      <fresh.I18nProvider>
        <Switch />
      </fresh.I18nProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: en['settings.logout'] }));
    expect(localStorage.getItem('satchel.language')).toBe('ja');
    expect(await screen.findByRole('button', { name: ja['settings.logout'] })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('ja');
  });
});
