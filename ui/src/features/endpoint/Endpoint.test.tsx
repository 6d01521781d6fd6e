import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EndpointStatus } from '../../api';
import { EndpointNotice } from './EndpointNotice';
import { EndpointSettings } from './EndpointSettings';
import { mockCommands, renderPage, tick } from '../../test/harness';

const taken: EndpointStatus = { port: 1248, serving: false, problem: 'port 1248 is taken by another program' };

/** watchEndpoint answers through its channel, as the app does. */
function watching(status: EndpointStatus) {
  return (args: Record<string, unknown>) => {
    (args.onEvent as { onmessage?: (s: EndpointStatus) => void }).onmessage?.(status);
    return null;
  };
}

describe('the endpoint', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('says above any page that dapps cannot reach Satchel when its port is taken', async () => {
    mockCommands({ watchEndpoint: watching(taken) });
    renderPage(<EndpointNotice />);
    await tick();
    expect(screen.getByTestId('endpoint-off')).toHaveTextContent('port 1248 is taken by another program');
    expect(screen.getByTestId('endpoint-off')).toHaveTextContent('Choose another port in Settings');
  });

  it('moves to another port from Settings, and says why when that one is taken too', async () => {
    let refuse = true;
    const ipc = mockCommands({
      watchEndpoint: watching(taken),
      moveEndpoint: (args) => {
        if (refuse) throw { code: 'InvalidParameters', message: `port ${String(args.port)} is taken by another program` };
        return { port: args.port, serving: true };
      },
    });
    const page = renderPage(<EndpointSettings />);
    await tick();
    expect(screen.getByTestId('endpoint-status')).toHaveTextContent('Dapps cannot reach Satchel');
    await page.user.type(screen.getByTestId('endpoint-port'), '18250');
    await page.user.click(screen.getByTestId('endpoint-move'));
    await tick();
    expect(screen.getByTestId('endpoint-error')).toHaveTextContent('port 18250 is taken');
    refuse = false;
    await page.user.clear(screen.getByTestId('endpoint-port'));
    await page.user.type(screen.getByTestId('endpoint-port'), '18251');
    await page.user.click(screen.getByTestId('endpoint-move'));
    await tick();
    expect(ipc.argsOf('moveEndpoint')).toStrictEqual([{ port: 18250 }, { port: 18251 }]);
    expect(screen.getByTestId('endpoint-status')).toHaveTextContent('127.0.0.1:18251');
  });
});
