import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/ui';
import { CURRENCIES, CURRENCY_RULES, NETWORK_FAMILY, NETWORKS, type Network } from '@/lib/invoices/currencies';
import { STEP_UP_WINDOW_SECONDS, stepUpMethods } from '@/lib/auth/step-up';
import { stepUpProofText } from '@/lib/auth/step-up-copy';
import { requirePage } from '@/lib/portal/context';
import { listWallets } from '@/lib/wallets/wallets';
import { WalletForm } from './wallet-form';

export const metadata: Metadata = { title: 'Wallets' };

const TITLES: Record<Network, string> = { ethereum: 'Ethereum', polygon: 'Polygon', base: 'Base', tron: 'Tron', bitcoin: 'Bitcoin' };
const HINTS = {
  evm: '0x followed by 40 hex characters; mixed case must carry a valid EIP-55 checksum.',
  tron: 'Base58check address starting with T (34 characters).',
  bitcoin: 'Mainnet bech32 (bc1…) or base58 (1… or 3…) address.',
} as const;

export default async function WalletsPage() {
  const { workspace, userId } = await requirePage('/wallets');
  const proof = stepUpProofText(await stepUpMethods(userId));
  const wallets = new Map((await listWallets(workspace.id)).map((w) => [w.network, w.address]));
  return (
    <>
      <PageHeader
        title="Wallets"
        description={`Live invoices are paid to the workspace's wallet for their network; without one, creating a live invoice on that network fails. Test invoices never need a wallet. Saving or removing a wallet asks you to confirm it is you (${proof}, valid ${STEP_UP_WINDOW_SECONDS / 60} minutes).`}
      />
      <Card title="Addresses per network">
        <div className="grid gap-4 lg:grid-cols-2">
          {NETWORKS.map((network) => (
            <WalletForm
              key={network}
              workspaceId={workspace.id}
              network={network}
              title={TITLES[network]}
              hint={`${HINTS[NETWORK_FAMILY[network]]} Currencies: ${CURRENCIES.filter((c) => CURRENCY_RULES[c].networks.includes(network)).join(', ')}.`}
              address={wallets.get(network) ?? null}
            />
          ))}
        </div>
      </Card>
    </>
  );
}
