/** The package's version (kept equal to package.json's by tests/sdk/package.test.ts). */
export const VERSION = '0.1.0';
