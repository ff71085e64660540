import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/ui';
import { CURRENCIES, CURRENCY_RULES, NETWORK_FAMILY, NETWORKS, type Network } from '@/lib/invoices/currencies';
import { STEP_UP_WINDOW_SECONDS, stepUpMethods } from '@/lib/auth/step-up';
import { stepUpProofText } from '@/lib/auth/step-up-copy';
import { requirePage } from '@/lib/portal/context';
import { WalletForm } from './wallet-form';
import { BitcoinWalletForm } from './bitcoin-wallet-form';
import { bitcoinChain, type BitcoinChain } from '@/lib/chain/bitcoin/chain';
import { bitcoinGapStatus, GAP_LIMIT } from '@/lib/chain/bitcoin/addresses';
import { bitcoinPreview, listWallets } from '@/lib/wallets/wallets';

export const metadata: Metadata = { title: 'Wallets' };

const TITLES: Record<Network, string> = {
  ethereum: 'Ethereum',
  polygon: 'Polygon',
  base: 'Base',
  tron: 'Tron',
  bitcoin: 'Bitcoin',
};
const HINTS = {
  evm: '0x followed by 40 hex characters; mixed case must carry a valid EIP-55 checksum.',
  tron: 'Base58check address starting with T (34 characters).',
  bitcoin: '',
} as const;

const BITCOIN_KEYS: Record<BitcoinChain, string> = {
  main: 'zpub… or xpub…',
  test: 'vpub… or tpub…',
  regtest: 'vpub… or tpub…',
};

function bitcoinHint(chain: BitcoinChain): string {
  return (
    `Your wallet's account extended public key (${BITCOIN_KEYS[chain]}, Bitcoin ${chain === 'main' ? 'mainnet' : chain}) or a wpkh() descriptor. ` +
    'Every invoice gets a fresh native segwit address (m/0/i) derived from it; a single address is refused, since invoices could not be told apart. ' +
    'The key is never shown to payers. Currencies: BTC.'
  );
}

function gapWarning(unpaidInARow: number): string | null {
  if (unpaidInARow < GAP_LIMIT) return null;
  return (
    `The last ${unpaidInARow > GAP_LIMIT ? `${GAP_LIMIT}+` : GAP_LIMIT} invoice addresses in a row have received no payment. Wallets stop looking after ${GAP_LIMIT} unused ` +
    'addresses (the gap limit), so payments to newer invoices may not show in your wallet until you raise it: in Electrum, ' +
    'Wallet › Information or the console (wallet.change_gap_limit(100)); in Sparrow, Settings › Advanced › Gap limit; in BlueWallet and ' +
    'Bitcoin Core (descriptor wallets), rescan with a larger range. Funds are safe either way: they are on your key.'
  );
}

export default async function WalletsPage() {
  const { workspace, userId } = await requirePage('/wallets');
  const proof = stepUpProofText(await stepUpMethods(userId));
  const wallets = new Map((await listWallets(workspace.id)).map((w) => [w.network, w.address]));
  const chain = bitcoinChain();
  const bitcoinWallet = wallets.get('bitcoin') ?? null;
  let savedAddresses: string[] = [];
  try {
    savedAddresses = bitcoinWallet ? bitcoinPreview(bitcoinWallet).map((a) => a.address) : [];
  } catch {
    // A key saved under another BITCOIN_CHAIN: the form shows it, invoice creation says why it cannot be used.
  }
  const gap = await bitcoinGapStatus(workspace.id);
  return (
    <>
      <PageHeader
        title="Wallets"
        description={`Live invoices are paid to the workspace's wallet for their network; without one, creating a live invoice on that network fails. Test invoices never need a wallet. Saving or removing a wallet asks you to confirm it is you (${proof}, valid ${STEP_UP_WINDOW_SECONDS / 60} minutes).`}
      />
      <Card title="Addresses per network">
        <div className="grid gap-4 lg:grid-cols-2">
          {NETWORKS.filter((network) => network !== 'bitcoin').map((network) => (
            <WalletForm
              key={network}
              workspaceId={workspace.id}
              network={network}
              title={TITLES[network]}
              hint={`${HINTS[NETWORK_FAMILY[network]]} Currencies: ${CURRENCIES.filter((c) => CURRENCY_RULES[c].networks.includes(network)).join(', ')}.`}
              address={wallets.get(network) ?? null}
            />
          ))}
          <BitcoinWalletForm
            hint={bitcoinHint(chain)}
            wallet={bitcoinWallet}
            addresses={savedAddresses}
            gapWarning={gapWarning(gap.unpaidInARow)}
          />
        </div>
      </Card>
    </>
  );
}
