import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * No serious or critical axe violation on the page as it settles. Every page has a title, so the check first
 * waits for one (a page that never gets one still fails here). CI once reported the billing page without a
 * title right after a plan switch; not reproduced locally, even with the CPU slowed 8×. The likeliest moment is
 * the refresh that follows the action's status message, which re-renders the page and its metadata.
 */
export async function expectNoSeriousAxeViolations(page: Page, what: string): Promise<void> {
  await expect(page, `title of ${what}`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${what}`,
  ).toEqual([]);
}
