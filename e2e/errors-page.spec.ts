import { expect, test } from '@playwright/test';

// The page every problem `type` links to: each code is an anchor, readable at desktop and phone widths.
test.describe('errors page (/docs/errors)', () => {
  for (const width of [1280, 375]) {
    test(`renders every code as an anchor at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/docs/errors#missing_scope');
      await expect(page.getByRole('heading', { name: 'API errors', level: 1 })).toBeVisible();
      const entry = page.locator('#missing_scope');
      await expect(entry).toBeInViewport();
      await expect(entry).toContainText('403');
      await expect(entry).toContainText('What to do');
      // Nothing overflows sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({
        path: `e2e/screenshots/errors-page-${width}.png`,
        fullPage: width === 375 ? false : true,
      });
    });
  }

  test('keyboard: the JSON link is reachable and focus is visible', async ({ page }) => {
    await page.goto('/docs/errors');
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    await expect(focused).toHaveAttribute('href', '/docs/errors.json');
  });
});
