import { publicUrl } from '../env';

/** The hosted payment page of an invoice (docs/hosted-page.md): a capability URL, see docs/hosted-page.md. */
export function hostedUrl(payToken: string): string {
  return `${publicUrl()}/pay/${payToken}`;
}

/** The shape the database gives a token (64 lowercase hex): anything else is a 404 without a query. */
export const PAY_TOKEN_PATTERN = /^[0-9a-f]{64}$/;
