/**
 * `npm test` runs the browser tests last; this check runs first, so a machine without a browser hears what
 * to install before the long vitest run, instead of a failure deep inside Playwright.
 *
 * A browser is found at CHROMIUM_PATH (default /usr/bin/chromium, Debian's package) or in Playwright's own
 * cache (`npx playwright install chromium`, on machines that can download it). When neither exists and we run
 * as root on Debian/Ubuntu with apt-get available, it installs Debian's Chromium (≈ 45 s); otherwise it stops
 * with the commands to run. SKIP_BROWSER_CHECK=1 skips the check.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function playwrightChromium(): string | null {
  try {
    const script = "process.stdout.write(require('@playwright/test').chromium.executablePath())";
    const found = execFileSync(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return found && existsSync(found) ? found : null;
  } catch {
    return null;
  }
}

function main(): number {
  if (process.env.SKIP_BROWSER_CHECK === '1') return 0;
  const configured = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(configured) || playwrightChromium()) return 0;

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.error(
      "[npm test] No Chromium found for the browser tests: installing Debian's chromium (apt-get install -y chromium)…",
    );
    const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    const install =
      update.status === 0 ? spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit' }) : update;
    if (install.status === 0 && existsSync('/usr/bin/chromium')) return 0;
  }
  console.error(`
[npm test] The browser tests (Playwright, e2e/) need Chromium, and none was found.
  Looked at: ${configured}${process.env.CHROMIUM_PATH ? ' (CHROMIUM_PATH)' : ''} and Playwright's own browser cache.
  Install one of:
    sudo apt-get install -y chromium          # Debian/Ubuntu (works offline from a Debian mirror)
    npx playwright install chromium           # Playwright's build (needs to download from the internet)
  or point CHROMIUM_PATH at an existing Chromium/Chrome binary.
  To run only the API tests: npx vitest run   (or SKIP_BROWSER_CHECK=1 to skip this check)
`);
  return 1;
}

process.exit(main());
