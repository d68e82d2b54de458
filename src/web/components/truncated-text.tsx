import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Group, Text, type TextProps } from '@mantine/core';
import { HoverHint } from './hover-hint';

interface TruncatedTextProps extends Omit<TextProps, 'truncate' | 'children'> {
  children: string;
  /** The widest the text may be before it is cut with an ellipsis. */
  maxWidth?: number | string;
}

/** Whether a text is cut, told to each text's own callback. */
const cutListeners = new WeakMap<Element, (cut: boolean) => void>();
let cutObserver: ResizeObserver | undefined;

/**
 * Watches whether an element's text is cut, with one ResizeObserver for every text of the page: its
 * callback runs once the browser has laid the page out, so reading the widths there costs nothing.
 * (Read in a layout effect, each table render forced a layout of the whole page inside its
 * commit, before the browser's own.) Observing reports the current size at
 * once, so a text that changed is measured again by observing it anew.
 */
function watchCut(el: Element, onCut: (cut: boolean) => void): () => void {
  cutObserver ??= new ResizeObserver((entries) => {
    for (const { target } of entries) cutListeners.get(target)?.(target.scrollWidth > target.clientWidth + 1);
  });
  cutListeners.set(el, onCut);
  cutObserver.observe(el);
  return () => {
    cutObserver?.unobserve(el);
    cutListeners.delete(el);
  };
}

/**
 * A value of any length in a table cell: cut with an ellipsis at `maxWidth`, the whole text in a
 * tooltip on hover and, when it is cut, on keyboard focus too (the cell then takes focus).
 */
export function TruncatedText({ children, maxWidth = 240, size = 'sm', ...textProps }: TruncatedTextProps) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [cut, setCut] = useState(false);
  useEffect(() => (ref.current ? watchCut(ref.current, setCut) : undefined), [children, maxWidth]);
  return (
    <HoverHint label={children} disabled={!cut} multiline maw={480} focus>
      <Text ref={ref} size={size} truncate="end" maw={maxWidth} tabIndex={cut ? 0 : undefined} {...textProps}>
        {children}
      </Text>
    </HoverHint>
  );
}

/** A cut value and, on the same line, what goes with it (a badge, a button), as a name cell shows them. */
export function TruncatedTextWith({ beside, ...props }: TruncatedTextProps & { beside: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <TruncatedText {...props} />
      {beside}
    </Group>
  );
}
