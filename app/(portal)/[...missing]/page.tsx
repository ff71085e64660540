import { notFound } from 'next/navigation';

/** Any unknown portal address: the portal's own 404 (not-found.tsx beside the layout), with its navigation. */
export default function MissingPage(): never {
  notFound();
}
