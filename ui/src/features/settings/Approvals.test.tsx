import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalEntry } from '../../api';
import { Approvals } from './Approvals';
import { ADDRESS, RECIPIENT, TOKEN, activityEntry, mockCommands, pinStatus, renderPage, seconds, sendQuote, tick } from '../../test/harness';

const PALS = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';

function approval(over: Partial<ApprovalEntry> = {}): ApprovalEntry {
  return {
    network: 'anvil',
    account: ADDRESS,
    contract: TOKEN,
    spender: RECIPIENT,
    kind: 'allowance',
    amount: '5',
    symbol: 'DEMO',
    unlimited: false,
    blockNumber: 12,
    txHash: `0x${'cd'.repeat(32)}`,
    ...over,
  };
}

describe('Approvals', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('lists what holds, an unlimited allowance and an operator in red, with the saved name of a spender', async () => {
    mockCommands({
      getApprovals: () => [
        approval({ amount: undefined, unlimited: true, spenderName: 'Exchange' }),
        approval({ kind: 'operator', contract: PALS, amount: undefined, symbol: undefined, spender: ADDRESS }),
        approval({ amount: '12.5' }),
      ],
    });
    renderPage(<Approvals onBack={() => undefined} />);
    await tick();
    const rows = screen.getAllByTestId('approval');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getByTestId('approval-amount')).toHaveTextContent('Unlimited');
    expect(within(rows[0]).getByTestId('approval-amount')).toHaveClass('danger-text');
    expect(rows[0]).toHaveTextContent('to Exchange');
    expect(rows[1]).toHaveTextContent('All NFTs of 0xe7f1…0512');
    expect(within(rows[1]).getByTestId('approval-amount')).toHaveClass('danger-text');
    expect(within(rows[2]).getByTestId('approval-amount')).toHaveTextContent('12.5 DEMO');
    expect(within(rows[2]).getByTestId('approval-amount')).not.toHaveClass('danger-text');
  });

  it('says when nothing can spend or move the assets', async () => {
    mockCommands({ getApprovals: () => [] });
    renderPage(<Approvals onBack={() => undefined} />);
    await tick();
    expect(screen.getByTestId('approvals-empty')).toHaveTextContent('Nothing can spend or move your assets.');
  });

  it('revokes through a review and the PIN, then shows it revoking', async () => {
    const ipc = mockCommands({
      getApprovals: () => [approval({ unlimited: true, amount: undefined })],
      prepareRevoke: () => ({ quote: sendQuote({ to: TOKEN }) }),
      confirmSend: () => activityEntry(),
      getPinStatus: () => pinStatus(),
    });
    const page = renderPage(<Approvals onBack={() => undefined} />);
    await tick();
    await page.user.click(screen.getByTestId('approval-revoke'));
    await tick();
    expect(ipc.argsOf('prepareRevoke')).toStrictEqual([
      { form: { network: 'anvil', account: ADDRESS, contract: TOKEN, spender: RECIPIENT, kind: 'allowance' } },
    ]);
    expect(screen.getByTestId('revoke-summary')).toHaveTextContent('will no longer spend your DEMO');
    await page.user.type(screen.getByTestId('revoke-pin'), '135790');
    await page.user.click(screen.getByTestId('revoke-submit'));
    await tick();
    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: expect.objectContaining({ pin: '135790', acceptHighFee: false }) }]);
    expect(screen.getByTestId('approval-revoking')).toHaveTextContent('Revoking…');
    expect(screen.queryByTestId('approval-revoke')).toBeNull();
  });

  /** Revokes the one approval listed; the activity then says `status` of it. */
  async function revokeAndFollow(status: () => 'pending' | 'mined' | 'failed', listed: () => ApprovalEntry[]) {
    const ipc = mockCommands({
      getApprovals: listed,
      prepareRevoke: () => ({ quote: sendQuote({ to: TOKEN }) }),
      confirmSend: () => activityEntry(),
      getPinStatus: () => pinStatus(),
      getActivity: () => [activityEntry({ status: status() })],
    });
    const page = renderPage(<Approvals onBack={() => undefined} />);
    await tick();
    await page.user.click(screen.getByTestId('approval-revoke'));
    await tick();
    await page.user.type(screen.getByTestId('revoke-pin'), '135790');
    await page.user.click(screen.getByTestId('revoke-submit'));
    await tick();
    return ipc;
  }

  it('follows a revocation until it is mined, then reads the list again without it', async () => {
    let status: 'pending' | 'mined' = 'pending';
    let mined = false;
    const ipc = await revokeAndFollow(
      () => status,
      () => (mined ? [] : [approval()]),
    );
    await seconds(4);
    expect(ipc.count('getActivity')).toBeGreaterThanOrEqual(1);
    expect(screen.getByTestId('approval-revoking')).toBeInTheDocument();
    status = 'mined';
    mined = true;
    await seconds(4);
    expect(ipc.count('getApprovals')).toBe(2);
    expect(screen.getByTestId('approvals-empty')).toBeInTheDocument();
    // Nothing left to follow: no more reads.
    const reads = ipc.count('getActivity');
    await seconds(10);
    expect(ipc.count('getActivity')).toBe(reads);
  });

  it('says so when a revocation fails, and offers Revoke again', async () => {
    await revokeAndFollow(
      () => 'failed',
      () => [approval()],
    );
    await seconds(4);
    expect(screen.queryByTestId('approval-revoking')).toBeNull();
    expect(screen.getByTestId('approval-revoke-failed')).toHaveTextContent('The revocation failed: this approval still holds.');
    expect(screen.getByTestId('approval-revoke')).toBeEnabled();
  });

  it('follows two revocations at once, each to its end', async () => {
    const first = approval();
    const second = approval({ kind: 'operator', contract: PALS, amount: undefined, symbol: undefined });
    const mined = new Set<string>();
    const hashOf = (a: ApprovalEntry) => (a.kind === 'operator' ? `0x${'02'.repeat(32)}` : `0x${'01'.repeat(32)}`);
    let revoking: ApprovalEntry = first;
    mockCommands({
      getApprovals: () => [first, second].filter((a) => !mined.has(hashOf(a))),
      prepareRevoke: () => ({ quote: sendQuote({ to: TOKEN }) }),
      confirmSend: () => activityEntry({ txHash: hashOf(revoking) }),
      getPinStatus: () => pinStatus(),
      getActivity: () => [first, second].map((a) => activityEntry({ txHash: hashOf(a), status: mined.has(hashOf(a)) ? 'mined' : 'pending' })),
    });
    const page = renderPage(<Approvals onBack={() => undefined} />);
    await tick();
    for (const which of [first, second]) {
      revoking = which;
      const row = screen.getAllByTestId('approval').find((r) => r.dataset.kind === which.kind)!;
      await page.user.click(within(row).getByTestId('approval-revoke'));
      await tick();
      await page.user.type(screen.getByTestId('revoke-pin'), '135790');
      await page.user.click(screen.getByTestId('revoke-submit'));
      await tick();
    }
    expect(screen.getAllByTestId('approval-revoking')).toHaveLength(2);
    mined.add(hashOf(first));
    await seconds(4);
    expect(screen.getAllByTestId('approval')).toHaveLength(1);
    expect(screen.getByTestId('approval-revoking')).toBeInTheDocument();
    mined.add(hashOf(second));
    await seconds(4);
    expect(screen.getByTestId('approvals-empty')).toBeInTheDocument();
  });
});
