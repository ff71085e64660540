import { newId } from '../ids';

export function newRequestId(): string {
  return newId('request');
}
