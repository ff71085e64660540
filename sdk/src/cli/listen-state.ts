import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What `listen` keeps between runs, one small JSON file per workspace and environment: its signing secret (the
 * same on every run, so a receiver configured once keeps verifying) and where it stopped (the newest forwarded
 * event's time, plus the ids forwarded in the look-back window before it).
 */
export interface ListenState {
  version: 1;
  baseUrl: string;
  workspaceId: string;
  environment: string;
  secret: string;
  /** created_at of the newest event forwarded (or seen at the first start); null: none yet. */
  cursor: string | null;
  /** Events already handled whose created_at is within the look-back window of `cursor`. */
  seen: Array<{ id: string; created_at: string }>;
}

export function defaultStateFile(workspaceId: string, environment: string): string {
  const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(configHome, 'crypto-invoicing', `listen-${workspaceId}-${environment}.json`);
}

export function readState(file: string): ListenState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const state = JSON.parse(text) as ListenState;
  if (state.version !== 1 || typeof state.secret !== 'string' || !Array.isArray(state.seen)) {
    throw new Error(`${file} is not a listen state file; remove it to start afresh`);
  }
  return state;
}

/** Written to a temporary file then renamed: a crash leaves the old state or the new one, never half of one. */
export function writeState(file: string, state: ListenState): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
