import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdditionalApp, type AppInstance } from '../setup/app';

/**
 * The served OpenAPI document under a security linter: Spectral with spectral:oas and the OWASP ruleset, configured
 * by the committed .spectral.yaml (rules that do not apply are disabled there, each with its reason). 0 errors.
 * The app runs with an https PUBLIC_URL, as a deployment does: the document's `servers` come from it.
 */
const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SPECTRAL = path.join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');
const PUBLIC_URL = 'https://api.example.com';

interface Finding {
  code: string;
  severity: number; // 0 error, 1 warning, 2 info, 3 hint
  path: string[];
  message: string;
}

describe('OpenAPI lint (Spectral: spectral:oas + OWASP)', () => {
  let instance: AppInstance;
  beforeAll(async () => {
    instance = await startAdditionalApp({ env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await instance?.stop();
  });

  it('reports 0 errors on the served document', async () => {
    const document = await (await fetch(`${instance.baseUrl}/v1/openapi.json`)).json();
    expect(document.servers[0].url).toBe(PUBLIC_URL);
    const dir = await mkdtemp(path.join(tmpdir(), 'spectral-'));
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));

    let stdout: string;
    try {
      ({ stdout } = await exec(
        process.execPath,
        [SPECTRAL, 'lint', file, '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
        { cwd: ROOT },
      ));
    } catch (error) {
      // Spectral exits 1 when it finds errors; its JSON report is still on stdout.
      stdout = String((error as { stdout?: string }).stdout ?? '');
      if (!stdout.trim().startsWith('[')) throw error;
    }
    const findings = JSON.parse(stdout) as Finding[];
    const errors = findings.filter((finding) => finding.severity === 0);
    const warnings = findings.filter((finding) => finding.severity === 1);
    const byRule = Object.fromEntries(
      [...new Set(warnings.map((finding) => finding.code))].map((code) => [
        code,
        warnings.filter((finding) => finding.code === code).length,
      ]),
    );
    console.log(`spectral: ${errors.length} errors, ${warnings.length} warnings ${JSON.stringify(byRule)}`);
    expect(errors.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`)).toEqual([]);
  }, 120_000);
});
