import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazyPage';

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

describe('lazyPage', () => {
  it('shows an empty busy page while its script loads, then the page with its props, and at once the next time', async () => {
    let arrive: (module: { Greeting: typeof Greeting }) => void = () => undefined;
    let loads = 0;
    const Page = lazyPage(
      () => {
        loads += 1;
        return new Promise<{ Greeting: typeof Greeting }>((done) => (arrive = done));
      },
      (m) => m.Greeting,
    );

    const first = render(<Page name="Ada" />);
    expect(first.container.querySelector('main[aria-busy="true"]')).toBeInTheDocument();
    expect(screen.queryByText('Hello, Ada')).not.toBeInTheDocument();

    arrive({ Greeting });
    expect(await screen.findByText('Hello, Ada')).toBeInTheDocument();
    expect(first.container.querySelector('main[aria-busy="true"]')).not.toBeInTheDocument();
    first.unmount();

    // Opened again: no wait, no second load.
    render(<Page name="Grace" />);
    expect(screen.getByText('Hello, Grace')).toBeInTheDocument();
    expect(loads).toBe(1);
  });
});

describe('lazyPage preload', () => {
  it('loads the script before the page is shown, so it shows at once, and only once', async () => {
    let loads = 0;
    const Page = lazyPage(
      () => {
        loads += 1;
        return Promise.resolve({ Greeting });
      },
      (m) => m.Greeting,
    );
    await Page.preload();
    await Page.preload();
    render(<Page name="Ada" />);
    expect(screen.getByText('Hello, Ada')).toBeInTheDocument();
    expect(loads).toBe(1);
  });
});

describe('lazyPage after a failed load', () => {
  it('tries again the next time it is asked, rather than keeping the failure', async () => {
    let loads = 0;
    const Page = lazyPage(
      () => {
        loads += 1;
        return loads === 1 ? Promise.reject(new Error('not read')) : Promise.resolve({ Greeting });
      },
      (m) => m.Greeting,
    );
    await expect(Page.preload()).rejects.toThrow('not read');
    await Page.preload();
    render(<Page name="Ada" />);
    expect(screen.getByText('Hello, Ada')).toBeInTheDocument();
    expect(loads).toBe(2);
  });
});
