import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import QRCode from 'qrcode';
import { CopyButton } from '@/components/copy-button';
import { buttonClass } from '@/components/ui';
import { LocalTime } from '@/components/local-time';
import { formatFiat } from '@/lib/rates/format';
import { hostedInvoice, type HostedInvoice, type HostedReceipt } from '@/lib/invoices/hosted';
import { PayStatus } from './pay-status';
import { PrintButton } from './print-button';

/** Never prerendered or cached: the page reads the invoice at each request (and carries the CSP nonce). */
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { absolute: 'Payment' },
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

/** The options the QR is drawn with (the e2e test re-renders the payment_uri with them and compares). */
const QR_OPTIONS = { type: 'svg', errorCorrectionLevel: 'M', margin: 2 } as const;

/** The explorer's name for the link text: its host without "www.". */
const explorerName = (url: string) => new URL(url).host.replace(/^www\./, '');

/** The payer's receipt once the invoice is paid (docs/hosted-page.md "Receipt"): printable, every line copyable by hand. */
function Receipt({ invoice, receipt }: { invoice: HostedInvoice; receipt: HostedReceipt }) {
  const { transaction } = receipt;
  return (
    <section aria-labelledby="receipt-title" className="mt-5" data-testid="receipt">
      <h2 id="receipt-title" className="text-lg font-semibold">
        Receipt
      </h2>
      <dl className="mt-2 divide-y divide-slate-100 text-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <dt className="text-slate-600">Amount paid</dt>
          <dd className="font-semibold" data-testid="receipt-amount">
            {receipt.amountPaid} {invoice.currency}
            {invoice.price ? (
              <span className="font-normal text-slate-700">
                {' '}
                ({formatFiat(invoice.price.amount, invoice.price.currency)})
              </span>
            ) : null}
          </dd>
        </div>
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <dt className="text-slate-600">Network</dt>
          <dd>{invoice.networkName}</dd>
        </div>
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <dt className="text-slate-600">Paid</dt>
          <dd data-testid="receipt-paid-at">
            <LocalTime value={receipt.paidAt} />
          </dd>
        </div>
        <div className="py-2">
          <dt className="text-slate-600">Transaction</dt>
          <dd className="mt-1" data-testid="receipt-transaction">
            {!transaction ? (
              '—'
            ) : transaction.simulated ? (
              <span className="text-slate-700">Simulated payment (test invoice): nothing was sent on chain.</span>
            ) : (
              <>
                <code className="block break-all font-mono text-xs">{transaction.hash}</code>
                {transaction.explorerUrl ? (
                  <a
                    href={transaction.explorerUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="mt-1 inline-block text-indigo-700 underline print:hidden"
                  >
                    View on {explorerName(transaction.explorerUrl)}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                ) : null}
              </>
            )}
          </dd>
        </div>
        {receipt.orderId ? (
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
            <dt className="text-slate-600">Order reference</dt>
            <dd className="break-all font-mono text-xs" data-testid="receipt-order">
              {receipt.orderId}
            </dd>
          </div>
        ) : null}
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <dt className="text-slate-600">Invoice</dt>
          <dd className="break-all font-mono text-xs" data-testid="receipt-invoice">
            {receipt.invoiceId}
          </dd>
        </div>
      </dl>
      <div className="mt-3">
        <PrintButton />
      </div>
    </section>
  );
}

/**
 * The hosted payment page (docs/hosted-page.md), public: the token is the capability. Shows only this invoice's payment
 * fields and the workspace's name; the status part (pay-status.tsx) keeps itself live.
 */
export default async function PayPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invoice = await hostedInvoice(token);
  if (!invoice) notFound();
  const test = invoice.environment === 'test';
  const bitcoin = invoice.network === 'bitcoin';
  // Closed invoices send no payment details at all (not even inside the client component's props).
  const payable = invoice.status === 'pending' || invoice.status === 'processing';
  // Tron has no payment-request standard: TronLink and Trust Wallet scan a bare address (docs/settlement.md).
  const tron = invoice.network === 'tron';
  const qrText = tron ? invoice.payAddress : invoice.paymentUri;
  const qr = payable ? await QRCode.toString(qrText, QR_OPTIONS) : '';
  return (
    <main className="mx-auto w-full max-w-lg px-4 py-8">
      {test ? (
        <p
          className="mb-4 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900"
          data-testid="test-banner"
        >
          Test invoice — do not send funds. Nothing sent to this address will be credited.
        </p>
      ) : null}
      <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <p className="text-sm text-slate-600" data-testid="workspace-name">
          {invoice.workspaceName}
        </p>
        <h1 className="mt-1 text-2xl font-bold" data-testid="amount">
          {invoice.amount} {invoice.currency}
        </h1>
        {invoice.price ? (
          <p className="mt-1 text-slate-800" data-testid="price">
            <span className="font-semibold">{formatFiat(invoice.price.amount, invoice.price.currency)}</span> ={' '}
            {invoice.amount} {invoice.currency}
            {payable ? (
              <>
                , rate locked until <LocalTime value={invoice.expires_at} />
              </>
            ) : null}
          </p>
        ) : null}
        {invoice.description ? (
          <p className="mt-1 break-words text-slate-700" data-testid="description">
            {invoice.description}
          </p>
        ) : null}
        <p className="mt-1 text-sm text-slate-700">
          on <span data-testid="network">{invoice.networkName}</span>
        </p>
        <PayStatus
          token={token}
          test={test}
          initial={{
            status: invoice.status,
            confirmations: invoice.confirmations,
            confirmations_required: invoice.confirmations_required,
            expires_at: invoice.expires_at,
            redirect_url: invoice.redirect_url,
            currency: invoice.currency,
            amount_received: invoice.amount_received,
            amount_due: invoice.amount_due,
          }}
        >
          {payable ? (
            <section aria-label="Payment details" className="mt-5 space-y-4" data-testid="payment-details">
              <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-800" data-testid="warning">
                {bitcoin
                  ? "Send only BTC on the Bitcoin network, to this invoice's own address below: any other asset or network is lost. Several payments add up."
                  : `Send only ${invoice.currency} on ${invoice.networkName}, exactly the amount below: any other asset or network is lost.`}
              </p>
              <div>
                <h2 className="text-sm font-semibold text-slate-700">
                  {invoice.amount_due !== null ? 'Amount still due' : 'Exact amount to send'}
                </h2>
                <div className="mt-1 flex flex-wrap items-center gap-2">
                  <code className="break-all font-mono text-lg" data-testid="pay-amount">
                    {invoice.payAmount}
                  </code>
                  <span className="font-mono text-lg">{invoice.currency}</span>
                  <CopyButton value={invoice.payAmount} label="Copy amount" />
                </div>
              </div>
              <div>
                <h2 className="text-sm font-semibold text-slate-700">To this address</h2>
                <div className="mt-1 flex flex-wrap items-center gap-2">
                  <code className="min-w-0 break-all font-mono text-sm" data-testid="pay-address">
                    {invoice.payAddress}
                  </code>
                  <CopyButton value={invoice.payAddress} label="Copy address" />
                </div>
              </div>
              <div
                role="img"
                aria-label={
                  tron
                    ? `QR code of the address ${invoice.payAddress}`
                    : `QR code of the payment request: ${invoice.payAmount} ${invoice.currency} to ${invoice.payAddress}`
                }
                className="mx-auto w-56 max-w-full bg-white"
                data-testid="qr"
                data-payment-uri={invoice.paymentUri}
                data-qr-text={qrText}
                // The SVG is produced by the qrcode library from our own payment_uri: paths only, no script or text.
                dangerouslySetInnerHTML={{ __html: qr }}
              />
              {tron ? null : (
                // EIP-681 / BIP-21: a wallet app on the payer's phone opens with address and amount filled in.
                <a href={invoice.paymentUri} className={`${buttonClass.primary} w-full`} data-testid="open-in-wallet">
                  Open in wallet
                </a>
              )}
              {tron ? (
                <p className="text-sm text-slate-700" data-testid="tron-note">
                  The QR code holds the address only: Tron wallets (TronLink, Trust Wallet) do not read an amount from
                  it. Choose USDT (TRC-20) in your wallet, scan or paste the address, then copy the exact amount above.
                  The transfer needs energy or some TRX for its fee.
                </p>
              ) : null}
            </section>
          ) : null}
        </PayStatus>
        {invoice.receipt ? <Receipt invoice={invoice} receipt={invoice.receipt} /> : null}
      </div>
    </main>
  );
}
