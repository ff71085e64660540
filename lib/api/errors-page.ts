import { API_ERROR_CODES, ERROR_CATALOGUE, type ErrorCode } from '../errors';
import { problemTypeUri } from './problem';

export interface ErrorDocumentation {
  code: ErrorCode;
  type: string;
  status: number;
  title: string;
  meaning: string;
  action: string;
}

/**
 * What the errors page (/docs/errors, and /docs/errors.json) lists: every code a /v1 response can carry, straight
 * from the catalogue, each with the absolute `type` URI its problems link to.
 */
export function documentedErrors(): ErrorDocumentation[] {
  return API_ERROR_CODES.map((code) => {
    const { status, title, meaning, action } = ERROR_CATALOGUE[code];
    return { code, type: problemTypeUri(code), status, title, meaning, action };
  });
}
