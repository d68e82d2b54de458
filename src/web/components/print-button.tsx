import { useState } from 'react';
import { flushSync } from 'react-dom';
import { Button, type ButtonProps } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';

interface PrintButtonProps extends Omit<ButtonProps, 'onClick' | 'children' | 'loading'> {
  /** The button's text: 'Print statement', 'Print report'… */
  label?: string;
  /**
   * Loads what the paper needs before the dialog opens (e.g. every line of the period, not just
   * the page on screen); the button spins meanwhile, and a rejection prints nothing.
   */
  prepare?: () => Promise<void>;
  /** Runs, and is rendered, just before the print dialog opens: e.g. stamp the printed-at time. */
  onBeforePrint?: () => void;
}

/**
 * Prints the page with the print stylesheet (global.css `@media print`): the app shell and every
 * `.no-print` element (filters, buttons, pagers) are left out, `.print-only` elements (a
 * statement's heading) appear. The button itself never prints.
 */
export function PrintButton({ label = 'Print', prepare, onBeforePrint, className, ...props }: PrintButtonProps) {
  const [busy, setBusy] = useState(false);
  const print = async () => {
    if (prepare) {
      setBusy(true);
      try {
        await prepare();
      } catch {
        return;
      } finally {
        setBusy(false);
      }
    }
    if (onBeforePrint) flushSync(onBeforePrint);
    window.print();
  };
  return (
    <Button
      variant="default"
      leftSection={<IconPrinter size={16} aria-hidden />}
      onClick={() => void print()}
      loading={busy}
      className={['no-print', className].filter(Boolean).join(' ')}
      {...props}
    >
      {label}
    </Button>
  );
}
