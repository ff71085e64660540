'use client';

import { buttonClass } from '@/components/ui';

/** "Print receipt": the browser's print dialog (save as PDF included); the page's print styles hide the controls. */
export function PrintButton() {
  return (
    <button type="button" className={`${buttonClass.secondary} print:hidden`} onClick={() => window.print()}>
      Print receipt
    </button>
  );
}
