import type { Network } from '../../invoices/currencies';

/**
 * The message the wallet's key signs to claim it for this workspace (no dependencies: the portal's wallet form
 * shows it). It names the workspace, so a signature given for one workspace proves nothing for another.
 */
export function walletClaimMessage(workspaceId: string, network: Network, address: string): string {
  return `I control ${address} and want it as the ${network} payout wallet of workspace ${workspaceId}.`;
}
