// Fails when source code cites a document that does not ship with it: the team's specification or an issue
// tracker entry. Comments cite docs/… instead (docs/architecture.md, "Checks").
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const FORBIDDEN = [/\bSPEC(\.md)?\s*§/, /\bSPEC\.md\b/, /\bissue\s+#?\d+\b/i];
const files = execFileSync(
  'git',
  ['ls-files', '-co', '--exclude-standard', '*.ts', '*.tsx', '*.mjs', '*.cjs', '*.prisma', '*.sql'],
  { encoding: 'utf8' },
)
  .split('\n')
  .filter((file) => file && !file.startsWith('lib/generated/') && file !== 'scripts/check-references.mjs');

const findings = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed but deleted in the working tree
  }
  text.split('\n').forEach((line, index) => {
    if (FORBIDDEN.some((pattern) => pattern.test(line))) findings.push(`${file}:${index + 1}: ${line.trim()}`);
  });
}
if (findings.length > 0) {
  console.error(`References to documents outside the repository (cite docs/… instead):\n${findings.join('\n')}`);
  process.exit(1);
}
